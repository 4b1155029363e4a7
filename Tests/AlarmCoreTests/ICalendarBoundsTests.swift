// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import Foundation
import Testing

/// Hostile iCalendar files: nesting, line length, parameters and rules that
/// never occur are refused with the line and property named, in time
/// linear in the file, never by a crash.
@Suite struct ICalendarBoundsTests {
    static let settings = ICalendarItems.Settings(zone: .utc, allDayAt: .nineAM, now: Date(timeIntervalSince1970: 1_796_000_000), zoneNamed: { ZoneName.zone($0) })

    /// `BEGIN:VCALENDAR` and `depth` distinct components nested in it, each
    /// closed: one physical line each.
    static func nested(_ depth: Int) -> String {
        var lines = ["BEGIN:VCALENDAR"]
        lines += (1...depth).map { "BEGIN:X-\($0)" }
        lines += (1...depth).reversed().map { "END:X-\($0)" }
        lines.append("END:VCALENDAR")
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    /// The outside tester's file: 100,000 levels (2.5 MB) overflowed the
    /// stack (SIGSEGV) through `import --ical` and the holiday reader, and
    /// 50,000 took seconds, the reader searching every open component at
    /// each BEGIN. Each reader refuses it at the BEGIN that passes the
    /// limit. In a child process, so that a crash fails this test rather
    /// than ending the run.
    @Test func fiftyThousandLevelsAreRefusedAtTheLineThatPassesTheLimit() async {
        await #expect(processExitsWith: .success) { Self.refuseNesting(50_000) }
    }

    @Test func aHundredThousandLevelsAreRefusedAtTheLineThatPassesTheLimit() async {
        await #expect(processExitsWith: .success) { Self.refuseNesting(100_000) }
    }

    /// Exits 0 when both readers refuse `depth` levels as they should.
    static func refuseNesting(_ depth: Int) -> Never {
        let text = nested(depth)
        // Line 1 opens VCALENDAR, line n + 1 the n-th nested one.
        let line = ICalendarComponent.maxDepth + 1
        let expected = "line \(line): BEGIN \"X-\(ICalendarComponent.maxDepth)\": must not nest components more than \(ICalendarComponent.maxDepth) deep (BEGIN:VCALENDAR counts as one)"
        do throws(ICalendarError) {
            _ = try ICalendarItems.items(icalendar: text, settings: settings)
            exit(1)
        } catch {
            guard error.line == line, error.description == expected else { exit(2) }
        }
        do throws(ICalendarError) {
            _ = try HolidayCalendar(icalendar: text)
            exit(3)
        } catch {
            guard error.line == line, error.description == expected else { exit(4) }
        }
        exit(0)
    }

    /// Nesting up to the limit is read, and the components are where they were written.
    @Test func nestingUpToTheLimitIsRead() throws {
        var lines = ["BEGIN:VCALENDAR"]
        lines += (1..<ICalendarComponent.maxDepth).map { "BEGIN:X-\($0)" }
        lines.append("X-DEEPEST:yes")
        lines += (1..<ICalendarComponent.maxDepth).reversed().map { "END:X-\($0)" }
        lines.append("END:VCALENDAR")
        var component = try #require(try ICalendarComponent.parse(lines.joined(separator: "\n"), maxBytes: 1 << 20).first)
        var depth = 1
        while let inner = component.components.first {
            component = inner
            depth += 1
        }
        #expect(depth == ICalendarComponent.maxDepth)
        #expect(component.name == "X-\(ICalendarComponent.maxDepth - 1)" && component["X-DEEPEST"]?.value == "yes")
    }

    /// A logical line past the limit, in one physical line or folded over
    /// many, is refused at the line it starts on, naming its property; the
    /// error quotes no megabytes. It was read whole before.
    @Test func aHugeLineIsRefusedByNameAtItsFirstLine() throws {
        let long = String(repeating: "a", count: ICalendarProperty.maxLineBytes + 1)
        let folded = stride(from: 0, to: long.count, by: 74).map { start in
            let from = long.index(long.startIndex, offsetBy: start)
            return String(long[from..<(long.index(from, offsetBy: 74, limitedBy: long.endIndex) ?? long.endIndex)])
        }.joined(separator: "\r\n ")
        for value in [long, folded] {
            let text = "BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nUID:a\r\nDESCRIPTION:" + value + "\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
            #expect(throws: ICalendarError(line: 4, property: "DESCRIPTION", value: nil, requirement: "must be at most 1 MiB long once unfolded")) {
                try ICalendarItems.items(icalendar: text, settings: Self.settings)
            }
        }
        // Just within the limit it is read (and refused for the notes' own limit).
        let within = String(repeating: "a", count: ICalendarProperty.maxLineBytes - "DESCRIPTION:".utf8.count)
        let component = try #require(try ICalendarComponent.parse("BEGIN:VCALENDAR\nDESCRIPTION:" + within + "\nEND:VCALENDAR\n", maxBytes: 4 << 20).first)
        #expect(component["DESCRIPTION"]?.value.utf8.count == within.utf8.count)
    }

    /// A malformed line is quoted by its first 200 bytes.
    @Test func aMalformedLongLineIsQuotedShort() {
        let text = "BEGIN:VCALENDAR\n" + String(repeating: "b", count: 100_000) + "\nEND:VCALENDAR\n"
        do throws(ICalendarError) {
            _ = try ICalendarComponent.parse(text, maxBytes: 1 << 20)
            Issue.record("read")
        } catch {
            #expect(error.line == 2)
            #expect(error.value == String(repeating: "b", count: 200) + "…")
        }
    }

    /// Parameters past the limit (repeating one name counts each time).
    @Test func parametersAreLimited() throws {
        let many = String(repeating: ";X-A=1", count: ICalendarProperty.maxParameters)
        #expect(try ICalendarComponent.parse("BEGIN:VCALENDAR\nX-P\(many):v\nEND:VCALENDAR\n", maxBytes: 1 << 20).first?["X-P"]?.parameters == ["X-A": "1"])
        #expect(throws: ICalendarError(line: 2, property: "X-P", value: nil, requirement: "must have at most \(ICalendarProperty.maxParameters) parameters")) {
            try ICalendarComponent.parse("BEGIN:VCALENDAR\nX-P\(many);X-A=1:v\nEND:VCALENDAR\n", maxBytes: 1 << 20)
        }
    }

    /// Text made almost entirely of escapes is read in one pass.
    @Test func escapeHeavyTextIsRead() throws {
        let escapes = String(repeating: "\\n\\,\\;\\\\", count: 2_000)
        let text = "BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nUID:a\r\nSUMMARY:x\r\nDESCRIPTION:" + escapes + "\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
        let component = try #require(try ICalendarComponent.parse(text, maxBytes: 1 << 20).first?.components.first)
        #expect(component["DESCRIPTION"]?.text == String(repeating: "\n,;\\", count: 2_000))
    }

    /// The outside tester's rule: February has no 30th, so
    /// `FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30` never occurs, and `import`
    /// accepted it as an alarm that never rings. Refused, naming the part
    /// and its value; so are the other combinations no month has.
    @Test(arguments: [
        ("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30", "BYMONTHDAY", "30"),
        ("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30,31,-30", "BYMONTHDAY", "30,31,-30"),
        ("FREQ=MONTHLY;BYMONTH=4,6,9,11;BYMONTHDAY=31", "BYMONTHDAY", "31"),
        ("FREQ=DAILY;BYMONTH=2;BYMONTHDAY=-31", "BYMONTHDAY", "-31"),
        ("FREQ=MONTHLY;BYMONTH=2", "BYMONTH", "2"),
    ])
    func aRuleWhoseDaysNoMonthHasIsRefused(rule: String, part: String, value: String) {
        // Starts on 31 January: a monthly rule without days keeps the 31st.
        let start = CivilTime.dayNumber(year: 2026, month: 1, day: 31)
        do throws(ICalendarError) {
            _ = try RecurrenceRule(icalendarValue: rule, start: start)
            Issue.record("\(rule) was read")
        } catch {
            #expect(error.property == "RRULE" && error.value == rule)
            #expect(error.requirement.hasPrefix(part + " must name a"), "\(error)")
            #expect(error.requirement.hasSuffix(", got " + value), "\(error)")
        }
        let text = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:a\r\nDTSTART:20260131T070000\r\nRRULE:\(rule)\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        do throws(ICalendarError) {
            _ = try ICalendarItems.items(icalendar: text, settings: Self.settings)
            Issue.record("\(rule) was imported")
        } catch {
            #expect(error.line == 5 && error.property == "RRULE", "\(error)")
        }
    }

    /// Days some month has are read: the 29th of February, the 30th
    /// among months one of which has it, the last day of February.
    @Test(arguments: ["FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29", "FREQ=YEARLY;BYMONTH=2,3;BYMONTHDAY=30", "FREQ=MONTHLY;BYMONTH=2;BYMONTHDAY=-1",
                      "FREQ=YEARLY;BYMONTH=2;BYDAY=5MO", "FREQ=MONTHLY;BYMONTH=1,2", "FREQ=DAILY;BYMONTH=2"])
    func aRuleWithDaysSomeMonthHasIsRead(rule: String) throws {
        _ = try RecurrenceRule(icalendarValue: rule, start: CivilTime.dayNumber(year: 2026, month: 1, day: 31))
    }
}
