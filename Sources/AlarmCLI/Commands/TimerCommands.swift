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

    static let timer = Command(
        spec: CommandSpec(
            name: "timer",
            summary: N_("Start a countdown that rings like an alarm, or list and cancel them."),
            details: N_("""
                timer DURATION starts one (20m, 1h 30m, 1.5h, 90s, 25 minutes); timer alone lists the
                running ones with the time left; timer rm ID... cancels. A timer rings with the alarm
                sound, offers Snooze and Dismiss, and is over once dismissed or silent.
                """),
            positionals: [Positional("DURATION", .duration, optional: true, repeated: true)],
            options: [label, sound, .json, .socket],
            examples: ["alarmctl timer 25m --label Tea", "alarmctl timer", "alarmctl timer rm 5e6f"]
        ),
        run: { arguments, context throws(CLIError) in
            let daemon = DaemonConnection(arguments, context)
            let words = arguments.positionals
            if words.first == "rm" {
                guard words.count > 1 else { throw .usage(L("timer rm: give the timers' ids (see alarmctl timer)")) }
                return try forEachID(Array(words.dropFirst()), noun: N_("timers"), verb: N_("cancelled"), context: context) { id throws(CLIError) in
                    try daemon.attempt(RemoveReminder.self, .init(id: id), subject: N_("timer")).flatMap { answer in
                        answer.emit(context, json: arguments.flag(.json)) { reply in
                            context.emit(Lf("Cancelled timer %1$s (%2$s)", ValidationError.quoted(reply.title), shortID(reply.id)))
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
            let text = words.joined(separator: " ")
            let seconds: Int64
            do throws(ValidationError) { seconds = try DurationParser.parse(text, field: "DURATION") } catch { throw .invalid(error) }
            let due = Date(timeIntervalSince1970: context.now.timeIntervalSince1970.rounded() + TimeInterval(seconds))
            var changes = ReminderChanges(title: arguments.value(label) ?? Lf("Timer %s", DurationText.countdown(TimeInterval(seconds), in: userLanguage)),
                                          due: WireTime.string(due, in: context.systemZone))
            changes.timer = true
            changes.sound = arguments.value(sound).map { .some(Sound(wire: $0)) }
            let answer = try daemon.call(AddReminder.self, .init(changes))
            if arguments.flag(.json) { return context.emitJSON(answer.object) }
            let added = ReminderView(try answer.read().reminder)
            context.emit(Lf("Started timer %1$s (%2$s): rings at %3$s, in %4$s", ValidationError.quoted(added.title), shortID(added.id), TimeText(context).clock(added.due), DurationText.countdown(TimeInterval(seconds), in: userLanguage)))
        }
    )

    /// `ID  LABEL  LEFT  RINGS`, soonest first.
    static func table(_ timers: [ReminderView], _ context: CommandContext) -> String {
        guard !timers.isEmpty else { return L("No timers running.") + "\n" }
        let time = TimeText(context)
        let sorted = timers.sorted { ($0.due ?? "") < ($1.due ?? "") }
        let rows = sorted.map { timer -> [String] in
            let left = TimeText.instant(timer.due).map { max(0, Int($0.timeIntervalSince(context.now).rounded(.up))) } ?? 0
            let state = timer.phase == "waiting" ? DurationText.countdown(TimeInterval(left), in: userLanguage) : timer.phase == "ringing" ? L("ringing") : timer.phase == "snoozed" ? L("snoozed") : timer.phase
            return [shortID(timer.id), timer.title, state, time.clock(timer.due)]
        }
        return Table(header: [L("ID"), L("LABEL"), L("LEFT"), L("RINGS")], rows: rows, maxWidth: context.terminalColumns, shrinkable: 1).lines.joined(separator: "\n") + "\n"
    }
}
