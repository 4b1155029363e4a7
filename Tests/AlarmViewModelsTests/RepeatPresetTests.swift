// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmViewModels
import Testing

@Suite struct RepeatPresetTests {
    @Test func setsOfDaysAreTheirPresets() {
        #expect(RepeatPreset(days: .weekdays) == .weekdays)
        #expect(RepeatPreset(days: RepeatDays([.saturday, .sunday])) == .weekends)
        #expect(RepeatPreset(days: []) == .never)
        #expect(RepeatPreset(days: RepeatDays(Weekday.allCases)) == .everyDay)
        #expect(RepeatPreset(days: RepeatDays([.monday, .wednesday])) == .custom)
        #expect(RepeatPreset(days: RepeatDays([.monday, .tuesday, .wednesday, .thursday, .friday, .saturday])) == .custom)
    }

    @Test func eachPresetHasItsDays() {
        for preset in RepeatPreset.choices {
            #expect(RepeatPreset(days: preset.days ?? []) == preset)
        }
        #expect(RepeatPreset.custom.days == nil)
    }

    @Test func presetsAreNamedInEnglish() {
        let l = Languages.english
        #expect(RepeatPreset.choices.map { $0.name(in: l) } == ["Never", "Every day", "Weekdays", "Weekends"])
        #expect(RepeatPreset.custom.name(in: l) == "Custom")
    }

    @Test(.enabled(if: Languages.chineseUnavailable == nil)) func presetsAreNamedAsTheSeedsNameThem() {
        let l = Languages.zh
        #expect(RepeatPreset.choices.map { $0.name(in: l) } == ["永不", "每天", "平日", "假日"])
        #expect(RepeatPreset(days: .weekdays).name(in: l) == "平日")
        #expect(RepeatPreset(days: RepeatDays([.saturday, .sunday])).name(in: l) == "假日")
        #expect(RepeatPreset(days: []).name(in: l) == "永不")
        #expect(RepeatPreset.custom.name(in: l) == "自訂")
    }
}
