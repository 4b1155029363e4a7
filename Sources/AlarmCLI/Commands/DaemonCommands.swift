// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmProtocol
import AlarmViewModels
import Glibc

/// Commands about the daemon as a whole: next, status, watch, history,
/// sounds, export, import.
enum DaemonCommands {
    static let all: [Command] = [next, status, sync, watch, history, sounds, export, importDocument]

    private static let socket = Option.socket
    private static let json = Option.json
    private static let count = Option("count", "N", .number, N_("how many, 1–1000 (default 10)"))
    /// The firings `next` shows at most, as `--count` or a number alone.
    private static let counts = 1...1000

    static let next = Command(
        spec: CommandSpec(
            name: "next",
            summary: N_("Show the next firings of all alarms and reminders."),
            details: N_("With ID, when that alarm or reminder next rings, and how long until then. A number alone is --count: next 3."),
            positionals: [Positional("ID", .itemID, optional: true)],
            options: [count, json, socket],
            alternatives: [Alternatives(positional: "ID", count)],
            examples: ["alarmctl next", "alarmctl next 3", "alarmctl next work"]
        ),
        run: { arguments, context throws(CLIError) in
            var count = try arguments.integer(Self.count, in: Self.counts)
            let daemon = DaemonConnection(arguments, context)
            var id = arguments.positionals.first
            // `next 3`, as `head -3`: three firings. No id's prefix is that short (four hex digits at least).
            if let number = id, (1...3).contains(number.count), number.allSatisfy({ $0.isASCII && $0.isNumber }), count == nil {
                guard let value = Int(number), value >= 1 else {
                    throw .usage(Lf("--%1$s must be %2$s–%3$s, got %4$s", Self.count.name, Self.counts.lowerBound, Self.counts.upperBound, number))
                }
                (count, id) = (value, nil)
            }
            if let id {
                if count != nil { throw .usage(L("next: give an ID or --count, not both")) }
                let format = ItemFormat(context)
                // An alarm, else a reminder; an alarm's other errors (a name that fits several) are said.
                switch try daemon.attempt(GetAlarm.self, .init(id: id)) {
                case .success(let answer):
                    if arguments.flag(json) { return context.emitJSON(answer.object) }
                    return context.emit(format.alarmSummary(AlarmView(try answer.read().alarm)))
                case .failure(.notFound):
                    break
                case .failure(let error):
                    throw error
                }
                let answer = try daemon.call(GetReminder.self, .init(id: id))
                if arguments.flag(json) { return context.emitJSON(answer.object) }
                return context.emit(format.reminderComing(ReminderView(try answer.read().reminder)))
            }
            let answer = try daemon.call(Upcoming.self, .init(count: count))
            if arguments.flag(json) { return context.emitJSON(answer.object) }
            context.standardOutput(ItemFormat(context).firingLines(try answer.read().firings))
        }
    )

    private static let since = Option("since", "WHEN", .instant, N_("only from WHEN on: 2026-12-01, yesterday, fri (the last Friday), 2026-12-01 08:00"))
    // The kinds written out, so the text can be translated whole; a test holds it to History.kindNames.
    static let kind = Option("kind", "KINDS", .choice(History.kindNames),
                             N_("only these kinds, comma-separated: fired, snoozed, dismissed, timed-out, skipped, missed, completed, escalated"))
    private static let limit = Option("limit", "N", .number, N_("at most N events, 1–1000 (default 50)"))

    static let history = Command(
        spec: CommandSpec(
            name: "history",
            summary: N_("Show when alarms and reminders rang, were snoozed, dismissed, timed out, skipped or missed."),
            details: N_("""
                Newest first, from the history alarmd keeps. ID narrows it to one item (a removed item's
                history is found by its full id); its title is shown while the item exists.
                """),
            positionals: [Positional("ID", .itemID, optional: true)],
            options: [since, kind, limit, json, socket],
            examples: ["alarmctl history", "alarmctl history 1a2b --kind fired,missed", "alarmctl history --since 2026-12-01 --json"]
        ),
        run: { arguments, context throws(CLIError) in
            let sinceText = try arguments.value(since).map { text throws(CLIError) in
                WireTime.string(try WhenParser.instant(text, option: "--since", now: context.now, zone: context.systemZone, lookingBack: true), in: context.systemZone)
            }
            var kinds: [EventKind] = []
            if let text = arguments.value(kind) {
                for name in text.split(separator: ",", omittingEmptySubsequences: false).map({ String($0.filter { $0 != " " }) }) {
                    guard let known = EventKind(rawValue: name), History.kindNames.contains(name) else {
                        throw .usage(Lf("--kind must list event kinds, comma-separated: %1$s, got %2$s", History.kindNames.joined(separator: ", "), inQuotes(text)))
                    }
                    kinds.append(known)
                }
            }
            let count = try arguments.integer(limit, in: History.Request.limitRange)
            let answer = try DaemonConnection(arguments, context).call(History.self, .init(id: arguments.positionals.first, since: sinceText, kinds: kinds, limit: count))
            if arguments.flag(json) { return context.emitJSON(answer.object) }
            context.standardOutput(ItemFormat(context).historyTable(try answer.read().events.map(ReplyObject.init)))
        }
    )

    /// A ringing item as `"Tea" (49834352)`; its id alone when it has gone meanwhile.
    static func named(_ id: String, _ daemon: DaemonConnection) -> String {
        if let alarm = try? daemon.call(GetAlarm.self, .init(id: id)).read().alarm {
            return "\(inQuotes(AlarmView(alarm).label)) (\(shortID(id)))"
        }
        if let reminder = try? daemon.call(GetReminder.self, .init(id: id)).read().reminder {
            return "\(inQuotes(ReminderView(reminder).title)) (\(shortID(id)))"
        }
        return shortID(id)
    }

    static let status = Command(
        spec: CommandSpec(
            name: "status",
            summary: N_("Show alarmd's version, counts, what rings, and what comes next."),
            options: [json, socket],
            examples: ["alarmctl status"]
        ),
        run: { arguments, context throws(CLIError) in
            let daemon = DaemonConnection(arguments, context)
            let answer = try daemon.call(Status.self)
            if arguments.flag(json) { return context.emitJSON(answer.object) }
            let status = try answer.read()
            let time = TimeText(context)
            var list = KeyValueList()
            list.add(L("version"), status.version)
            list.add(L("alarms"), String(status.alarms))
            // One list for both lines: the timers' is needed; the reminders'
            // line does without it (the count alone) when it cannot be had.
            let timers = status.timers ?? 0
            func items() throws(CLIError) -> [ReminderView] { try daemon.call(ListReminders.self, .init(all: true)).read().reminders.map(ReminderView.init) }
            let reminders = timers > 0 ? try items() : status.reminders > 0 ? try? items() : nil
            list.add(L("reminders"), Self.remindersLine(status.reminders, reminders))
            if timers > 0 { list.add(L("timers"), Self.timersLine(timers, reminders ?? [], context)) }
            list.add(L("ringing"), status.ringing.isEmpty ? L("nothing") : userLanguage.list(status.ringing.map { Self.named($0, daemon) }))
            if let next = status.next {
                let kind = ItemFormat(context).kindName(next.kind)
                list.add(L("next"), "\(time.dayAndTime(next.at))  \(kind) " + Lf("%1$s (%2$s)", inQuotes(next.title), shortID(next.id)))
            } else {
                list.add(L("next"), L("nothing scheduled"))
            }
            list.add(L("time zone"), status.timeZone)
            // An older daemon's Status has no `wake`.
            if let wake = status.wake { list.add(L("wake"), Self.wakeLine(wake, time)) }
            if let lingers = status.linger {
                list.add(L("linger"), lingers ? L("yes") : L("no — alarms stop when you log out; run loginctl enable-linger"))
            }
            if let sync = status.sync { list.add(L("sync"), Self.syncLine(sync, time)) }
            for warning in status.warnings ?? [] { list.add(L("warning"), Lf("alarms may not be heard: %s", Audibility.relocalized(warning, in: userLanguage))) }
            context.standardOutput(list.text)
        }
    )

    /// `5`, or `4 open, 1 done` when some are done: the list shows the open
    /// ones. `items` is every reminder, done ones too; the count alone without it.
    static func remindersLine(_ count: Int, _ items: [ReminderView]?) -> String {
        guard let items else { return String(count) }
        let todos = items.filter { !$0.isTimer }
        let done = todos.filter(\.done).count
        return done == 0 ? String(count) : Lf("%1$d open, %2$d done", todos.count - done, done)
    }

    /// `2, the next rings in 4 min 3 s ("Tea")`: the running timers, and
    /// the time left on the one that rings first, among `items` (every reminder).
    static func timersLine(_ count: Int, _ items: [ReminderView], _ context: CommandContext) -> String {
        let timers = items.filter { $0.isTimer && !$0.done }
        let waiting = timers.compactMap { timer in TimeText.instant(timer.due).map { (timer, $0) } }.filter { $0.0.phase == "waiting" }
        guard let (first, due) = waiting.min(by: { $0.1 < $1.1 }) else { return String(count) }
        let left = DurationText.countdown(due.timeIntervalSince(context.now), in: userLanguage)
        return Lf("%1$d, the next rings in %2$s (%3$s)", count, left, inQuotes(first.title))
    }

    /// `with https://… at 14:02, 2 changes waiting`, or what went wrong.
    static func syncLine(_ state: Wire.SyncState, _ time: TimeText) -> String {
        var parts = [Lf("with %s", state.server)]
        if let last = state.lastSync { parts.append(Lf("last %s", time.dayAndTime(last))) } else { parts.append(L("not yet")) }
        if let error = state.error { parts.append(Lf("failed: %s", L(error))) }
        let pending = state.pending
        if pending > 0 { parts.append(Ln("%d change waiting to be sent", "%d changes waiting to be sent", pending)) }
        return userLanguage.list(parts)
    }

    static let sync = Command(
        spec: CommandSpec(
            name: "sync",
            summary: N_("Sync with the CalDAV server now, and say what moved."),
            details: N_("Reminders (and, with [Sync] AlarmsURL=, alarms) are sent to and received from the server configured in alarmd.conf's [Sync]; alarmd also does this every Interval= and soon after each change. Exits 1 when the server could not be reached or refused the password (the changes wait here)."),
            options: [json, socket],
            examples: ["alarmctl sync"]
        ),
        run: { arguments, context throws(CLIError) in
            let answer = try DaemonConnection(arguments, context).call(Sync.self)
            if arguments.flag(json) { context.emitJSON(answer.object) }
            let reply = try answer.read()
            if !arguments.flag(json), reply.state.error == nil {
                let moved = userLanguage.list([
                    Lf("%d received", reply.received), Lf("%d sent", reply.sent), Lf("%d removed here", reply.removedHere),
                    Lf("%d removed on the server", reply.removedThere), Ln("%d conflict", "%d conflicts", reply.conflicts),
                ])
                context.standardOutput(Lf("Synced with %1$s: %2$s", reply.state.server, moved) + "\n")
            }
            if let error = reply.state.error { throw .daemon(L("sync: ") + L(error)) }
        }
    )

    /// `07:29 via alarmd's own timer`, or why the machine will not be woken.
    static func wakeLine(_ wake: Wire.Wake, _ time: TimeText) -> String {
        let method = wake.method
        guard method != "none", let next = wake.next else {
            let reason = wake.reason ?? L("no wake-up set")
            return method == "none" ? Lf("none — %s", reason) : reason
        }
        let via = ["timerfd": L("alarmd's own timer"), "user-timer": L("the user manager"), "helper": L("the alarmd-wake helper")][method] ?? method
        return Lf("%1$s via %2$s", time.dayAndTime(next), via)
    }

    static let watch = Command(
        spec: CommandSpec(
            name: "watch",
            summary: N_("Print events (fired, snoozed, dismissed, …) as they happen, until interrupted."),
            details: N_("One line per event; with --json one JSON object per line, {\"event\": {…}}."),
            options: [json, socket],
            examples: ["alarmctl watch", "alarmctl watch --json | jq -r .event.kind"]
        ),
        run: { arguments, context throws(CLIError) in
            let format = ItemFormat(context)
            let asJSON = arguments.flag(json)
            unblockTerminationSignals()
            try DaemonConnection(arguments, context).stream(Watch.self, NoMembers()) { answer throws(CLIError) in
                if asJSON { return context.emitJSON(answer.object) }
                // One event that does not read is said, and the watch goes on.
                do throws(CLIError) { context.emit(format.eventLine(ReplyObject(try answer.read().event))) } catch {
                    context.standardError("alarmctl: \(error.description)\n")
                }
            }
        }
    )

    private static let play = Option("play", "NAME", .sound, N_("play this sound once, as an alarm would ring it: a name from the list or an absolute file path"),
                                     fills: PlaySound.Request.sound.name)
    private static let playVolume = Option("volume", "PCT", .number, N_("with --play: at this volume, 1–100 % (default: [Sound] Volume= of alarmd.conf)"))

    static let sounds = Command(
        spec: CommandSpec(
            name: "sounds",
            summary: N_("List the sound-theme sounds an alarm can use, or play one."),
            details: N_("NAME is what add --sound takes. --play plays a sound once through the daemon, on the stream an alarm would use, so you can hear it and choose a volume; alarmctl returns once it plays, and fails (exit 1) saying why when it cannot be heard."),
            options: [play, playVolume, json, socket],
            examples: ["alarmctl sounds", "alarmctl sounds --play alarm-clock-elapsed --volume 60"]
        ),
        run: { arguments, context throws(CLIError) in
            guard let name = arguments.value(play) else {
                if arguments.value(playVolume) != nil { throw .usage(L("--volume needs --play NAME (the sound to play)")) }
                let answer = try DaemonConnection(arguments, context).call(ListSounds.self)
                if arguments.flag(json) { return context.emitJSON(answer.object) }
                let sounds = try answer.read().sounds
                guard !sounds.isEmpty else { return context.emit(L("No sounds found.")) }
                let table = Table(header: [L("NAME"), L("THEME"), L("PATH")], rows: sounds.map { [$0.name, $0.theme, $0.path] })
                return context.emit(table.lines.joined(separator: "\n"))
            }
            let volume = try arguments.value(playVolume).map { (text) throws(CLIError) in try AlarmFieldOptions.volumePercent(text, editing: false) } ?? nil
            try playOnce(.init(sound: Sound(wire: name), volume: volume), DaemonConnection(arguments, context), json: arguments.flag(json), context)
        }
    )

    /// Plays a sound once through the daemon and says so; said, and exit 1,
    /// when it is not heard: the commands that call this exist to hear the
    /// wake-up sound. What the daemon found about why (no sound server, a
    /// muted output) comes first, a line each, then the player's failure;
    /// `subject` is what is not heard (an alarm), else the file.
    static func playOnce(_ request: PlaySound.Request, subject: String? = nil, _ daemon: DaemonConnection, json: Bool,
                         _ context: CommandContext) throws(CLIError) {
        let answer = try daemon.call(PlaySound.self, request, subject: N_("sound"))
        let reply = try answer.read()
        if json { context.emitJSON(answer.object) }
        if let reason = reply.notHeard {
            // The daemon's warnings about sound, not those about notifications or waking.
            let warnings = (((try? daemon.call(Status.self).read().warnings) ?? nil) ?? []).filter { warning in
                ![Audibility.noNotification, Audibility.noWake].contains { MessageFormat.match(warning, template: $0) != nil }
            }
            let why = (warnings + [reason]).map { Audibility.relocalized($0, in: userLanguage) }
            throw .daemon(Lf("%1$s is not being heard: %2$s", subject ?? reply.path, why[0]) + why.dropFirst().map { "\n  " + $0 }.joined())
        }
        if !json { context.emit(Lf("Playing %1$s at %2$d %%", reply.path, reply.volume)) }
    }

    private static let ical = Option(flag: "ical", N_("iCalendar (RFC 5545) instead of JSON: alarms as VEVENTs, reminders as VTODOs"))

    /// `export --timers`: running timers too, which a document leaves out.
    static let exportTimers = Option(flag: "timers", N_("take the running timers too (left out otherwise: they are no to-dos)"))

    static let export = Command(
        spec: CommandSpec(
            name: "export",
            summary: N_("Write every alarm and reminder as one JSON document, or one iCalendar calendar."),
            details: N_("To FILE, or to standard output without one (or with -). The document is what import reads back; --json prints the daemon's whole reply, {\"document\": {…}}, on standard output instead. --ical writes a calendar that calendar and to-do programs read, and import --ical reads back (commands and timers are left out)."),
            positionals: [Positional("FILE", .fileOrStandardStream, optional: true)], options: [exportTimers, json, ical, socket],
            alternatives: [Alternatives(positional: "FILE", json)],
            examples: ["alarmctl export backup.json", "alarmctl export | ssh laptop alarmctl import -", "alarmctl export --json | jq '.document.alarms | length'",
                       "alarmctl export --ical alarms.ics", "alarmctl export --timers backup.json"]
        ),
        run: { arguments, context throws(CLIError) in
            if arguments.flag(json), let path = arguments.positionals.first, path != "-" {
                throw .usage(Lf("--json prints the reply on standard output; leave out %s, or leave out --json to write the document there", path))
            }
            if arguments.flag(ical) {
                let answer = try DaemonConnection(arguments, context).call(ExportCalendar.self)
                if arguments.flag(json) { return context.emitJSON(answer.object) }
                let text = try answer.read().calendar
                guard let path = arguments.positionals.first, path != "-" else { return context.standardOutput(text) }
                try FileIO.write(text, to: path)
                let events = text.components(separatedBy: "\r\nBEGIN:VEVENT\r\n").count - 1, todos = text.components(separatedBy: "\r\nBEGIN:VTODO\r\n").count - 1
                return context.emit(Lf("Exported %1$s and %2$s to %3$s (iCalendar)", Ln("%d alarm", "%d alarms", events), Ln("%d reminder", "%d reminders", todos), path))
            }
            let answer = try DaemonConnection(arguments, context).call(Export.self, .init(timers: arguments.flag(exportTimers)))
            if arguments.flag(json) { return context.emitJSON(answer.object) }
            let document = try answer.read().document
            let text = JSONValue.object(document).jsonText + "\n"
            guard let path = arguments.positionals.first, path != "-" else { return context.standardOutput(text) }
            try FileIO.write(text, to: path)
            let counts = ReplyObject(document)
            context.emit(Lf("Exported %1$s and %2$s to %3$s", Ln("%d alarm", "%d alarms", counts.list(ExportDocument.alarms).count), Ln("%d reminder", "%d reminders", counts.list(ExportDocument.reminders).count), path))
        }
    )

    private static let replace = Option(flag: "replace", N_("replace every alarm and reminder with the file's (first says what goes)"))
    private static let yes = Option(flag: "yes", N_("with --replace, do not ask"))
    private static let dryRun = Option(flag: "dry-run", N_("say what would change, change nothing"))

    static let importDocument = Command(
        spec: CommandSpec(
            name: "import",
            summary: N_("Take in alarms and reminders from an exported document, merged by id."),
            details: N_("""
                FILE - reads standard input; export's document and export --json's reply both read.
                New items are added and known ones (the same id) updated; nothing is removed, and
                each change is listed. --replace replaces everything instead: it first lists what
                would be removed and asks on a terminal (--yes for scripts, which are never asked).
                --dry-run lists the changes and makes none. All or nothing: a document with any
                problem changes nothing. --ical reads an iCalendar file (from export --ical, or
                any calendar or to-do program): VEVENTs become alarms and VTODOs reminders,
                merged by UID; a malformed file is refused naming the line and property.
                """),
            positionals: [Positional("FILE", .fileOrStandardStream)], options: [replace, yes, ical, dryRun, json, socket],
            alternatives: [Alternatives(replace, ical)],
            examples: ["alarmctl import backup.json", "alarmctl import --dry-run backup.json", "alarmctl import --replace --yes - < backup.json",
                       "alarmctl import --ical tasks.ics"]
        ),
        run: { arguments, context throws(CLIError) in
            let path = arguments.positionals[0]
            let bytes = path == "-" ? context.readStandardInput() : try FileIO.read(path)
            let name = path == "-" ? L("standard input") : path
            if arguments.flag(ical) {
                if arguments.flag(replace) { throw .usage(L("import: --ical merges by UID; --replace goes with a JSON document")) }
                if arguments.flag(yes) { throw .usage(L("import: --yes goes with --replace (a merge removes nothing, so it never asks)")) }
                guard let text = String(validating: bytes, as: UTF8.self) else { throw .data(Lf("%s is not UTF-8 text, as iCalendar must be", name)) }
                // Read here first, so a broken file is a data error naming it
                // (exit 65) before anything is sent; the daemon reads it again
                // with its own zone and settings.
                let settings = ICalendarItems.Settings(zone: context.systemZone, allDayAt: .nineAM, now: context.now, zoneNamed: { ZoneName.zone($0) })
                do throws(ICalendarError) { _ = try ICalendarItems.items(icalendar: text, settings: settings) } catch {
                    throw .data(Lf("%1$s is not an iCalendar file alarmd can read: %2$s", name, error))
                }
                let answer = try DaemonConnection(arguments, context).call(ImportCalendar.self, .init(calendar: text, dryRun: arguments.flag(dryRun)))
                return try report(answer, merge: true, arguments, context)
            }
            let parsed: JSONValue
            do throws(JSONError) { parsed = try JSONParser.parse(bytes) } catch {
                throw .data(Lf("%1$s is not a JSON document: %2$s", name, error))
            }
            guard case .object(var object) = parsed else { throw .data(Lf("%1$s must hold a JSON object, as export writes, not %2$s", name, parsed.typeName)) }
            // `export --json` prints the reply, {"document": {…}}: it reads as the document.
            if object.keys.count == 1, let reply = try? Export.Reply(Parameters(object)) { object = reply.document }
            let merge = !arguments.flag(replace)
            if arguments.flag(yes), merge { throw .usage(L("import: --yes goes with --replace (a merge removes nothing, so it never asks)")) }
            let daemon = DaemonConnection(arguments, context)
            if !merge, !arguments.flag(dryRun), !arguments.flag(yes) {
                // Say what would go, and ask, before anything is replaced.
                let plan = try daemon.call(Import.self, .init(document: object, merge: false, dryRun: true)).read()
                let removed = plan.changes.filter { $0.change == .removed }
                if !removed.isEmpty {
                    context.standardError(Self.changeLines(removed, verb: N_("Would remove")))
                    switch context.askYesNo(Ln("Replace everything, removing %d item?", "Replace everything, removing %d items?", removed.count)) {
                    case true?: break
                    case false?: throw .usage(L("import: nothing changed"))
                    case nil: throw .usage(Ln("import --replace would remove %d item (listed above); add --yes to replace without asking, or --dry-run to see everything", "import --replace would remove %d items (listed above); add --yes to replace without asking, or --dry-run to see everything", removed.count))
                    }
                }
            }
            let answer = try daemon.call(Import.self, .init(document: object, merge: merge, dryRun: arguments.flag(dryRun)))
            try report(answer, merge: merge, arguments, context)
        }
    )

    /// What an import changed (or would), or the reply with --json.
    private static func report(_ answer: Answer<Import.Reply>, merge: Bool, _ arguments: ParsedArguments, _ context: CommandContext) throws(CLIError) {
        if arguments.flag(json) { return context.emitJSON(answer.object) }
        let reply = try answer.read()
        let dry = arguments.flag(dryRun)
        var text = ""
        let verbs: [(ImportChange.Change, String)] = [(.added, dry ? N_("Would add") : N_("Added")), (.updated, dry ? N_("Would update") : N_("Updated")),
                                                      (.removed, dry ? N_("Would remove") : N_("Removed"))]
        for (change, verb) in verbs {
            text += Self.changeLines(reply.changes.filter { $0.change == change }, verb: verb)
        }
        let counts = Lf("%1$d added, %2$d updated, %3$d removed", reply.added, reply.updated, reply.removed)
        if !merge, !dry {
            text += Lf("Imported %1$s and %2$s; they replace what alarmd had before (%3$s)", Ln("%d alarm", "%d alarms", reply.alarms),
                       Ln("%d reminder", "%d reminders", reply.reminders), counts) + "\n"
        } else {
            // Items the document says nothing new of are left as they are.
            let unchanged = reply.alarms + reply.reminders - reply.added - reply.updated
            let said = counts + (unchanged > 0 ? Lf(" (%d unchanged)", unchanged) : "")
            text += (dry ? Lf("Nothing changed (dry run): %s", said) : Lf("Imported: %s", said)) + "\n"
        }
        context.standardOutput(text)
    }

    /// `Added alarm "Work" (80a7c2d1)`, one line per change.
    private static func changeLines(_ changes: [ImportChange], verb: String) -> String {
        changes.map { change in
            "\(L(verb)) \(L(change.itemKind.rawValue)) \(inQuotes(change.title)) (\(shortID(change.id)))\n"
        }.joined()
    }

    /// `watch` ends only by a signal, so it must not inherit those signals
    /// blocked: a signal mask survives exec, and some parents (test runners,
    /// thread pools that spawn children) have SIGINT and SIGTERM blocked.
    private static func unblockTerminationSignals() {
        var signals = sigset_t()
        sigemptyset(&signals)
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] { sigaddset(&signals, signal) }
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
    }

}
