// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmProtocol
import AlarmTestSupport
import Testing

/// `InterfaceError` against the interface definition: every `error` of
/// `io.alarmd.varlink` has its case with the same parameters (name,
/// optionality, type, order) and every case its `error`; each error written
/// and read back as itself; and the two errors VarlinkCore builds on its own
/// read as the list's.
@Suite struct InterfaceErrorTests {
    /// The definition's errors, each as its `name:type` list, read from its text.
    static let definitionErrors = VarlinkDefinition(InterfaceDefinition.text).errors

    static func members(_ fields: [WireField]) -> [String] { fields.map { $0.description.filter { $0 != " " } } }

    /// The parser reads what it should, so an empty match cannot pass.
    @Test func theDefinitionsErrorsAreReadWhole() {
        #expect(Self.definitionErrors.count == 8)
        #expect(Self.definitionErrors["InvalidParameter"] == ["parameter:string", "message:string"])
        #expect(Self.definitionErrors["AmbiguousId"] == ["id:string", "matches:[]string", "titles:?[]string", "message:string"])
        let declared = InterfaceDefinition.text.split(separator: "\n").filter { $0.hasPrefix("error ") }
        #expect(declared.count == Self.definitionErrors.count)
    }

    @Test func everyErrorInTheDefinitionHasItsSwiftCaseAndTheyAgree() {
        #expect(InterfaceError.Name.allCases.map(\.rawValue).sorted() == Self.definitionErrors.keys.sorted())
        for name in InterfaceError.Name.allCases {
            #expect(Self.members(name.fields) == Self.definitionErrors[name.rawValue], "error \(name.rawValue)")
            #expect(name.qualified == InterfaceDefinition.name + "." + name.rawValue)
            #expect(InterfaceError.Name(qualified: name.qualified) == name)
        }
        #expect(InterfaceError.Name(qualified: "io.alarmd.Wake.InvalidParameter") == nil, "the helper's interface is not this one")
        #expect(InterfaceError.Name(qualified: "org.varlink.service.InvalidParameter") == nil)
        #expect(InterfaceError.Name(qualified: "io.alarmd.ListAlarms") == nil)
    }

    /// One value of each error, for the round trips; a case added to
    /// `InterfaceError` without one here fails the count.
    static let everyError: [InterfaceError] = [
        .noSuchItem(id: "abcd", message: #"no alarm or reminder with id "abcd""#),
        .ambiguousId(id: "ab12", matches: ["ab12cd34-0000-4000-8000-000000000001", "ab12ef56-0000-4000-8000-000000000002"], titles: ["Work", "Gym"],
                     message: #""ab12" matches several items: ab12cd34-0000-4000-8000-000000000001 "Work", ab12ef56-0000-4000-8000-000000000002 "Gym""#),
        .duplicateAlarm(id: "ab12cd34-0000-4000-8000-000000000001",
                        message: #"alarm ab12cd34-0000-4000-8000-000000000001 "Work" rings at 07:00 just so; nothing was added (force adds another)"#),
        .invalidParameter(parameter: "fields.label", message: #"fields.label must not contain control characters, got "bad\u{7}""#),
        .invalidRequest(message: "the message is not valid JSON: unexpected end of input"),
        .notRinging(message: "several items are ringing, name one", ringing: ["ab12cd34-0000-4000-8000-000000000001", "ab12ef56-0000-4000-8000-000000000002"]),
        .snoozeNotAllowed(id: "ab12cd34-0000-4000-8000-000000000001", message: #""Run" cannot be snoozed: snooze is off"#),
        .storeFailure(message: "could not save, nothing was changed: disk I/O error"),
    ]

    @Test(arguments: everyError) func eachErrorIsWrittenWithTheDefinitionsMembersAndReadBackAsItself(_ error: InterfaceError) throws {
        let wire = error.varlinkError
        #expect(wire.name == error.name.qualified)
        #expect(wire.parameters.keys == error.name.fields.map(\.name), "\(error.name.rawValue) writes its members in order")
        #expect(wire.description == error.message)
        #expect(InterfaceError(wire) == error)
        // Through the bytes, as a client reads them.
        guard case .error(let received) = try VarlinkReply(message: VarlinkReply.error(wire).json.jsonBytes) else {
            Issue.record("not an error reply")
            return
        }
        #expect(InterfaceError(received) == error)
    }

    @Test func everyErrorHasItsRoundTrip() {
        #expect(Set(Self.everyError.map(\.name)) == Set(InterfaceError.Name.allCases))
    }

    /// VarlinkCore, below AlarmProtocol, names these two itself.
    @Test func theErrorsVarlinkCoreBuildsAreTheLists() {
        let parameter = VarlinkError.invalidParameter("fields.time", "is required")
        #expect(parameter.name == InterfaceError.Name.invalidParameter.qualified)
        #expect(InterfaceError(parameter) == .invalidParameter(parameter: "fields.time", message: "fields.time is required"))
        #expect(InterfaceError.invalidParameter("fields.time", "is required").varlinkError == parameter)
        let request = VarlinkError.invalidRequest("the message has no \"method\"")
        #expect(request.name == InterfaceError.Name.invalidRequest.qualified)
        #expect(InterfaceError(request) == .invalidRequest(message: "the message has no \"method\""))
        #expect(InterfaceError(VarlinkError.invalid(ValidationError(field: "minutes", requirement: "must be 1–60", value: "61"), path: "fields."))
            == .invalidParameter(parameter: "fields.minutes", message: "fields.minutes must be 1–60, got 61"))
    }

    @Test func otherErrorsAreNotTheInterfaces() {
        #expect(InterfaceError(.methodNotFound("io.alarmd.Reboot")) == nil)
        #expect(InterfaceError(.permissionDenied()) == nil)
        #expect(InterfaceError(VarlinkError(name: "io.alarmd.Reboot", parameters: ["message": "no"])) == nil)
        #expect(InterfaceError(VarlinkError(name: "io.alarmd.Wake.TooManyChanges", parameters: ["limit": 10])) == nil)
    }

    /// A member absent or of another type reads as empty; other members are
    /// left unread; text and lists are cut to their bounds.
    @Test func aReceivedErrorIsReadLenientlyAndWithinBounds() {
        #expect(InterfaceError(VarlinkError(name: "io.alarmd.NotRinging", parameters: ["ringing": []])) == .notRinging(message: "", ringing: []))
        #expect(InterfaceError(VarlinkError(name: "io.alarmd.StoreFailure")) == .storeFailure(message: ""))
        #expect(InterfaceError(VarlinkError(name: "io.alarmd.NoSuchItem", parameters: ["id": 7, "extra": "x"])) == .noSuchItem(id: "", message: ""))
        #expect(InterfaceError(VarlinkError(name: "io.alarmd.AmbiguousId", parameters: ["id": "ab12", "matches": ["a", 1, .null, "b"]]))
            == .ambiguousId(id: "ab12", matches: ["a", "b"], titles: [], message: ""))

        let long = String(repeating: "é", count: InterfaceError.maxTextBytes)  // two bytes each
        guard case .invalidRequest(let clipped)? = InterfaceError(VarlinkError.invalidRequest(long)) else {
            Issue.record("not read")
            return
        }
        #expect(clipped.utf8.count == InterfaceError.maxTextBytes)
        #expect(clipped.unicodeScalars.allSatisfy { $0 == "é" }, "cut at a scalar's boundary")

        let many = JSONValue.array((0..<(InterfaceError.maxListCount + 5)).map { .string("id\($0)") })
        guard case .notRinging(_, let ringing)? = InterfaceError(VarlinkError(name: "io.alarmd.NotRinging", parameters: ["ringing": many])) else {
            Issue.record("not read")
            return
        }
        #expect(ringing.count == InterfaceError.maxListCount)
        #expect(ringing.last == "id\(InterfaceError.maxListCount - 1)")
    }
}
