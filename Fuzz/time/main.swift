// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: the time, date, duration and repeat-day parsers of AlarmCore.
//
// Every input is read as text and given to each parser in turn (TimeOfDay.parse,
// InstantParser.parse in three zones, DurationParser.parse, RepeatDays.parse and
// RepeatDays.fromCodes). None may trap; errors are typed (ValidationError) and
// name the field; whatever parses must survive its canonical form:
//   - a time of day prints as HH:MM and parses back to itself;
//   - an instant prints (RFC 3339, in UTC and in its zone) and parses back to
//     the same instant;
//   - a duration is positive and its canonical XdYhZmWs form parses back to it;
//   - repeat days parse back from their display text and from their wire codes.
import AlarmCore
import Foundation

let zones: [ZoneRules] = ["UTC", "America/New_York", "Australia/Lord_Howe"].map {
    Zone(identifier: $0)!.rules
}

func checkError(_ error: ValidationError, field: String, _ text: String) {
    check(error.field == field, "error names field \(error.field), not \(field), for \(ValidationError.quoted(text))")
    check(!error.requirement.isEmpty, "error without a requirement for \(ValidationError.quoted(text))")
}

/// A canonical form must parse; its failure is a finding, not an input error.
func reparse<T>(_ what: String, _ text: String, _ body: () throws(ValidationError) -> T) -> T {
    do throws(ValidationError) { return try body() } catch {
        check(false, "\(what): canonical form \(ValidationError.quoted(text)) does not parse: \(error)")
        fatalError()
    }
}

func fuzzTimeOfDay(_ text: String) {
    let time: TimeOfDay
    do throws(ValidationError) { time = try TimeOfDay.parse(text, field: "time") } catch {
        checkError(error, field: "time", text)
        return
    }
    check((0...23).contains(time.hour) && (0...59).contains(time.minute), "TimeOfDay out of range: \(time.hour):\(time.minute)")
    let canonical = time.description
    check(canonical.utf8.count == 5, "TimeOfDay description \(canonical) is not HH:MM")
    let again = reparse("TimeOfDay", canonical) { () throws(ValidationError) in try TimeOfDay.parse(canonical) }
    check(again == time, "TimeOfDay \(ValidationError.quoted(text)) -> \(canonical) -> \(again)")
    let built = reparse("TimeOfDay(hour:minute:)", canonical) { () throws(ValidationError) in try TimeOfDay(hour: time.hour, minute: time.minute) }
    check(built == time, "TimeOfDay init disagrees")
}

func fuzzInstant(_ text: String, _ rules: ZoneRules) {
    let date: Date
    do throws(ValidationError) {
        date = try InstantParser.parse(text, rules: rules, field: "when")
    } catch {
        checkError(error, field: "when", text)
        return
    }
    let interval = date.timeIntervalSince1970
    check(interval.isFinite, "instant not finite for \(ValidationError.quoted(text))")
    // Years 0000-9999 shifted by at most a day of offset.
    check(interval > -62_167_219_200 - 86_400 && interval < 253_402_300_800 + 86_400, "instant \(interval) outside 0000-9999 for \(ValidationError.quoted(text))")
    let seconds = Int64(interval.rounded(.down))
    // The instant in UTC, RFC 3339, must read back: that is what the wire
    // falls back to. Known finding "year-range": an instant accepted within
    // years 0000-9999 where it was written can lie outside them in UTC.
    let utc = LocalDateTime(localSeconds: seconds, utcOffset: 0)
    roundTrip(text, utc.description, rules, seconds, known: (0...9999).contains(utc.year) ? nil : "year-range")
    // In the zone itself, wherever RFC 3339 can say it: an offset in whole
    // minutes (local mean time, New York -04:56:02 before 1883, cannot be
    // said; the wire shows such instants in UTC, see the varlink and export
    // targets' "offset-seconds") and a four-digit year.
    let local = rules.localDateTime(at: seconds)
    if local.utcOffset % 60 == 0, (0...9999).contains(local.year) {
        roundTrip(text, local.description, rules, seconds, known: nil)
    }
}

func roundTrip(_ text: String, _ printed: String, _ rules: ZoneRules, _ seconds: Int64, known: String?) {
    let again: Date
    do throws(ValidationError) { again = try InstantParser.parse(printed, rules: rules) } catch {
        check(false, "instant \(ValidationError.quoted(text)) in \(rules.identifier) prints as \(printed), which does not parse: \(error)", known: known)
        return
    }
    check(Int64(again.timeIntervalSince1970) == seconds,
          "instant \(ValidationError.quoted(text)) in \(rules.identifier) -> \(printed) -> \(again.timeIntervalSince1970), not \(seconds)")
}

func fuzzDuration(_ text: String) {
    let total: Int64
    do throws(ValidationError) { total = try DurationParser.parse(text, field: "duration") } catch {
        checkError(error, field: "duration", text)
        return
    }
    do {
        check(total > 0, "duration \(total) <= 0 for \(ValidationError.quoted(text))")
        // At most 100 years, however it was written.
        check(total <= DurationParser.maxDays * 86_400, "duration \(total) too large")
        let parts: [(Int64, String)] = [(total / 86_400, "d"), (total % 86_400 / 3_600, "h"), (total % 3_600 / 60, "m"), (total % 60, "s")]
        let canonical = parts.filter { $0.0 > 0 }.map { "\($0.0)\($0.1)" }.joined()
        let again = reparse("duration", canonical) { () throws(ValidationError) in try DurationParser.parse(canonical) }
        check(again == total, "duration \(ValidationError.quoted(text)) = \(total) -> \(canonical) -> \(again)")
    }
}

func fuzzRepeatDays(_ text: String) {
    do throws(ValidationError) {
        let days = try RepeatDays.parse(text, field: "days")
        check(days.rawValue & 0x80 == 0, "RepeatDays has bit 7")
        let display = days.displayText
        let fromDisplay = reparse("repeat days", display) { () throws(ValidationError) in try RepeatDays.parse(display) }
        check(fromDisplay == days, "days \(ValidationError.quoted(text)) -> \(display) -> \(fromDisplay.codes)")
        let fromCodes = reparse("repeat day codes", "\(days.codes)") { () throws(ValidationError) in try RepeatDays.fromCodes(days.codes) }
        check(fromCodes == days, "days codes \(days.codes) -> \(fromCodes.codes)")
        check(days.days.count == days.codes.count && days.days == days.days.sorted(), "days not in week order")
    } catch {
        checkError(error, field: "days", text)
    }
    // The wire form: an array of codes.
    let codes = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    do throws(ValidationError) {
        let days = try RepeatDays.fromCodes(codes, field: "days")
        check(days.codes == codes.sorted { Weekday(name: $0)!.weekPosition < Weekday(name: $1)!.weekPosition },
              "fromCodes \(codes) -> \(days.codes)")
    } catch {
        checkError(error, field: "days", text)
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    // The parsers read short strings; long inputs only slow the search down.
    guard size <= 256 else { return -1 }
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    fuzzTimeOfDay(text)
    for rules in zones { fuzzInstant(text, rules) }
    fuzzDuration(text)
    fuzzRepeatDays(text)
    return 0
}
