// SPDX-License-Identifier: Apache-2.0
/// A problem in an iCalendar (RFC 5545) file or value, with enough context
/// to find and fix it: the line, the property, its value and what it must be.
///
/// `line 12: RRULE "FREQ=HOURLY": FREQ must be DAILY, WEEKLY, MONTHLY or YEARLY`.
/// The line is the physical line a property starts on (a folded property
/// spans several), so an editor's line number finds it; a value parsed on
/// its own (``RecurrenceRule/init(icalendarValue:start:)``) has none until
/// the file reader puts it in. The daemon puts the file's path in front.
public struct ICalendarError: Error, Hashable, Sendable, CustomStringConvertible {
    /// 1-based physical line where the property starts, or `nil` for a value
    /// read outside a file, or a problem with the whole file.
    public let line: Int?
    /// The property (`RRULE`, `DTSTART`, `BEGIN`, …) as the file spells it in
    /// capitals; empty for a problem with the whole file.
    public let property: String
    /// The rejected value as the file gives it (after unfolding), or `nil`
    /// when the problem is something missing.
    public let value: String?
    /// What was wrong, phrased to follow the property and value
    /// (`FREQ must be DAILY, …`, `must be a date like 20261225`).
    public let requirement: String

    public init(line: Int? = nil, property: String, value: String?, requirement: String) {
        self.line = line
        self.property = property
        self.value = value
        self.requirement = requirement
    }

    /// The same problem, placed at `line`; a value parser does not know
    /// where its value came from, the file reader does.
    func at(line: Int) -> ICalendarError {
        ICalendarError(line: line, property: property, value: value, requirement: requirement)
    }

    /// The value is quoted and escaped as ``ValidationError`` quotes text, so
    /// a stray control character or trailing space in the file shows.
    public var description: String {
        var subject = property
        if let value { subject += (subject.isEmpty ? "" : " ") + ValidationError.quoted(value) }
        let location = line.map { "line \($0): " } ?? ""
        return location + (subject.isEmpty ? requirement : subject + ": " + requirement)
    }
}
