// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmProtocol
import Foundation
import Glibc

/// `watch`: subscribes to `io.alarmd.Watch` and stamps every reply with
/// CLOCK_REALTIME the moment the read that carried it returns. Parsing waits
/// until the end, so it cannot delay a stamp. Writes one line per `fired`
/// event: id, scheduled, actual (both from the event, microseconds since the
/// epoch) and received (the client's stamp).
enum WatchBench {
    static func run(_ options: Options) throws {
        let socket = try options.required("socket")
        let expected = try options.int("expect", default: 1)
        let timeout = try options.double("timeout", default: 60)
        let output = try options.required("out")
        let client = try RawClient(path: socket)
        try client.send(RawClient.frame(method: "io.alarmd.Watch", more: true))
        // The harness waits for this line before the first reminder is due.
        FileHandle.standardOutput.write(Data("WATCHING\n".utf8))

        var timeoutValue = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(client.fd, SOL_SOCKET, SO_RCVTIMEO, &timeoutValue, socklen_t(MemoryLayout<timeval>.size))
        let fired: [UInt8] = Array("\"kind\":\"fired\"".utf8)
        var messages: [(bytes: [UInt8], received: Int64)] = []
        messages.reserveCapacity(expected * 2)
        var firedCount = 0
        var closed = false
        var failure: String?
        let deadline = Clocks.monotonicNanoseconds() + Int64(timeout * 1e9)
        receiving: while firedCount < expected && Clocks.monotonicNanoseconds() < deadline {
            let count: Int
            do { count = try client.fill() } catch {
                if case .timedOut = error { continue }
                failure = "\(error)"
                break
            }
            let stamp = Clocks.realtimeMicroseconds()
            if count == 0 { closed = true; break }
            while let message = client.nextBuffered() {
                if message.contains(bytes: fired) { firedCount += 1 }
                messages.append((Array(message), stamp))
                if firedCount >= expected { break receiving }
            }
        }

        var lines = "id\tscheduled_us\tactual_us\treceived_us\n"
        var kinds: [String: Int] = [:]
        var unparsed = 0
        for (bytes, received) in messages {
            guard case .object(let reply)? = try? JSONParser.parse(bytes),
                  let event = reply["parameters"]?.objectValue?["event"]?.objectValue,
                  let kind = event["kind"]?.stringValue
            else { unparsed += 1; continue }
            kinds[kind, default: 0] += 1
            guard kind == "fired", let id = event["id"]?.stringValue,
                  let scheduled = event["scheduled"]?.stringValue.flatMap(RFC3339.microseconds),
                  let actual = event["actual"]?.stringValue.flatMap(RFC3339.microseconds)
            else { continue }
            lines += "\(id)\t\(scheduled)\t\(actual)\t\(received)\n"
        }
        try lines.write(toFile: output, atomically: true, encoding: .utf8)
        var result: [String: Any] = ["messages": messages.count, "fired": firedCount, "kinds": kinds,
                                     "unparsed": unparsed, "closed_by_daemon": closed, "out": output]
        if let failure { result["failure"] = failure }
        try emit(result)
    }
}

/// Reads the interface's instants (`2026-03-09T07:30:00.123456+01:00`) to the
/// microsecond, exactly (no floating point).
enum RFC3339 {
    static func microseconds(_ text: String) -> Int64? {
        let b = Array(text.utf8)
        func digits(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= b.count else { return nil }
            var value = 0
            for i in from..<(from + count) {
                guard b[i] >= 48, b[i] <= 57 else { return nil }
                value = value * 10 + Int(b[i] - 48)
            }
            return value
        }
        guard b.count >= 20, let year = digits(0, 4), let month = digits(5, 2), let day = digits(8, 2),
              let hour = digits(11, 2), let minute = digits(14, 2), let second = digits(17, 2)
        else { return nil }
        var index = 19
        var micro: Int64 = 0
        if index < b.count, b[index] == UInt8(ascii: ".") {
            index += 1
            var scale: Int64 = 100_000
            while index < b.count, b[index] >= 48, b[index] <= 57 {
                micro += Int64(b[index] - 48) * scale
                scale /= 10
                index += 1
            }
        }
        var offset = 0
        if index < b.count, b[index] == UInt8(ascii: "Z") {
            offset = 0
        } else if index + 6 <= b.count, b[index] == UInt8(ascii: "+") || b[index] == UInt8(ascii: "-"),
                  let oh = digits(index + 1, 2), let om = digits(index + 4, 2) {
            var seconds = oh * 3600 + om * 60
            if index + 9 <= b.count, b[index + 6] == UInt8(ascii: ":"), let os = digits(index + 7, 2) { seconds += os }
            offset = b[index] == UInt8(ascii: "-") ? -seconds : seconds
        } else {
            return nil
        }
        let wall = CivilTime.dayNumber(year: year, month: month, day: day) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
        return (wall - Int64(offset)) * 1_000_000 + micro
    }
}
