// SPDX-License-Identifier: Apache-2.0
import VarlinkCore

/// A method of `io.alarmd.Wake`: its name, its parameters and its reply,
/// declared once for the helper, which reads the parameters and writes the
/// reply, and for alarmd, which does the opposite.
public protocol WakeMethod {
    associatedtype Parameters: WakeStruct
    associatedtype Reply: WakeStruct
    /// `SetWake`, without the interface.
    static var name: String { get }
}

extension WakeMethod {
    /// The interface's own name for a call: `io.alarmd.Wake.SetWake`.
    public static var qualifiedName: String { WakeInterface.name + "." + name }

    /// The call to send.
    public static func call(_ parameters: Parameters) -> VarlinkCall {
        VarlinkCall(method: qualifiedName, parameters: parameters.json)
    }

    /// The helper's reply to this method, read from one framed message: the
    /// reply, or why there is none.
    public static func reply(message bytes: [UInt8]) throws(WakeCallFailure) -> Reply {
        let reply: VarlinkReply
        do throws(VarlinkError) { reply = try VarlinkReply(message: bytes) } catch {
            throw .malformed(reason: error.description)
        }
        return try Self.reply(reply)
    }

    /// The reply, or why there is none: an error the interface declares, a
    /// standard Varlink one, or a reply that is not this method's.
    public static func reply(_ reply: VarlinkReply) throws(WakeCallFailure) -> Reply {
        switch reply {
        case .parameters(let object, _):
            do throws(WakeError) { return try Reply(WakeMembers(object, from: .reply)) } catch {
                throw .malformed(reason: "the reply to \(name) is not the interface's: \(error)")
            }
        case .error(let error):
            throw WakeCallFailure(error)
        }
    }
}
