import AlarmCore
import AlarmProtocol
import Foundation

/// What `alarmd-wake` does with one message: decides the reply and changes
/// the slots. No I/O and no clock, so the fuzz target and the tests drive it
/// with any caller and any time; ``WakeHelper`` supplies the peer's uid from
/// `SO_PEERCRED` and arms the timer for ``WakeSlots/earliest`` afterwards.
struct WakeService {
    private(set) var slots = WakeSlots()

    /// Clears the slots that have passed; returns the users whose slot went.
    mutating func expire(now: Date) -> [UInt32] { slots.expire(now: now) }

    /// The reply to `message` from `uid` (`nil` for a `oneway` call).
    mutating func handle(_ message: [UInt8], uid: UInt32, now: Date, tick: UInt64) -> VarlinkReply? {
        let call: VarlinkCall
        do throws(VarlinkError) { call = try VarlinkCall(message: message) } catch {
            return .error(WakeInterface.invalidParameter("message", error.description))
        }
        let reply = handle(call, uid: uid, now: now, tick: tick)
        return call.oneway ? nil : reply
    }

    private mutating func handle(_ call: VarlinkCall, uid: UInt32, now: Date, tick: UInt64) -> VarlinkReply {
        switch (call.interface, call.member) {
        case ("org.varlink.service", _):
            return Self.serviceInterface.reply(to: call)
        case (WakeInterface.name, "SetWake"):
            let at: Date?
            do throws(VarlinkError) { at = try Self.instant(call.parameters) } catch { return .error(error) }
            do throws(WakeSlots.Refusal) {
                try slots.set(at, for: uid, now: now, tick: tick)
            } catch {
                return .error(WakeInterface.error(error))
            }
            slots.forgetOldChanges(tick: tick)
            return .parameters([:], continues: false)
        case (WakeInterface.name, "GetWake"):
            guard call.parameters.isEmpty else { return .error(Self.unknown(call.parameters.keys.sorted()[0])) }
            return .parameters(slots.slot(of: uid).map { ["at": .string(WireTime.string($0, in: .utc))] } ?? [:], continues: false)
        case (WakeInterface.name, _):
            return .error(.methodNotFound(call.method))
        default:
            return .error(.interfaceNotFound(call.interface))
        }
    }

    /// `SetWake`'s `at`: absent or null clears; otherwise an RFC 3339 instant
    /// with an offset (a local time would depend on the helper's zone, which
    /// is not the caller's).
    private static func instant(_ parameters: JSONObject) throws(VarlinkError) -> Date? {
        if let other = parameters.keys.sorted().first(where: { $0 != "at" }) { throw unknown(other) }
        switch parameters["at"] {
        case nil, .null?: return nil
        case .string(let text)?:
            // An offset (or Z) after the time: a local time would be read in
            // the helper's zone, which need not be the caller's.
            guard text.utf8.count <= 64, let t = text.firstIndex(where: { $0 == "T" || $0 == "t" }),
                  text[t...].contains(where: { "Zz+-".contains($0) }) else {
                throw WakeInterface.invalidParameter("at", "at must be an RFC 3339 instant with an offset, such as 2026-12-24T06:59:00Z, got \(JSONValue.string(String(text.prefix(64))).jsonText)")
            }
            do throws(VarlinkError) { return try WireTime.parse(text, parameter: "at", zone: .utc) } catch {
                throw WakeInterface.invalidParameter("at", error.description)
            }
        case let other?:
            throw WakeInterface.invalidParameter("at", "at must be a string (an RFC 3339 instant) or null, got \(other.jsonText)")
        }
    }

    private static func unknown(_ parameter: String) -> VarlinkError {
        WakeInterface.invalidParameter(parameter, "\(JSONValue.string(parameter).jsonText) is not a parameter of this method")
    }

    /// `org.varlink.service`: `GetInfo` and `GetInterfaceDescription`.
    static let serviceInterface = VarlinkServiceInterface(product: "alarmd-wake", version: AlarmdVersion.string, url: "man:alarmd-wake(8)",
                                                          interface: (WakeInterface.name, WakeInterface.text))
}
