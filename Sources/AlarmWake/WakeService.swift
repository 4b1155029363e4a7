// SPDX-License-Identifier: Apache-2.0
import VarlinkCore

/// What `alarmd-wake` does with one message: decides the reply and changes
/// the slots. No I/O and no clock, so the fuzz target and the tests drive it
/// with any caller and any time; the helper supplies the peer's uid from
/// `SO_PEERCRED` and arms the timer for ``WakeSlots/earliest`` afterwards.
///
/// Each method's parameters are read, and its reply written, through its
/// ``WakeMethod`` declaration; every refusal is a ``WakeError`` (or a
/// standard `org.varlink.service` error for a method or interface it does
/// not serve), whatever the message holds.
public struct WakeService: Sendable {
    public private(set) var slots = WakeSlots()

    public init() {}

    /// Clears the slots that have passed; returns the users whose slot went.
    public mutating func expire(now: WakeInstant) -> [UInt32] { slots.expire(now: now) }

    /// The reply to `message` from `uid` (`nil` for a `oneway` call).
    public mutating func handle(_ message: [UInt8], uid: UInt32, now: WakeInstant, tick: UInt64) -> VarlinkReply? {
        let call: VarlinkCall
        do throws(VarlinkError) { call = try VarlinkCall(message: message) } catch {
            return .error(WakeError.unusable(error).varlinkError)
        }
        let reply = handle(call, uid: uid, now: now, tick: tick)
        return call.oneway ? nil : reply
    }

    private mutating func handle(_ call: VarlinkCall, uid: UInt32, now: WakeInstant, tick: UInt64) -> VarlinkReply {
        switch (call.interface, call.member) {
        case ("org.varlink.service", _):
            return Self.serviceInterface.reply(to: call)
        case (WakeInterface.name, WakeInterface.SetWake.name):
            return Self.answer(call, WakeInterface.SetWake.self) { parameters throws(WakeError) in
                try setWake(parameters, uid: uid, now: now, tick: tick)
            }
        case (WakeInterface.name, WakeInterface.GetWake.name):
            return Self.answer(call, WakeInterface.GetWake.self) { _ throws(WakeError) in
                WakeInterface.GetWake.Reply(at: slots.slot(of: uid))
            }
        case (WakeInterface.name, _):
            return .error(.methodNotFound(call.method))
        default:
            return .error(.interfaceNotFound(call.interface))
        }
    }

    /// Reads `call`'s parameters as `method` declares them, runs `body`, and
    /// writes its reply or its error.
    private static func answer<Method: WakeMethod>(_ call: VarlinkCall, _ method: Method.Type,
                                                   _ body: (Method.Parameters) throws(WakeError) -> Method.Reply) -> VarlinkReply {
        do throws(WakeError) {
            let parameters = try Method.Parameters(WakeMembers(call.parameters, from: .call))
            return .parameters(try body(parameters).json, continues: false)
        } catch {
            return .error(error.varlinkError)
        }
    }

    private mutating func setWake(_ parameters: WakeInterface.SetWake.Parameters, uid: UInt32, now: WakeInstant,
                                  tick: UInt64) throws(WakeError) -> WakeInterface.SetWake.Reply {
        do throws(WakeSlots.Refusal) { try slots.set(parameters.at, for: uid, now: now, tick: tick) } catch {
            throw WakeError(error)
        }
        slots.forgetOldChanges(tick: tick)
        return WakeInterface.SetWake.Reply()
    }

    /// `org.varlink.service`: `GetInfo` and `GetInterfaceDescription`.
    public static let serviceInterface = VarlinkServiceInterface(product: "alarmd-wake", version: WakeInterface.version, url: "man:alarmd-wake(8)",
                                                                 interface: (WakeInterface.name, WakeInterface.text))
}
