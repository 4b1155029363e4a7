// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: the zone-file readers of AlarmCore.
//
// Every input is read as a TZif file (TZif.init) and as the text of a POSIX TZ
// rule (PosixZoneRule.init). Neither may trap; a file is refused with a reason.
// Whatever is accepted must make sense:
//   - a file's transitions ascend, one offset each, all within ±26 hours;
//   - the ZoneRules built from it give, at and around each transition and far
//     past the table, an offset that is one of the file's or the footer's;
//     instant(forWall:) and localDateTime(at:) never trap;
//   - a rule's yearly changes come in order, alternating between its two
//     offsets, and offset(at:) agrees with them.
import AlarmCore

let probes: [Int64] = [Int64.min, -1 << 40, ZoneRules.defaultStart - 1, 0, 1_800_000_000, ZoneRules.defaultEnd - 1,
                       ZoneRules.defaultEnd, 1 << 40, Int64.max]

func fuzzFile(_ bytes: [UInt8]) {
    let tzif: TZif
    do throws(TZif.FormatError) { tzif = try TZif(bytes) } catch {
        check(!error.reason.isEmpty, "a refusal without a reason")
        return
    }
    check(tzif.transitions.count == tzif.offsets.count, "\(tzif.transitions.count) transitions, \(tzif.offsets.count) offsets")
    check(zip(tzif.transitions, tzif.transitions.dropFirst()).allSatisfy { $0 < $1 }, "transitions out of order")
    var known = Set(tzif.offsets + [tzif.initialOffset])
    if let footer = tzif.footer {
        known.insert(footer.standardOffset)
        if let daylight = footer.daylight { known.insert(daylight.offset) }
    }
    check(known.allSatisfy { abs($0) < 26 * 3600 }, "an offset of a day or more: \(known.sorted())")
    let rules = ZoneRules(identifier: "Fuzz/Zone", tzif: tzif)
    var instants = probes
    for t in tzif.transitions.prefix(64) where t > Int64.min + 1 { instants += [t - 1, t] }
    for instant in instants {
        let offset = rules.offset(at: instant)
        check(known.contains(Int32(offset)), "offset \(offset) at \(instant) is none of \(known.sorted())")
    }
    // Walls within a wide but real range: day numbers of years -5000…15000.
    for wall in [Int64(-220_000_000_000), 0, 1_800_000_000, 400_000_000_000] {
        let instant = rules.instant(forWall: wall)
        check(abs(instant - wall) <= 2 * 86_400, "wall \(wall) resolved to \(instant)")
        _ = rules.localDateTime(at: instant)
    }
}

func fuzzRule(_ text: String) {
    guard let rule = PosixZoneRule(text) else { return }
    for year in [1900, 1970, 2026, 2400, 9999] {
        let changes = rule.transitions(year: year)
        guard let daylight = rule.daylight else {
            check(changes.isEmpty, "\(text): changes without daylight time")
            continue
        }
        check(changes.count == 2 && changes[0].instant <= changes[1].instant, "\(text): \(year) changes \(changes)")
        check(Set(changes.map(\.offset)) == Set([rule.standardOffset, daylight.offset]), "\(text): \(year) offsets \(changes)")
        // Between this year's two changes the first one's offset holds, unless a
        // neighbouring year's change lands in between (hours past 24 allow that).
        let window = changes[0].instant..<changes[1].instant
        let neighbours = rule.transitions(year: year - 1) + rule.transitions(year: year + 1)
        if window.count > 1, !neighbours.contains(where: { window.contains($0.instant) || $0.instant == window.upperBound }) {
            let middle = changes[0].instant + (changes[1].instant - changes[0].instant) / 2
            check(rule.offset(at: middle) == changes[0].offset, "\(text): offset in the middle of \(year)")
        }
    }
    for instant in probes { _ = rule.offset(at: instant) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size <= 65_536 else { return -1 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    fuzzFile(bytes)
    fuzzRule(String(decoding: bytes, as: UTF8.self))
    return 0
}
