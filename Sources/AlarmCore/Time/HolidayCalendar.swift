// SPDX-License-Identifier: Apache-2.0
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
    /// Days of multi-day events that do not recur, and the days of recurring
    /// events in the years ``YearIndex`` leaves out, sorted and merged, so
    /// none overlap or touch.
    private var spans: [Range<Int64>] = []
    /// The recurring events whose rule has an interval of 1 (every yearly
    /// holiday), by the kind of year; `nil` when there are none.
    private var yearIndex: YearIndex?
    /// The recurring events with a larger interval, tested one by one: at
    /// most ``maxSparseRules`` a file.
    private var sparse: [Recurring] = []
    /// How many events the calendar holds (cancelled ones are not counted),
    /// for the daemon to log what it read.
    public private(set) var eventCount = 0

    /// The largest file read: a public-holiday calendar for decades is a few
    /// hundred kilobytes; a file many times that is not one.
    public static let maxBytes = 4 << 20
    public static let maxEvents = 10_000
    /// The longest event: a holiday does not last longer than a year, and
    /// ``YearIndex`` places an occurrence within the year after its start.
    public static let maxEventDays = 366
    /// The most recurring rules with an `INTERVAL` above 1 in a file (an
    /// election every four years): ``contains(_:)`` tests each of them on
    /// the days of its length before the day asked about.
    public static let maxSparseRules = 32
    /// The most steps reading a file's recurring events may take: periods
    /// walked, occurrences met and index entries made. A calendar of yearly
    /// holidays takes a few thousand; a file past this is refused at the
    /// rule that passes it, so loading stays bounded whatever the file.
    public static let maxIndexWork = 10_000_000

    /// No holidays.
    public static let empty = HolidayCalendar()

    private init() {}

    /// Whether the calendar covers no day.
    public var isEmpty: Bool { days.isEmpty && spans.isEmpty && yearIndex == nil && sparse.isEmpty }

    /// Whether `day` (a day number, ``CivilTime/dayNumber(year:month:day:)``)
    /// is a holiday: a day of some event. A recurring event covers `day`
    /// when one of its occurrences starts on one of the `length` days
    /// ending at `day`. Binary searches, a walk up ``YearIndex``'s two
    /// trees, and the few ``sparse`` rules: logarithmic in the calendar's
    /// size.
    public func contains(_ day: Int64) -> Bool {
        if let index = Self.lastIndex(in: days, atMost: day, \.self), days[index] == day { return true }
        if let index = Self.lastIndex(in: spans, atMost: day, \.lowerBound), spans[index].contains(day) { return true }
        if let yearIndex, yearIndex.covers(day) { return true }
        return sparse.contains { Self.occurs($0.rule, from: day - Int64($0.length - 1), through: day) }
    }

    /// The holidays of both calendars: the daemon reads each file named in
    /// `Holidays=` and merges them.
    public func merging(_ other: HolidayCalendar) -> HolidayCalendar {
        var merged = self
        merged.days = Self.sortedUnique(days + other.days)
        merged.spans = Self.merged(spans + other.spans)
        if let theirs = other.yearIndex {
            if var ours = merged.yearIndex {
                ours.merge(theirs)
                merged.yearIndex = ours
            } else {
                merged.yearIndex = theirs
            }
        }
        var known = Set(sparse)
        for event in other.sparse where known.insert(event).inserted { merged.sparse.append(event) }
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
        try self.init(events)
    }

    /// Stores the events' days: a moved or cancelled instance (an event
    /// with a `RECURRENCE-ID`) takes its day out of the event it belongs
    /// to, and covers its own days unless cancelled. One pass over the
    /// events; the work their rules take is counted against
    /// ``maxIndexWork``.
    private init(_ events: [Event]) throws(ICalendarError) {
        var moved: [String: Set<Int64>] = [:]
        for event in events {
            if let uid = event.uid, let instance = event.recurrenceID { moved[uid, default: []].insert(instance) }
        }
        var days: [Int64] = []
        var spans: [Range<Int64>] = []
        var builder = YearIndex.Builder()
        for event in events where !event.cancelled {
            eventCount += 1
            var excluded = event.exceptions
            if event.recurrenceID == nil, let uid = event.uid, let instances = moved[uid] { excluded.formUnion(instances) }
            var givesStart = false
            for (var rule, property) in event.rules {
                rule.exceptions = excluded
                builder.work += excluded.count
                guard let bounded = Self.withoutCount(rule, work: &builder.work) else { continue }
                givesStart = givesStart || Self.gives(bounded, event.start)
                let recurring = Recurring(rule: bounded, length: event.length)
                if bounded.interval == 1 {
                    builder.add(recurring, spans: &spans)
                } else {
                    guard sparse.count < Self.maxSparseRules else {
                        throw property.refused("must not make more than \(Self.maxSparseRules) recurring events with an INTERVAL above 1 in a file")
                    }
                    sparse.append(recurring)
                }
                guard builder.work <= Self.maxIndexWork else {
                    throw property.refused("must not take the file's recurring events past \(Self.maxIndexWork) steps to read (too many, too dense or too many exceptions)")
                }
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
        self.yearIndex = builder.finish()
    }

    /// One event's days, as read.
    private struct Event {
        var start: Int64
        var length: Int
        /// Each rule with the `RRULE` it was read from, which a refusal names.
        var rules: [(rule: RecurrenceRule, property: ICalendarProperty)]
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
            var rules: [(rule: RecurrenceRule, property: ICalendarProperty)] = []
            for property in self.rules {
                do {
                    rules.append((try RecurrenceRule(icalendarValue: property.value, start: first.day), property))
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

    /// Whether `rule` gives a day in `low...high` (after its start, end and
    /// exceptions): the periods those days fall in, and no further.
    static func occurs(_ rule: RecurrenceRule, from low: Int64, through high: Int64) -> Bool {
        let low = max(low, rule.start)
        var high = high
        if case .until(let until)? = rule.end { high = min(high, until) }
        guard low <= high else { return false }
        var period = max(0, rule.periodIndex(of: low))
        period += (rule.interval - period % rule.interval) % rule.interval
        let last = rule.periodIndex(of: high)
        var found = false
        while period <= last, !found {
            rule.forEachOccurrence(inPeriod: period) { candidate in
                guard candidate >= low else { return true }
                guard candidate <= high else { return false }
                guard !rule.exceptions.contains(candidate) else { return true }
                found = true
                return false
            }
            period += rule.interval
        }
        return found
    }

    /// `rule` with its count replaced by the day of its last occurrence
    /// (the count is of occurrences before exceptions, so the days are the
    /// same); `nil` when it gives no day. Searches as far as
    /// ``RecurrenceRule/nextDay(after:)`` would: 400 years past the count's
    /// periods.
    static func withoutCount(_ rule: RecurrenceRule) -> RecurrenceRule? {
        var work = 0
        return withoutCount(rule, work: &work)
    }

    /// The same, adding the periods it walks to `work`.
    static func withoutCount(_ rule: RecurrenceRule, work: inout Int) -> RecurrenceRule? {
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
            work += 1
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

extension HolidayCalendar {
    /// The recurring events whose rule has an interval of 1, answering for
    /// any day with two walks up a tree. Such a rule gives the same days in
    /// every year of one kind — leap or not, and the weekday of 1 January:
    /// fourteen kinds — so past the first year of the rule and before its
    /// last, what it covers is a rectangle: a range of years by the days,
    /// counted from 1 January, that its occurrences in a year of that kind
    /// cover (up to 731: a 366-day occurrence from 31 December reaches into
    /// the next year). Its first and last years, and any year one of its
    /// exceptions falls in, are left to ``HolidayCalendar/spans``.
    ///
    /// Each kind has a segment tree over those offsets whose nodes hold the
    /// years of the rectangles covering them: the first year of those
    /// without an end, and the others as sorted, merged ranges of years.
    /// A day is a holiday when a node on the way from its offset to the root
    /// holds its year, in its own year or (through the next year's offsets)
    /// the one before.
    struct YearIndex: Hashable, Sendable {
        static let kinds = 14
        /// Offsets 0..<731 fit; the tree's leaves.
        static let leaves = 1024

        /// Per kind and node: the first year covered for good, `Int.max` for none.
        private var openFrom = [Int](repeating: .max, count: kinds * 2 * leaves)
        /// Per kind and node: ranges of years, sorted and merged once built.
        private var years = [[ClosedRange<Int>]](repeating: [], count: kinds * 2 * leaves)

        /// Which of the fourteen kinds `year` is: the weekday of its 1
        /// January (0 Sunday), plus 7 in a leap year.
        static func kind(ofYear year: Int) -> Int {
            let weekday = CivilTime.weekday(dayNumber: CivilTime.dayNumber(year: year, month: 1, day: 1)).rawValue
            return weekday + (CivilTime.daysInMonth(year: year, month: 2) == 29 ? 7 : 0)
        }

        /// A year of each kind, where a rule's days for that kind are found.
        static let sampleYears: [Int] = {
            var years = [Int](repeating: 0, count: kinds)
            for year in 2000..<2028 where years[kind(ofYear: year)] == 0 { years[kind(ofYear: year)] = year }
            return years
        }()

        /// Whether a rectangle covers `day`: one from `day`'s year, or one
        /// from the year before that reaches into it.
        func covers(_ day: Int64) -> Bool {
            let year = CivilTime.date(dayNumber: day).year
            return covers(day, from: year) || covers(day, from: year - 1)
        }

        private func covers(_ day: Int64, from year: Int) -> Bool {
            let offset = Int(day - CivilTime.dayNumber(year: year, month: 1, day: 1))
            return covers(kind: Self.kind(ofYear: year), offset: offset, year: year)
        }

        private func covers(kind: Int, offset: Int, year: Int) -> Bool {
            guard (0..<Self.leaves).contains(offset) else { return false }
            let base = kind * 2 * Self.leaves
            var node = offset + Self.leaves
            while node >= 1 {
                if openFrom[base + node] <= year { return true }
                let ranges = years[base + node]
                if !ranges.isEmpty {
                    var low = 0
                    var high = ranges.count
                    while low < high {
                        let middle = (low + high) / 2
                        if ranges[middle].lowerBound <= year { low = middle + 1 } else { high = middle }
                    }
                    if low > 0, ranges[low - 1].contains(year) { return true }
                }
                node >>= 1
            }
            return false
        }

        /// Marks `offsets` as covered in `years` (an upper bound of `Int.max`:
        /// without end) for years of `kind`; the number of nodes touched.
        mutating func insert(kind: Int, offsets: Range<Int>, years range: ClosedRange<Int>) -> Int {
            let base = kind * 2 * Self.leaves
            var low = offsets.lowerBound + Self.leaves
            var high = offsets.upperBound + Self.leaves
            var touched = 0
            func add(_ node: Int) {
                touched += 1
                if range.upperBound == .max {
                    openFrom[base + node] = min(openFrom[base + node], range.lowerBound)
                } else {
                    years[base + node].append(range)
                }
            }
            while low < high {
                if low & 1 == 1 { add(low); low += 1 }
                if high & 1 == 1 { high -= 1; add(high) }
                low >>= 1
                high >>= 1
            }
            return touched
        }

        /// Sorts and merges each node's ranges, dropping years its
        /// `openFrom` covers anyway.
        mutating func finish() {
            for node in years.indices where !years[node].isEmpty {
                var merged: [ClosedRange<Int>] = []
                for range in years[node].sorted(by: { $0.lowerBound < $1.lowerBound }) where range.lowerBound < openFrom[node] {
                    let range = range.lowerBound...min(range.upperBound, openFrom[node] - 1)
                    if let last = merged.last, range.lowerBound <= last.upperBound + 1 {
                        merged[merged.count - 1] = last.lowerBound...max(last.upperBound, range.upperBound)
                    } else {
                        merged.append(range)
                    }
                }
                years[node] = merged
            }
        }

        /// Both indexes' rectangles in this one.
        mutating func merge(_ other: YearIndex) {
            for node in openFrom.indices {
                openFrom[node] = min(openFrom[node], other.openFrom[node])
                years[node] += other.years[node]
            }
            finish()
        }

        /// Builds an index rule by rule, counting the work it takes.
        struct Builder {
            var index: YearIndex?
            /// Steps taken: periods walked, occurrences met, nodes touched.
            var work = 0
            /// A rule's covered offsets for each kind of year, by what
            /// decides them; most holidays share a few.
            private var patterns: [Shape: [[Range<Int>]]] = [:]

            /// What decides the days an interval-1 rule covers in a year.
            private struct Shape: Hashable {
                var frequency: RecurrenceRule.Frequency
                var byDay: [RecurrenceRule.DayOfWeek]
                var byMonthDay: [Int]
                var byMonth: [Int]
                var startMonth: Int
                var startDay: Int
                var startWeekday: Int
                var length: Int
            }

            /// Adds `event` (a rule with an interval of 1 and no count): its
            /// first and last years and the years of its exceptions to `spans`
            /// day by day, the years between to the index.
            mutating func add(_ event: Recurring, spans: inout [Range<Int64>]) {
                let rule = event.rule
                let firstYear = CivilTime.date(dayNumber: rule.start).year
                var lastYear = Int.max
                if case .until(let until)? = rule.end { lastYear = CivilTime.date(dayNumber: until).year }
                var apart: Set<Int> = [firstYear]
                if lastYear != .max { apart.insert(lastYear) }
                if !rule.exceptions.isEmpty {
                    var plain = rule
                    plain.exceptions = []
                    for exception in rule.exceptions where HolidayCalendar.gives(plain, exception) {
                        apart.insert(CivilTime.date(dayNumber: exception).year)
                    }
                }
                for year in apart where year >= firstYear && year <= lastYear {
                    occurrences(of: event, in: year, into: &spans)
                }
                guard firstYear < lastYear - 1 else { return }
                let pattern = self.pattern(of: event)
                // Taken out while it changes, so that it is not copied.
                var index = self.index ?? YearIndex()
                self.index = nil
                var from = firstYear + 1
                for cut in apart.filter({ $0 > firstYear && $0 < lastYear }).sorted() + [lastYear] {
                    if from < cut {
                        let range = from...(cut == .max ? .max : cut - 1)
                        for kind in 0..<YearIndex.kinds {
                            for offsets in pattern[kind] { work += index.insert(kind: kind, offsets: offsets, years: range) }
                        }
                    }
                    if cut == .max { break }
                    from = cut + 1
                }
                self.index = index
            }

            /// The index, finished; `nil` when no rule went into it.
            func finish() -> YearIndex? {
                guard var index else { return nil }
                index.finish()
                return index
            }

            /// The days `event` covers from its occurrences in `year`, after
            /// its start, end and exceptions.
            private mutating func occurrences(of event: Recurring, in year: Int, into spans: inout [Range<Int64>]) {
                let rule = event.rule
                let low = max(CivilTime.dayNumber(year: year, month: 1, day: 1), rule.start)
                var high = CivilTime.dayNumber(year: year, month: 12, day: 31)
                if case .until(let until)? = rule.end { high = min(high, until) }
                guard low <= high else { return }
                var work = 0
                for period in max(0, rule.periodIndex(of: low))...max(0, rule.periodIndex(of: high)) {
                    work += 1
                    rule.forEachOccurrence(inPeriod: period) { candidate in
                        work += 1
                        guard candidate >= low else { return true }
                        guard candidate <= high else { return false }
                        if !rule.exceptions.contains(candidate) { spans.append(candidate ..< candidate + Int64(event.length)) }
                        return true
                    }
                }
                self.work += work
            }

            /// The offsets `event`'s occurrences in a year of each kind
            /// cover, sorted and merged.
            private mutating func pattern(of event: Recurring) -> [[Range<Int>]] {
                let rule = event.rule
                let start = CivilTime.date(dayNumber: rule.start)
                let shape = Shape(frequency: rule.frequency, byDay: rule.byDay, byMonthDay: rule.byMonthDay, byMonth: rule.byMonth,
                                  startMonth: start.month, startDay: start.day,
                                  startWeekday: CivilTime.weekday(dayNumber: rule.start).rawValue, length: event.length)
                if let known = patterns[shape] { return known }
                var work = 0
                let pattern = YearIndex.sampleYears.map { year in
                    let first = CivilTime.dayNumber(year: year, month: 1, day: 1)
                    let last = CivilTime.dayNumber(year: year, month: 12, day: 31)
                    var offsets: [Range<Int>] = []
                    // Periods before the start count backwards from it; the
                    // rule gives the same days in them (an interval of 1).
                    for period in rule.periodIndex(of: first)...rule.periodIndex(of: last) {
                        work += 1
                        rule.forEachOccurrence(inPeriod: period) { candidate in
                            work += 1
                            guard candidate >= first else { return true }
                            guard candidate <= last else { return false }
                            let offset = Int(candidate - first)
                            let covered = offset ..< offset + event.length
                            if let previous = offsets.last, covered.lowerBound <= previous.upperBound {
                                offsets[offsets.count - 1] = previous.lowerBound ..< max(previous.upperBound, covered.upperBound)
                            } else {
                                offsets.append(covered)
                            }
                            return true
                        }
                    }
                    return offsets
                }
                self.work += work
                patterns[shape] = pattern
                return pattern
            }
        }
    }
}
