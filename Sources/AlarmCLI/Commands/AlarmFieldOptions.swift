import AlarmCore
import AlarmProtocol
import FoundationEssentials

/// The options `add` and `edit` share, read into the interface's `AlarmFields`.
///
/// Values alarmctl can check without the daemon (times, days, numbers, zones)
/// are checked here, so a typo is a usage error naming the option; text fields
/// (label, sound) are the daemon's to judge.
enum AlarmFieldOptions {
    static let options: [CommandSpec.Option] = [
        .init("days", "SPEC", "repeat days: mon,wed,fri  mon-fri  weekdays  weekends  daily  never"),
        .init("label", "TEXT", "what the alarm is for (default \"Alarm\")"),
        .init("sound", "NAME", "a sound-theme name (see alarmctl sounds), an absolute file path, or none"),
        .init("snooze", "MINUTES", "allow snoozing, for 1–60 minutes at a time"),
        .init("no-snooze", nil, "do not offer snooze"),
        .init("max-snoozes", "N", "snoozes allowed per occurrence, 0–100 (0: no limit)"),
        .init("ring", "SECONDS", "ring this long before going quiet, 1–3600 s (or a duration like 5m)"),
        .init("tz", "ZONE", "pin to an IANA zone such as Europe/Berlin (default: follow the system zone)"),
        .init("command", "LINE", "run this when it fires: a program and its arguments, quoted like a shell line but never run by a shell"),
    ]

    /// Names of every option that changes a field, so `edit` can insist on one.
    static let fieldNames = ["time", "days", "label", "sound", "snooze", "no-snooze", "max-snoozes", "ring", "tz", "enabled", "disabled", "command", "no-command"]

    /// Reads the options into `AlarmFields` members. `editing` allows `--tz ""`
    /// (un-pin), which means nothing for a new alarm.
    static func fields(_ arguments: ParsedArguments, time timeText: String?, editing: Bool) throws(CLIError) -> JSONObject {
        var fields = JSONObject()
        if let timeText {
            let field = editing ? "--time" : "TIME"
            do { fields["time"] = .string(try TimeOfDay.parse(timeText, field: field).description) } catch { throw .invalid(error) }
        }
        if let spec = arguments.value("days") {
            do { fields["days"] = .array(try RepeatDays.parse(spec, field: "--days").codes.map { .string($0) }) } catch { throw .invalid(error) }
        }
        if let label = arguments.value("label") { fields["label"] = .string(label) }
        if let sound = arguments.value("sound") { fields["sound"] = .string(sound) }
        try arguments.exclusive("snooze", "no-snooze")
        if let minutes = try arguments.integer("snooze", in: SnoozeSettings.minutesRange) {
            fields["snooze"] = true
            fields["snoozeMinutes"] = JSONValue(minutes)
        }
        if arguments.flag("no-snooze") { fields["snooze"] = false }
        if let count = try arguments.integer("max-snoozes", in: SnoozeSettings.maxCountRange) { fields["maxSnoozes"] = JSONValue(count) }
        if let text = arguments.value("ring") { fields["ringSeconds"] = JSONValue(try ringSeconds(text)) }
        try arguments.exclusive("enabled", "disabled")
        if arguments.flag("enabled") { fields["enabled"] = true }
        if arguments.flag("disabled") { fields["enabled"] = false }
        if let name = arguments.value("tz") {
            if name.isEmpty, editing {
                fields["timeZone"] = ""
            } else {
                fields["timeZone"] = .string(try PreviewCommand.zone(named: name).identifier)
            }
        }
        try arguments.exclusive("command", "no-command")
        if let line = arguments.value("command") { fields["command"] = try commandVector(line) }
        if arguments.flag("no-command") { fields["command"] = .array([]) }
        return fields
    }

    /// Splits `--command` into an argument vector here, so that what the daemon
    /// stores is exactly the words it will run (it never calls a shell).
    static func commandVector(_ line: String) throws(CLIError) -> JSONValue {
        guard let argv = try? ArgumentVector.split(line), !argv.isEmpty else {
            throw .usage("--command must be a program and its arguments with balanced quotes, got \(ValidationError.quoted(line))")
        }
        return .array(argv.map { .string($0) })
    }

    /// Whole seconds (`90`) or a duration (`5m`, `1m30s`).
    private static func ringSeconds(_ text: String) throws(CLIError) -> Int {
        let range = Alarm.ringSecondsRange
        let seconds: Int64
        if let number = Int64(text) {
            seconds = number
        } else {
            do { seconds = try DurationParser.parse(text, field: "--ring") } catch {
                throw .usage("--ring must be seconds (\(range.lowerBound)–\(range.upperBound)) or a duration like 5m, got \(ValidationError.quoted(text))")
            }
        }
        guard seconds >= Int64(range.lowerBound), seconds <= Int64(range.upperBound) else {
            throw .usage("--ring must be \(range.lowerBound)–\(range.upperBound) seconds, got \(text)")
        }
        return Int(seconds)
    }
}
