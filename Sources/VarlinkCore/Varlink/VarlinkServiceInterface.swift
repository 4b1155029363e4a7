// SPDX-License-Identifier: Apache-2.0
/// `org.varlink.service`, which every Varlink service answers: `GetInfo`
/// (who it is and which interfaces it serves) and `GetInterfaceDescription`
/// (an interface's definition, verbatim). alarmd and `alarmd-wake` each
/// describe themselves with one of these.
public struct VarlinkServiceInterface: Sendable {
    public let product: String
    public let version: String
    public let url: String
    /// The one interface served besides `org.varlink.service`, and its definition.
    public let interface: (name: String, definition: String)

    public init(product: String, version: String, url: String, interface: (name: String, definition: String)) {
        self.product = product
        self.version = version
        self.url = url
        self.interface = interface
    }

    /// The reply to an `org.varlink.service` call.
    public func reply(to call: VarlinkCall) -> VarlinkReply {
        switch call.member {
        case "GetInfo":
            return .parameters([
                "vendor": "alarmd", "product": .string(product), "version": .string(version), "url": .string(url),
                "interfaces": ["org.varlink.service", .string(interface.name)],
            ], continues: false)
        case "GetInterfaceDescription":
            switch call.parameters["interface"] {
            case .string(interface.name)?: return .parameters(["description": .string(interface.definition)], continues: false)
            case .string(let other)?: return .error(.interfaceNotFound(other))
            default: return .error(VarlinkError(name: "org.varlink.service.InvalidParameter", parameters: ["parameter": "interface"]))
            }
        default:
            return .error(.methodNotFound(call.method))
        }
    }
}
