// SPDX-License-Identifier: Apache-2.0
import AlarmWake
import Testing
import VarlinkCore

/// `WakeService`, the helper's decisions, message by message with literal
/// times: the replies alarmd and the Python client read, and the errors that
/// name the field and the value.
@Suite struct WakeServiceTests {
    let now = WakeInstant(seconds: 1_796_000_000)

    func reply(_ service: inout WakeService, _ json: String, uid: UInt32 = 1000, tick: UInt64 = 0) -> VarlinkReply? {
        service.handle(Array(json.utf8), uid: uid, now: now, tick: tick)
    }

    @Test func setWakeGetWakeAndClearAreTheCallersOwn() {
        var service = WakeService()
        let at = now.adding(seconds: 3600)
        #expect(reply(&service, #"{"method":"io.alarmd.Wake.SetWake","parameters":{"at":"\#(at.rfc3339)"}}"#) == .parameters([:], continues: false))
        #expect(service.slots.slot(of: 1000) == at)
        #expect(reply(&service, #"{"method":"io.alarmd.Wake.GetWake"}"#) == .parameters(["at": .string(at.rfc3339)], continues: false))
        #expect(reply(&service, #"{"method":"io.alarmd.Wake.GetWake"}"#, uid: 1001) == .parameters([:], continues: false))
        #expect(reply(&service, #"{"method":"io.alarmd.Wake.SetWake","parameters":{"at":null},"oneway":true}"#) == nil)
        #expect(service.slots.isEmpty)
        // What alarmd sends.
        #expect(reply(&service, WakeInterface.SetWake.call(.init(at: at)).json.jsonText, tick: 1) == .parameters([:], continues: false))
        #expect(service.slots.slot(of: 1000) == at)
    }

    @Test func refusalsNameTheParameterAndTheValue() {
        var service = WakeService()
        func message(_ json: String) -> String? {
            guard case .error(let error)? = reply(&service, json) else { return nil }
            #expect(error.name == "io.alarmd.Wake.InvalidParameter")
            guard case .refused(.invalidParameter(_, let message)) = WakeCallFailure(error) else { return nil }
            return message
        }
        #expect(message(#"{"method":"io.alarmd.Wake.SetWake","parameters":{"at":"2026-13-01T07:00:00Z"}}"#)
                == #"at must have a month of 01–12, got "2026-13-01T07:00:00Z""#)
        #expect(message(#"{"method":"io.alarmd.Wake.SetWake","parameters":{"at":"tomorrow"}}"#)
                == #"at must be an RFC 3339 instant with an offset, such as 2026-12-24T06:59:00Z, got "tomorrow""#)
        #expect(message(#"{"method":"io.alarmd.Wake.SetWake","parameters":{"at":7}}"#) == "at must be a string (an RFC 3339 instant) or null, got 7")
        #expect(message(#"{"method":"io.alarmd.Wake.SetWake","parameters":{"uid":0}}"#) == #""uid" is not a parameter of this method"#)
        let long = String(repeating: "9", count: 100)
        #expect(message(#"{"method":"io.alarmd.Wake.SetWake","parameters":{"at":"\#(long)"}}"#)
                == "at must be an RFC 3339 instant with an offset, such as 2026-12-24T06:59:00Z, got \"\(long.prefix(64))\"")
        guard case .error(let past)? = reply(&service, #"{"method":"io.alarmd.Wake.SetWake","parameters":{"at":"2020-01-01T00:00:00Z"}}"#) else {
            Issue.record("an instant in the past was taken")
            return
        }
        #expect(past == VarlinkError(name: "io.alarmd.Wake.InThePast", parameters: ["at": "2020-01-01T00:00:00+00:00", "now": .string(now.rfc3339)]))
        #expect(service.slots.isEmpty)
    }
}
