// SPDX-License-Identifier: Apache-2.0
import VarlinkCore

/// Why a call of `io.alarmd.Wake` brought back no reply of its method, as
/// alarmd reads it: one of the interface's errors, a standard Varlink one, or
/// an answer that is not the interface's at all. Read from the helper's
/// error in one place, ``init(_:)``, with the same bounds as a call.
public enum WakeCallFailure: Error, Hashable, Sendable, CustomStringConvertible {
    /// An error `io.alarmd.Wake` declares.
    case refused(WakeError)
    /// `org.varlink.service.MethodNotFound`: a helper that does not serve the method.
    case methodNotFound(method: String)
    /// `org.varlink.service.InterfaceNotFound`: something other than the
    /// helper listens on the socket.
    case interfaceNotFound(interface: String)
    /// An error neither the interface nor the two above declare, by name.
    case undeclared(name: String)
    /// The message is not Varlink, or an error or reply lacks a member it
    /// must have or has one of the wrong type.
    case malformed(reason: String)

    /// The standard errors' parameters.
    public enum Field {
        public static let method = WakeField("method", .string), interface = WakeField("interface", .string)
    }

    /// Reads an error the helper sent.
    public init(_ sent: VarlinkError) {
        let members = WakeMembers(sent.parameters, from: .reply)
        do throws(WakeError) {
            switch sent.name {
            case "org.varlink.service.MethodNotFound":
                self = .methodNotFound(method: WakeMembers.clipped(try members.requiredString(Field.method)))
            case "org.varlink.service.InterfaceNotFound":
                self = .interfaceNotFound(interface: WakeMembers.clipped(try members.requiredString(Field.interface)))
            default:
                guard let name = WakeError.Name(qualified: sent.name) else {
                    self = .undeclared(name: WakeMembers.clipped(sent.name))
                    return
                }
                self = .refused(try WakeError(name, members))
            }
        } catch {
            self = .malformed(reason: "\(WakeMembers.clipped(sent.name)) without its parameters: \(error)")
        }
    }

    public var description: String {
        switch self {
        case .refused(let error): "\(error.name.qualified): \(error)"
        case .methodNotFound(let method): "org.varlink.service.MethodNotFound: it has no method \(method)"
        case .interfaceNotFound(let interface): "org.varlink.service.InterfaceNotFound: it has no interface \(interface)"
        case .undeclared(let name): "\(name), an error io.alarmd.Wake does not declare"
        case .malformed(let reason): "an answer that is not io.alarmd.Wake's: \(reason)"
        }
    }
}
