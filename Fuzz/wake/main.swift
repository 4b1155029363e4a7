// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: the alarmd-wake helper's request handling (WakeService
// over WakeSlots), as the helper runs it, with no socket and no clock.
//
// The input is a byte stream as clients would send it: messages ended by NUL,
// framed by a VarlinkFramer with the helper's 4 KiB limit. Each message's
// length (the fuzzer pads with spaces) picks the caller, one of three uids,
// and how far the clocks move before it (0 ms to 2.5 s), so the fuzzer
// reaches the rate limit, expiry and every refusal. Invariants:
//   - a reply for every call but a oneway one; every error is declared by
//     io.alarmd.Wake.varlink or is a standard org.varlink.service one;
//   - a refused call changes no slot; a SetWake that succeeds changes only
//     the caller's slot, to exactly the instant it named (or none);
//   - every slot is after the time it was set and at most 400 days ahead;
//     earliest is the minimum of the slots;
//   - no uid gets more than 10 changes accepted within one second;
//   - GetWake answers the caller's own slot.
import AlarmWake
import VarlinkCore

let uids: [UInt32] = [0, 1000, 65534]
let declaredErrors: Set<String> = Set(WakeInterface.text.split(separator: "\n").compactMap { line in
    line.hasPrefix("error ") ? WakeInterface.name + "." + line.dropFirst(6).prefix { $0 != " " && $0 != "(" } : nil
})

func fuzzStream(_ bytes: [UInt8]) {
    var framer = VarlinkFramer(maxMessageSize: WakeInterface.maxMessageSize)
    let messages: [[UInt8]]
    do throws(VarlinkFramer.Oversize) { messages = try framer.append(bytes) } catch {
        check(error.limit == WakeInterface.maxMessageSize, "Oversize names limit \(error.limit)")
        return
    }
    var service = WakeService()
    var now = WakeInstant(seconds: 1_796_000_000)
    var tick: UInt64 = 1_000_000_000
    var accepted: [UInt32: [UInt64]] = [:]
    for message in messages.prefix(64) {
        let selector = UInt8(truncatingIfNeeded: message.count)
        let uid = uids[Int(selector) % uids.count]
        let step = UInt64(selector / 3) * 10_000_000
        tick += step
        now = WakeInstant(microseconds: now.microseconds + Int64(step / 1000))
        _ = service.expire(now: now)
        let before = service.slots
        let call = try? VarlinkCall(message: message)
        let reply = service.handle(message, uid: uid, now: now, tick: tick)
        let after = service.slots
        if call?.oneway != true {
            check(reply != nil, "no reply to a call that is not oneway")
        }
        for other in uids where other != uid {
            check(after.slot(of: other) == before.slot(of: other), "uid \(uid)'s call changed uid \(other)'s slot")
        }
        if let slot = after.slot(of: uid), slot != before.slot(of: uid) {
            check(slot > now && slot <= now.adding(seconds: WakeSlots.maxAhead), "slot \(slot) outside (now, now + 400 days]")
        }
        check(after.earliest == uids.compactMap { after.slot(of: $0) }.min(), "earliest is not the minimum of the slots")
        guard let call, let reply else { continue }
        switch reply {
        case .error(let error):
            check(declaredErrors.contains(error.name) || error.name.hasPrefix("org.varlink.service."), "undeclared error \(error.name)")
            check(after.slot(of: uid) == before.slot(of: uid), "refused \(error.name) but the slot changed")
        case .parameters(let parameters, _):
            if call.method == WakeInterface.name + ".SetWake" {
                let expected = call.parameters["at"]?.stringValue.flatMap { try? WakeInstant(rfc3339: $0) }
                check(after.slot(of: uid) == expected, "SetWake succeeded but the slot is \(String(describing: after.slot(of: uid))), not \(String(describing: expected))")
                var recent = accepted[uid, default: []].filter { tick - $0 < 1_000_000_000 }
                recent.append(tick)
                check(recent.count <= WakeSlots.changesPerSecond, "\(recent.count) changes accepted within a second for uid \(uid)")
                accepted[uid] = recent
            } else if call.method == WakeInterface.name + ".GetWake" {
                let answered = parameters["at"]?.stringValue.flatMap { try? WakeInstant(rfc3339: $0) }
                check(answered == after.slot(of: uid),
                      "GetWake answered \(String(describing: answered)), the slot is \(String(describing: after.slot(of: uid)))")
            }
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size <= 65_536 else { return -1 }
    fuzzStream(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
