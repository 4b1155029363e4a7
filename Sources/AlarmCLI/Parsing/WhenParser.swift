// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmProtocol
import FoundationEssentials

/// Reads the days, times, instants and durations people type (`--at`,
/// `--in`, `preview --from`, `add`'s TIME, `snooze --minutes`, `timer`)
/// with the core's parsers, ``DayAndTime`` and ``DurationParser``, and
/// turns them into what the daemon takes.
enum WhenParser {
    /// What `--at` names: an instant, or a day alone (an all-day due date,
    /// never midnight by surprise).
    enum Due: Equatable {
        case instant(Date)
        case day(Int64)
    }

    /// `2026-03-09T14:00:00+01:00` and other ISO 8601 forms with a `T` or an
    /// offset; `in 25 min` or `2h ago`; otherwise a
    /// ``DayAndTime``: a time alone is today, or
    /// tomorrow once it has passed; a weekday is the next one whose time is
    /// ahead; a day alone is that day, all day.
    static func due(_ text: String, option: String, now: Date, zone: Zone, lookingBack: Bool = false) throws(CLIError) -> Due {
        let rules = zone.rules
        // `in 25 min`, `25 分鐘後`, `2h ago`: from now.
        let relative: Int64?
        do { relative = try DurationParser.relative(text, field: option) } catch { throw .invalid(error) }
        if let relative { return .instant(Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded() + TimeInterval(relative))) }
        if looksLikeDate(text), text.contains(where: { "Tt+Zz".contains($0) }) || text.filter({ $0 == ":" }).count > 1 {
            do { return .instant(try InstantParser.parse(text, rules: rules, field: option)) } catch { throw .invalid(error) }
        }
        let parsed: DayAndTime
        do { parsed = try DayAndTime.parse(text, field: option) } catch {
            // An ISO form DayAndTime does not know (seconds) still reads, and a
            // date that is wrong (February 30) gets the date's own reason.
            if looksLikeDate(text) {
                do { return .instant(try InstantParser.parse(text, rules: rules, field: option)) } catch { throw .invalid(error) }
            }
            throw .invalid(error)
        }
        // Looking back, a day alone begins at midnight; ahead, it is all day.
        let day = parsed.resolveDay(now: now.epochSecondsFloor, rules: rules, allDay: lookingBack ? .midnight : .nineAM, lookingBack: lookingBack)
        guard let time = parsed.time else { return .day(day) }
        return .instant(Date(epochSeconds: rules.instant(forWall: day * CivilTime.secondsPerDay + Int64(time.secondsIntoDay))))
    }

    /// An instant for `preview --from` or, `lookingBack`, `history --since`:
    /// ISO 8601, or a day and time as ``due(_:option:now:zone:lookingBack:)``
    /// reads them, a day alone at its midnight. Looking back, `mon` is the
    /// last Monday, not the next.
    static func instant(_ text: String, option: String, now: Date, zone: Zone, lookingBack: Bool = false) throws(CLIError) -> Date {
        switch try due(text, option: option, now: now, zone: zone, lookingBack: lookingBack) {
        case .instant(let date): return date
        case .day(let day): return Date(epochSeconds: zone.rules.instant(forWall: day * CivilTime.secondsPerDay))
        }
    }

    /// `now` plus a duration such as `90s`, `20 minutes`, `1h 30m` or
    /// `1.5h`, in whole seconds: nobody means "in 25 minutes and 0.4718
    /// seconds". `now` itself is allowed: rounded, it may be up to half a
    /// second past by the time it arrives, which the daemon rings at once
    /// (``RingingMachine/fresh(item:now:policy:)``).
    static func delay(_ text: String, option: String, now: Date) throws(CLIError) -> Date {
        let seconds: Int64
        do { seconds = try DurationParser.parse(text, field: option, allowNow: true) } catch { throw .invalid(error) }
        return Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded() + TimeInterval(seconds))
    }

    /// Whole minutes within `range`: `5`, `5m`, `10 minutes`, `1h`.
    static func minutes(_ text: String, option: String, in range: ClosedRange<Int>) throws(CLIError) -> Int {
        var usage: CLIError { .usage(Lf("%1$s must be whole minutes, %2$d–%3$d: 5, 5m or 10 minutes, got %4$s", option, range.lowerBound, range.upperBound, inQuotes(text))) }
        if let number = Int(text) {
            guard range.contains(number) else { throw usage }
            return number
        }
        guard let seconds = try? DurationParser.parse(text, field: option), seconds % 60 == 0, range.contains(Int(seconds / 60)) else { throw usage }
        return Int(seconds / 60)
    }

    /// The `--at WHEN` / `--in DURATION` pair as a wire instant, or `nil` when
    /// neither was given; `spoken` is a WHEN given without `--at` (`remind
    /// add milk tomorrow 5pm`). The caller has checked that not both were.
    static func due(_ arguments: ParsedArguments, spoken: String? = nil, context: CommandContext) throws(CLIError) -> Due? {
        if let spoken {
            return try due(spoken, option: "WHEN", now: context.now, zone: context.systemZone)
        } else if let text = arguments.value(ReminderCommands.at) {
            return try due(text, option: "--at", now: context.now, zone: context.systemZone)
        } else if let text = arguments.value(ReminderCommands.within) {
            return .instant(try delay(text, option: "--in", now: context.now))
        }
        return nil
    }

    /// `buy milk tomorrow 5pm`: the title, and the WHEN at its end if it has
    /// one — the longest run of last words that reads as a day or time and is
    /// not a number alone (`call 911` is a title).
    static func titleAndWhen(_ words: [String], context: CommandContext) -> (title: String, when: String?) {
        for split in 1..<max(1, words.count) {
            let when = words[split...].spaced
            guard !when.allSatisfy(\.isASCIIDigit) else { continue }
            if (try? due(when, option: "WHEN", now: context.now, zone: context.systemZone)) != nil {
                return (words[..<split].spaced, when)
            }
        }
        return (words.spaced, nil)
    }

    /// Four digits and a dash: the start of every date form `InstantParser` reads.
    private static func looksLikeDate(_ text: String) -> Bool {
        let characters = Array(text.drop { $0 == " " })
        return characters.count >= 5 && characters[0..<4].allSatisfy(\.isASCIIDigit) && characters[4] == "-"
    }
}
