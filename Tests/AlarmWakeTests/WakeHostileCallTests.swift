// SPDX-License-Identifier: Apache-2.0
import AlarmWake
import Testing
import VarlinkCore

/// Malformed and hostile calls, through `WakeService.handle`, the path the
/// helper runs every message through (and the framer with its limit, as
/// `WakeHelperConnection` reads them): each gets its typed error, read back
/// as alarmd reads replies, and the slots are left alone. Then replies a
/// broken or hostile helper might send alarmd, read the same way.
@Suite struct WakeHostileCallTests {
    let now = WakeInstant(seconds: 1_796_000_000)

    /// What `message` (one message, no NUL) from uid 1000 gets back, typed.
    func failure(_ message: [UInt8], service: inout WakeService) -> WakeCallFailure? {
        guard let reply = service.handle(message, uid: 1000, now: now, tick: 0) else {
            Issue.record("no reply to \(String(decoding: message.prefix(80), as: UTF8.self))")
            return nil
        }
        // Every reply fits in a message alarmd's framer takes, whatever was sent.
        #expect(reply.json.jsonBytes.count < WakeInterface.maxMessageSize, "a reply of \(reply.json.jsonBytes.count) bytes")
        do throws(WakeCallFailure) {
            _ = try WakeInterface.SetWake.reply(reply)
            Issue.record("\(String(decoding: message.prefix(80), as: UTF8.self)) was taken")
            return nil
        } catch {
            return error
        }
    }

    func failure(_ json: String) -> WakeCallFailure? {
        var service = WakeService()
        let result = failure(Array(json.utf8), service: &service)
        #expect(service.slots.isEmpty, "\(json) changed a slot")
        return result
    }

    /// The parameter an `InvalidParameter` names, `nil` for any other failure.
    func invalidParameter(_ json: String) -> String? {
        guard case .refused(.invalidParameter(let parameter, _))? = failure(json) else { return nil }
        return parameter
    }

    @Test func wrongTypesAreInvalidParameterNamingTheMember() {
        let set = #"{"method":"io.alarmd.Wake.SetWake","parameters":"#
        #expect(failure(set + #"{"at":7}}"#) == .refused(.invalidParameter(parameter: "at", message: "at must be a string (an RFC 3339 instant) or null, got 7")))
        #expect(failure(set + #"{"at":true}}"#) == .refused(.invalidParameter(parameter: "at", message: "at must be a string (an RFC 3339 instant) or null, got true")))
        #expect(failure(set + #"{"at":["2026-12-24T06:59:00Z"]}}"#)
                == .refused(.invalidParameter(parameter: "at", message: "at must be a string (an RFC 3339 instant) or null, got an array")))
        #expect(failure(set + #"{"at":{"seconds":1}}}"#)
                == .refused(.invalidParameter(parameter: "at", message: "at must be a string (an RFC 3339 instant) or null, got an object")))
        #expect(failure(set + #"{"at":1e300}}"#) == .refused(.invalidParameter(parameter: "at", message: "at must be a string (an RFC 3339 instant) or null, got 1e+300")))
        // A number past Double's range is not JSON the parser takes: the message is refused whole.
        #expect(invalidParameter(set + #"{"at":1e999}}"#) == "message")
        #expect(failure(set + #"{"at":"2026-12-24T06:59:00"}}"#)
                == .refused(.invalidParameter(parameter: "at", message: #"at must be an RFC 3339 instant with an offset, such as 2026-12-24T06:59:00Z, got "2026-12-24T06:59:00""#)))
        // The envelope: parameters not an object, flags not booleans, a method not a string.
        #expect(invalidParameter(set + "5}") == "message")
        #expect(invalidParameter(#"{"method":"io.alarmd.Wake.SetWake","oneway":"yes"}"#) == "message")
        #expect(invalidParameter(#"{"method":7}"#) == "message")
        #expect(invalidParameter(#"{"method":"io.alarmd.Wake.GetWake","parameters":{"at":null,"uid":0}}"#) == "at")
        #expect(failure(#"{"method":"io.alarmd.Wake.GetWake","parameters":{"uid":0}}"#)
                == .refused(.invalidParameter(parameter: "uid", message: #""uid" is not a parameter of this method"#)))
    }

    @Test func missingOrUnusableEnvelopesAreInvalidParameterForTheMessage() {
        for json in ["", "{", "[]", "null", "{}", #"{"parameters":{}}"#, #"{"method":"SetWake"}"#, #"{"method":".SetWake"}"#,
                     #"{"method":"io.alarmd.Wake."}"#, "{\"method\":\"io.alarmd.Wake.SetWake\"}x", "\u{FF}"] {
            let failure = failure(json)
            guard case .refused(.invalidParameter("message", let message))? = failure else {
                Issue.record("\(json): \(String(describing: failure))")
                continue
            }
            #expect(!message.isEmpty)
        }
        // Nested past the parser's depth: refused, not a stack overflow.
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(invalidParameter(#"{"method":"io.alarmd.Wake.SetWake","parameters":{"at":\#(deep)}}"#) == "message")
    }

    @Test func oversizedValuesAreRefusedAndQuotedOnlyInPart() {
        let long = String(repeating: "7", count: 3000)
        #expect(failure(#"{"method":"io.alarmd.Wake.SetWake","parameters":{"at":"\#(long)"}}"#)
                == .refused(.invalidParameter(parameter: "at", message: "at must be an RFC 3339 instant with an offset, such as 2026-12-24T06:59:00Z, got \"\(long.prefix(64))\"")))
        // A member name of 3000 bytes is named by its first 64.
        let name = String(repeating: "u", count: 3000)
        #expect(failure(#"{"method":"io.alarmd.Wake.SetWake","parameters":{"\#(name)":0}}"#)
                == .refused(.invalidParameter(parameter: String(name.prefix(64)), message: "\"\(name.prefix(64))\" is not a parameter of this method")))
        // Many combining marks on one character: cut by scalars, not by characters.
        let marks = "a" + String(repeating: "\u{301}", count: 1500)
        guard case .refused(.invalidParameter("at", let message))? = failure(#"{"method":"io.alarmd.Wake.SetWake","parameters":{"at":"\#(marks)"}}"#) else {
            Issue.record("combining marks were taken")
            return
        }
        #expect(message.unicodeScalars.count < 200, "\(message.unicodeScalars.count) scalars")
        // An instant out of range is refused by name, never trapped on.
        #expect(invalidParameter(#"{"method":"io.alarmd.Wake.SetWake","parameters":{"at":"99999-01-01T00:00:00Z"}}"#) == "at")
        #expect(failure(#"{"method":"io.alarmd.Wake.SetWake","parameters":{"at":"0001-01-01T00:00:00+23:59"}}"#)
                == .refused(.invalidParameter(parameter: "at", message: #"at must lie between the years 0001 and 9999 in UTC, got "0001-01-01T00:00:00+23:59""#)))
        #expect(failure(#"{"method":"io.alarmd.Wake.SetWake","parameters":{"at":"9999-12-31T23:59:59Z"}}"#)
                == .refused(.tooFarAhead(at: WakeInstant(seconds: 253_402_300_799), latest: now.adding(seconds: WakeSlots.maxAhead))))
    }

    /// A message over 4 KiB never reaches the service: the framer refuses it,
    /// and the helper answers with this before it closes the connection.
    @Test func aMessageOverTheLimitIsInvalidParameterForTheMessage() throws {
        var framer = VarlinkFramer(maxMessageSize: WakeInterface.maxMessageSize)
        let message = Array(#"{"method":"io.alarmd.Wake.SetWake","parameters":{"at":""#.utf8) + Array(repeating: UInt8(ascii: "x"), count: 5000)
        do throws(VarlinkFramer.Oversize) {
            _ = try framer.append(message)
            Issue.record("the framer took \(message.count) bytes")
        } catch {
            let bytes = VarlinkReply.error(WakeError.oversize(error).varlinkError).json.jsonBytes
            #expect(throws: WakeCallFailure.refused(.invalidParameter(parameter: "message", message: "a message may be at most 4096 bytes"))) {
                try WakeInterface.SetWake.reply(message: bytes)
            }
        }
    }

    @Test func anUnknownMethodOrInterfaceIsTheStandardErrorNamingIt() {
        #expect(failure(#"{"method":"io.alarmd.Wake.Reboot","parameters":{}}"#) == .methodNotFound(method: "io.alarmd.Wake.Reboot"))
        #expect(failure(#"{"method":"io.alarmd.Wake.setwake"}"#) == .methodNotFound(method: "io.alarmd.Wake.setwake"))
        #expect(failure(#"{"method":"io.alarmd.ListAlarms"}"#) == .interfaceNotFound(interface: "io.alarmd"))
        #expect(failure(#"{"method":"org.varlink.service.Reboot"}"#) == .methodNotFound(method: "org.varlink.service.Reboot"))
    }

    /// A oneway call gets no reply, a refused one included, and changes nothing when refused.
    @Test func aRefusedOnewayCallIsSilentAndChangesNothing() {
        var service = WakeService()
        #expect(service.handle(Array(#"{"method":"io.alarmd.Wake.SetWake","parameters":{"at":7},"oneway":true}"#.utf8), uid: 1000, now: now, tick: 0) == nil)
        #expect(service.slots.isEmpty)
    }

    // MARK: - Replies alarmd reads

    func readReply(_ json: String) -> WakeCallFailure? {
        do throws(WakeCallFailure) {
            _ = try WakeInterface.GetWake.reply(message: Array(json.utf8))
            return nil
        } catch {
            return error
        }
    }

    func isMalformed(_ json: String) -> Bool {
        if case .malformed? = readReply(json) { true } else { false }
    }

    @Test func aReplyThatIsNotTheInterfacesIsMalformedNeverTrusted() {
        #expect(isMalformed("not JSON"))
        #expect(isMalformed("[]"))
        // An error of the interface without its members, or with them of the wrong type or out of range.
        #expect(isMalformed(#"{"error":"io.alarmd.Wake.InThePast","parameters":{"at":"2020-01-01T00:00:00Z"}}"#))
        #expect(isMalformed(#"{"error":"io.alarmd.Wake.InThePast","parameters":{"at":"2020-01-01T00:00:00Z","now":0}}"#))
        #expect(isMalformed(#"{"error":"io.alarmd.Wake.TooManyChanges","parameters":{"limit":"10"}}"#))
        #expect(isMalformed(#"{"error":"io.alarmd.Wake.TooManyChanges","parameters":{"limit":-1}}"#))
        #expect(isMalformed(#"{"error":"io.alarmd.Wake.TooManyChanges","parameters":{"limit":1e300}}"#))
        #expect(isMalformed(#"{"error":"io.alarmd.Wake.TooManyChanges","parameters":{"limit":2.5}}"#))
        #expect(isMalformed(#"{"error":"io.alarmd.Wake.InvalidParameter","parameters":{"parameter":"at"}}"#))
        #expect(isMalformed(#"{"error":"org.varlink.service.MethodNotFound"}"#))
        // A reply whose member is of the wrong type.
        #expect(isMalformed(#"{"parameters":{"at":7}}"#))
        #expect(isMalformed(#"{"parameters":{"at":"tomorrow"}}"#))
        #expect(readReply(#"{"error":"io.alarmd.Wake.Reboot"}"#) == .undeclared(name: "io.alarmd.Wake.Reboot"))
        #expect(readReply(#"{"error":"io.alarmd.InvalidParameter","parameters":{"parameter":"at","message":"no"}}"#)
                == .undeclared(name: "io.alarmd.InvalidParameter"), "io.alarmd's error is not the helper's")
    }

    /// A helper that adds members to its replies and errors is still read.
    @Test func membersAReplyDoesNotDeclareAreLeftUnread() throws {
        #expect(try WakeInterface.GetWake.reply(message: Array(#"{"parameters":{"at":"2026-12-24T06:59:00Z","slot":3}}"#.utf8))
                == WakeInterface.GetWake.Reply(at: WakeInstant(seconds: 1_798_095_540)))
        #expect(readReply(#"{"error":"io.alarmd.Wake.TooManyChanges","parameters":{"limit":10,"retryAfter":1}}"#) == .refused(.tooManyChanges(limit: 10)))
    }
}
