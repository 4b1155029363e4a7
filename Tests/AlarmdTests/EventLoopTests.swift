// SPDX-License-Identifier: Apache-2.0
@testable import AlarmDaemon
import Dispatch
import Foundation
import Synchronization
import Testing

/// Messages posted to the owner through the control socket's event loop:
/// each runs once, on the queue, in the order its thread posted it, and
/// none is lost to the wake-up byte being shared, nor after the loop stops.
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
}
