// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import Testing

/// A pseudo-language, as translators' tools use to find text that escapes
/// translation: every message comes back in fullwidth letters (its
/// placeholders kept, so `Lf` still fills them), every date and time in a
/// form of ASCII capitals that no English word is. An ASCII letter left over
/// did not go through the localization.
struct PseudoLocalization: Localization {
    func L(_ message: String) -> String { Self.fullwidth(message) }
    func plural(_ singular: String, _ plural: String, _ count: Int) -> String { Self.fullwidth(count == 1 ? singular : plural) }
    func date(year: Int, month: Int, day: Int) -> String { "D\(year).\(month).\(day)" }
    func monthDay(month: Int, day: Int) -> String { "M\(month).\(day)" }
    func monthName(_ month: Int) -> String { "N\(month)" }
    func time(hour: Int, minute: Int, second: Int?) -> String { "T\(hour).\(minute)" + (second.map { ".\($0)" } ?? "") }
    func weekday(_ day: Weekday) -> String { "W\(day.rawValue)" }

    /// ASCII letters to fullwidth ones, but for the placeholders (`%1$s`, `%d`).
    static func fullwidth(_ text: String) -> String {
        var result = ""
        var inPlaceholder = false
        for scalar in text.unicodeScalars {
            if inPlaceholder {
                result.unicodeScalars.append(scalar)
                if scalar == "s" || scalar == "d" || scalar == "%" { inPlaceholder = false }
            } else if scalar == "%" {
                result.unicodeScalars.append(scalar)
                inPlaceholder = true
            } else if scalar.isASCII, scalar.properties.isAlphabetic {
                result.unicodeScalars.append(Unicode.Scalar(scalar.value - 0x21 + 0xFF01)!)
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// The ASCII letters of `text` but the date and time markers.
    static func untranslated(_ text: String) -> String {
        String(text.unicodeScalars.filter { $0.isASCII && $0.properties.isAlphabetic && !"DMNTW".unicodeScalars.contains($0) }.map(Character.init))
    }
}

@Suite struct MessageFormatTests {
    @Test(arguments: [
        ("Every %d days", ["3"], "Every 3 days"),
        ("%1$s on %2$s", ["Monthly", "day 15"], "Monthly on day 15"),
        // A translation may put the words in another order.
        ("%2$s的%1$s", ["每月", "15 日"], "15 日的每月"),
        ("Playing %1$s at %2$d %%", ["bell", "80"], "Playing bell at 80 %"),
        ("%s and %s", ["a", "b"], "a and b"),
        // A translation with a placeholder too many shows nothing there rather than crash.
        ("%1$s %2$s %3$s", ["a", "b"], "a b "),
        // Not a placeholder of ours: left as it is.
        ("50% off, %x", ["a"], "50% off, %x"),
        ("no placeholders", ["a"], "no placeholders"),
        ("ends with %", [], "ends with %"),
        // Digits without `$` are no position: a width, which is not ours either.
        ("%5d items", ["3"], "%5d items"),
        // Placeholders between multi-byte characters.
        ("週%s、%s日", ["一", "三"], "週一、三日"),
        ("%1$s（%2$s）", ["上午7:30", "Asia/Taipei"], "上午7:30（Asia/Taipei）"),
    ])
    func fillsPlaceholders(template: String, arguments: [String], expected: String) {
        #expect(MessageFormat.fill(template, arguments) == expected)
    }
}

@Suite struct MessageMatchTests {
    /// `match` undoes `fill`: the arguments come back in the template's order.
    @Test(arguments: [
        ("the output \"%s\" is muted", ["Built-in Audio"]),
        ("the output \"%1$s\" is at %2$d %% volume", ["Speakers (USB)", "20"]),
        ("nothing can play its sound (%s, and no sound player is installed)", ["Connection refused"]),
        ("%2$s的%1$s", ["每月", "15 日"]),
        ("the sound server has no output to play on", []),
    ])
    func undoesFill(template: String, arguments: [String]) {
        #expect(MessageFormat.match(MessageFormat.fill(template, arguments), template: template) == arguments)
    }

    @Test func textOfAnotherTemplateDoesNotMatch() {
        #expect(MessageFormat.match("the output \"A\" is muted", template: "the output \"%1$s\" is at %2$d %% volume") == nil)
        #expect(MessageFormat.match("no notification will show (x)", template: "its sound cannot be played (%s)") == nil)
        #expect(MessageFormat.match("the sound server has no output to play on!", template: "the sound server has no output to play on") == nil)
        #expect(MessageFormat.match("its sound cannot be played (x", template: "its sound cannot be played (%s)") == nil)
    }

    /// Every warning the daemon can send matches its own template and no other.
    @Test func everyAudibilityPhraseMatchesOnlyItsTemplate() {
        for template in Audibility.templates {
            let text = MessageFormat.fill(template, ["X", "7"])
            let matching = Audibility.templates.filter { MessageFormat.match(text, template: $0) != nil }
            #expect(matching == [template], "\(text) matches \(matching)")
        }
    }
}

@Suite struct CoreTextLocalizationTests {
    static let start = CivilTime.dayNumber(year: 2026, month: 12, day: 1)

    /// Every rule in words goes through the localization, word for word:
    /// under the pseudo-language no English is left outside the brackets.
    @Test(arguments: [
        RecurrenceRule(.daily, interval: 3, start: start),
        RecurrenceRule(.daily, byDay: [.init(.monday), .init(.friday)], start: start),
        RecurrenceRule(.daily, byMonthDay: [1, 15], start: start),
        RecurrenceRule(.weekly, interval: 2, byDay: [.init(.monday), .init(.thursday)], start: start),
        RecurrenceRule(.weekly, byDay: [.init(.monday), .init(.tuesday), .init(.wednesday), .init(.thursday), .init(.friday)], start: start),
        RecurrenceRule(.monthly, byMonthDay: [15], start: start),
        RecurrenceRule(.monthly, byMonthDay: [-1], start: start),
        RecurrenceRule(.monthly, byMonthDay: [-2], start: start),
        RecurrenceRule(.monthly, interval: 2, byDay: [.init(.tuesday, ordinal: 2)], start: start),
        RecurrenceRule(.monthly, byDay: [.init(.friday, ordinal: -1)], start: start),
        RecurrenceRule(.monthly, byDay: [.init(.friday, ordinal: -2)], start: start),
        RecurrenceRule(.monthly, byDay: [.init(.friday)], byMonthDay: [13], start: start),
        RecurrenceRule(.yearly, byMonthDay: [24], byMonth: [12], start: start),
        RecurrenceRule(.yearly, byDay: [.init(.monday, ordinal: 1)], byMonth: [5, 9], start: start),
        RecurrenceRule(.daily, start: start, end: .until(CivilTime.dayNumber(year: 2027, month: 6, day: 30))),
        RecurrenceRule(.daily, start: start, end: .count(3)),
        RecurrenceRule(.daily, start: start, end: .count(1)),
        RecurrenceRule(.daily, start: start, exceptions: [CivilTime.dayNumber(year: 2026, month: 12, day: 25)]),
        RecurrenceRule(.daily, start: start, exceptions: [CivilTime.dayNumber(year: 2026, month: 12, day: 25), CivilTime.dayNumber(year: 2027, month: 1, day: 1)]),
        RecurrenceRule.once(on: CivilTime.dayNumber(year: 2026, month: 12, day: 24)),
    ])
    func everyWordOfARuleIsLocalized(rule: RecurrenceRule) {
        let text = rule.text(in: PseudoLocalization())
        #expect(PseudoLocalization.untranslated(text).isEmpty, "\(text)")
        // And the source language reads as it always did.
        #expect(rule.text(in: .source) == rule.displayText)
    }

    @Test func repeatDaysAreLocalizedAndTheSourceIsUnchanged() {
        let pseudo = PseudoLocalization()
        #expect(RepeatDays.never.text(in: pseudo) == "Ｎｅｖｅｒ")
        #expect(RepeatDays.everyDay.text(in: pseudo) == "Ｅｖｅｒｙ ｄａｙ")
        #expect(RepeatDays.weekdays.text(in: pseudo) == "Ｗｅｅｋｄａｙｓ")
        #expect(RepeatDays.weekends.text(in: pseudo) == "Ｗｅｅｋｅｎｄｓ")
        #expect(RepeatDays([.monday, .wednesday]).text(in: pseudo) == "W1, W3")
        #expect(RepeatDays([.monday, .wednesday]).displayText == "Mon, Wed")
    }

    @Test func theSourceFormsAreISOAnd24Hour() {
        let source = SourceLocalization()
        #expect(source.date(year: 2026, month: 3, day: 9) == "2026-03-09")
        #expect(source.time(hour: 7, minute: 5, second: nil) == "07:05")
        #expect(source.time(hour: 19, minute: 5, second: 9) == "19:05:09")
        #expect(source.monthDay(month: 12, day: 24) == "Dec 24")
        #expect(source.Ln("%d alarm", "%d alarms", 1) == "1 alarm")
        #expect(source.Ln("%d alarm", "%d alarms", 2) == "2 alarms")
        let local = LocalDateTime(localSeconds: CivilTime.dayNumber(year: 2026, month: 12, day: 24) * 86_400 + 7 * 3600 + 30 * 60, utcOffset: 0)
        #expect(source.dateWeekdayTime(local) == "2026-12-24 Thu 07:30")
        #expect(source.weekdayTime(local) == "Thu 07:30")
    }
}
