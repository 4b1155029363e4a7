// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: what people type for a time, a day or a duration —
// DayAndTime (`tomorrow 7am`, `9:00 fri`, `next tue at 2pm`, `dec 24`,
// `1st`, `明天早上7點`, `下週二`), TimeOfDay in all its forms (`0730`,
// `7.30`, `noon`), DurationParser (`1h 30m`, `1.5h`, `20 minutes`, `now`,
// `25分鐘`, `in 25 min`, `2h ago`) and SpokenRepeat (`every 2 weeks on fri`,
// `每天`).
//
// None may trap; errors are typed (ValidationError) and name the field;
// whatever parses must be consistent:
//   - a DayAndTime has a day or a time, and its day resolves, from any
//     instant in three zones, to a day no more than a week ahead (or, for
//     a date, exactly that date; yesterday, the day before), and looking
//     back (`history --since`) to one no more than a week behind;
//   - a time of day prints as HH:MM and parses back to itself;
//   - a duration is 0 only for `now`, at most 100 years, and its canonical
//     XdYhZmWs form parses back to it; a relative one is never 0;
//   - a spoken day lands on what it names: the date of `dec 24`, the day
//     number of `15th`, never today for `next tue`, next week for `下週二`;
//   - a repeat in words takes some of the words and names days or a count.
import AlarmCore
import Foundation

let zones: [ZoneRules] = ["UTC", "America/New_York", "Australia/Lord_Howe"].map { Zone(identifier: $0)!.rules }
/// Instants to resolve from: 1970, a DST change in New York, 2026, 2150.
let instants: [Int64] = [0, 1_710_054_000, 1_796_179_767, 5_680_000_000]

func checkError(_ error: ValidationError, field: String, _ text: String) {
    check(error.field == field, "error names field \(error.field), not \(field), for \(ValidationError.quoted(text))")
    check(!error.requirement.isEmpty, "error without a requirement for \(ValidationError.quoted(text))")
}

func fuzzDayAndTime(_ text: String) {
    for requireTime in [false, true] {
        let parsed: DayAndTime
        do throws(ValidationError) { parsed = try DayAndTime.parse(text, field: "when", requireTime: requireTime) } catch {
            checkError(error, field: "when", text)
            continue
        }
        check(parsed.day != nil || parsed.time != nil, "\(ValidationError.quoted(text)) parsed to neither a day nor a time")
        check(!requireTime || parsed.time != nil, "\(ValidationError.quoted(text)) has no time though one was required")
        if let time = parsed.time {
            let again = try? TimeOfDay.parse(time.description)
            check(again == time, "time \(time) does not read back")
        }
        for rules in zones {
            for now in instants {
                let today = (now + Int64(rules.offset(at: now))).floorDivided(by: 86_400)
                for lookingBack in [false, true] {
                    let day = parsed.resolveDay(now: now, rules: rules, allDay: lookingBack ? .midnight : .nineAM, lookingBack: lookingBack)
                    switch parsed.day {
                    case .date(let date)?: check(day == date, "a date resolved to another day")
                    case .today?: check(day == today, "today is not today")
                    case .tomorrow?: check(day == today + 1, "tomorrow is not tomorrow")
                    case .yesterday?: check(day == today - 1, "yesterday is not yesterday")
                    case .dayAfterTomorrow?: check(day == today + 2, "後天 is not the day after tomorrow")
                    case .nextWeekday?:
                        check(day != today && abs(day - today) <= 7, "\(ValidationError.quoted(text)) resolved \(day - today) days from today")
                    case .nextWeek?:
                        check(day - today >= 1 && day - today <= 13, "\(ValidationError.quoted(text)) resolved \(day - today) days from today")
                    case .monthDay(let month, let dayOfMonth)?:
                        let date = CivilTime.date(dayNumber: day)
                        check(date.month == month && date.day == dayOfMonth, "\(ValidationError.quoted(text)) resolved to another date")
                        check(abs(day - today) <= 8 * 366, "\(ValidationError.quoted(text)) resolved \(day - today) days from today")
                    case .dayOfMonth(let number)?:
                        check(CivilTime.date(dayNumber: day).day == number, "\(ValidationError.quoted(text)) resolved to another day of the month")
                        check(abs(day - today) <= 62, "\(ValidationError.quoted(text)) resolved \(day - today) days from today")
                    default:
                        let range = lookingBack ? (today - 7)...today : today...(today + 7)
                        check(range.contains(day), "\(ValidationError.quoted(text)) resolved \(day - today) days from today\(lookingBack ? ", looking back" : "")")
                    }
                }
            }
        }
    }
}

/// A repeat in words: the rest is a suffix or prefix of the text's words,
/// and every repeat names days or counts days, months or years.
func fuzzRepeat(_ text: String) {
    do throws(ValidationError) {
        let (found, rest) = try SpokenRepeat.split(text, field: "TIME")
        guard let found else { return check(rest == text, "no repeat, yet the text changed") }
        check(rest.utf8.count < text.utf8.count, "a repeat took no words of \(ValidationError.quoted(text))")
        check(found.everyDays != nil || found.everyMonths != nil || found.everyYears != nil || !found.days.isEmpty,
              "a repeat without days in \(ValidationError.quoted(text))")
        check((1...999).contains(found.everyWeeks) && (found.everyDays.map { (1...999).contains($0) } ?? true), "a repeat's count is out of range")
    } catch {
        checkError(error, field: "TIME", text)
    }
    do throws(ValidationError) {
        if let seconds = try DurationParser.relative(text, field: "when") {
            check(seconds != 0 && abs(seconds) <= DurationParser.maxDays * 86_400, "relative \(seconds) out of range for \(ValidationError.quoted(text))")
        }
    } catch {
        checkError(error, field: "when", text)
    }
}

func fuzzDuration(_ text: String) {
    for allowNow in [false, true] {
        do throws(ValidationError) {
            let seconds = try DurationParser.parse(text, field: "duration", allowNow: allowNow)
            check(seconds >= 0 && seconds <= DurationParser.maxDays * 86_400, "duration \(seconds) out of range for \(ValidationError.quoted(text))")
            guard seconds > 0 else {
                check(allowNow, "a zero duration without allowNow for \(ValidationError.quoted(text))")
                continue
            }
            var canonical = ""
            var rest = seconds
            for (unit, size) in [("d", Int64(86_400)), ("h", 3_600), ("m", 60), ("s", 1)] where rest >= size {
                canonical += "\(rest / size)\(unit)"
                rest %= size
            }
            let again = try? DurationParser.parse(canonical)
            check(again == seconds, "duration \(ValidationError.quoted(text)) -> \(canonical) -> \(String(describing: again))")
        } catch {
            checkError(error, field: "duration", text)
        }
    }
}

extension Int64 {
    func floorDivided(by divisor: Int64) -> Int64 { self >= 0 ? self / divisor : -((-self - 1) / divisor) - 1 }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    // People type short things; long inputs only slow the search down.
    guard size <= 128 else { return -1 }
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    fuzzDayAndTime(text)
    fuzzDuration(text)
    fuzzRepeat(text)
    return 0
}
