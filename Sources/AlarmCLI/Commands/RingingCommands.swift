// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmProtocol

/// `snooze` and `dismiss`: they act on whatever rings, alarm or reminder.
enum RingingCommands {
    static let all: [Command] = [snooze, dismiss]

    private static let itemIDs = Positional("ID", .itemID, optional: true, repeated: true)
    private static let allRinging = Option(flag: "all", N_("every item ringing or snoozed"))
    private static let idsOrAll = Alternatives(positional: "ID", allRinging)
    private static let minutes = Option("minutes", "N", .duration, N_("snooze for N minutes, 1–60: 5, 5m or 10 minutes"))

    static let snooze = Command(
        spec: CommandSpec(
            name: "snooze",
            summary: N_("Snooze a ringing alarm or reminder."),
            details: N_("""
                Without ID: the one item ringing now (an error if none or several ring). With several IDs,
                each; the exit code is 1 if any failed. It rings again after its own snooze minutes, or N
                (--minutes N, or the number after the ids: snooze 10, snooze tea for 10 minutes).
                """),
            positionals: [itemIDs], options: [minutes, .json, .socket],
            examples: ["alarmctl snooze", "alarmctl snooze 10", "alarmctl snooze 1a2b --minutes 5", "alarmctl snooze 1a2b 5e6f --minutes 10m"]
        ),
        run: { arguments, context throws(CLIError) in
            var minutes = try arguments.value(Self.minutes).map { text throws(CLIError) in try WhenParser.minutes(text, option: "--minutes", in: 1...60) }
            var positionals = arguments.positionals
            // `snooze 10`, `snooze tea 10 min`, `snooze for 10 minutes`: the minutes as said, after the
            // ids (an id is never a number of minutes).
            for count in [2, 1] where minutes == nil && positionals.count >= count {
                let text = positionals.suffix(count).spaced
                guard text.first?.isNumber == true, let said = try? WhenParser.minutes(text, option: "--minutes", in: 1...60) else { continue }
                minutes = said
                positionals.removeLast(count)
                if positionals.last?.lowercased() == "for" { positionals.removeLast() }
            }
            let daemon = DaemonConnection(arguments, context)
            let ids: [String?] = positionals.isEmpty ? [nil] : positionals
            try forEachID(ids.map { $0 ?? "" }, noun: N_("items"), verb: N_("snoozed"), context: context) { id throws(CLIError) in
                try daemon.attempt(Snooze.self, .init(id: id.isEmpty ? nil : id, minutes: minutes)).flatMap { answer in
                    answer.emit(context, json: arguments.flag(.json)) { reply in
                        context.emit(Lf("Snoozed %1$s (%2$s) until %3$s (snooze %4$d)", inQuotes(reply.title), shortID(reply.id),
                                        TimeText(context).clock(reply.until), reply.snoozeCount))
                    }
                }
            }
        }
    )

    static let dismiss = Command(
        spec: CommandSpec(
            name: "dismiss",
            summary: N_("Stop a ringing or snoozed alarm or reminder."),
            details: N_("""
                Without ID: the one item ringing now, or with nothing ringing, the one snoozed; --all (or the
                word all): every item ringing or snoozed. A repeating alarm waits for its next day, a
                one-shot alarm switches off, a reminder stays open until done. With several IDs, each;
                the exit code is 1 if any failed.
                """),
            positionals: [itemIDs], options: [allRinging, .json, .socket], alternatives: [idsOrAll],
            examples: ["alarmctl dismiss", "alarmctl dismiss 1a2b", "alarmctl dismiss --all"]
        ),
        run: { arguments, context throws(CLIError) in
            let daemon = DaemonConnection(arguments, context)
            var ids: [String] = arguments.positionals.isEmpty ? [""] : arguments.positionals
            // `dismiss all`: the word for --all.
            let all = arguments.flag(allRinging) || saysAll(arguments.positionals)
            if all {
                guard arguments.positionals.isEmpty || !arguments.flag(allRinging) else { throw .usage(L("dismiss: give ids or --all, not both")) }
                let alarms = try daemon.call(ListAlarms.self).read().alarms.map(ReplyObject.init)
                let reminders = try daemon.call(ListReminders.self, .init(all: false)).read().reminders.map(ReplyObject.init)
                ids = (alarms + reminders).filter { ["ringing", "snoozed"].contains($0.string(Wire.Alarm.phase)) }.map { $0.string(Wire.Alarm.id) }
                // With --json, one reply a line: none when nothing is dismissed.
                if ids.isEmpty { return arguments.flag(.json) ? () : context.emit(L("Nothing is ringing or snoozed.")) }
            }
            try forEachID(ids, noun: N_("items"), verb: N_("dismissed"), context: context) { id throws(CLIError) in
                try daemon.attempt(Dismiss.self, .init(id: id.isEmpty ? nil : id)).flatMap { answer in
                    answer.emit(context, json: arguments.flag(.json)) { reply in
                        context.emit(Lf("Dismissed %1$s (%2$s)", inQuotes(reply.title), shortID(reply.id)))
                    }
                }
            }
        }
    )
}
