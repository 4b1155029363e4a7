// SPDX-License-Identifier: Apache-2.0
/// What a value on the command line is, so that the shell completions can
/// offer the right candidates for it: the table says it once, every shell's
/// script is generated from that.
enum ValueKind: Hashable, Sendable {
    /// A time of day: `7:30`, `19:05`, `7pm`.
    case timeOfDay
    /// An instant: ISO 8601, a local `YYYY-MM-DD HH:MM`, or a time of day.
    case instant
    /// `90s`, `25m`, `2h`, `1d`, `1h30m`.
    case duration
    /// A calendar date, `2026-12-24`.
    case date
    /// Every so many days or weeks: `3d`, `2w`.
    case interval
    /// Repeat days: day names, ranges and words, comma-separated.
    case days
    /// A sound-theme name as `alarmctl sounds` lists them, `none`, or an absolute path.
    case sound
    /// The id of an alarm, of a reminder, or of either (what rings).
    case alarmID, reminderID, itemID
    /// The id of a reminder not done yet (what `remind done` takes).
    case openReminderID
    /// A path on this machine.
    case file
    /// A path, or `-` for standard input or output.
    case fileOrStandardStream
    /// An IANA time zone name.
    case zone
    /// A program and its arguments.
    case commandLine
    /// A whole number.
    case number
    /// Anything: a label, a title, notes.
    case text
    /// One of a fixed list of words.
    case choice([String])

    /// The words `--days` takes, offered by every shell (more spellings are accepted).
    static let dayWords = ["weekdays", "weekends", "daily", "every-day", "never", "mon", "tue", "wed", "thu", "fri", "sat", "sun",
                           "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
    /// What the words that are not day names mean, for shells that show it.
    static let dayWordMeanings = ["weekdays": "Monday to Friday", "weekends": "Saturday and Sunday", "daily": "every day",
                                  "every-day": "every day", "never": "one-shot"]

    /// An item's id or name: `work`, `early train`, `5e6f`.
    var namesAnItem: Bool {
        switch self {
        case .alarmID, .reminderID, .openReminderID, .itemID: true
        default: false
        }
    }

    /// Whether a shell has anything to offer for it: free text, numbers and times it has not.
    var hasCandidates: Bool {
        switch self {
        case .timeOfDay, .instant, .duration, .date, .interval, .number, .text: return false
        case .days, .sound, .alarmID, .reminderID, .openReminderID, .itemID, .file, .fileOrStandardStream, .zone, .commandLine, .choice: return true
        }
    }
}
