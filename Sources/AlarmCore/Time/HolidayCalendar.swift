/// The days that count as holidays, read from iCalendar (RFC 5545) files: a
/// country's public-holiday calendar as Google, Thunderbird or Outlook
/// export it, whose all-day events are the holidays. Alarms that skip
/// holidays ask ``contains(_:)`` for each day they would ring on.
///
/// Only what says which days an event covers is read: each `VEVENT`'s
/// `DTSTART`, `DTEND` or `DURATION`, `RRULE`, `RDATE`, `EXDATE`, and
/// `RECURRENCE-ID` with `UID` (a moved or cancelled instance of a recurring
/// event). Other components (`VTIMEZONE`, `VTODO`, a `VALARM` inside an
/// event) and properties are passed over. Cancelled events
/// (`STATUS:CANCELLED`) cover nothing; transparent ones (`TRANSP`) do, as
/// holidays are usually marked free time. Dates are local dates: a
/// date-time's zone is not applied, as a calendar's all-day events are local
/// midnights whatever their zone, and a holiday is a day where the alarm is.
///
/// What cannot be read is refused, naming the line and property, rather
/// than read as fewer holidays: an alarm that rings on a holiday because a
/// line was skipped is the failure this exists to prevent.
///
/// Pure: the daemon reads the files and hands over their text.
public struct HolidayCalendar: Hashable, Sendable {
    /// A recurring event: the rule gives the first day of each occurrence,
    /// which covers `length` days. A rule with a count is kept with the
    /// equivalent end day instead, so a day is tested without counting
    /// occurrences from the start.
    struct Recurring: Hashable, Sendable {
        var rule: RecurrenceRule
        var length: Int
    }

    /// Single days of events that do not recur, sorted, without repeats:
    /// nearly all of a holiday calendar, found by binary search.
    private var days: [Int64] = []
    /// Days of multi-day events that do not recur, sorted and merged, so
    /// none overlap or touch.
    private var spans: [Range<Int64>] = []
    private var recurring: [Recurring] = []
    /// How many events the calendar holds (cancelled ones are not counted),
    /// for the daemon to log what it read.
    public private(set) var eventCount = 0

    /// The largest file read: a public-holiday calendar for decades is a few
    /// hundred kilobytes; a file many times that is not one.
    public static let maxBytes = 4 << 20
    public static let maxEvents = 10_000
    /// The longest event: `contains(_:)` tests each day of a recurring
    /// event's length, and a holiday does not last longer than a year.
    public static let maxEventDays = 366

    /// No holidays.
    public static let empty = HolidayCalendar()

    private init() {}

    /// Whether the calendar covers no day.
    public var isEmpty: Bool { days.isEmpty && spans.isEmpty && recurring.isEmpty }

    /// Whether `day` (a day number, ``CivilTime/dayNumber(year:month:day:)``)
    /// is a holiday: a day of some event. A recurring event covers `day`
    /// when one of its occurrences starts on one of the `length` days
    /// ending at `day`.
    public func contains(_ day: Int64) -> Bool {
        if let index = Self.lastIndex(in: days, atMost: day, \.self), days[index] == day { return true }
        if let index = Self.lastIndex(in: spans, atMost: day, \.lowerBound), spans[index].contains(day) { return true }
        for event in recurring {
            let rule = event.rule
            var first = max(day - Int64(event.length - 1), rule.start)
            if case .until(let until)? = rule.end, first > until { continue }
            while first <= day {
                if Self.gives(rule, first) { return true }
                first += 1
            }
        }
        return false
    }

    /// The holidays of both calendars: the daemon reads each file named in
    /// `Holidays=` and merges them.
    public func merging(_ other: HolidayCalendar) -> HolidayCalendar {
        var merged = self
        merged.days = Self.sortedUnique(days + other.days)
        merged.spans = Self.merged(spans + other.spans)
        for event in other.recurring where !merged.recurring.contains(event) { merged.recurring.append(event) }
        merged.eventCount += other.eventCount
        return merged
    }

    // MARK: Reading

    /// Reads an iCalendar file's text, as ``ICalendarComponent/parse(_:maxBytes:)``
    /// reads any (unfolded, CRLF or LF, `BEGIN`/`END` paired).
    ///
    /// An event with an `RRULE` also covers its `DTSTART` when the rule does
    /// not give it: RFC 5545 makes `DTSTART` the first instance whatever
    /// the rule says.
    public init(icalendar text: String) throws(ICalendarError) {
        var events: [Event] = []
        for calendar in try ICalendarComponent.parse(text, maxBytes: Self.maxBytes) {
            // Only the events' own properties: not those of a VALARM in one.
            for component in calendar.components where component.name == "VEVENT" {
                guard events.count < Self.maxEvents else {
                    throw ICalendarError(line: component.line, property: "BEGIN", value: component.name,
                                         requirement: "must not make more than \(Self.maxEvents) events in a file")
                }
                var properties = EventProperties(line: component.line)
                for property in component.properties { try properties.add(property) }
                events.append(try properties.event())
            }
        }
        self.init(events)
    }

    /// Stores the events' days: a moved or cancelled instance (an event
    /// with a `RECURRENCE-ID`) takes its day out of the event it belongs
    /// to, and covers its own days unless cancelled.
    private init(_ events: [Event]) {
        var moved: [String: Set<Int64>] = [:]
        for event in events {
            if let uid = event.uid, let instance = event.recurrenceID { moved[uid, default: []].insert(instance) }
        }
        var days: [Int64] = []
        var spans: [Range<Int64>] = []
        for event in events where !event.cancelled {
            eventCount += 1
            var excluded = event.exceptions
            if event.recurrenceID == nil, let uid = event.uid, let instances = moved[uid] { excluded.formUnion(instances) }
            var givesStart = false
            for var rule in event.rules {
                rule.exceptions = excluded
                guard let bounded = Self.withoutCount(rule) else { continue }
                recurring.append(Recurring(rule: bounded, length: event.length))
                givesStart = givesStart || Self.gives(bounded, event.start)
            }
            var firsts = event.extraDays
            if !givesStart { firsts.append(event.start) }
            for first in firsts where !excluded.contains(first) {
                if event.length == 1 {
                    days.append(first)
                } else {
                    spans.append(first ..< first + Int64(event.length))
                }
            }
        }
        self.days = Self.sortedUnique(days)
        self.spans = Self.merged(spans)
    }

    /// One event's days, as read.
    private struct Event {
        var start: Int64
        var length: Int
        var rules: [RecurrenceRule]
        /// `RDATE`s: more first days, besides the start and the rules'.
        var extraDays: [Int64]
        var exceptions: Set<Int64>
        var uid: String?
        var recurrenceID: Int64?
        var cancelled: Bool
    }

    /// An event's properties as they are met, checked when its `END:VEVENT` comes.
    private struct EventProperties {
        /// The `BEGIN:VEVENT` line, for a missing `DTSTART`.
        let line: Int
        var start: ICalendarProperty?
        var end: ICalendarProperty?
        var duration: ICalendarProperty?
        var rules: [ICalendarProperty] = []
        var extraDays: [ICalendarProperty] = []
        var exceptions: [ICalendarProperty] = []
        var uid: String?
        var recurrenceID: ICalendarProperty?
        var cancelled = false

        init(line: Int) { self.line = line }

        mutating func add(_ property: ICalendarProperty) throws(ICalendarError) {
            func once(_ slot: inout ICalendarProperty?) throws(ICalendarError) {
                guard slot == nil else {
                    throw ICalendarError(line: property.line, property: property.name, value: property.value, requirement: N_("must be given only once in a VEVENT"))
                }
                slot = property
            }
            switch property.name {
            case "DTSTART": try once(&start)
            case "DTEND", "DURATION":
                if end != nil || duration != nil {
                    throw ICalendarError(line: property.line, property: property.name, value: property.value, requirement: N_("must be given only once in a VEVENT, and not with both DTEND and DURATION"))
                }
                if property.name == "DTEND" { end = property } else { duration = property }
            case "RRULE": rules.append(property)
            case "RDATE": extraDays.append(property)
            case "EXDATE": exceptions.append(property)
            case "UID": uid = property.value
            case "RECURRENCE-ID": try once(&recurrenceID)
            case "STATUS": cancelled = property.value.uppercased() == "CANCELLED"
            default: break
            }
        }

        func event() throws(ICalendarError) -> Event {
            guard let startProperty = start else {
                throw ICalendarError(line: line, property: "DTSTART", value: nil, requirement: N_("must be given in the VEVENT that begins on this line"))
            }
            let first = try HolidayCalendar.date(startProperty)
            let startSeconds = first.day * CivilTime.secondsPerDay + (first.seconds ?? 0)
            // Without an end, a day lasts the day and a date-time is an instant (RFC 5545 §3.6.1).
            var endSeconds = first.seconds == nil ? startSeconds + CivilTime.secondsPerDay : startSeconds
            // What a too-long event is blamed on.
            var lengthProperty = startProperty
            if let end {
                let last = try HolidayCalendar.date(end)
                endSeconds = last.day * CivilTime.secondsPerDay + (last.seconds ?? 0)
                guard endSeconds >= startSeconds else {
                    throw ICalendarError(line: end.line, property: end.name, value: end.value, requirement: N_("must not be before DTSTART"))
                }
                lengthProperty = end
            } else if let duration {
                guard let seconds = HolidayCalendar.durationSeconds(duration.value) else {
                    throw ICalendarError(line: duration.line, property: duration.name, value: duration.value, requirement: N_("must be a duration like P1D, P2W or PT8H, not negative"))
                }
                endSeconds = startSeconds + seconds
                lengthProperty = duration
            }
            // The end is exclusive: an event ending at midnight does not cover the day it ends on.
            let lastDay = endSeconds > startSeconds ? CivilTime.floorDiv(endSeconds - 1, CivilTime.secondsPerDay) : first.day
            let length = lastDay - first.day + 1
            guard length <= Int64(HolidayCalendar.maxEventDays) else {
                throw ICalendarError(line: lengthProperty.line, property: lengthProperty.name, value: lengthProperty.value,
                                     requirement: "must end at most \(HolidayCalendar.maxEventDays) days after DTSTART")
            }
            var rules: [RecurrenceRule] = []
            for property in self.rules {
                do {
                    rules.append(try RecurrenceRule(icalendarValue: property.value, start: first.day))
                } catch {
                    throw error.at(line: property.line)
                }
            }
            var instance: Int64?
            if let recurrenceID { instance = try HolidayCalendar.date(recurrenceID).day }
            return Event(start: first.day, length: Int(length), rules: rules,
                         extraDays: try HolidayCalendar.dateList(extraDays), exceptions: Set(try HolidayCalendar.dateList(exceptions)),
                         uid: uid, recurrenceID: instance, cancelled: cancelled)
        }
    }

    private static let dateRequirement = "must be a date like 20261225 or a date-time like 20261225T000000"

    private static func date(_ property: ICalendarProperty) throws(ICalendarError) -> (day: Int64, seconds: Int64?) {
        guard let date = RecurrenceRule.icalendarDate(property.value[...]) else {
            throw ICalendarError(line: property.line, property: property.name, value: property.value, requirement: dateRequirement)
        }
        return date
    }

    /// The first days of `RDATE` or `EXDATE` properties: comma-separated
    /// dates or date-times; of a period (`start/end`, an `RDATE` form) the
    /// start.
    private static func dateList(_ properties: [ICalendarProperty]) throws(ICalendarError) -> [Int64] {
        var days: [Int64] = []
        for property in properties {
            for item in property.value.split(separator: ",", omittingEmptySubsequences: false) {
                let start = item.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)[0]
                guard let date = RecurrenceRule.icalendarDate(start) else {
                    throw ICalendarError(line: property.line, property: property.name, value: property.value,
                                         requirement: N_("must list dates like 20261225 or date-times like 20261225T000000, separated by commas"))
                }
                days.append(date.day)
            }
        }
        return days
    }

    /// A `DURATION` (`P3D`, `P1W`, `PT8H`, `P1DT12H`) in seconds; `nil` when
    /// malformed or negative.
    static func durationSeconds(_ text: String) -> Int64? {
        var bytes = Substring(text).utf8[...]
        if bytes.first == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
        guard bytes.first == UInt8(ascii: "P") else { return nil }
        bytes = bytes.dropFirst()
        // Units in order, each once: W and D before T; H, M, S after.
        let units: [(unit: UInt8, seconds: Int64, time: Bool)] = [
            (UInt8(ascii: "W"), 604_800, false), (UInt8(ascii: "D"), 86_400, false),
            (UInt8(ascii: "H"), 3_600, true), (UInt8(ascii: "M"), 60, true), (UInt8(ascii: "S"), 1, true),
        ]
        var total: Int64 = 0
        var nextUnit = 0
        var inTime = false
        var any = false
        while let byte = bytes.first {
            if byte == UInt8(ascii: "T"), !inTime {
                inTime = true
                bytes = bytes.dropFirst()
                continue
            }
            let digits = bytes.prefix { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
            guard (1...9).contains(digits.count) else { return nil }
            bytes = bytes.dropFirst(digits.count)
            guard let unitByte = bytes.first,
                  let index = units[nextUnit...].firstIndex(where: { $0.unit == unitByte && $0.time == inTime }) else { return nil }
            bytes = bytes.dropFirst()
            total += Int64(String(decoding: digits, as: UTF8.self))! * units[index].seconds
            nextUnit = index + 1
            any = true
        }
        guard any, !inTime || nextUnit > 2 else { return nil }
        return total
    }

    // MARK: Days

    /// Whether `rule` gives `day`, from the one period `day` falls in: what
    /// ``RecurrenceRule/nextDay(after:)`` answers for `day - 1`, without
    /// searching on past `day` for the next occurrence (which, for a rule
    /// that seldom or never occurs, is centuries of periods).
    static func gives(_ rule: RecurrenceRule, _ day: Int64) -> Bool {
        guard day >= rule.start, !rule.exceptions.contains(day) else { return false }
        switch rule.end {
        case .until(let until)?:
            guard day <= until else { return false }
        case .count?:
            return rule.nextDay(after: day - 1) == day
        case nil:
            break
        }
        let period = rule.periodIndex(of: day)
        guard period >= 0, period % rule.interval == 0 else { return false }
        var found = false
        rule.forEachOccurrence(inPeriod: period) { candidate in
            if candidate >= day {
                found = candidate == day
                return false
            }
            return true
        }
        return found
    }

    /// `rule` with its count replaced by the day of its last occurrence
    /// (the count is of occurrences before exceptions, so the days are the
    /// same); `nil` when it gives no day. Searches as far as
    /// ``RecurrenceRule/nextDay(after:)`` would: 400 years past the count's
    /// periods.
    static func withoutCount(_ rule: RecurrenceRule) -> RecurrenceRule? {
        guard case .count(let count)? = rule.end else { return rule }
        let periodsIn400Years: Int
        switch rule.frequency {
        case .daily: periodsIn400Years = 146_097
        case .weekly: periodsIn400Years = 146_097 / 7 + 1
        case .monthly: periodsIn400Years = 146_097 / 28 + 1
        case .yearly: periodsIn400Years = 146_097 / 365 + 1
        }
        let limit = periodsIn400Years + count * rule.interval
        var seen = 0
        var last: Int64?
        var period = 0
        while period <= limit, seen < count {
            rule.forEachOccurrence(inPeriod: period) { candidate in
                guard candidate >= rule.start else { return true }
                seen += 1
                last = candidate
                return seen < count
            }
            period += rule.interval
        }
        guard let last else { return nil }
        var bounded = rule
        bounded.end = .until(last)
        return bounded
    }

    /// The index of the last element whose key is at most `day`, in
    /// elements sorted by that key.
    private static func lastIndex<Element>(in elements: [Element], atMost day: Int64, _ key: (Element) -> Int64) -> Int? {
        var low = 0
        var high = elements.count
        while low < high {
            let middle = (low + high) / 2
            if key(elements[middle]) <= day { low = middle + 1 } else { high = middle }
        }
        return low > 0 ? low - 1 : nil
    }

    private static func sortedUnique(_ days: [Int64]) -> [Int64] {
        var result: [Int64] = []
        for day in days.sorted() where result.last != day { result.append(day) }
        return result
    }

    /// Sorted, with overlapping and touching ranges joined.
    private static func merged(_ spans: [Range<Int64>]) -> [Range<Int64>] {
        var result: [Range<Int64>] = []
        for span in spans.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = result.last, span.lowerBound <= last.upperBound {
                result[result.count - 1] = last.lowerBound ..< max(last.upperBound, span.upperBound)
            } else {
                result.append(span)
            }
        }
        return result
    }
}
