// SPDX-License-Identifier: Apache-2.0
/// A POSIX `TZ` rule such as `CET-1CEST,M3.5.0,M10.5.0/3`: a standard offset and,
/// optionally, a daylight-saving offset with the yearly dates it starts and ends.
///
/// A TZif file's footer holds one, for the years after its last listed
/// transition; the tz database writes them with RFC 8536's extensions (hours up
/// to 167 and negative hours in the transition times).
public struct PosixZoneRule: Sendable, Equatable {
    /// UTC offset of standard time, seconds east (POSIX writes west as positive).
    public let standardOffset: Int32
    public let daylight: Daylight?

    public struct Daylight: Sendable, Equatable {
        /// UTC offset while daylight-saving time is in force, seconds east.
        public let offset: Int32
        public let start: YearDay
        /// Seconds after local (standard) midnight of `start`'s day.
        public let startTime: Int32
        public let end: YearDay
        /// Seconds after local (daylight-saving) midnight of `end`'s day.
        public let endTime: Int32
    }

    /// A day of the year as the rule names it.
    public enum YearDay: Sendable, Equatable {
        /// `Jn`: day 1…365, February 29 never counted.
        case julian(Int)
        /// `n`: day 0…365, February 29 counted in leap years.
        case zeroBased(Int)
        /// `Mm.w.d`: weekday `d` (0 = Sunday) of week `w` (5 = the last) of month `m`.
        case monthWeekDay(month: Int, week: Int, weekday: Int)

        /// Day number (days since 1970-01-01) of this day in `year`.
        func dayNumber(year: Int) -> Int64 {
            let january1 = CivilTime.dayNumber(year: year, month: 1, day: 1)
            switch self {
            case .julian(let n):
                let leap = CivilTime.daysInMonth(year: year, month: 2) == 29
                return january1 + Int64(n - 1) + (leap && n >= 60 ? 1 : 0)
            case .zeroBased(let n):
                return january1 + Int64(n)
            case .monthWeekDay(let month, let week, let weekday):
                let first = CivilTime.dayNumber(year: year, month: month, day: 1)
                let firstWeekday = Int64(CivilTime.weekday(dayNumber: first).rawValue)
                var day = first + CivilTime.floorMod(Int64(weekday) - firstWeekday, 7) + Int64(week - 1) * 7
                let length = Int64(CivilTime.daysInMonth(year: year, month: month))
                while day >= first + length { day -= 7 }
                return day
            }
        }
    }

    /// The offset changes in `year`, in order: each instant and the offset from it on.
    public func transitions(year: Int) -> [(instant: Int64, offset: Int32)] {
        guard let daylight else { return [] }
        let start = daylight.start.dayNumber(year: year) * CivilTime.secondsPerDay + Int64(daylight.startTime) - Int64(standardOffset)
        let end = daylight.end.dayNumber(year: year) * CivilTime.secondsPerDay + Int64(daylight.endTime) - Int64(daylight.offset)
        // At a tie (daylight time all year, written as ending when it starts
        // again) the end goes first, so daylight time is what stays in force.
        return start < end
            ? [(start, daylight.offset), (end, standardOffset)]
            : [(end, standardOffset), (start, daylight.offset)]
    }

    /// The Gregorian calendar repeats every 400 years, weekdays included.
    static let calendarCycle: Int64 = 146_097 * CivilTime.secondsPerDay

    /// The offset in force at `instant`, any instant at all.
    public func offset(at instant: Int64) -> Int32 {
        guard daylight != nil else { return standardOffset }
        // The same moment of the same 400-year cycle, within 1970–2370: the rule
        // gives it the same offset, and the date arithmetic cannot overflow.
        // (Not `CivilTime.floorMod`, whose floor-division product overflows
        // near `Int64.min`.)
        let remainder = instant % Self.calendarCycle
        let instant = remainder < 0 ? remainder + Self.calendarCycle : remainder
        let year = CivilTime.date(dayNumber: CivilTime.floorDiv(instant, CivilTime.secondsPerDay)).year
        // A year's changes can lie a day either side of its UTC bounds.
        var current = standardOffset
        for candidate in (year - 1)...(year + 1) {
            for change in transitions(year: candidate) where change.instant <= instant { current = change.offset }
        }
        return current
    }

    /// Parses a rule; `nil` when `text` is not one.
    public init?(_ text: String) {
        var scanner = Scanner(Array(text.utf8))
        guard scanner.name(), let standard = scanner.duration(maxHours: 24) else { return nil }
        standardOffset = Int32(-standard)
        if scanner.atEnd {
            daylight = nil
            return
        }
        guard scanner.name() else { return nil }
        var daylightOffset = standardOffset + 3600
        if scanner.peek != UInt8(ascii: ",") {
            guard let offset = scanner.duration(maxHours: 24) else { return nil }
            daylightOffset = Int32(-offset)
        }
        guard scanner.take(","), let start = scanner.yearDay() else { return nil }
        let startTime = scanner.take("/") ? scanner.duration(maxHours: 167) : 7200
        guard let startTime, scanner.take(","), let end = scanner.yearDay() else { return nil }
        let endTime = scanner.take("/") ? scanner.duration(maxHours: 167) : 7200
        guard let endTime, scanner.atEnd else { return nil }
        daylight = Daylight(offset: daylightOffset, start: start, startTime: Int32(startTime), end: end, endTime: Int32(endTime))
    }

    private struct Scanner {
        let bytes: [UInt8]
        var position = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var atEnd: Bool { position == bytes.count }
        var peek: UInt8? { atEnd ? nil : bytes[position] }

        mutating func take(_ character: Unicode.Scalar) -> Bool {
            guard peek == UInt8(ascii: character) else { return false }
            position += 1
            return true
        }

        /// `<+0530>` or three or more letters.
        mutating func name() -> Bool {
            if take("<") {
                let start = position
                while let byte = peek, byte != UInt8(ascii: ">") {
                    guard isLetter(byte) || isDigit(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") else { return false }
                    position += 1
                }
                return position - start >= 3 && take(">")
            }
            let start = position
            while let byte = peek, isLetter(byte) { position += 1 }
            return position - start >= 3
        }

        mutating func number(max: Int) -> Int? {
            let start = position
            var value = 0
            while let byte = peek, isDigit(byte), position - start < 3 {
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
                position += 1
            }
            return position > start && value <= max ? value : nil
        }

        /// `[+-]hh[:mm[:ss]]` in seconds.
        mutating func duration(maxHours: Int) -> Int? {
            let sign = take("-") ? -1 : 1
            if sign == 1 { _ = take("+") }
            guard let hours = number(max: maxHours) else { return nil }
            var seconds = hours * 3600
            if take(":") {
                guard let minutes = number(max: 59) else { return nil }
                seconds += minutes * 60
                if take(":") {
                    guard let secs = number(max: 59) else { return nil }
                    seconds += secs
                }
            }
            return sign * seconds
        }

        mutating func yearDay() -> YearDay? {
            if take("J") {
                guard let n = number(max: 365), n >= 1 else { return nil }
                return .julian(n)
            }
            if take("M") {
                guard let month = number(max: 12), month >= 1, take("."),
                      let week = number(max: 5), week >= 1, take("."),
                      let weekday = number(max: 6) else { return nil }
                return .monthWeekDay(month: month, week: week, weekday: weekday)
            }
            return number(max: 365).map { .zeroBased($0) }
        }

        private func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") }
        private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
    }
}
