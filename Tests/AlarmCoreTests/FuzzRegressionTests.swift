// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import Foundation
import Testing

/// Inputs the libFuzzer targets in Fuzz/ found crashing (Fuzz/regressions/).
@Suite("Fuzz regressions (core)")
struct FuzzRegressionTests {
    /// Fuzz/regressions/config/maxmessagesize-overflow.conf: DaemonConfig.parse
    /// multiplies the MaxMessageSize= count by its unit before checking the
    /// range, so a large count traps (arithmetic overflow, DaemonConfig.swift,
    /// `count * unit`) instead of failing with a ConfigError: alarmd dies at
    /// start-up or on reload. Run in a child process so the trap fails this
    /// test rather than ending the whole test run.
    @Test func hugeMaxMessageSizeIsAConfigErrorNotATrap() async {
        await #expect(processExitsWith: .success) {
            do throws(ConfigError) {
                _ = try DaemonConfig.parse("[Control]\nMaxMessageSize=9007199254740993K\n", name: "alarmd.conf")
                exit(1)
            } catch {
                exit(error.key == "MaxMessageSize" && error.line == 2 ? 0 : 2)
            }
        }
    }

    /// The same with the largest count Int reads, in M.
    @Test func maxIntMaxMessageSizeIsAConfigErrorNotATrap() async {
        await #expect(processExitsWith: .success) {
            do throws(ConfigError) {
                _ = try DaemonConfig.parse("[Control]\nMaxMessageSize=9223372036854775807M\n", name: "alarmd.conf")
                exit(1)
            } catch {
                exit(error.key == "MaxMessageSize" ? 0 : 2)
            }
        }
    }

    /// Fuzz/regressions/config/blank-before-combining-mark.conf: a value that
    /// starts with a blank followed by a combining mark (U+064C) kept that
    /// blank, because the blank and the mark are one `Character` and values
    /// were trimmed by character.
    @Test func aBlankBeforeACombiningMarkIsTrimmed() throws {
        let file = try INIFile(parsing: "[Alarms]\nLabel = \u{64C}x \u{301}\n", name: "a.conf")
        #expect(file.entries.first?.value.unicodeScalars.map(\.value) == [0x64C, 0x78, 0x20, 0x301])
        #expect(try INIFile(parsing: "[A]\nK=\t \u{64C}\t\n", name: "a.conf").entries.first?.value == "\u{64C}")
    }

    static let ical = ICalendarItems.Settings(zone: .utc, allDayAt: .nineAM, now: Date(timeIntervalSince1970: 1_796_000_000), zoneNamed: { ZoneName.zone($0) })

    /// Fuzz/regressions/ical/notices-without-due.ics: a VTODO with no DUE
    /// but a VALARM before it was read with an advance notice that alarmd's
    /// own calendar (which writes notices only for a due reminder) dropped.
    @Test func aToDoWithoutADueTimeHasNoAdvanceNotices() throws {
        let text = "BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nUID:a\r\nBEGIN:VALARM\r\nTRIGGER;RELATED=END:-PT30M\r\nACTION:DISPLAY\r\nEND:VALARM\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
        let reminder = try #require(try ICalendarItems.items(icalendar: text, settings: Self.ical).reminders.first)
        #expect(reminder.before.isEmpty)
    }

    /// Fuzz/regressions/ical/bare-carriage-return.ics: a bare CR inside a
    /// DESCRIPTION was kept in the notes and written back as `\n`, so the
    /// notes changed through alarmd's own calendar; it is read as a line break.
    @Test func aBareCarriageReturnInTextIsALineBreak() throws {
        let text = "BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nUID:a\r\nDESCRIPTION:one\rtwo\\\rthree\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
        let reminder = try #require(try ICalendarItems.items(icalendar: text, settings: Self.ical).reminders.first)
        #expect(reminder.notes == "one\ntwo\\\nthree")
    }
}
