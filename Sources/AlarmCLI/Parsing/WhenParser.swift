import AlarmCore
import AlarmProtocol
import FoundationEssentials

/// Reads the instants and durations given to `--at` and `--in`, and turns them
/// into the RFC 3339 strings the daemon takes.
enum WhenParser {
    /// `2026-03-09T14:00:00+01:00` and other ISO 8601 forms, a local
    /// `2026-03-09 14:00`, or a time of day (`14:00`, `2pm`): today, or tomorrow
    /// when it has already passed today.
    static func instant(_ text: String, option: String, now: Date, zone: Zone) throws(CLIError) -> Date {
        let rules = zone.rules
        if looksLikeDate(text) {
            do { return try InstantParser.parse(text, rules: rules, field: option) } catch { throw .invalid(error) }
        }
        let time: TimeOfDay
        do {
            time = try TimeOfDay.parse(text, field: option)
        } catch {
            // A typo in a time (`25:00`) gets the time's own reason; anything else the list of forms.
            if text.contains(":") { throw .invalid(error) }
            throw .usage("\(option) must be ISO 8601 like 2026-03-07T12:00:00Z, YYYY-MM-DD HH:MM, or a time like 14:00, got \(ValidationError.quoted(text))")
        }
        let today = rules.localDateTime(at: now.epochSecondsFloor)
        let day = CivilTime.dayNumber(year: today.year, month: today.month, day: today.day)
        for offset in Int64(0)...1 {
            let instant = rules.instant(forWall: (day + offset) * CivilTime.secondsPerDay + Int64(time.secondsIntoDay))
            if Double(instant) > now.timeIntervalSince1970 { return Date(epochSeconds: instant) }
        }
        // Unreachable in practice: tomorrow's occurrence is always ahead of now.
        return Date(epochSeconds: rules.instant(forWall: (day + 2) * CivilTime.secondsPerDay + Int64(time.secondsIntoDay)))
    }

    /// `now` plus a duration such as `90s`, `25m`, `2h`, `1d` or `1h30m`, in
    /// whole seconds: nobody means "in 25 minutes and 0.4718 seconds".
    static func delay(_ text: String, option: String, now: Date) throws(CLIError) -> Date {
        let seconds: Int64
        do { seconds = try DurationParser.parse(text, field: option) } catch { throw .invalid(error) }
        return Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded() + TimeInterval(seconds))
    }

    /// The `--at WHEN` / `--in DURATION` pair as a wire instant, or `nil` when
    /// neither was given. The caller has checked that not both were.
    static func due(_ arguments: ParsedArguments, context: CommandContext) throws(CLIError) -> String? {
        try dueDate(arguments, context: context).map { WireTime.string($0, in: context.systemZone) }
    }

    /// The instant `--at` or `--in` gives, if either was.
    static func dueDate(_ arguments: ParsedArguments, context: CommandContext) throws(CLIError) -> Date? {
        let date: Date
        if let text = arguments.value(ReminderCommands.at) {
            date = try instant(text, option: "--at", now: context.now, zone: context.systemZone)
        } else if let text = arguments.value(ReminderCommands.within) {
            date = try delay(text, option: "--in", now: context.now)
        } else {
            return nil
        }
        return date
    }

    /// Four digits and a dash: the start of every date form `InstantParser` reads.
    private static func looksLikeDate(_ text: String) -> Bool {
        let characters = Array(text.drop { $0 == " " })
        return characters.count >= 5 && characters[0..<4].allSatisfy(\.isASCIIDigit) && characters[4] == "-"
    }
}
