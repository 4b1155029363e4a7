// SPDX-License-Identifier: Apache-2.0
import Foundation
import Glibc
import Synchronization

/// Round trips and throughput on the control socket.
enum ControlBench {
    /// `rtt`: one persistent connection, `count` calls one after another; each
    /// round trip is timed from just before the send to the reply's NUL.
    static func roundTrips(_ options: Options) throws {
        let socket = try options.required("socket")
        let method = try options.required("method")
        let parameters = options.string("params") ?? "{}"
        let count = max(1, try options.int("count", default: 1000))
        let warmup = try options.int("warmup", default: 10)
        let client = try RawClient(path: socket)
        let frames = RawClient.Frames(method: method, parameters: parameters)
        var errors = 0
        var firstError: String?
        for number in 0..<warmup {
            let reply = try client.call(frames.callNumber(number))
            if reply.isVarlinkError { errors += 1; firstError = firstError ?? reply.text }
        }
        var samples = [Double](repeating: 0, count: count)
        var replyBytes = 0
        for index in 0..<count {
            let request = frames.callNumber(warmup + index)
            let start = Clocks.monotonicNanoseconds()
            let reply = try client.call(request)
            let end = Clocks.monotonicNanoseconds()
            samples[index] = Double(end - start) / 1000
            replyBytes = reply.count
            if reply.isVarlinkError { errors += 1; firstError = firstError ?? reply.text }
        }
        var result: [String: Any] = ["method": method, "errors": errors, "reply_bytes": replyBytes,
                                     "round_trip": Summary(samples).json(unit: "us")]
        if let firstError { result["first_error"] = String(firstError.prefix(500)) }
        try emit(result)
    }

    /// Shared between the load threads.
    struct Tally {
        var requests = 0
        var errors = 0
        var failures: [String] = []
        var perConnection: [Int] = []
        var ready = 0
    }

    /// `throughput`: `connections` threads, each with its own connection, call
    /// back to back (closed loop) for `seconds`; the total rate is what the
    /// daemon sustained.
    static func throughput(_ options: Options) throws {
        let socket = try options.required("socket")
        let method = options.string("method") ?? "io.alarmd.Status"
        let parameters = options.string("params") ?? "{}"
        let connections = max(1, try options.int("connections", default: 8))
        let seconds = try options.double("seconds", default: 5)
        let frames = RawClient.Frames(method: method, parameters: parameters)
        let tally = Mutex(Tally())
        let go = DispatchSemaphore(value: 0)
        let done = DispatchGroup()
        var startNanoseconds: Int64 = 0
        let deadline = UnsafeMutablePointer<Int64>.allocate(capacity: 1)
        deadline.initialize(to: Int64.max)
        nonisolated(unsafe) let sharedDeadline = deadline
        for connection in 0..<connections {
            done.enter()
            let thread = Thread {
                defer { done.leave() }
                var count = 0
                var errors = 0
                // Each connection numbers its calls apart from the others'.
                var number = connection << 32
                do {
                    let client = try RawClient(path: socket)
                    // One call before the clock starts, so connecting is not measured.
                    _ = try client.call(frames.callNumber(number))
                    tally.withLock { $0.ready += 1 }
                    go.wait()
                    let end = sharedDeadline.pointee
                    while Clocks.monotonicNanoseconds() < end {
                        number += 1
                        let reply = try client.call(frames.callNumber(number))
                        if reply.isVarlinkError { errors += 1 }
                        count += 1
                    }
                } catch {
                    tally.withLock { $0.failures.append("\(error)") }
                }
                tally.withLock { tally in
                    tally.requests += count
                    tally.errors += errors
                    tally.perConnection.append(count)
                }
            }
            thread.start()
        }
        // Wait until every connection is up (or failed), then start them together.
        let waitUntil = Clocks.monotonicNanoseconds() + 10_000_000_000
        while true {
            let settled = tally.withLock { $0.ready + $0.failures.count }
            if settled >= connections || Clocks.monotonicNanoseconds() > waitUntil { break }
            usleep(1000)
        }
        startNanoseconds = Clocks.monotonicNanoseconds()
        deadline.pointee = startNanoseconds + Int64(seconds * 1e9)
        for _ in 0..<connections { go.signal() }
        done.wait()
        let elapsed = Double(Clocks.monotonicNanoseconds() - startNanoseconds) / 1e9
        let totals = tally.withLock { $0 }
        try emit([
            "method": method, "connections": connections, "seconds": elapsed,
            "requests": totals.requests, "errors": totals.errors, "failures": totals.failures,
            "per_connection": totals.perConnection.sorted(),
            "requests_per_second": Double(totals.requests) / elapsed,
        ])
    }
}
