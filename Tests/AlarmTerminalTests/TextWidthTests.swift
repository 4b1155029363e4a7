// SPDX-License-Identifier: Apache-2.0
import Glibc
import Terminal
import Testing

/// Display widths as the terminal lays text out.
@Suite struct TextWidthTests {
    init() { setlocale(LC_CTYPE, "C.UTF-8") }

    @Test func wideAndNarrowCharacters() {
        #expect(TextWidth.columns("07:30") == 5)
        #expect(TextWidth.columns("平日") == 4)
        #expect(TextWidth.columns("鬧鐘 ⏰") == 7)
        #expect(TextWidth.columns("e\u{301}") == 1)
    }

    @Test func controlCharactersNeverReachTheTerminal() {
        #expect(TextWidth.sanitized("a\u{1B}[2Jb\nc") == "a\u{FFFD}[2Jb c")
        #expect(!TextWidth.sanitized("\u{9B}31m").unicodeScalars.contains { $0.value == 0x9B })
    }

    @Test func fittingCutsWholeCharactersWithAnEllipsis() {
        #expect(TextWidth.fit("平日平日", 5) == "平日…")
        #expect(TextWidth.columns(TextWidth.fit("平日平日", 5)) <= 5)
        #expect(TextWidth.padded("鬧鐘", 6) == "鬧鐘  ")
        #expect(TextWidth.padded("7:30", 6, right: true) == "  7:30")
        #expect(TextWidth.fit("abc", 3) == "abc")
    }

    @Test func wrappingBreaksAtSpacesAndWithinWordsTooWide() {
        #expect(TextWidth.wrapped("Time must be a time", 10) == ["Time must", "be a time"])
        #expect(TextWidth.wrapped("時間必須是一天中的時間", 8) == ["時間必須", "是一天中", "的時間"])
        #expect(TextWidth.wrapped("abcdefgh ij", 4) == ["abcd", "efgh", "ij"])
        // A Chinese run goes on after a word on the same line; a Latin word starts a new one.
        #expect(TextWidth.wrapped("Time 必須是一天中的時間", 8) == ["Time 必", "須是一天", "中的時間"])
        #expect(TextWidth.wrapped("Time abcdefghij", 8) == ["Time", "abcdefgh", "ij"])
        #expect(TextWidth.wrapped("Timer 必須", 6) == ["Timer", "必須"])
        // Latin letters within a Chinese word stay together where they fit.
        #expect(TextWidth.wrapped("請執行「alarmctl", 10) == ["請執行「", "alarmctl"])
        #expect(TextWidth.wrapped("Run 執行alarmctl", 12) == ["Run 執行", "alarmctl"])
        #expect(TextWidth.wrapped("", 5) == [""])
    }
}
