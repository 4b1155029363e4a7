// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmProtocol

/// `rename` and `remind rename`: a new label or title in the words people
/// use, `rename work to office`, where `edit ID --label` is the option.
enum RenameCommands {
    static let rename = command(alarm: true)
    static let remindRename = command(alarm: false)

    private static func command(alarm: Bool) -> Command {
        Command(
            spec: CommandSpec(
                name: alarm ? "rename" : "remind rename",
                summary: alarm ? N_("Give an alarm a new label.") : N_("Give a reminder a new title."),
                details: alarm ? N_("""
                    ID is an id or the alarm's label; "to" may stand between it and the new label, and must
                    where both are several words. The same as edit ID --label NAME.
                    """) : N_("""
                    ID is an id or the reminder's title; "to" may stand between it and the new title, and
                    must where both are several words. The same as remind edit ID --title NAME.
                    """),
                positionals: [Positional("ID", alarm ? .alarmID : .reminderID), Positional("NAME", .text, repeated: true)],
                options: [.json, .socket],
                examples: alarm ? ["alarmctl rename 1a2b Gym", "alarmctl rename \"early train\" to \"late train\"", "alarmctl rename work to office"]
                    : ["alarmctl remind rename 5e6f \"Call Dr. Ng\"", "alarmctl remind rename milk to oat milk"]
            ),
            run: { arguments, context throws(CLIError) in
                let daemon = DaemonConnection(arguments, context)
                let words = arguments.positionals
                let item: String
                var name: [String]
                // The first "to" before which the words are an item's whole name:
                // `rename gym to go to the gym`, `rename go to gym to gym`; else the
                // name as `leadingName` finds it, and a "to" after it goes.
                let tos = words.indices.filter { words[$0].lowercased() == "to" && $0 > 0 && $0 < words.count - 1 }
                if let to = tos.first(where: { isWholeName(words[..<$0].spaced, alarm: alarm, daemon: daemon) }) {
                    (item, name) = (words[..<to].spaced, Array(words[(to + 1)...]))
                } else {
                    (item, name) = leadingName(words, alarm: alarm, daemon: daemon)
                    if name.count > 1, name.first?.lowercased() == "to" { name.removeFirst() }
                }
                let spec = alarm ? "rename" : "remind rename"
                let new = name.spaced
                guard !new.isEmpty else {
                    throw .usage(Lf("%1$s: NAME is missing (usage: alarmctl %1$s ID [to] NAME; see alarmctl %1$s --help)", spec))
                }
                if alarm {
                    var fields = AlarmFields()
                    fields.label = new
                    let answer = try daemon.call(UpdateAlarm.self, .init(id: item, fields: fields), subject: N_("alarm"))
                    try AlarmCommands.report(answer, verb: N_("Renamed alarm"), arguments, context).get()
                } else {
                    let answer = try daemon.call(UpdateReminder.self, .init(id: item, ReminderChanges(title: new)), subject: N_("reminder"))
                    try ReminderCommands.report(answer, verb: N_("Renamed reminder"), arguments, context).get()
                }
            }
        )
    }
}
