// SPDX-License-Identifier: Apache-2.0
import AlarmCore

/// An item's calendar rule as stored: the iCalendar (RFC 5545) lines that
/// say it in a calendar file, so the column reads like one and an export
/// copies it —
///
///     DTSTART;VALUE=DATE:20261224
///     RRULE:FREQ=MONTHLY;BYDAY=2TU
///     EXDATE;VALUE=DATE:20270112,20270209
///
/// `NULL` is no rule.
enum RuleColumn {
    static func text(_ rule: RecurrenceRule?) -> String? {
        guard let rule else { return nil }
        var lines = ["DTSTART;VALUE=DATE:" + RecurrenceRule.icalendarDateText(rule.start), "RRULE:" + rule.icalendarValue]
        if !rule.exceptions.isEmpty {
            lines.append("EXDATE;VALUE=DATE:" + rule.exceptions.sorted().map(RecurrenceRule.icalendarDateText).joined(separator: ","))
        }
        return lines.joined(separator: "\n")
    }

    /// The rule `text` holds; the error says what is wrong with it.
    static func rule(_ text: String?) throws(ValidationError) -> RecurrenceRule? {
        guard let text else { return nil }
        var start: Int64?
        var value: String?
        var exceptions: Set<Int64> = []
        for line in text.split(separator: "\n") {
            if let dates = line.dropping(prefix: "DTSTART;VALUE=DATE:") {
                start = try day(dates)
            } else if let rule = line.dropping(prefix: "RRULE:") {
                value = String(rule)
            } else if let dates = line.dropping(prefix: "EXDATE;VALUE=DATE:") {
                for date in dates.split(separator: ",") { exceptions.insert(try day(date)) }
            } else {
                throw .text("rule", "must be DTSTART, RRULE and EXDATE lines", got: String(line))
            }
        }
        guard let start, let value else { throw .text("rule", "must have a DTSTART and an RRULE", got: text) }
        var rule: RecurrenceRule
        do { rule = try RecurrenceRule(icalendarValue: value, start: start) } catch {
            throw .text("rule", error.description, got: value)
        }
        rule.exceptions = exceptions
        return rule
    }

    private static func day(_ text: Substring) throws(ValidationError) -> Int64 {
        guard let day = CivilTime.dayNumber(isoDate: String(text), basic: true) else {
            throw .text("rule", "must have dates as YYYYMMDD", got: String(text))
        }
        return day
    }
}

private extension Substring {
    func dropping(prefix: String) -> Substring? { hasPrefix(prefix) ? dropFirst(prefix.count) : nil }
}
