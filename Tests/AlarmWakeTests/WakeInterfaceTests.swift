// SPDX-License-Identifier: Apache-2.0
import AlarmTestSupport
import AlarmWake
import Testing
import VarlinkCore

/// The Swift declarations of `io.alarmd.Wake` against its definition,
/// `io.alarmd.Wake.varlink`: every method's parameters and reply and every
/// error's parameters, member by member (name, optionality, type), in both
/// directions; and each declaration writing what it reads.
@Suite struct WakeInterfaceTests {
    static let definition = VarlinkDefinition(WakeInterface.text)

    static func members(_ fields: [WakeField]) -> [String] { fields.map { $0.description.filter { $0 != " " } } }

    static func methodMembers<Method: WakeMethod>(_ method: Method.Type) -> (name: String, parameters: [String], reply: [String]) {
        (Method.name, members(Method.Parameters.fields), members(Method.Reply.fields))
    }

    /// The parser reads what it should, so an empty match cannot pass.
    @Test func theDefinitionIsReadWhole() {
        #expect(Self.definition.interface == WakeInterface.name)
        #expect(Self.definition.methods.count == 2)
        #expect(Self.definition.methods["SetWake"]?.parameters == ["at:?string"])
        #expect(Self.definition.methods["GetWake"]?.reply == ["at:?string"])
        #expect(Self.definition.errors.count == 4)
        #expect(Self.definition.errors["InThePast"] == ["at:string", "now:string"])
        #expect(Self.definition.types.isEmpty, "io.alarmd.Wake declares types the Swift side has no counterpart for: \(Self.definition.types)")
    }

    @Test func everyMethodInTheDefinitionHasItsSwiftDeclarationAndTheyAgree() {
        let swift = WakeInterface.methods.map { Self.methodMembers($0) }
        #expect(swift.map(\.name).sorted() == Self.definition.methods.keys.sorted())
        #expect(Set(swift.map(\.name)).count == swift.count, "a method declared twice")
        for method in swift {
            let declared = Self.definition.methods[method.name]
            #expect(method.parameters == declared?.parameters, "\(method.name) parameters")
            #expect(method.reply == declared?.reply, "\(method.name) reply")
        }
        #expect(WakeInterface.SetWake.qualifiedName == "io.alarmd.Wake.SetWake")
    }

    @Test func everyErrorInTheDefinitionHasItsSwiftCaseAndTheyAgree() {
        #expect(WakeError.Name.allCases.map(\.rawValue).sorted() == Self.definition.errors.keys.sorted())
        for name in WakeError.Name.allCases {
            #expect(Self.members(name.fields) == Self.definition.errors[name.rawValue], "error \(name.rawValue)")
            #expect(name.qualified == WakeInterface.name + "." + name.rawValue)
            #expect(WakeError.Name(qualified: name.qualified) == name)
        }
        #expect(WakeError.Name(qualified: "io.alarmd.InvalidParameter") == nil, "io.alarmd's own is not the helper's")
        #expect(WakeError.Name(qualified: "io.alarmd.Wake.Reboot") == nil)
    }

    /// One value of each error, for the round trips; a case added to
    /// `WakeError` without one here fails the count.
    static let everyError: [WakeError] = [
        .invalidParameter(parameter: "at", message: "at must be a string (an RFC 3339 instant) or null, got 7"),
        .inThePast(at: WakeInstant(seconds: 1_700_000_000), now: WakeInstant(microseconds: 1_796_000_000_000_250)),
        .tooFarAhead(at: WakeInstant(seconds: 1_900_000_000), latest: WakeInstant(seconds: 1_830_560_000)),
        .tooManyChanges(limit: WakeSlots.changesPerSecond),
    ]

    @Test func everyErrorIsWrittenWithTheDefinitionsMembersAndReadBackAsItself() throws {
        #expect(Set(Self.everyError.map(\.name)) == Set(WakeError.Name.allCases))
        for error in Self.everyError {
            let wire = error.varlinkError
            #expect(wire.name == error.name.qualified)
            #expect(wire.parameters.keys == error.name.fields.map(\.name), "\(error.name.rawValue) writes its members in order")
            // Through the bytes, as alarmd reads them.
            let bytes = VarlinkReply.error(wire).json.jsonBytes
            #expect(throws: WakeCallFailure.refused(error)) { try WakeInterface.SetWake.reply(message: bytes) }
        }
    }

    @Test func everyMethodsParametersAndReplyAreWrittenAndReadBackAsThemselves() throws {
        let at = WakeInstant(microseconds: 1_798_095_540_000_250)
        for parameters in [WakeInterface.SetWake.Parameters(at: at), WakeInterface.SetWake.Parameters(at: nil)] {
            let call = WakeInterface.SetWake.call(parameters)
            #expect(call.method == "io.alarmd.Wake.SetWake")
            #expect(Set(call.parameters.keys).isSubset(of: WakeInterface.SetWake.Parameters.fields.map(\.name)))
            #expect(try WakeInterface.SetWake.Parameters(WakeMembers(call.parameters, from: .call)) == parameters)
        }
        #expect(WakeInterface.SetWake.Parameters(at: nil).json.isEmpty, "clearing leaves at out")
        #expect(WakeInterface.GetWake.call(WakeNoMembers()).json.jsonText == #"{"method":"io.alarmd.Wake.GetWake"}"#)
        for reply in [WakeInterface.GetWake.Reply(at: at), WakeInterface.GetWake.Reply(at: nil)] {
            let bytes = VarlinkReply.parameters(reply.json, continues: false).json.jsonBytes
            #expect(try WakeInterface.GetWake.reply(message: bytes) == reply)
        }
        #expect(try WakeInterface.SetWake.reply(message: Array(#"{"parameters":{}}"#.utf8)) == WakeNoMembers())
    }
}
