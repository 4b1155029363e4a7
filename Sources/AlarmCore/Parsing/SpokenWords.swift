// SPDX-License-Identifier: Apache-2.0
/// The words of a day and a time as people say them, in English and in
/// Traditional Chinese, cut into the tokens ``DayAndTime`` reads: `next tue
/// at 2pm` is `next tue` and `2pm`; `dec 24 9am` is `dec 24` and `9am`;
/// `明天早上7點` is `明天` and `早上7點`. Filler words (`at`, `on`, `the`,
/// `by` and `due` before a day or a time but a bare number, `of the month`
/// after an ordinal) go. Linear in the text, which the caller has bounded.
enum SpokenWords {
    /// One token: a word alone, or words that belong together.
    enum Token: Hashable {
        case word(String)
        /// `next tue`: the first such weekday after today.
        case next(Weekday)
        /// `dec 24`, `24 dec`, `december 24th`.
        case monthDay(month: Int, day: Int)
    }

    static func tokens(_ text: String) -> [Token] {
        var words = split(arabicNumerals(text).lowercased())
        // `half past 6`: a clock's time in words is one word, its digits.
        var index = 0
        while index < words.count {
            if let (length, time) = clockWords(words, at: index) { words.replaceSubrange(index..<index + length, with: [time]) }
            index += 1
        }
        // `7:30 pm`, `7 a.m.`: the meridiem belongs to the time before it;
        // `下午 2點`: the part of the day belongs to the time after it.
        index = 0
        while index < words.count {
            if index > 0, ["am", "pm", "a.m.", "p.m."].contains(words[index]) {
                words[index - 1] += words.remove(at: index)
            } else if index + 1 < words.count, partsOfDay.contains(where: { $0.word == words[index] }) {
                words[index] += words.remove(at: index + 1)
                index += 1
            } else {
                index += 1
            }
        }
        var tokens: [Token] = []
        // `tonight`, `this evening`, `in the morning`, `at night`, `tomorrow
        // morning`: a part of the day said so turns the time said with it
        // (`9 tonight` is 21:00), or is the time when none is. A part said
        // alone elsewhere is a time of its own (`morning` 08:00), so that
        // `add 7:30 morning run` keeps its label.
        var saidPart: String?
        // Where `tonight` (or `this evening`, `this night`) put today: its small
        // hours are tomorrow's (`tonight at 1` is 01:00 tomorrow).
        var tonight: Int?
        func say(_ part: String) {
            if saidPart == nil { saidPart = part } else { tokens.append(.word(part)) }
        }
        index = 0
        while index < words.count {
            let word = words[index]
            let following = index + 1 < words.count ? words[index + 1] : nil
            if word == "tonight" {
                tonight = tokens.count
                tokens.append(.word("today"))
                say("night")
                index += 1
            } else if word == "this", let following, englishPartsOfDay.contains(following) {
                if following != "morning", following != "afternoon" { tonight = tokens.count }
                tokens.append(.word("today"))
                say(following)
                index += 2
            } else if word == "this", let following, Weekday(name: following) != nil {
                // `this fri` is the coming Friday, as `fri` is.
                index += 1
            } else if word == "in", following == "the", index + 2 < words.count, englishPartsOfDay.contains(words[index + 2]) {
                say(words[index + 2])
                index += 3
            } else if word == "at", following == "night" {
                say("night")
                index += 2
            } else if englishPartsOfDay.contains(word), let last = tokens.last, isDay(last) {
                say(word)
                index += 1
            } else if ["at", "on", "the", "@"].contains(word) || (["by", "due"].contains(word) && following.map { !$0.allSatisfy(\.isNumber) } == true) {
                // A deadline's `by friday`, `due 5pm`; `by 5` is a quantity's (increase dose by 5).
                index += 1
            } else if ["of", "in"].contains(word), let last = tokens.last, case .word(let previous) = last, ordinal(previous) != nil {
                // `1st of month`, `1st of the month`, `15th in the month`.
                index += 1
                while index < words.count, ["the", "month", "this"].contains(words[index]) { index += 1 }
            } else if word == "next", let following, let weekday = Weekday(name: following) {
                tokens.append(.next(weekday))
                index += 2
            } else if let (length, month, day) = namedDay(words, at: index) {
                tokens.append(.monthDay(month: month, day: day))
                index += length
            } else if let (month, day) = chineseMonthDay(word) {
                tokens.append(.monthDay(month: month, day: day))
                index += 1
            } else if let month = month(word), let following, let day = dayOfMonth(following) {
                tokens.append(.monthDay(month: month, day: day))
                index += 2
            } else if let day = dayOfMonth(word), let following, let month = month(following) {
                tokens.append(.monthDay(month: month, day: day))
                index += 2
            } else {
                tokens.append(.word(word))
                index += 1
            }
        }
        if let part = saidPart {
            let times = tokens.indices.filter { index in
                guard case .word(let word) = tokens[index] else { return false }
                return DayAndTime.day(word) == nil && (try? TimeOfDay.parse(word)) != nil
            }
            if times.count == 1, case .word(let time) = tokens[times[0]] {
                let time = turned(time, by: part)
                tokens[times[0]] = .word(time)
                if let tonight, let hour = (try? TimeOfDay.parse(time))?.hour, hour < 6 { tokens[tonight] = .word("tomorrow") }
            } else {
                tokens.append(.word(part))
            }
        }
        return tokens
    }

    /// The parts of the day said in English, each a time alone too
    /// (``TimeOfDay/parse(_:field:)``).
    private static let englishPartsOfDay: Set<String> = ["morning", "afternoon", "evening", "night"]

    private static func isDay(_ token: Token) -> Bool {
        guard case .word(let word) = token else { return true }
        return DayAndTime.day(word) != nil
    }

    /// `9` in the evening is `9pm`; at night, 12 and 1 to 5 are the small
    /// hours (`12am`, `2am`) and the rest evening (`10pm`); a time with its
    /// meridiem, or past 12, stays as it is.
    private static func turned(_ time: String, by part: String) -> String {
        guard time.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") }),
              let parsed = try? TimeOfDay.parse(time), (1...12).contains(parsed.hour) else { return time }
        let small = parsed.hour == 12 || parsed.hour <= 5
        return time + (part == "morning" || (part == "night" && small) ? "am" : "pm")
    }

    /// The days of the year people call by name, as a phone's assistant
    /// takes them: `christmas eve 6am`.
    static let namedDays: [(words: [String], month: Int, day: Int)] = [
        (["christmas", "eve"], 12, 24), (["christmas", "day"], 12, 25), (["christmas"], 12, 25), (["xmas", "eve"], 12, 24), (["xmas"], 12, 25),
        (["new", "year's", "eve"], 12, 31), (["new", "years", "eve"], 12, 31), (["nye"], 12, 31),
        (["new", "year's", "day"], 1, 1), (["new", "years", "day"], 1, 1), (["new", "year's"], 1, 1), (["new", "year"], 1, 1),
        (["聖誕夜"], 12, 24), (["平安夜"], 12, 24), (["聖誕節"], 12, 25), (["跨年夜"], 12, 31), (["元旦"], 1, 1),
    ]

    /// A named day starting at `words[index]`: how many words it takes, and its date.
    private static func namedDay(_ words: [String], at index: Int) -> (length: Int, month: Int, day: Int)? {
        namedDays.first { named in
            index + named.words.count <= words.count && Array(words[index..<(index + named.words.count)]) == named.words
        }.map { ($0.words.count, $0.month, $0.day) }
    }

    /// Splits at spaces, and around the Chinese day words, which are written
    /// without spaces (`下週二下午2點`).
    private static func split(_ text: String) -> [String] {
        var words: [String] = []
        var current = ""
        func flush() {
            if !current.isEmpty { words.append(current) }
            current = ""
        }
        let characters = Array(text)
        // Every Chinese day word has a character outside ASCII (12月24日 too).
        let plain = text.utf8.allSatisfy { $0 < 0x80 }
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if character == " " || character == "\t" || character == "\u{3000}" {
                flush()
                index += 1
            } else if !plain, let length = chineseDayLength(characters, at: index) {
                flush()
                words.append(String(characters[index..<index + length]))
                index += length
            } else {
                current.append(character)
                index += 1
            }
        }
        flush()
        return words
    }

    // MARK: - Chinese

    /// 今天, 明天, 後天, 昨天 and their 日 forms.
    static let chineseDays: [(word: String, offset: Int64)] = [("今天", 0), ("今日", 0), ("明天", 1), ("明日", 1), ("後天", 2), ("昨天", -1), ("昨日", -1)]
    /// 週二, 星期二, 禮拜二 (and 周二): a weekday.
    static let chineseWeekPrefixes = ["週", "周", "星期", "禮拜", "礼拜"]
    /// 下週二: the Tuesday of next week.
    static let chineseNextWeekPrefixes = ["下週", "下周", "下星期", "下禮拜", "下礼拜"]
    /// 一 … 六, 日 (and 天): Monday to Sunday.
    static let chineseWeekdays: [Character: Weekday] = ["一": .monday, "二": .tuesday, "三": .wednesday, "四": .thursday, "五": .friday,
                                                        "六": .saturday, "日": .sunday, "天": .sunday]

    /// How many characters a Chinese day word at `index` takes, if one starts there.
    private static func chineseDayLength(_ characters: [Character], at index: Int) -> Int? {
        func matches(_ word: String) -> Bool {
            let word = Array(word)
            return index + word.count <= characters.count && Array(characters[index..<index + word.count]) == word
        }
        if let day = chineseDays.first(where: { matches($0.word) }) { return day.word.count }
        if let length = chineseMonthDayLength(characters, at: index) { return length }
        // 聖誕夜, 元旦: a named day, written without spaces too.
        if let named = namedDays.first(where: { $0.words.count == 1 && !$0.words[0].allSatisfy(\.isASCII) && matches($0.words[0]) }) {
            return named.words[0].count
        }
        for prefix in chineseNextWeekPrefixes + chineseWeekPrefixes where matches(prefix) {
            let end = index + prefix.count
            if end < characters.count, chineseWeekdays[characters[end]] != nil { return prefix.count + 1 }
        }
        return nil
    }

    /// `12月24日` (or 號): how many characters it takes at `index`, if it starts there.
    private static func chineseMonthDayLength(_ characters: [Character], at index: Int) -> Int? {
        var end = index
        func number() -> Bool {
            let start = end
            while end < characters.count, end - start < 2, characters[end].isASCII, characters[end].isNumber { end += 1 }
            return end > start
        }
        guard number(), end < characters.count, characters[end] == "月" else { return nil }
        end += 1
        guard number(), end < characters.count, ["日", "號", "号"].contains(characters[end]) else { return nil }
        return end + 1 - index
    }

    /// `12月24日`: its month and day, when both are in range.
    static func chineseMonthDay(_ word: String) -> (month: Int, day: Int)? {
        let characters = Array(word)
        guard chineseMonthDayLength(characters, at: 0) == characters.count, let split = characters.firstIndex(of: "月"),
              let month = Int(String(characters[..<split])), let day = Int(String(characters[(split + 1)..<(characters.count - 1)])),
              (1...12).contains(month), (1...31).contains(day) else { return nil }
        return (month, day)
    }

    /// A Chinese day word: `.today`, `.tomorrow`, … or a weekday, this week's or next.
    static func chineseDay(_ word: String) -> DayAndTime.Day? {
        if let day = chineseDays.first(where: { $0.word == word }) {
            switch day.offset {
            case 0: return .today
            case 1: return .tomorrow
            case -1: return .yesterday
            default: return .dayAfterTomorrow
            }
        }
        guard let last = word.last, let weekday = chineseWeekdays[last] else { return nil }
        let prefix = String(word.dropLast())
        if chineseNextWeekPrefixes.contains(prefix) { return .nextWeek(weekday) }
        if chineseWeekPrefixes.contains(prefix) { return .weekday(weekday) }
        return nil
    }

    /// The parts of the day a Chinese time starts with, and how they turn
    /// the hour: 上午 and 早上 before noon, 下午 and 晚上 after it; 中午
    /// is noon and the hour after it.
    static let partsOfDay: [(word: String, afternoon: ClosedRange<Int>?)] = [
        ("上午", nil), ("早上", nil), ("凌晨", nil), ("清晨", nil), ("中午", 1...5), ("下午", 1...11), ("傍晚", 1...11), ("晚上", 1...11),
    ]

    /// Chinese numerals that count something (`七點半`, `十二月二十五日`,
    /// `三分鐘`, `兩個小時`) as Arabic digits (`7點半`, `12月25日`, `3分鐘`,
    /// `2個小時`); a numeral that names a weekday (`週一`, `星期二`) stays.
    /// Up to 999, which covers every hour, minute, day and month.
    static func arabicNumerals(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { chineseDigits[$0] != nil }) else { return text }
        let characters = Array(text)
        var result = ""
        var index = 0
        while index < characters.count {
            guard chineseDigits[characters[index].unicodeScalars.first!] != nil else {
                result.append(characters[index])
                index += 1
                continue
            }
            var end = index
            while end < characters.count, let scalar = characters[end].unicodeScalars.first, chineseDigits[scalar] != nil { end += 1 }
            let run = characters[index..<end]
            let afterWeekdayWord = index > 0 && weekdayMarks.contains(characters[index - 1])
            let counts = end < characters.count && countedUnits.contains(characters[end])
            if counts, !afterWeekdayWord, run.count <= 4, let value = chineseNumber(run) {
                result += String(value)
            } else {
                result += String(run)
            }
            index = end
        }
        return result
    }

    /// The value of each Chinese digit; 十 and 百 multiply (`chineseNumber`).
    private static let chineseDigits: [Unicode.Scalar: Int] = [
        "〇": 0, "零": 0, "一": 1, "二": 2, "兩": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9, "十": 10, "百": 100,
    ]
    /// What a number counts in times, days and durations: 點, 分, 月, 號, 天, 個 ….
    private static let countedUnits: Set<Character> = ["點", "点", "時", "分", "秒", "小", "個", "个", "天", "日", "號", "号", "月", "鐘", "年", "週", "周", "星", "禮"]
    /// What a weekday's numeral follows: 週一, 星期一, 禮拜一.
    private static let weekdayMarks = Set(chineseWeekPrefixes.compactMap(\.last))

    /// `七` 7, `十` 10, `十二` 12, `二十五` 25, `一百零五` 105; `nil` for a run
    /// that is no number (`一一`).
    private static func chineseNumber(_ run: ArraySlice<Character>) -> Int? {
        var total = 0, current: Int?
        for character in run {
            guard let value = chineseDigits[character.unicodeScalars.first!] else { return nil }
            switch value {
            case 10, 100:
                total += (current ?? 1) * value
                current = nil
            case 0:
                continue
            default:
                guard current == nil else { return nil }
                current = value
            }
        }
        return total + (current ?? 0)
    }

    /// `7點`, `7點半`, `7點30分`, `下午2點`, `晚上9:30`, `早上7:00`: a time of day.
    static func chineseTime(_ word: String) -> TimeOfDay? {
        var rest = Substring(word)
        var part: (word: String, afternoon: ClosedRange<Int>?)?
        if let found = partsOfDay.first(where: { rest.hasPrefix($0.word) }) {
            part = found
            rest = rest.dropFirst(found.word.count)
        }
        var hour: Int, minute = 0
        if let mark = rest.firstIndex(where: { $0 == "點" || $0 == "点" || $0 == "時" }) {
            guard let parsed = Int(rest[..<mark]), rest[..<mark].count <= 2 else { return nil }
            hour = parsed
            var after = rest[rest.index(after: mark)...]
            if after.hasSuffix("分") { after = after.dropLast() }
            if after == "半" {
                minute = 30
            } else if !after.isEmpty {
                guard let parsed = Int(after), after.count <= 2 else { return nil }
                minute = parsed
            }
        } else if part != nil, let time = try? TimeOfDay.parse(String(rest)) {
            hour = time.hour
            minute = time.minute
        } else {
            return nil
        }
        guard (0...23).contains(hour), (0...59).contains(minute) else { return nil }
        if let part {
            if let afternoon = part.afternoon {
                if afternoon.contains(hour) { hour += 12 }
            } else if hour == 12 {
                hour = 0
            }
        }
        return try? TimeOfDay(hour: hour, minute: minute)
    }

    // MARK: - English

    /// A clock's time said in words at `words[index]`, as digits, and how
    /// many words it takes: `half past 6` 6:30, `a quarter to seven` 6:45,
    /// `10 past 7` 7:10, `twenty to nine` 8:40, `quarter past noon` 12:15,
    /// `five to midnight` 23:55, `6 o'clock` 6:00, `six pm` 6 (the meridiem
    /// joins it after). Minutes before the hour are words or say `minutes`
    /// (`5 minutes to 9`): `9 to 5` is a span, not 8:05.
    static func clockWords(_ words: [String], at index: Int) -> (length: Int, time: String)? {
        func word(_ at: Int) -> String? { at < words.count ? words[at] : nil }
        // Words are looked up only when they are words: `7:30` builds no table.
        func number(_ text: String) -> Int? { text.first?.isLetter == true ? englishNumbers[text] : nil }
        func hour(_ text: String) -> Int? {
            if let number = Int(text) ?? number(text), (1...12).contains(number) { return number }
            switch text {
            case "noon", "midday": return 12
            case "midnight": return 0
            default: return nil
            }
        }
        func hour(_ at: Int) -> Int? { word(at).flatMap(hour) }
        /// `6pm` after `half past`: the hour on a 24-hour clock, as ``TimeOfDay`` reads a whole hour with its meridiem.
        func hourWithMeridiem(_ at: Int) -> Int? {
            guard let text = word(at), ["am", "pm", "a.m.", "p.m."].contains(where: text.hasSuffix), text.first?.isNumber == true,
                  let time = try? TimeOfDay.parse(text), time.minute == 0 else { return nil }
            return time.hour
        }
        func clock(_ hour: Int, _ minute: Int) -> String { "\(hour):" + TimeOfDay.twoDigits(minute) }
        if let first = word(index), let hour = hour(index), first != "noon", first != "midday", first != "midnight" {
            if let next = word(index + 1), ["o'clock", "o\u{2019}clock", "oclock"].contains(next) { return (2, clock(hour, 0)) }
            // `six pm`, `seven in the evening`, `six tonight`: a spelled hour the words after it turn.
            if number(first) != nil, let next = word(index + 1),
               ["am", "pm", "a.m.", "p.m.", "tonight"].contains(next) || (["in", "at", "this"].contains(next) && word(index + 2).map { ["the", "night"].contains($0) || englishPartsOfDay.contains($0) } == true) {
                return (1, "\(hour)")
            }
        }
        var at = index
        if word(at) == "a", word(at + 1) == "quarter" { at += 1 }
        guard let first = word(at) else { return nil }
        var minutes: Int, spelled = true
        switch first {
        case "quarter": minutes = 15
        case "half": minutes = 30
        case "twenty" where word(at + 1) == "five":
            minutes = 25
            at += 1
        default:
            if let spelled = number(first), [5, 10, 20, 25].contains(spelled) {
                minutes = spelled
            } else if first.count <= 2, let number = Int(first), (1...29).contains(number) {
                (minutes, spelled) = (number, false)
            } else {
                return nil
            }
        }
        at += 1
        if minutes != 15, minutes != 30, let unit = word(at), ["minutes", "minute", "mins", "min"].contains(unit) {
            spelled = true
            at += 1
        }
        guard let direction = word(at) else { return nil }
        // `half past 6pm`: with its meridiem, the hour is a 24-hour clock's.
        let meridiem = hourWithMeridiem(at + 1)
        guard let hour = meridiem ?? hour(at + 1) else { return nil }
        switch direction {
        case "past", "after":
            return (at + 2 - index, clock(hour, minutes))
        case "to", "till", "til", "before":
            guard spelled, minutes != 30 else { return nil }
            // `quarter to one` is 12:45; `to midnight` (or `to 12am`), 23:…
            let before = hour == 0 ? 23 : hour == 1 && meridiem == nil ? 12 : hour - 1
            return (at + 2 - index, clock(before, 60 - minutes))
        default:
            return nil
        }
    }

    /// The English numbers a clock's time is said with.
    private static let englishNumbers: [String: Int] = [
        "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
        "twenty": 20, "twenty-five": 25,
    ]

    static let monthNames = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    static let fullMonthNames = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"]

    /// `dec`, `december`, `sept`: the month, 1–12.
    static func month(_ word: String) -> Int? {
        let word = word.hasSuffix(".") ? String(word.dropLast()) : word
        if let index = monthNames.firstIndex(of: word) ?? fullMonthNames.firstIndex(of: word) { return index + 1 }
        return word == "sept" ? 9 : nil
    }

    /// `24`, `24th`, `1st`: a day of a month, 1–31.
    static func dayOfMonth(_ word: String) -> Int? {
        if let number = ordinal(word) { return number }
        guard word.count <= 2, let number = Int(word), (1...31).contains(number) else { return nil }
        return number
    }

    /// `1st`, `2nd`, `3rd`, `24th`: the number of an ordinal, 1–31.
    static func ordinal(_ word: String) -> Int? {
        guard word.count >= 3, word.count <= 4, let number = Int(word.dropLast(2)), (1...31).contains(number) else { return nil }
        let suffix = word.suffix(2)
        let expected = (11...13).contains(number % 100) ? "th" : [1: "st", 2: "nd", 3: "rd"][number % 10] ?? "th"
        return suffix == expected ? number : nil
    }
}
