// SPDX-License-Identifier: Apache-2.0
/// A repeat said in words at the start or end of an alarm's time, as a
/// phone's Clock app would be told it: `every monday 7:00`, `weekdays at 7`,
/// `7am every day`, `every 2 weeks on fri 9:00`, `every 3 days 8:00`,
/// `every month on the 1st 9:00`, `the 1st of every month at 9am`,
/// `every year on mar 12 9:00`, and
/// in Traditional Chinese `每週一 7:00`, `每天早上7點`, `平日 7:00`, `假日 9點`.
/// ``split(_:)`` takes the repeat off and leaves the time for ``DayAndTime``.
public struct SpokenRepeat: Hashable, Sendable {
    /// The weekdays it rings on; empty with ``everyDays`` set.
    public var days: RepeatDays
    /// Every this many weeks (`every 2 weeks on fri`); 1 is every week.
    public var everyWeeks: Int
    /// Every this many days (`every 3 days`), when it counts days, not weekdays.
    public var everyDays: Int?
    /// Every this many months (`every month`, `monthly`).
    public var everyMonths: Int?
    /// The day of the month a monthly repeat is on (`on the 1st`); `nil`
    /// for the day it is first due.
    public var monthDay: Int?
    /// Every this many years (`every year`, `yearly`, `annually`).
    public var everyYears: Int?
    /// The month a yearly repeat is in (`on mar 12`); `nil` for the month
    /// it is first due, as ``monthDay`` is then the day.
    public var month: Int?

    public init(days: RepeatDays, everyWeeks: Int = 1, everyDays: Int? = nil, everyMonths: Int? = nil, monthDay: Int? = nil,
                everyYears: Int? = nil, month: Int? = nil) {
        self.days = days
        self.everyWeeks = everyWeeks
        self.everyDays = everyDays
        self.everyMonths = everyMonths
        self.monthDay = monthDay
        self.everyYears = everyYears
        self.month = month
    }

    /// Every week on ``days``: what `--days` says, with no rule of its own.
    public var isWeeklyOnDays: Bool { everyDays == nil && everyMonths == nil && everyYears == nil && everyWeeks == 1 }

    /// The repeat as a rule from day `start`, which a monthly or yearly
    /// repeat without its day falls on.
    public func rule(start: Int64) -> RecurrenceRule {
        if let everyDays { return RecurrenceRule(.daily, interval: everyDays, start: start) }
        let first = CivilTime.date(dayNumber: start)
        // An interval counts from the first occurrence said (`every 2 years
        // on mar 12` from December: next March, then two years on), so the
        // rule starts there.
        func firstDay(year: Int, month: Int, day: Int, next: (Int, Int) -> (Int, Int)) -> Int64 {
            var (year, month) = (year, month)
            for _ in 0..<48 {
                if day <= CivilTime.daysInMonth(year: year, month: month) {
                    let candidate = CivilTime.dayNumber(year: year, month: month, day: day)
                    if candidate >= start { return candidate }
                }
                (year, month) = next(year, month)
            }
            return start
        }
        if let everyYears {
            let (month, day) = (month ?? first.month, monthDay ?? first.day)
            let from = firstDay(year: first.year, month: month, day: day) { year, month in (year + 1, month) }
            return RecurrenceRule(.yearly, interval: everyYears, byMonthDay: [day], byMonth: [month], start: from)
        }
        if let everyMonths {
            let day = monthDay ?? first.day
            let from = firstDay(year: first.year, month: first.month, day: day) { year, month in month == 12 ? (year + 1, 1) : (year, month + 1) }
            return RecurrenceRule(.monthly, interval: everyMonths, byMonthDay: [day], start: from)
        }
        // `every 2 weeks on fri` said on a Saturday rings the coming Friday,
        // then every other one: the weeks count from the first day it rings.
        var firstDay = start
        if everyWeeks > 1, !days.isEmpty {
            while !days.contains(CivilTime.weekday(dayNumber: firstDay)) { firstDay += 1 }
        }
        return .weekly(on: days, every: everyWeeks, start: firstDay)
    }

    /// The repeat `text` starts or ends with, and the rest of it; `nil` and
    /// the whole text when it says none. A repeat it cannot read (`every
    /// blue moon`) is an error naming `field`.
    public static func split(_ text: String, field: String) throws(ValidationError) -> (repeat: SpokenRepeat?, rest: String) {
        guard text.utf8.count <= DayAndTime.maxLength else { return (nil, text) }
        // 每天早上7點: the Chinese repeat words stand without a space before the time.
        var words = SpokenWords.arabicNumerals(text).lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        if let first = words.first, first.unicodeScalars.contains(where: { $0.value >= 0x3000 }), chinese(first) == nil,
           let length = (1..<first.count).reversed().first(where: { chinese(String(first.prefix($0))) != nil }) {
            words[0] = String(first.dropFirst(length))
            words.insert(String(first.prefix(length)), at: 0)
        }
        var invalid: ValidationError {
            .text(field, N_("must be a repeat such as every day, weekdays, weekends, every mon, every 2 weeks on fri, every 3 days, every month on the 1st or every year on mar 12, with a time"), got: text)
        }
        // At the start: `every …`, `weekdays`, `daily`, `mondays`, 每週一.
        // `mon to fri` is a repeat by a time (`7:30 mon to fri`) or after
        // `every`; elsewhere it is a title's words (`move meeting mon to tue`).
        func saysRange(_ said: ArraySlice<String>) -> Bool {
            !["every", "each"].contains(said.first ?? "") && said.contains { rangeWords.contains($0) }
        }
        /// Whether the one or two words at the start of `near` (at its end, with `atEnd`) are a time: `7:30`, `7 am`, `at 7`.
        func isTime(_ near: ArraySlice<String>, atEnd: Bool = false) -> Bool {
            [1, 2].contains { count in
                let words = atEnd ? near.suffix(count) : near.prefix(count)
                return words.count == count && (try? DayAndTime.parse(words.joined(separator: " "), field: field, requireTime: true)) != nil
            }
        }
        if let (found, length) = try read(words, invalid), !saysRange(words[..<length]) || isTime(words[length...]) {
            let rest = Array(words.dropFirst(length))
            // `weekdays 9:30 except fri`: the days taken out may follow the time.
            if let cut = rest.firstIndex(where: { ["except", "but"].contains($0) }), cut > 0,
               let (less, used) = try exception(rest, at: cut, to: found, invalid), cut + used == rest.count {
                return (less, rest[..<cut].joined(separator: " "))
            }
            return (found, rest.joined(separator: " "))
        }
        // At the end: `7:00 every day`, `9am on weekdays`.
        for start in words.indices.dropFirst() {
            var tail = Array(words[start...])
            if tail.first == "on" { tail.removeFirst() }
            if let (found, length) = try read(tail, invalid), length == tail.count,
               !saysRange(tail[...]) || isTime(words[..<start], atEnd: true) {
                return (found, words[..<start].joined(separator: " "))
            }
        }
        return (nil, text)
    }

    /// Where `words` start to say a repeat (`every year on …`, `monthly`,
    /// `every 2 weeks …`): the index of its first word, or `nil`. For words
    /// left over as a label or title after no repeat could be read: they are
    /// a repeat said in a way not understood, not a name.
    public static func repeatStart(in words: [String]) -> Int? {
        let units: Set<String> = ["day", "days", "week", "weeks", "month", "months", "year", "years", "other", "fortnight"]
        for (index, word) in words.enumerated() {
            let word = word.lowercased()
            if ["yearly", "annually", "monthly", "weekly", "fortnightly"].contains(word) { return index }
            guard word == "every" || word == "each", index + 1 < words.count else { continue }
            let next = words[index + 1].lowercased()
            if units.contains(next) || Int(next) != nil || weekdays(next) != nil { return index }
        }
        return nil
    }

    /// Chinese words and the days they name: 每天, 平日, 假日, 週末, 每週一 ….
    static let chineseWords: [String: RepeatDays] = {
        var words: [String: RepeatDays] = ["每天": .everyDay, "每日": .everyDay, "天天": .everyDay, "平日": .weekdays, "每個平日": .weekdays,
                                          "工作日": .weekdays, "假日": .weekends, "週末": .weekends, "周末": .weekends]
        for (character, weekday) in SpokenWords.chineseWeekdays {
            for prefix in everyWeekPrefixes { words[prefix + String(character)] = RepeatDays([weekday]) }
        }
        return words
    }()

    /// What says "every week" before a weekday: 每週一, 每個星期一; longest first.
    static let everyWeekPrefixes = ["每個星期", "每個禮拜", "每星期", "每禮拜", "每週", "每周"]

    /// The repeat `words` start with, and how many words it takes, less the
    /// weekdays an `except` or `but` after it names: `every day except sun`,
    /// `weekdays but fri`.
    private static func read(_ words: [String], _ invalid: ValidationError) throws(ValidationError) -> (SpokenRepeat, Int)? {
        guard let (found, length) = try readRepeat(words, invalid) else { return nil }
        guard let (less, used) = try exception(words, at: length, to: found, invalid) else { return (found, length) }
        return (less, length + used)
    }

    /// `repeated` less the weekdays that `except` or `but` at `words[index]`
    /// names, and how many words that takes; `nil` when no such word is there.
    /// Taking days from a repeat of dates or of a count of days, or every
    /// day it has, is no repeat.
    private static func exception(_ words: [String], at index: Int, to repeated: SpokenRepeat,
                                  _ invalid: ValidationError) throws(ValidationError) -> (SpokenRepeat, Int)? {
        guard index < words.count, ["except", "but"].contains(words[index]) else { return nil }
        guard !repeated.days.isEmpty, repeated.everyDays == nil, repeated.everyMonths == nil, repeated.everyYears == nil,
              let run = dayRun(words, from: index + 1) else { throw invalid }
        var less = repeated
        less.days.subtract(run.days)
        guard !less.days.isEmpty else { throw invalid }
        return (less, 1 + run.length)
    }

    /// The repeat `words` start with, and how many words it takes.
    private static func readRepeat(_ words: [String], _ invalid: ValidationError) throws(ValidationError) -> (SpokenRepeat, Int)? {
        guard let first = words.first else { return nil }
        // The day before the repeat: `(on) (the) 1st of every month`.
        var lead = first == "on" ? 1 : 0
        if lead < words.count, words[lead] == "the" { lead += 1 }
        if lead + 2 < words.count, let day = SpokenWords.dayOfMonth(words[lead]), words[lead + 1] == "of",
           ["every", "each"].contains(words[lead + 2]), let (found, length) = try read(Array(words[(lead + 2)...]), invalid),
           found.everyMonths != nil, found.monthDay == nil {
            var monthly = found
            monthly.monthDay = day
            return (monthly, lead + 2 + length)
        }
        if let found = chinese(first) { return (found, 1) }
        if first == "monthly" { return try monthly(words, from: 1, count: 1, invalid) }
        if first == "yearly" || first == "annually" { return try yearly(words, from: 1, count: 1, invalid) }
        // `tuesdays and thursdays`, `mon-fri`, `mon wed fri`: one weekday
        // alone is a day (`tue 2pm`), more than one a repeat.
        if let run = dayRun(words, from: 0), plural(first) != nil || dayList(first) != nil || run.days.days.count > 1 {
            return (SpokenRepeat(days: run.days), run.length)
        }
        guard first == "every" || first == "each" else { return nil }
        var index = 1
        func word(_ offset: Int = 0) -> String? { index + offset < words.count ? words[index + offset] : nil }
        // `every other fri` is every 2 weeks.
        var count = 1
        if word() == "other" {
            count = 2
            index += 1
        } else if let text = word(), let number = Int(text), (1...RecurrenceRule.intervalRange.upperBound).contains(number) {
            count = number
            index += 1
        }
        guard let unit = word() else { throw invalid }
        switch unit {
        case "day", "days":
            index += 1
            return count == 1 ? (SpokenRepeat(days: .everyDay), index) : (SpokenRepeat(days: [], everyDays: count), index)
        case "month", "months":
            return try monthly(words, from: index + 1, count: count, invalid)
        case "year", "years":
            return try yearly(words, from: index + 1, count: count, invalid)
        case "week", "weeks", "fortnight":
            if unit == "fortnight" {
                guard count * 2 <= RecurrenceRule.intervalRange.upperBound else { throw invalid }
                count *= 2
            }
            index += 1
            // `every 2 weeks on fri`, `every week on mon,thu`.
            if word() == "on" { index += 1 }
            guard let run = dayRun(words, from: index) else { throw invalid }
            return (SpokenRepeat(days: run.days, everyWeeks: count), index + run.length)
        default:
            // `every tue`, `every tue and thu`, `every mon wed fri`.
            guard let run = dayRun(words, from: index) else { throw invalid }
            return (SpokenRepeat(days: run.days, everyWeeks: count), index + run.length)
        }
    }

    /// A monthly repeat's day, after its words: `on the 1st`, `on 15`, or
    /// none (the day it is first due).
    private static func monthly(_ words: [String], from start: Int, count: Int, _ invalid: ValidationError) throws(ValidationError) -> (SpokenRepeat, Int) {
        var index = start
        func word() -> String? { index < words.count ? words[index] : nil }
        guard word() == "on" else { return (SpokenRepeat(days: [], everyMonths: count), index) }
        index += 1
        if word() == "the" { index += 1 }
        guard let text = word(), let day = SpokenWords.dayOfMonth(text) else { throw invalid }
        return (SpokenRepeat(days: [], everyMonths: count, monthDay: day), index + 1)
    }

    /// A yearly repeat's day, after its words: `on mar 12`, `on 12 march`,
    /// `on march 12th`, `on 03-12`, or none (the day it is first due).
    private static func yearly(_ words: [String], from start: Int, count: Int, _ invalid: ValidationError) throws(ValidationError) -> (SpokenRepeat, Int) {
        var index = start
        func word(_ offset: Int = 0) -> String? { index + offset < words.count ? words[index + offset] : nil }
        guard word() == "on" else { return (SpokenRepeat(days: [], everyYears: count), index) }
        index += 1
        if word() == "the" { index += 1 }
        guard let first = word() else { throw invalid }
        if let month = SpokenWords.month(first), let text = word(1), let day = SpokenWords.dayOfMonth(text) {
            return (SpokenRepeat(days: [], monthDay: day, everyYears: count, month: month), index + 2)
        }
        if let day = SpokenWords.dayOfMonth(first), let text = word(1) {
            // `12 march`, `12th of march`.
            let of = text == "of" ? 1 : 0
            if let name = word(1 + of), let month = SpokenWords.month(name) {
                return (SpokenRepeat(days: [], monthDay: day, everyYears: count, month: month), index + 2 + of)
            }
        }
        // `03-12`.
        let parts = first.split(separator: "-")
        if parts.count == 2, parts.allSatisfy({ $0.count <= 2 }), let month = Int(parts[0]), (1...12).contains(month),
           let day = Int(parts[1]), (1...31).contains(day) {
            return (SpokenRepeat(days: [], monthDay: day, everyYears: count, month: month), index + 1)
        }
        throw invalid
    }

    /// The weekdays named from `words[start]` on, and how many words name
    /// them: `mon`, `mon wed fri`, `mon, wed and fri`, `tue & thu`,
    /// `mondays and thursdays`, `mon,thu`, `mon-fri`, `mon to fri`,
    /// `monday through friday`. A joining word or comma counts only with a
    /// weekday after it.
    private static func dayRun(_ words: [String], from start: Int) -> (days: RepeatDays, length: Int)? {
        func days(_ index: Int) -> RepeatDays? {
            guard index < words.count else { return nil }
            var word = Substring(words[index])
            if word.last == "," { word = word.dropLast() }
            return weekdays(String(word)) ?? dayList(String(word))
        }
        /// The one weekday a word names (`fri`, `friday`), at either end of a range.
        func weekday(_ index: Int) -> Weekday? {
            index < words.count ? Weekday(name: words[index]) : nil
        }
        guard var found = days(start) else { return nil }
        var end = start + 1
        while true {
            if end < words.count, rangeWords.contains(words[end]), let from = weekday(end - 1), let to = weekday(end + 1) {
                found.formUnion(RepeatDays.range(from, through: to))
                end += 2
            } else if let more = days(end) {
                found.formUnion(more)
                end += 1
            } else if end < words.count, ["and", "&", ","].contains(words[end]), let more = days(end + 1) {
                found.formUnion(more)
                end += 2
            } else {
                return (found, end - start)
            }
        }
    }

    /// The words between the ends of a range of weekdays: `mon to fri`.
    private static let rangeWords: Set<String> = ["to", "through", "thru"]

    /// `tue,thu`, `mon-fri`: days as `--days` lists them, two or more (one
    /// weekday alone is a day, not a repeat: `tue 2pm`).
    private static func dayList(_ word: String) -> RepeatDays? {
        guard word.contains(",") || word.contains("-"), word.first?.isLetter == true,
              let days = try? RepeatDays.parse(word, field: "days"), Weekday.allCases.filter({ days.contains(RepeatDays([$0])) }).count > 1 else { return nil }
        return days
    }

    /// A repeat in Chinese, one word: 每天, 平日, 假日, 每週一, 每週二、四,
    /// 每週二、週四, 週一到週五, 每月1號, 每個月15日, 每月, 每年.
    static func chinese(_ word: String) -> SpokenRepeat? {
        // Every one is written in Chinese characters: an ASCII word is none,
        // and `chineseWords` is not built for it.
        guard word.utf8.contains(where: { $0 >= 0x80 }) else { return nil }
        if let days = chineseWords[word] { return SpokenRepeat(days: days) }
        // 每天除了週日, 平日除了週三和週五: weekdays taken out.
        if let cut = word.firstRange(of: "除了") {
            guard let base = chinese(String(word[..<cut.lowerBound])), base.isWeeklyOnDays, !base.days.isEmpty,
                  let out = chineseDays(String(word[cut.upperBound...])) else { return nil }
            let days = base.days.subtracting(out)
            return days.isEmpty ? nil : SpokenRepeat(days: days)
        }
        if word == "每年" { return SpokenRepeat(days: [], everyYears: 1) }
        for prefix in ["每個月", "每月"] where word.hasPrefix(prefix) {
            let rest = word.dropFirst(prefix.count)
            if rest.isEmpty { return SpokenRepeat(days: [], everyMonths: 1) }
            guard let last = rest.last, "號号日".contains(last), let day = Int(rest.dropLast()), (1...31).contains(day) else { return nil }
            return SpokenRepeat(days: [], everyMonths: 1, monthDay: day)
        }
        // 週一到週五, 星期一至星期五.
        for separator: Character in ["到", "至"] where word.contains(separator) {
            let ends = word.split(separator: separator, omittingEmptySubsequences: false)
            guard ends.count == 2, let first = chineseWeekday(String(ends[0])), let last = chineseWeekday(String(ends[1])) else { return nil }
            return SpokenRepeat(days: RepeatDays.range(first, through: last))
        }
        // 每週二、四, 每週二、週四, 每星期一,三.
        for prefix in everyWeekPrefixes where word.hasPrefix(prefix) {
            let names = word.dropFirst(prefix.count).split(whereSeparator: { "、,，".contains($0) })
            guard names.count > 1 else { return nil }
            var days = RepeatDays()
            for name in names {
                guard let weekday = chineseWeekday(String(name)) else { return nil }
                days.insert(RepeatDays([weekday]))
            }
            return SpokenRepeat(days: days)
        }
        return nil
    }

    /// 週日, 週末, 週六和週日, 週三、週五: the days a list of weekdays names.
    private static func chineseDays(_ text: String) -> RepeatDays? {
        if let days = chineseWords[text], text.first != "每" { return days }
        let names = text.split(whereSeparator: { "、,，和及".contains($0) })
        guard !names.isEmpty else { return nil }
        var days = RepeatDays()
        for name in names {
            guard let weekday = chineseWeekday(String(name)) else { return nil }
            days.insert(RepeatDays([weekday]))
        }
        return days
    }

    /// 一, 週一, 星期一, 禮拜一: the weekday.
    private static func chineseWeekday(_ text: String) -> Weekday? {
        var name = Substring(text)
        if let prefix = SpokenWords.chineseWeekPrefixes.first(where: { name.hasPrefix($0) }) { name = name.dropFirst(prefix.count) }
        guard name.count == 1, let character = name.first else { return nil }
        return SpokenWords.chineseWeekdays[character]
    }

    /// `mondays`, `weekdays`, `weekends`, `daily`.
    private static func plural(_ word: String) -> RepeatDays? {
        switch word {
        case "daily", "everyday": return .everyDay
        case "weekdays", "weekday": return .weekdays
        case "weekends", "weekend": return .weekends
        default:
            guard word.hasSuffix("s"), let weekday = Weekday(name: String(word.dropLast())) else { return nil }
            return RepeatDays([weekday])
        }
    }

    /// `mon`, `monday`, `mon,thu`, `weekday`: the days a word names.
    private static func weekdays(_ word: String) -> RepeatDays? {
        if let days = plural(word) { return days }
        let names = word.split(separator: ",")
        guard !names.isEmpty else { return nil }
        var days = RepeatDays()
        for name in names {
            // `mon,thu` or `mondays,thursdays`.
            let name = String(name)
            guard let weekday = Weekday(name: name) ?? (name.hasSuffix("s") ? Weekday(name: String(name.dropLast())) : nil) else { return nil }
            days.insert(RepeatDays([weekday]))
        }
        return days
    }
}
