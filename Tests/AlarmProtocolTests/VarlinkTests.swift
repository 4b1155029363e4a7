// SPDX-License-Identifier: Apache-2.0
import AlarmProtocol
import Testing

private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

@Suite struct VarlinkFramerTests {
    @Test func oneMessageDeliveredByteByByte() throws {
        var framer = VarlinkFramer()
        let message = bytes(#"{"method":"io.alarmd.Status"}"#)
        for byte in message {
            #expect(try framer.append([byte]).isEmpty)
        }
        #expect(framer.pendingByteCount == message.count)
        #expect(try framer.append([0]) == [message])
        #expect(framer.pendingByteCount == 0)
    }

    @Test func severalMessagesInOneAppend() throws {
        var framer = VarlinkFramer()
        let stream = bytes("{\"a\":1}\0{\"b\":2}\0{\"c\":3}\0")
        #expect(try framer.append(stream) == [bytes(#"{"a":1}"#), bytes(#"{"b":2}"#), bytes(#"{"c":3}"#)])
        #expect(framer.pendingByteCount == 0)
    }

    @Test func partialThenRest() throws {
        var framer = VarlinkFramer()
        #expect(try framer.append(bytes(#"{"method":"io.al"#)).isEmpty)
        #expect(try framer.append(bytes("armd.Ping\"}\0{\"x\"")) == [bytes(#"{"method":"io.alarmd.Ping"}"#)])
        #expect(framer.pendingByteCount == 4)
        #expect(try framer.append(bytes(":1}")).isEmpty)
        #expect(try framer.append([0]) == [bytes(#"{"x":1}"#)])
    }

    /// A read handed over as a slice of a receive buffer or as its raw
    /// bytes (the overloads readers call) frames as an array does, a
    /// message split across two reads too.
    @Test func slicesAndRawBytesFrameAsArraysDo() throws {
        let stream = bytes("{\"a\":1}\0{\"method\":\"io.alarmd.Ping\"}\0{\"b\"")
        for split in 0...stream.count {
            var sliced = VarlinkFramer(), raw = VarlinkFramer(), whole = VarlinkFramer()
            let buffer = stream + [0xFF]
            var fromSlices = try sliced.append(buffer[..<split])
            fromSlices += try sliced.append(buffer[split..<stream.count])
            var fromRaw = try buffer.withUnsafeBytes { try raw.append(UnsafeRawBufferPointer(rebasing: $0[..<split])) }
            fromRaw += try buffer.withUnsafeBytes { try raw.append(UnsafeRawBufferPointer(rebasing: $0[split..<stream.count])) }
            let fromArray = try whole.append(stream)
            #expect(fromSlices == fromArray && fromRaw == fromArray, "split at \(split)")
            #expect(sliced.pendingByteCount == 4 && raw.pendingByteCount == 4)
        }
    }

    @Test func emptyMessages() throws {
        var framer = VarlinkFramer()
        #expect(try framer.append([0]) == [[]])
        #expect(try framer.append([0, 0]) == [[], []])
        #expect(try framer.append(bytes("a\0\0b\0")) == [bytes("a"), [], bytes("b")])
    }

    @Test func messagesAfterACompletedOneKeepWorking() throws {
        var framer = VarlinkFramer()
        #expect(try framer.append(bytes("first\0sec")) == [bytes("first")])
        #expect(try framer.append(bytes("ond\0")) == [bytes("second")])
        #expect(try framer.append(bytes("th")).isEmpty)
        #expect(try framer.append(bytes("ird\0fourth\0")) == [bytes("third"), bytes("fourth")])
        for index in 0..<100 {
            #expect(try framer.append(bytes("m\(index)\0")) == [bytes("m\(index)")])
        }
        #expect(framer.pendingByteCount == 0)
    }

    @Test func oversizeWithoutANulThrows() {
        var framer = VarlinkFramer(maxMessageSize: 16)
        do {
            _ = try framer.append([UInt8](repeating: 0x41, count: 17))
            Issue.record("17 bytes without a NUL were buffered under a limit of 16")
        } catch {
            #expect(error.limit == 16)
        }
    }

    @Test func oversizeReachedGraduallyThrows() throws {
        var framer = VarlinkFramer(maxMessageSize: 16)
        for _ in 0..<16 { _ = try framer.append([0x41]) }
        #expect(throws: VarlinkFramer.Oversize.self) { try framer.append([0x41]) }
    }

    @Test func exactlyAtTheLimitIsAccepted() throws {
        var framer = VarlinkFramer(maxMessageSize: 16)
        let body = [UInt8](repeating: 0x41, count: 16)
        #expect(try framer.append(body).isEmpty)
        #expect(try framer.append([0]) == [body])
        // Limits apply to each message, not to the stream.
        #expect(try framer.append(body + [0] + body + [0]) == [body, body])
    }

    @Test func defaultLimitsAreOneMebibyteAndSixtyFourForTheLargeMethod() throws {
        var framer = VarlinkFramer(largeMethods: ["io.alarmd.Import"])
        #expect(framer.maxMessageSize == 1 << 20)
        #expect(framer.maxLargeSize == 64 << 20)
        #expect(VarlinkFramer().maxLargeSize == 1 << 20, "without a large method, one limit")
        let atLimit = [UInt8](repeating: 0x20, count: 1 << 20)
        #expect(try framer.append(atLimit).isEmpty)
        #expect(throws: VarlinkFramer.Oversize(limit: 1 << 20)) { try framer.append([0x20]) }

        // An import may be longer, up to its own limit.
        var importing = VarlinkFramer(largeMethods: ["io.alarmd.Import"])
        let start = bytes(#"{ "method" :"io.alarmd.Import","parameters":{"document":{"alarms":[],"pad":""#)
        #expect(try importing.append(start + [UInt8](repeating: 0x61, count: (64 << 20) - start.count)).isEmpty)
        #expect(throws: VarlinkFramer.Oversize(limit: 64 << 20)) { try importing.append([0x61]) }
    }

    @Test func onlyACallThatOpensAsTheLargeMethodGetsTheLargerLimit() throws {
        for prefix in [#"{"parameters":{},"method":"io.alarmd.Import""#, #"{"method":"io.alarmd.Imports""#, #"{"method":"io.alarmd.AddAlarm""#] {
            var framer = VarlinkFramer(maxMessageSize: 64, largeMethods: ["io.alarmd.Import"], maxLargeSize: 1024)
            #expect(throws: VarlinkFramer.Oversize(limit: 64), "\(prefix)") { try framer.append(bytes(prefix) + [UInt8](repeating: 0x20, count: 100)) }
        }
        var framer = VarlinkFramer(maxMessageSize: 64, largeMethods: ["io.alarmd.Import"], maxLargeSize: 1024)
        let call = bytes(#"{"method":"io.alarmd.Import","parameters":{"document":{}}"#) + [UInt8](repeating: 0x20, count: 100) + bytes("}")
        #expect(try framer.append(call + [0]) == [call], "arriving whole in one read")
        // Arriving whole does not get round the ordinary limit.
        let status = bytes(#"{"method":"io.alarmd.Status"}"#) + [UInt8](repeating: 0x20, count: 100)
        #expect(throws: VarlinkFramer.Oversize(limit: 64)) { try framer.append(status + [0]) }
        // Without a large method, an import is an ordinary call.
        var plain = VarlinkFramer(maxMessageSize: 64)
        #expect(throws: VarlinkFramer.Oversize(limit: 64)) { try plain.append(call + [0]) }
    }

    @Test func frameAppendsANul() {
        let frame = VarlinkFramer.frame(.object(["method": "io.alarmd.Status"]))
        #expect(frame == bytes(#"{"method":"io.alarmd.Status"}"#) + [0])
    }
}

@Suite struct VarlinkCallTests {
    private func call(_ text: String) throws(VarlinkError) -> VarlinkCall { try VarlinkCall(message: bytes(text)) }

    /// The error `text` is refused with.
    private func refusal(_ bytes: [UInt8]) -> VarlinkError? {
        do {
            _ = try VarlinkCall(message: bytes)
            return nil
        } catch {
            return error
        }
    }
    private func refusal(_ text: String) -> VarlinkError? { refusal(bytes(text)) }

    @Test func readsAFullCall() throws {
        let parsed = try call(#"{"method":"io.alarmd.GetAlarm","parameters":{"id":"abcd"},"more":false,"oneway":true}"#)
        #expect(parsed.method == "io.alarmd.GetAlarm")
        #expect(parsed.interface == "io.alarmd")
        #expect(parsed.member == "GetAlarm")
        #expect(parsed.parameters == ["id": "abcd"])
        #expect(parsed.more == false)
        #expect(parsed.oneway == true)
    }

    @Test func defaults() throws {
        let parsed = try call(#"{"method":"org.varlink.service.GetInfo"}"#)
        #expect(parsed.interface == "org.varlink.service")
        #expect(parsed.member == "GetInfo")
        #expect(parsed.parameters.isEmpty)
        #expect(!parsed.more && !parsed.oneway)
        let nulls = try call(#"{"method":"io.alarmd.Watch","parameters":null,"more":true,"oneway":null}"#)
        #expect(nulls.parameters.isEmpty && nulls.more && !nulls.oneway)
    }

    @Test func jsonRoundTrip() throws {
        let original = VarlinkCall(method: "io.alarmd.Watch", parameters: ["a": 1], more: true)
        #expect(original.json.jsonText == #"{"method":"io.alarmd.Watch","parameters":{"a":1},"more":true}"#)
        #expect(try VarlinkCall(message: original.json.jsonBytes) == original)
        #expect(VarlinkCall(method: "io.alarmd.Status").json.jsonText == #"{"method":"io.alarmd.Status"}"#)
        let oneway = VarlinkCall(method: "io.alarmd.Dismiss", oneway: true)
        #expect(try VarlinkCall(message: oneway.json.jsonBytes) == oneway)
    }

    @Test(arguments: [
        ("hello", "not JSON"),
        ("", "empty"),
        ("[1,2]", "an array"),
        (#""io.alarmd.Status""#, "a string"),
        ("null", "null"),
        ("{}", "no method"),
        (#"{"parameters":{}}"#, "no method, parameters only"),
        (#"{"method":42}"#, "method a number"),
        (#"{"method":null}"#, "method null"),
        (#"{"method":["io.alarmd.Status"]}"#, "method an array"),
        (#"{"method":"Status"}"#, "method without a dot"),
        (#"{"method":".Status"}"#, "method with a leading dot"),
        (#"{"method":"io.alarmd."}"#, "method with a trailing dot"),
        (#"{"method":"io.alarmd.Status","more":"yes"}"#, "more a string"),
        (#"{"method":"io.alarmd.Status","more":1}"#, "more a number"),
        (#"{"method":"io.alarmd.Status","oneway":"true"}"#, "oneway a string"),
        (#"{"method":"io.alarmd.Status",}"#, "trailing comma"),
        (#"{"method":"io.alarmd.Status","method":"io.alarmd.Status"}"#, "duplicate method"),
    ])
    func invalidRequests(text: String, why: String) throws {
        let error = try #require(refusal(text), "\(why) was accepted")
        #expect(error.name == "io.alarmd.InvalidRequest", "\(why): \(error)")
        #expect(error.parameters["message"]?.stringValue?.isEmpty == false)
    }

    @Test func invalidUTF8IsAnInvalidRequest() throws {
        let message = bytes(#"{"method":"io.alarmd.AddAlarm","parameters":{"fields":{"label":"a"#) + [0xFF] + bytes(#"b","time":"07:00"}}}"#)
        let error = try #require(refusal(message))
        #expect(error.name == "io.alarmd.InvalidRequest")
    }

    @Test(arguments: [#"[]"#, #""x""#, "1", "true"])
    func parametersMustBeAnObject(value: String) throws {
        let error = try #require(refusal(#"{"method":"io.alarmd.Status","parameters":\#(value)}"#))
        #expect(error.name == "io.alarmd.InvalidParameter")
        #expect(error.parameters["parameter"] == "parameters")
        #expect(error.parameters["message"]?.stringValue?.hasPrefix("parameters ") == true)
    }
}

@Suite struct VarlinkReplyTests {
    @Test func encodesParameters() {
        let reply = VarlinkReply.parameters(["alarm": .object(["id": "x"]), "n": 2], continues: false)
        #expect(reply.json.jsonText == #"{"parameters":{"alarm":{"id":"x"},"n":2}}"#)
        #expect(VarlinkReply.parameters([:], continues: false).json.jsonText == #"{"parameters":{}}"#)
    }

    @Test func encodesContinues() {
        let reply = VarlinkReply.parameters(["event": .object(["kind": "fired"])], continues: true)
        #expect(reply.json.jsonText == #"{"parameters":{"event":{"kind":"fired"}},"continues":true}"#)
    }

    @Test func encodesErrors() {
        let reply = VarlinkReply.error(.invalidParameter("fields.time", "must be a string, got a number"))
        #expect(reply.json.jsonText == #"{"error":"io.alarmd.InvalidParameter","parameters":{"parameter":"fields.time","message":"fields.time must be a string, got a number"}}"#)
        #expect(VarlinkReply.error(.expectedMore()).json.jsonText == #"{"error":"org.varlink.service.ExpectedMore","parameters":{}}"#)
        #expect(VarlinkReply.error(.methodNotFound("io.alarmd.Nope")).json.jsonText == #"{"error":"org.varlink.service.MethodNotFound","parameters":{"method":"io.alarmd.Nope"}}"#)
        #expect(VarlinkReply.error(.interfaceNotFound("com.example")).json.jsonText == #"{"error":"org.varlink.service.InterfaceNotFound","parameters":{"interface":"com.example"}}"#)
        #expect(VarlinkError.permissionDenied().name == "org.varlink.service.PermissionDenied")
    }

    @Test func decodesWhatItEncodes() throws {
        let replies: [VarlinkReply] = [
            .parameters(["a": 1], continues: false),
            .parameters(["event": .object(["kind": "fired"])], continues: true),
            .parameters([:], continues: false),
            .error(.invalidRequest("bad")),
            .error(VarlinkError(name: "io.alarmd.NoSuchItem", parameters: ["id": "abcd"])),
            .error(.expectedMore()),
        ]
        for reply in replies {
            #expect(try VarlinkReply(message: reply.json.jsonBytes) == reply)
        }
    }

    @Test func decodesOtherServersReplies() throws {
        #expect(try VarlinkReply(message: bytes(#"{"continues":false,"parameters":{"x":true}}"#)) == .parameters(["x": true], continues: false))
        #expect(try VarlinkReply(message: bytes(#"{}"#)) == .parameters([:], continues: false))
        #expect(try VarlinkReply(message: bytes(#"{"error":"org.varlink.service.MethodNotImplemented"}"#)) == .error(VarlinkError(name: "org.varlink.service.MethodNotImplemented")))
        #expect(throws: VarlinkError.self) { try VarlinkReply(message: bytes("nope")) }
        #expect(throws: VarlinkError.self) { try VarlinkReply(message: bytes("[]")) }
    }

    @Test func errorDescriptions() {
        #expect(VarlinkError.invalidParameter("id", "is required").description == "id is required")
        #expect(VarlinkError(name: "io.alarmd.NoSuchItem", parameters: ["id": "abcd"]).description == #"io.alarmd.NoSuchItem (id="abcd")"#)
        #expect(VarlinkError(name: "org.varlink.service.ExpectedMore").description == "org.varlink.service.ExpectedMore")
    }
}

@Suite struct InvalidParameterTextTests {
    /// JSON allows a member named ""; the message must still read as a sentence.
    @Test func anEmptyParameterNameIsNamedAsSuch() {
        let error = VarlinkError.invalidParameter("", "is not a parameter of io.alarmd.Status")
        #expect(error.parameters["parameter"] == .string(""))
        #expect(error.parameters["message"] == .string("the parameter named \"\" is not a parameter of io.alarmd.Status"))
        #expect(VarlinkError.invalidParameter("fields.time", "must be HH:MM").parameters["message"] == .string("fields.time must be HH:MM"))
    }
}
