// SPDX-License-Identifier: Apache-2.0
/// alarmd's own words and forms, untranslated: English, ISO 8601 dates,
/// 24-hour times. What the journal, the wire's text fields and the C locale get.
public struct SourceLocalization: Localization {
    public init() {}

    public func L(_ message: String) -> String { message }

    public func plural(_ singular: String, _ plural: String, _ count: Int) -> String { count == 1 ? singular : plural }

    public func date(year: Int, month: Int, day: Int) -> String {
        LocalDateTime.pad(year, 4) + "-" + LocalDateTime.pad(month, 2) + "-" + LocalDateTime.pad(day, 2)
    }

    public func monthDay(month: Int, day: Int) -> String { RecurrenceRule.monthNames[month - 1] + " \(day)" }

    public func monthName(_ month: Int) -> String { RecurrenceRule.monthNames[month - 1] }

    public func time(hour: Int, minute: Int, second: Int?) -> String {
        LocalDateTime.pad(hour, 2) + ":" + LocalDateTime.pad(minute, 2) + (second.map { ":" + LocalDateTime.pad($0, 2) } ?? "")
    }

    public func weekday(_ day: Weekday) -> String { day.shortName }
}

extension Localization where Self == SourceLocalization {
    /// The untranslated forms: `.source`.
    public static var source: SourceLocalization { SourceLocalization() }
}
