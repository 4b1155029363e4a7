// SPDX-License-Identifier: Apache-2.0
import AlarmCore

extension Wire {
    /// `Rule`: a calendar rule, the RFC 5545 subset of ``RecurrenceRule``,
    /// with dates as `YYYY-MM-DD`.
    public enum Rule: WireStruct {
        public static let frequency = WireField("frequency", .string), interval = WireField("interval", .int)
        public static let byDay = WireField("byDay", .array(.named("RuleDay"))), byMonthDay = WireField("byMonthDay", .array(.int))
        public static let byMonth = WireField("byMonth", .array(.int)), starting = WireField("starting", .string)
        public static let until = WireField.optional("until", .string), times = WireField.optional("times", .int)
        public static let exceptions = WireField("exceptions", .array(.string))
        public static let fields = [frequency, interval, byDay, byMonthDay, byMonth, starting, until, times, exceptions]

        public static func json(_ rule: RecurrenceRule) -> JSONValue {
            var object = JSONObject([
                frequency: .string(rule.frequency.rawValue),
                interval: JSONValue(rule.interval),
                byDay: .array(rule.byDay.map(RuleDay.json)),
                byMonthDay: .array(rule.byMonthDay.map { JSONValue($0) }),
                byMonth: .array(rule.byMonth.map { JSONValue($0) }),
                starting: .string(RecurrenceRule.dateText(rule.start)),
            ])
            switch rule.end {
            case .until(let day)?: object[until] = .string(RecurrenceRule.dateText(day))
            case .count(let count)?: object[times] = JSONValue(count)
            case nil: break
            }
            object[exceptions] = .array(rule.exceptions.sorted().map { .string(RecurrenceRule.dateText($0)) })
            return .object(object)
        }

        /// Reads and checks a rule; every failure names its member
        /// (`fields.rule.byDay[0].ordinal`). Members left out take the
        /// defaults of a rule: interval 1, no days named (the start's day),
        /// no end, no exceptions; `frequency` and `starting` are required.
        public static func parse(_ parameters: Parameters) throws(VarlinkError) -> RecurrenceRule {
            try parameters.allowOnly(fields)
            let name = try parameters.requiredString(frequency)
            guard let kind = RecurrenceRule.Frequency(rawValue: name) else {
                throw .invalidParameter(parameters.path + frequency.name, "must be daily, weekly, monthly or yearly, got \(ValidationError.quoted(name))")
            }
            let start = try date(parameters, starting, parameters.requiredString(starting))
            var rule = RecurrenceRule(kind, interval: try parameters.int(interval, in: RecurrenceRule.intervalRange) ?? 1, start: start)
            rule.byDay = try (parameters.objectArray(byDay.name) ?? []).map { entry throws(VarlinkError) in try RuleDay.parse(entry) }
            rule.byMonthDay = try parameters.intArray(byMonthDay.name) ?? []
            rule.byMonth = try parameters.intArray(byMonth.name) ?? []
            let last = try parameters.string(until)
            let count = try parameters.int(times, in: RecurrenceRule.countRange)
            if last != nil, count != nil {
                throw .invalidParameter(parameters.path + times.name, "cannot be given with until (a rule ends one way), got \(count!)")
            }
            if let last { rule.end = .until(try date(parameters, until, last)) }
            if let count { rule.end = .count(count) }
            let days = try parameters.stringArray(exceptions) ?? []
            guard days.count <= RecurrenceRule.maxExceptions else {
                throw .invalidParameter(parameters.path + exceptions.name, "must be at most \(RecurrenceRule.maxExceptions) dates, got \(days.count)")
            }
            for text in days { rule.exceptions.insert(try date(parameters, exceptions, text)) }
            do throws(ValidationError) {
                try rule.validate()
                try rule.validateDaysExist()
            } catch {
                let member = [byDay, byMonthDay, byMonth, until, times, exceptions, interval].first { $0.name == error.field } ?? frequency
                throw .invalidParameter(parameters.path + member.name, "\(error.requirement), got \(error.value)")
            }
            return rule
        }

        static func date(_ parameters: Parameters, _ field: WireField, _ text: String) throws(VarlinkError) -> Int64 {
            guard let day = CivilTime.dayNumber(isoDate: text) else {
                throw .invalidParameter(parameters.path + field.name, "must be a date YYYY-MM-DD, got \(ValidationError.quoted(text))")
            }
            return day
        }
    }

    /// `RuleDay`: a weekday of a rule, with an ordinal within the month for
    /// monthly and yearly rules (2: the 2nd, -1: the last).
    public enum RuleDay: WireStruct {
        public static let weekday = WireField("weekday", .string), ordinal = WireField.optional("ordinal", .int)
        public static let fields = [weekday, ordinal]

        static func json(_ day: RecurrenceRule.DayOfWeek) -> JSONValue {
            var object = JSONObject([weekday: .string(day.weekday.code)])
            if let value = day.ordinal { object[ordinal] = JSONValue(value) }
            return .object(object)
        }

        static func parse(_ parameters: Parameters) throws(VarlinkError) -> RecurrenceRule.DayOfWeek {
            try parameters.allowOnly(fields)
            let code = try parameters.requiredString(weekday)
            guard let day = Weekday.byCode[code] else {
                throw .invalidParameter(parameters.path + weekday.name, "must be a lowercase three-letter day name (mon … sun), got \(ValidationError.quoted(code))")
            }
            return RecurrenceRule.DayOfWeek(day, ordinal: try parameters.int(ordinal, in: -5...5))
        }
    }
}
