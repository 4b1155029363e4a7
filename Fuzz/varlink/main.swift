// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: the Varlink message decoder and the parameter layer of
// AlarmProtocol, without a daemon.
//
// The input is a byte stream as a client would send it: messages ended by NUL.
//   1. VarlinkFramer, fed in uneven pieces, must return exactly the NUL-ended
//      messages, keep the rest pending, and throw Oversize exactly when the
//      pending bytes pass its limit.
//   2. Each message goes through JSONParser (a parsed value re-encodes to text
//      that parses to the same value and re-encodes to the same text; errors
//      are a JSONError at an offset inside the message), VarlinkCall and
//      VarlinkReply (re-encoded and re-read, they are equal; errors are the
//      typed io.alarmd.InvalidRequest / InvalidParameter).
//   3. The parameters of an io.alarmd call go through every typed accessor of
//      Parameters, AlarmFields.parse (what parses survives its wire form) and
//      WireTime.parse (an instant survives WireTime.string).
import AlarmCore
import AlarmProtocol
import Foundation

let framerLimit = 4096
let zone = Zone(identifier: "America/New_York")!
let allowedRequestErrors: Set<String> = ["io.alarmd.InvalidRequest", "io.alarmd.InvalidParameter"]

// MARK: - Framing

func fuzzFramer(_ bytes: [UInt8]) -> [[UInt8]] {
    var framer = VarlinkFramer(maxMessageSize: framerLimit)
    var messages: [[UInt8]] = []
    var expected: [[UInt8]] = []
    var pending: [UInt8] = []
    // Piece sizes from the input itself, so the fuzzer controls the split.
    var offset = 0
    var piece = 0
    while offset < bytes.count {
        let length = min(bytes.count - offset, [1, 3, 17, 64, 511, 4096][Int(bytes[piece % bytes.count]) % 6])
        piece += 1
        let chunk = bytes[offset..<offset + length]
        offset += length
        for byte in chunk {
            if byte == 0 { expected.append(pending); pending = [] } else { pending.append(byte) }
        }
        do throws(VarlinkFramer.Oversize) {
            messages += try framer.append(chunk)
        } catch {
            check(error.limit == framerLimit, "Oversize names limit \(error.limit)")
            check(pending.count > framerLimit, "Oversize with only \(pending.count) bytes pending")
            return messages
        }
        check(pending.count <= framerLimit, "\(pending.count) bytes pending past the \(framerLimit)-byte limit without Oversize")
        check(messages == expected, "framer returned \(messages.count) messages, expected \(expected.count)")
        check(framer.pendingByteCount == pending.count, "framer holds \(framer.pendingByteCount) bytes, expected \(pending.count)")
    }
    return messages
}

// MARK: - JSON

func fuzzJSON(_ message: [UInt8]) -> JSONValue? {
    let value: JSONValue
    do throws(JSONError) { value = try JSONParser.parse(message) } catch {
        check((0...message.count).contains(error.offset), "JSONError offset \(error.offset) outside a \(message.count)-byte message")
        check(!error.reason.isEmpty, "JSONError without a reason")
        return nil
    }
    let text = value.jsonText
    do throws(JSONError) {
        let again = try JSONParser.parse(text)
        check(again == value, "JSON value changes through its text: \(quoted(text))")
        check(again.hashValue == value.hashValue, "equal JSON values hash differently: \(quoted(text))")
        check(again.jsonText == text, "JSON text not stable: \(quoted(text)) -> \(quoted(again.jsonText))")
    } catch {
        check(false, "encoded JSON does not parse: \(error): \(quoted(text))")
    }
    // A framed value comes back out of a framer as its bytes.
    var framer = VarlinkFramer()
    do throws(VarlinkFramer.Oversize) {
        let out = try framer.append(VarlinkFramer.frame(value))
        check(out == [value.jsonBytes], "frame() does not round-trip through the framer")
    } catch {
        check(false, "frame() of a \(text.utf8.count)-byte value is oversize")
    }
    return value
}

// MARK: - Calls and replies

func fuzzCall(_ message: [UInt8]) -> VarlinkCall? {
    let call: VarlinkCall
    do throws(VarlinkError) { call = try VarlinkCall(message: message) } catch {
        check(allowedRequestErrors.contains(error.name), "VarlinkCall error \(error.name)")
        check(!error.description.isEmpty, "VarlinkCall error without a description")
        return nil
    }
    check(call.method.contains(".") && !call.interface.isEmpty && !call.member.isEmpty, "call method \(quoted(call.method)) without interface or member")
    check(call.interface + "." + call.member == call.method, "interface/member do not rebuild \(quoted(call.method))")
    do throws(VarlinkError) {
        let again = try VarlinkCall(message: call.json.jsonBytes)
        check(again == call, "call changes through its JSON: \(quoted(call.json.jsonText))")
    } catch {
        check(false, "re-encoded call does not parse: \(error)")
    }
    return call
}

func fuzzReply(_ message: [UInt8]) {
    let reply: VarlinkReply
    do throws(VarlinkError) { reply = try VarlinkReply(message: message) } catch {
        check(error.name == "io.alarmd.InvalidRequest", "VarlinkReply error \(error.name)")
        return
    }
    do throws(VarlinkError) {
        let again = try VarlinkReply(message: reply.json.jsonBytes)
        check(again == reply, "reply changes through its JSON: \(quoted(reply.json.jsonText))")
    } catch {
        check(false, "re-encoded reply does not parse: \(error)")
    }
}

// MARK: - Parameters

func expectInvalidParameter(_ error: VarlinkError, _ name: String) {
    check(error.name == "io.alarmd.InvalidParameter", "parameter error \(error.name) for \(quoted(name))")
    check(error.parameters["parameter"]?.stringValue.map { Array($0.utf8) } == Array(name.utf8), "parameter error names \(error.parameters["parameter"]?.jsonText ?? "nothing"), not \(quoted(name))")
}

/// Every typed accessor on every member: a value of the right type comes back
/// as it is, any other is InvalidParameter naming the member's path.
func fuzzAccessors(_ parameters: Parameters, depth: Int = 0) {
    for (key, value) in parameters.object {
        let name = parameters.path + key
        do throws(VarlinkError) {
            let text = try parameters.string(key)
            check(text == value.stringValue, "string(\(quoted(name))) disagrees")
        } catch { expectInvalidParameter(error, name); check(!value.isNull && value.stringValue == nil, "string() refused a string") }
        do throws(VarlinkError) {
            let flag = try parameters.bool(key)
            check(flag == value.boolValue, "bool(\(quoted(name))) disagrees")
        } catch { expectInvalidParameter(error, name) }
        do throws(VarlinkError) {
            if let number = try parameters.int(key, in: -100...100) {
                check(number == value.intValue && (-100...100).contains(number), "int(\(quoted(name))) = \(number)")
            }
        } catch { expectInvalidParameter(error, name) }
        do throws(VarlinkError) {
            if let strings = try parameters.stringArray(key) {
                check(strings.count == value.arrayValue?.count, "stringArray(\(quoted(name))) lost elements")
            }
        } catch { expectInvalidParameter(error, name) }
        do throws(VarlinkError) {
            if let nested = try parameters.object(key) {
                check(nested.path.utf8.elementsEqual((name + ".").utf8), "nested path \(quoted(nested.path))")
                if depth < 3 { fuzzAccessors(nested, depth: depth + 1) }
            }
        } catch { expectInvalidParameter(error, name) }
        if case .string(let text) = value { fuzzInstant(text, name) }
    }
}

/// An instant a client sends must print (WireTime.string) as text that parses
/// back to the same microsecond.
func fuzzInstant(_ text: String, _ name: String) {
    let date: Date
    do throws(VarlinkError) { date = try WireTime.parse(text, parameter: name, zone: zone) } catch {
        check(error.name == "io.alarmd.InvalidParameter", "WireTime error \(error.name)")
        return
    }
    let printed = WireTime.string(date, in: zone)
    let local = zone.rules.localDateTime(at: Int64(date.timeIntervalSince1970.rounded(.down)))
    let known = local.utcOffset % 60 != 0 ? "offset-seconds" : !(0...9999).contains(local.year) ? "year-range" : nil
    do throws(VarlinkError) {
        let again = try WireTime.parse(printed, parameter: name, zone: zone)
        check(abs(again.timeIntervalSince1970 - date.timeIntervalSince1970) < 1e-5, "instant \(quoted(text)) -> \(printed) -> \(again.timeIntervalSince1970)")
    } catch {
        check(false, "instant \(quoted(text)) prints as \(printed), which does not parse: \(error)", known: known)
    }
}

func wire(_ fields: AlarmFields) -> JSONObject {
    var object = JSONObject()
    if let time = fields.time { object["time"] = .string(time.description) }
    if let days = fields.days { object["days"] = .array(days.codes.map { .string($0) }) }
    if let label = fields.label { object["label"] = .string(label) }
    if let sound = fields.sound { object["sound"] = .string(sound.description) }
    if let flag = fields.snoozeEnabled { object["snooze"] = .bool(flag) }
    if let minutes = fields.snoozeMinutes { object["snoozeMinutes"] = JSONValue(minutes) }
    if let count = fields.maxSnoozes { object["maxSnoozes"] = JSONValue(count) }
    if let seconds = fields.ringSeconds { object["ringSeconds"] = JSONValue(seconds) }
    if let flag = fields.enabled { object["enabled"] = .bool(flag) }
    if let zone = fields.timeZone { object["timeZone"] = .string(zone?.identifier ?? "") }
    if let command = fields.command { object["command"] = .array(command.map { .string($0) }) }
    return object
}

func fuzzAlarmFields(_ parameters: Parameters) {
    let fields: AlarmFields
    do throws(VarlinkError) { fields = try AlarmFields.parse(parameters) } catch {
        check(error.name == "io.alarmd.InvalidParameter", "AlarmFields error \(error.name)")
        let name = error.parameters["parameter"]?.stringValue ?? ""
        check(name.utf8.starts(with: parameters.path.utf8), "AlarmFields error names \(quoted(name)) outside \(quoted(parameters.path))")
        return
    }
    let text = JSONValue.object(wire(fields)).jsonText
    let again: AlarmFields
    do throws(VarlinkError) { again = try AlarmFields.parse(Parameters(wire(fields), path: parameters.path)) } catch {
        check(false, "AlarmFields do not survive their wire form \(quoted(text)): \(error)")
        return
    }
    check(again.time == fields.time && again.days == fields.days && again.label == fields.label && again.sound == fields.sound
          && again.snoozeEnabled == fields.snoozeEnabled && again.snoozeMinutes == fields.snoozeMinutes && again.maxSnoozes == fields.maxSnoozes
          && again.ringSeconds == fields.ringSeconds && again.enabled == fields.enabled && again.command == fields.command,
          "AlarmFields change through their wire form \(quoted(text))")
    check(again.timeZone.map { $0?.identifier } == fields.timeZone.map { $0?.identifier }, "AlarmFields time zone changes through \(quoted(text))")
    // What UpdateAlarm does with them: apply, then the scheduler validates.
    var alarm = Alarm(time: try! TimeOfDay(hour: 7, minute: 30), created: Date(timeIntervalSince1970: 0))
    fields.apply(to: &alarm)
    do throws(ValidationError) { try alarm.validate() } catch { check(!error.field.isEmpty, "validation error without a field") }
}

// MARK: - Entry point

func fuzzMessage(_ message: [UInt8]) {
    guard fuzzJSON(message) != nil else {
        // Not JSON: the call and reply readers must say so, typed.
        _ = fuzzCall(message)
        fuzzReply(message)
        return
    }
    fuzzReply(message)
    guard let call = fuzzCall(message) else { return }
    let parameters = Parameters(call.parameters)
    fuzzAccessors(parameters)
    fuzzAlarmFields(parameters)
    do throws(VarlinkError) {
        if let fields = try parameters.object("fields") { fuzzAlarmFields(fields) }
    } catch { expectInvalidParameter(error, "fields") }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size <= 65_536 else { return -1 }
    let bytes = bytesOf(data, size)
    let messages = fuzzFramer(bytes)
    // A stream without any NUL is still worth reading as one message.
    for message in messages.isEmpty ? [bytes] : Array(messages.prefix(16)) { fuzzMessage(message) }
    return 0
}
