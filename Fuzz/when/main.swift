// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: what people type for a time, a day or a duration —
// DayAndTime (`tomorrow 7am`, `9:00 fri`, `2026-12-24 9:00`), TimeOfDay in
// all its forms (`0730`, `7.30`, `noon`) and DurationParser (`1h 30m`,
// `1.5h`, `20 minutes`, `now`).
//
// None may trap; errors are typed (ValidationError) and name the field;
// whatever parses must be consistent:
//   - a DayAndTime has a day or a time, and its day resolves, from any
//     instant in three zones, to a day no more than a week ahead (or, for
//     a date, exactly that date; yesterday, the day before), and looking
//     back (`history --since`) to one no more than a week behind;
//   - a time of day prints as HH:MM and parses back to itself;
//   - a duration is 0 only for `now`, at most 100 years, and its canonical
//     XdYhZmWs form parses back to it.
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
                    default:
                        let range = lookingBack ? (today - 7)...today : today...(today + 7)
                        check(range.contains(day), "\(ValidationError.quoted(text)) resolved \(day - today) days from today\(lookingBack ? ", looking back" : "")")
                    }
                }
            }
        }
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
    return 0
}
