// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmProtocol
import AlarmViewModels
import FoundationEssentials

/// `alarmctl timer`: countdowns that ring like an alarm. A timer is a
/// reminder marked as one (`timer: true`), due DURATION from now: it rings
/// with the alarm sound, Snooze and Dismiss, and is done (and gone from
/// every list) once it stops ringing.
enum TimerCommands {
    static let all: [Command] = [timer]

    private static let label = Option("label", "TEXT", .text, N_("what the timer is for (default: Timer and its length)"))
    private static let sound = Option("sound", "NAME", .sound, N_("a sound-theme name, an absolute file path, or none (default: [Sound] AlarmSound=)"))
    private static let allTimers = Option(flag: "all", N_("with rm, pause or resume: every timer it applies to"))

    static let timer = Command(
        spec: CommandSpec(
            name: "timer",
            summary: N_("Start a countdown that rings like an alarm, or list and cancel them."),
            details: N_("""
                timer DURATION [LABEL] starts one (20m, 1h 30m, 1.5h, 90s, 25 minutes, 25分鐘); timer
                alone (or timer list) lists them with the time left; timer pause ID... stops the countdown and timer
                resume ID... goes on from where it stopped; timer add ID DURATION (or timer ID
                +DURATION, either way round) gives it more time; timer rm ID... (or stop, cancel) cancels. Without an ID
                they act on the one timer there is. A timer rings with the alarm sound, offers Snooze
                and Dismiss, and is over once dismissed or silent.
                """),
            positionals: [Positional("DURATION", .duration, optional: true, repeated: true)],
            options: [label, sound, allTimers, .json, .socket],
            // --label starts a timer; --all acts on those there are.
            alternatives: [Alternatives(label, allTimers)],
            examples: ["alarmctl timer 25m --label Tea", "alarmctl timer 10m tea", "alarmctl timer", "alarmctl timer pause tea", "alarmctl timer resume tea",
                       "alarmctl timer add tea 1m", "alarmctl timer +2m tea", "alarmctl timer rm 5e6f", "alarmctl timer rm --all"]
        ),
        run: { arguments, context throws(CLIError) in
            let daemon = DaemonConnection(arguments, context)
            var words = arguments.positionals
            // The words a phone's timer has: stop and cancel, continue.
            if let first = words.first, let verb = verbs[first] { words[0] = verb }
            // `timer list`, as `timer` alone.
            if words.count == 1, ["list", "ls", "show"].contains(words[0]) { words = [] }
            // A phone's +1 min: `timer tea +2m`, `timer +2m tea`, or `timer +1m` for the only timer.
            if words.count > 1, let first = words.first, first.hasPrefix("+"), (try? DurationParser.parse(String(first.dropFirst()))) != nil {
                words = Array(words.dropFirst()) + [first]
            }
            let plusTime = words.last.flatMap { word -> String? in
                guard word.hasPrefix("+"), case let length = String(word.dropFirst()), (try? DurationParser.parse(length)) != nil else { return nil }
                return length
            }
            if let verb = words.first, ["rm", "pause", "resume", "add"].contains(verb) || plusTime != nil, arguments.hasAny([label, sound]) {
                throw .usage(L("timer: --label and --sound go with a DURATION to start one"))
            }
            if arguments.flag(allTimers) {
                guard let verb = words.first, ["rm", "pause", "resume"].contains(verb) else { throw .usage(L("timer: --all goes with rm, pause or resume")) }
                guard words.count == 1 else { throw .usage(Lf("timer %s: give ids or --all, not both", verb)) }
                let ids = try fitting(daemon, for: verb).map(\.id)
                if ids.isEmpty {
                    // With --json, one reply a line: none when nothing was changed.
                    if arguments.flag(.json) { return }
                    return context.emit(verb == "resume" ? L("No timer is paused.") : verb == "pause" ? L("No timer is counting down.") : L("No timers running."))
                }
                words += ids
            }
            if let verb = words.first, ["pause", "resume", "add"].contains(verb) {
                return try change(verb, Array(words.dropFirst()), daemon, arguments, context)
            }
            if let plusTime {
                return try change("add", (words.count > 1 ? [words.dropLast().spaced] : []) + [plusTime], daemon, arguments, context)
            }
            if words.first == "rm" {
                let ids = words.count > 1 ? Array(words.dropFirst()) : [try onlyTimer(daemon, for: "rm")]
                return try forEachID(ids, noun: N_("timers"), verb: N_("cancelled"), context: context) { id throws(CLIError) in
                    try daemon.attempt(RemoveReminder.self, .init(id: id), subject: N_("timer")).flatMap { answer in
                        answer.emit(context, json: arguments.flag(.json)) { reply in
                            context.emit(Lf("Cancelled timer %1$s (%2$s)", inQuotes(reply.title), shortID(reply.id)))
                        }
                    }
                }
            }
            guard !words.isEmpty else {
                if arguments.hasAny([label, sound]) { throw .usage(L("timer: --label and --sound go with a DURATION to start one")) }
                let reply = try daemon.call(ListReminders.self, .init(all: false)).read()
                let timers = reply.reminders.filter { ReplyObject($0).bool(Wire.Reminder.timer) }
                if arguments.flag(.json) { return context.emitJSON(RemindersReply(reminders: timers).json) }
                return context.standardOutput(Self.table(timers.map(ReminderView.init), context))
            }
            // `timer 10m tea`: what follows the duration is the label.
            var seconds: Int64 = 0
            var title = arguments.value(label)
            do throws(ValidationError) { seconds = try Self.length(words.spaced) } catch {
                // The longest run of first words that is a length, and its length.
                let found = title == nil ? (1..<words.count).reversed().lazy.compactMap { split in (try? Self.length(words[..<split].spaced)).map { (split, $0) } }.first : nil
                guard let (split, length) = found else { throw .invalid(error) }
                // `timer 2 hours 30` is a unit left out, not a timer called "30".
                if words[split...].isNumberAlone {
                    throw .usage(Lf("timer: %s after the duration is a number without a unit: write 2h 30m, or give the label with --label", inQuotes(words[split...].spaced)))
                }
                seconds = length
                title = words[split...].spaced
            }
            // Whole seconds from the second now began: a countdown never shows more than it was given.
            let due = Date(timeIntervalSince1970: context.now.timeIntervalSince1970.rounded(.down) + TimeInterval(seconds))
            var changes = ReminderChanges(title: title ?? Lf("Timer %s", DurationText.countdown(TimeInterval(seconds), in: userLanguage)),
                                          due: WireTime.string(due, in: context.systemZone))
            changes.timer = true
            changes.sound = arguments.value(sound).map { .some(Sound(wire: $0)) }
            let answer = try daemon.call(AddReminder.self, .init(changes))
            if arguments.flag(.json) { return context.emitJSON(answer.object) }
            let added = ReminderView(try answer.read().reminder)
            context.emit(Lf("Started timer %1$s (%2$s): rings at %3$s, in %4$s", inQuotes(added.title), shortID(added.id), TimeText(context).clock(added.due), DurationText.countdown(TimeInterval(seconds), in: userLanguage)))
        }
    )

    /// Whether `words` name a timer (`pause tea` where tea is one): then
    /// `pause` and `resume` mean the timer's.
    static func namesATimer(_ words: [String], _ daemon: DaemonConnection) -> Bool {
        guard !words.isEmpty, let found = try? daemon.reminder(words.spaced, subject: N_("timer")) else { return false }
        return found.isTimer
    }

    /// Other words for the timer verbs.
    static let verbs = ["stop": "rm", "cancel": "rm", "delete": "rm", "remove": "rm", "continue": "resume", "unpause": "resume"]

    /// The one timer a verb without an id means: the only one running (for
    /// pause), the only one paused (for resume), the only one (else).
    static func onlyTimer(_ daemon: DaemonConnection, for verb: String) throws(CLIError) -> String {
        let fitting = try fitting(daemon, for: verb)
        guard fitting.count == 1 else {
            if fitting.isEmpty { throw .daemon(verb == "resume" ? L("no timer is paused") : L("no timer is running")) }
            throw .usage(Lf("timer %1$s: several timers could be meant, name one: %2$s", verb,
                            fitting.map { "\(shortID($0.id)) \(inQuotes($0.title))" }.joined(separator: ", ")))
        }
        return fitting[0].id
    }

    /// The timers `verb` may act on: those counting down (for pause), those
    /// paused (for resume), either (for add), every one (for rm). A ringing or
    /// snoozed timer is left to snooze and dismiss (``TimerChange``).
    static func fitting(_ daemon: DaemonConnection, for verb: String) throws(CLIError) -> [ReminderView] {
        let timers = try daemon.call(ListReminders.self, .init(all: false)).read().reminders.map(ReminderView.init).filter(\.isTimer)
        return timers.filter { timer in
            switch verb {
            case "rm": true
            case "pause": timer.phase == "waiting" && timer.timerLeft == nil
            case "resume": timer.timerLeft != nil
            default: timer.phase == "waiting"
            }
        }
    }

    /// `timer pause ID...`, `timer resume ID...`, `timer add ID DURATION`:
    /// a running timer's countdown stops and keeps the time left (its due
    /// time goes), goes on from where it stopped, or gets more time.
    static func change(_ verb: String, _ words: [String], _ daemon: DaemonConnection, _ arguments: ParsedArguments,
                       _ context: CommandContext) throws(CLIError) {
        var ids = words, extra: Int64 = 0
        if verb == "add" {
            if let (timer, seconds) = try timerAndLength(words, daemon) {
                (ids, extra) = ([timer], seconds)
            } else {
                guard words.count >= 2 else { throw .usage(L("timer add: give the timer's id and how much time to add (timer add tea 1m)")) }
                ids = [words[0]]
                do throws(ValidationError) { extra = try DurationParser.parse(words.dropFirst().spaced, field: "DURATION") } catch { throw .invalid(error) }
            }
        }
        if ids.isEmpty { ids = [try onlyTimer(daemon, for: verb)] }
        let now = context.now.timeIntervalSince1970.rounded(.down)
        let change: TimerChange = verb == "pause" ? .pause : verb == "resume" ? .resume : .add(seconds: Int(extra))
        try forEachID(ids, noun: N_("timers"), verb: verb == "pause" ? N_("paused") : verb == "resume" ? N_("resumed") : N_("changed"), context: context) { id throws(CLIError) in
            let timer = try daemon.reminder(id, subject: N_("timer"))
            guard timer.isTimer, !timer.done else { return .failure(.daemon(Lf("%1$s (%2$s) is not a running timer", inQuotes(timer.title), shortID(timer.id)))) }
            let changes: ReminderChanges
            switch change.changes(due: TimeText.instant(timer.due), timerLeft: timer.timerLeft, phase: ItemPhase(rawValue: timer.phase) ?? .waiting,
                                  now: context.now, zone: context.systemZone) {
            case .success(let made): changes = made
            case .failure(let refusal): return .failure(.daemon(TimerChange.refusalText(refusal, quoted: inQuotes(timer.title), language: userLanguage)))
            }
            return try daemon.attempt(UpdateReminder.self, .init(id: timer.id, changes), subject: N_("timer")).flatMap { answer in
                answer.emit(context, json: arguments.flag(.json)) { reply in
                    let changed = ReminderView(reply.reminder)
                    context.emit(Self.line(changed, now: now, context))
                }
            }
        }
    }

    /// `timer add`'s words as the timer and how much more time, either way
    /// round (`green tea 1m`, `1 min green tea`); a length alone is for the
    /// only timer. A name may hold a length of its own ("Timer 10 min"): of
    /// the ways to cut the words, one whose name is a timer's title wins,
    /// else the first. `nil` when no cut reads as a length.
    private static func timerAndLength(_ words: [String], _ daemon: DaemonConnection) throws(CLIError) -> (String, Int64)? {
        func length(_ words: ArraySlice<String>) -> Int64? { words.isEmpty ? nil : try? DurationParser.parse(words.spaced) }
        if let seconds = length(words[...]) { return (try onlyTimer(daemon, for: "add"), seconds) }
        var cuts: [(name: String, seconds: Int64)] = []
        for split in 1..<max(1, words.count) {
            if let seconds = length(words[split...]) { cuts.append((words[..<split].spaced, seconds)) }
            if let seconds = length(words[..<split]) { cuts.append((words[split...].spaced, seconds)) }
        }
        guard let first = cuts.first else { return nil }
        if cuts.count > 1 {
            let titles = Set(try fitting(daemon, for: "add").map { Item.folded($0.title) })
            if let named = cuts.first(where: { titles.contains(Item.folded($0.name)) }) { return named }
        }
        return first
    }

    /// A new timer's length: as durations are typed everywhere (`25m`, `1h
    /// 30m`, `90 seconds`), or as the app's and alarmctl ui's timer field
    /// reads one word, `25` for minutes and `1:30` for minutes and seconds
    /// (that field reads `2 30` as 230 minutes; here it is refused).
    static func length(_ text: String) throws(ValidationError) -> Int64 {
        do { return try DurationParser.parse(text, field: "DURATION") } catch {
            guard !text.contains(where: \.isWhitespace), case .success(let seconds) = TimerDuration.parse(text, in: SourceLocalization.source) else { throw error }
            return Int64(seconds)
        }
    }

    /// `Timer "Tea" (5e6f7a8b): rings at 14:05, in 4 min 3 s`, or `… paused, 4 min 3 s left`.
    /// `now` is the whole second the change counted from.
    static func line(_ timer: ReminderView, now: TimeInterval, _ context: CommandContext) -> String {
        if let left = timer.timerLeft {
            return Lf("Timer %1$s (%2$s): paused, %3$s left", inQuotes(timer.title), shortID(timer.id), DurationText.countdown(TimeInterval(left), in: userLanguage))
        }
        let left = TimeText.instant(timer.due).map { $0.timeIntervalSince1970 - now } ?? 0
        return Lf("Timer %1$s (%2$s): rings at %3$s, in %4$s", inQuotes(timer.title), shortID(timer.id), TimeText(context).clock(timer.due),
                  DurationText.countdown(left, in: userLanguage))
    }

    /// `ID  LABEL  LEFT  RINGS`, soonest first.
    static func table(_ timers: [ReminderView], _ context: CommandContext) -> String {
        guard !timers.isEmpty else { return L("No timers running.") + "\n" }
        let time = TimeText(context)
        // Running ones soonest first, then the paused ones.
        func order(_ timer: ReminderView) -> (Int, String, Int) { (timer.timerLeft == nil ? 0 : 1, timer.due ?? "", timer.timerLeft ?? 0) }
        let sorted = timers.sorted { order($0) < order($1) }
        let rows = sorted.map { timer -> [String] in
            if let left = timer.timerLeft {
                return [shortID(timer.id), timer.title, Lf("%s (paused)", DurationText.countdown(TimeInterval(left), in: userLanguage)), "—"]
            }
            // A snoozed timer rings next when its snooze ends, not at its due
            // time; a ringing one says when it rang.
            let rings = timer.phase == "ringing" ? timer.due : timer.next ?? timer.due
            let left = TimeText.instant(rings).map { max(0, Int($0.timeIntervalSince(context.now).rounded(.up))) } ?? 0
            let countdown = DurationText.countdown(TimeInterval(left), in: userLanguage)
            let state = timer.phase == "waiting" ? countdown : timer.phase == "ringing" ? L("ringing") : timer.phase == "snoozed" ? Lf("snoozed, %s", countdown) : timer.phase
            return [shortID(timer.id), timer.title, state, time.clock(rings)]
        }
        return Table(header: [L("ID"), L("LABEL"), L("LEFT"), L("RINGS")], rows: rows, maxWidth: context.terminalColumns, shrinkable: 1).lines.joined(separator: "\n") + "\n"
    }
}
