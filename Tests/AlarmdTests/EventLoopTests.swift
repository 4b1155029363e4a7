// SPDX-License-Identifier: Apache-2.0
@testable import AlarmDaemon
import Dispatch
import Foundation
import Glibc
import Synchronization
import SystemCalls
import Testing

/// The owner's event loop. Messages: each runs once, on the queue, in the
/// order its thread posted it, and none is lost to the wake-up byte being
/// shared, nor after the loop stops. Timers: each runs on the queue, never
/// before its deadline, never at a deadline it was moved from, never once
/// disarmed or gone. Descriptors: a cancelled source's handler never runs
/// and its descriptor is closed; reading and writing are watched apart.
/// Quiet: the idle action runs once a quiet spell, never while events come.
@Suite struct EventLoopTests {
    @Test func postedBodiesRunOnTheQueueInOrderAndAfterStopStill() throws {
        let queue = DispatchQueue(label: "test.owner")
        let key = DispatchSpecificKey<Int>()
        queue.setSpecific(key: key, value: 1)
        let loop = try EventLoop(queue: queue)
        let runs = Mutex<[Int: [Int]]>([:])
        let offQueue = Mutex(0)
        let threads = 4, each = 2_000
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for index in 0..<each {
                loop.post {
                    if DispatchQueue.getSpecific(key: key) != 1 { offQueue.withLock { $0 += 1 } }
                    runs.withLock { $0[thread, default: []].append(index) }
                }
            }
        }
        #expect(waitUntil(timeout: 10) { runs.withLock { $0.values.map(\.count).reduce(0, +) } == threads * each })
        for thread in 0..<threads {
            #expect(runs.withLock { $0[thread] } == Array(0..<each), "thread \(thread)'s bodies ran out of order or twice")
        }
        #expect(offQueue.withLock { $0 } == 0)

        // Stopped: a later message still reaches the queue.
        loop.stop()
        let late = Mutex(false)
        loop.post { late.withLock { $0 = true } }
        #expect(waitUntil(timeout: 5) { late.withLock { $0 } })
    }

    @Test func timersRunOnTheQueueInDeadlineOrderAndNeverEarly() throws {
        let owner = try Owner(label: "test.timers")
        let fired = Mutex<[(name: String, at: Int64, onQueue: Bool)]>([])
        var timers: [LoopTimer] = []
        owner.sync {
            for (name, milliseconds) in [("c", 60), ("a", 20), ("b", 40)] {
                let clock: LoopTimer.Clock = name == "b" ? .wall : .monotonic
                let deadline = clock.now() + Int64(milliseconds) * 1_000_000
                let timer = owner.timer(clock) {
                    fired.withLock { $0.append((name, clock.now() - deadline, owner.isCurrent)) }
                }
                if clock == .wall {
                    timer.schedule(wall: Date(timeIntervalSince1970: Double(deadline) / 1_000_000_000))
                } else {
                    timer.schedule(after: UInt64(milliseconds) * 1_000_000)
                }
                timers.append(timer)
            }
        }
        #expect(waitUntil(timeout: 5) { fired.withLock { $0.count } == 3 })
        let runs = fired.withLock { $0 }
        #expect(runs.map(\.name) == ["a", "b", "c"])
        for run in runs {
            #expect(run.at >= -1_000, "\(run.name) ran \(-run.at) ns before its deadline")
            #expect(run.onQueue)
        }
        withExtendedLifetime(timers) {}
    }

    @Test func aTimerMovedDisarmedOrGoneDoesNotRunAtItsOldDeadline() throws {
        let owner = try Owner(label: "test.timer-changes")
        let runs = Mutex<[String]>([])
        var kept: [LoopTimer] = []
        owner.sync {
            let moved = owner.timer(.monotonic) { runs.withLock { $0.append("moved") } }
            moved.schedule(after: 10_000_000)
            moved.schedule(after: 300_000_000)
            let disarmed = owner.timer(.monotonic) { runs.withLock { $0.append("disarmed") } }
            disarmed.schedule(after: 10_000_000)
            disarmed.disarm()
            var gone: LoopTimer? = owner.timer(.monotonic) { runs.withLock { $0.append("gone") } }
            gone?.schedule(after: 10_000_000)
            gone = nil
            let marker = owner.timer(.monotonic) { runs.withLock { $0.append("marker") } }
            marker.schedule(after: 100_000_000)
            kept = [moved, disarmed, marker]
        }
        #expect(waitUntil(timeout: 5) { runs.withLock { $0.contains("marker") } })
        #expect(runs.withLock { $0 } == ["marker"], "a timer ran at a deadline it no longer had")
        #expect(waitUntil(timeout: 5) { runs.withLock { $0.contains("moved") } })
        withExtendedLifetime(kept) {}
    }

    @Test func aCancelledSourceNeverRunsAndClosesItsDescriptor() throws {
        let owner = try Owner(label: "test.sources")
        var ends: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0)
        defer { close(ends[1]) }
        let reads = Mutex(0)
        let source = LoopSource(fd: ends[0], loop: owner.loop)
        try owner.sync { () throws(SystemError) in
            try source.activate {
                var byte: UInt8 = 0
                while recv(ends[0], &byte, 1, Int32(MSG_DONTWAIT)) > 0 { reads.withLock { $0 += 1 } }
            }
        }
        var byte: UInt8 = 1
        #expect(send(ends[1], &byte, 1, 0) == 1)
        #expect(waitUntil(timeout: 5) { reads.withLock { $0 } == 1 })
        owner.sync { source.cancel() }
        #expect(fcntl(ends[0], F_GETFD) < 0, "the descriptor stayed open after the cancel")
        #expect(send(ends[1], &byte, 1, Int32(MSG_NOSIGNAL)) < 0 || reads.withLock { $0 } == 1)
        Thread.sleep(forTimeInterval: 0.05)
        #expect(reads.withLock { $0 } == 1)
    }

    @Test func readingAndWritingAreWatchedApart() throws {
        let owner = try Owner(label: "test.read-write")
        var ends: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0, &ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        let events = Mutex<[String]>([])
        try owner.sync { () throws(SystemError) in
            try owner.loop.add(ends[0]) {
                var byte: UInt8 = 0
                while recv(ends[0], &byte, 1, Int32(MSG_DONTWAIT)) > 0 {}
                events.withLock { $0.append("read") }
            }
            try owner.loop.addWritable(ends[0]) {
                events.withLock { $0.append("write") }
                owner.loop.stopWritable(ends[0])
            }
        }
        // Room to write from the start: the write handler runs once, then is off.
        #expect(waitUntil(timeout: 5) { events.withLock { $0 } == ["write"] })
        var byte: UInt8 = 1
        #expect(send(ends[1], &byte, 1, 0) == 1)
        #expect(waitUntil(timeout: 5) { events.withLock { $0 } == ["write", "read"] })
        // Reading off, writing on again: only the write handler runs.
        try owner.sync { () throws(SystemError) in
            owner.loop.stopReadable(ends[0])
            try owner.loop.addWritable(ends[0]) {
                events.withLock { $0.append("write") }
                owner.loop.stopWritable(ends[0])
            }
        }
        #expect(send(ends[1], &byte, 1, 0) == 1)
        #expect(waitUntil(timeout: 5) { events.withLock { $0 } == ["write", "read", "write"] })
        Thread.sleep(forTimeInterval: 0.05)
        #expect(events.withLock { $0 } == ["write", "read", "write"])
        owner.sync { owner.loop.remove(ends[0]) }
    }

    @Test func theIdleActionRunsOncePerQuietSpellAndNeverWhileEventsCome() throws {
        let quiet = Mutex<[ContinuousClock.Instant]>([])
        let owner = try Owner(label: "test.quiet", idle: EventLoop.Idle(after: .milliseconds(300)) {
            quiet.withLock { $0.append(.now) }
        })
        // Busy: a message every 100 ms for a second never leaves 300 ms quiet.
        var lastPost = ContinuousClock.now
        for index in 0..<10 {
            if index > 0 { Thread.sleep(forTimeInterval: 0.1) }
            lastPost = .now
            owner.post {}
        }
        #expect(waitUntil(timeout: 5) { quiet.withLock { $0.count } >= 1 })
        // One spell, one action, however long the quiet lasts.
        Thread.sleep(forTimeInterval: 1)
        let spells = quiet.withLock { $0 }
        #expect(spells.count == 1, "the idle action ran \(spells.count) times in one quiet spell")
        if let first = spells.first {
            #expect(first - lastPost >= .milliseconds(280), "the idle action ran \(first - lastPost) after the last message")
        }
        // A timer's expiry is an event too: a new spell follows it.
        var timer: LoopTimer?
        owner.sync {
            timer = owner.timer(.monotonic) {}
            timer?.schedule(after: 50_000_000)
        }
        #expect(waitUntil(timeout: 5) { quiet.withLock { $0.count } == 2 })
        withExtendedLifetime(timer) {}
    }

    @Test func theIdleActionWaitsForATimerDueWithinTheSecond() throws {
        let quiet = Mutex<[ContinuousClock.Instant]>([])
        let fired = Mutex<ContinuousClock.Instant?>(nil)
        let owner = try Owner(label: "test.quiet-timer", idle: EventLoop.Idle(after: .milliseconds(200)) {
            quiet.withLock { $0.append(.now) }
        })
        var timer: LoopTimer?
        owner.sync {
            timer = owner.timer(.monotonic) { fired.withLock { $0 = .now } }
            timer?.schedule(after: 700_000_000)
        }
        #expect(waitUntil(timeout: 5) { !quiet.withLock { $0 }.isEmpty })
        let firedAt = try #require(fired.withLock { $0 }, "the idle action ran before the timer did")
        let first = try #require(quiet.withLock { $0.first })
        #expect(first > firedAt, "the idle action ran \(firedAt - first) before a timer due within the second")
        withExtendedLifetime(timer) {}
    }
}
