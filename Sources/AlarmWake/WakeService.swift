import VarlinkCore

/// What `alarmd-wake` does with one message: decides the reply and changes
/// the slots. No I/O and no clock, so the fuzz target and the tests drive it
/// with any caller and any time; the helper supplies the peer's uid from
/// `SO_PEERCRED` and arms the timer for ``WakeSlots/earliest`` afterwards.
public struct WakeService: Sendable {
    public private(set) var slots = WakeSlots()

    public init() {}

    /// Clears the slots that have passed; returns the users whose slot went.
    public mutating func expire(now: WakeInstant) -> [UInt32] { slots.expire(now: now) }

    /// The reply to `message` from `uid` (`nil` for a `oneway` call).
    public mutating func handle(_ message: [UInt8], uid: UInt32, now: WakeInstant, tick: UInt64) -> VarlinkReply? {
        let call: VarlinkCall
        do throws(VarlinkError) { call = try VarlinkCall(message: message) } catch {
            return .error(WakeInterface.invalidParameter("message", error.description))
        }
        let reply = handle(call, uid: uid, now: now, tick: tick)
        return call.oneway ? nil : reply
    }

    private mutating func handle(_ call: VarlinkCall, uid: UInt32, now: WakeInstant, tick: UInt64) -> VarlinkReply {
        switch (call.interface, call.member) {
        case ("org.varlink.service", _):
            return Self.serviceInterface.reply(to: call)
        case (WakeInterface.name, "SetWake"):
            let at: WakeInstant?
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
            return .parameters(slots.slot(of: uid).map { ["at": .string($0.rfc3339)] } ?? [:], continues: false)
        case (WakeInterface.name, _):
            return .error(.methodNotFound(call.method))
        default:
            return .error(.interfaceNotFound(call.interface))
        }
    }

    /// `SetWake`'s `at`: absent or null clears; otherwise an RFC 3339 instant
    /// with an offset (a local time would depend on the helper's zone, which
    /// is not the caller's).
    private static func instant(_ parameters: JSONObject) throws(VarlinkError) -> WakeInstant? {
        if let other = parameters.keys.sorted().first(where: { $0 != "at" }) { throw unknown(other) }
        switch parameters["at"] {
        case nil, .null?: return nil
        case .string(let text)?:
            // Quoted at most 64 bytes' worth: the message goes back to the
            // caller and into no log, but need not echo a 4 KiB string.
            let quoted = JSONValue.string(String(text.prefix(64))).jsonText
            guard text.utf8.count <= 64 else {
                throw WakeInterface.invalidParameter("at", "at must be an RFC 3339 instant with an offset, such as 2026-12-24T06:59:00Z, got \(quoted)")
            }
            do throws(WakeInstant.Invalid) { return try WakeInstant(rfc3339: text) } catch {
                throw WakeInterface.invalidParameter("at", "at \(error.requirement), got \(quoted)")
            }
        case let other?:
            throw WakeInterface.invalidParameter("at", "at must be a string (an RFC 3339 instant) or null, got \(other.jsonText)")
        }
    }

    private static func unknown(_ parameter: String) -> VarlinkError {
        WakeInterface.invalidParameter(parameter, "\(JSONValue.string(parameter).jsonText) is not a parameter of this method")
    }

    /// `org.varlink.service`: `GetInfo` and `GetInterfaceDescription`.
    public static let serviceInterface = VarlinkServiceInterface(product: "alarmd-wake", version: WakeInterface.version, url: "man:alarmd-wake(8)",
                                                                 interface: (WakeInterface.name, WakeInterface.text))
}
