// SPDX-License-Identifier: Apache-2.0
@testable import AlarmDaemon
import Dispatch
import Testing

/// The pacing of the status line, history commits and sound checks: at most
/// one run an interval, one wake-up scheduled for a burst of requests, and
/// the request after the wake-up runs (the last change is never lost).
@Suite struct PacerTests {
    private let start = DispatchTime(uptimeNanoseconds: 1_000_000_000)

    private func at(milliseconds: UInt64) -> DispatchTime {
        DispatchTime(uptimeNanoseconds: start.uptimeNanoseconds + milliseconds * 1_000_000)
    }

    @Test func theFirstRequestRunsAtOnce() {
        var pacer = Pacer(interval: .milliseconds(100))
        #expect(pacer.decide(now: start) == .run)
        #expect(pacer.lastRun == start)
    }

    @Test func aBurstWithinTheIntervalSchedulesOneWakeUpAtItsEnd() {
        var pacer = Pacer(interval: .milliseconds(100))
        #expect(pacer.decide(now: start) == .run)
        #expect(pacer.decide(now: at(milliseconds: 10)) == .wait(until: at(milliseconds: 100)))
        for milliseconds in stride(from: UInt64(11), to: 100, by: 7) {
            #expect(pacer.decide(now: at(milliseconds: milliseconds)) == .waiting)
        }
        // The wake-up asks again at its instant: the burst's last change goes out.
        pacer.woke()
        #expect(pacer.decide(now: at(milliseconds: 100)) == .run)
        #expect(pacer.lastRun == at(milliseconds: 100))
        // And the interval counts from that run.
        #expect(pacer.decide(now: at(milliseconds: 150)) == .wait(until: at(milliseconds: 200)))
    }

    @Test func aRequestAfterTheIntervalRunsWithoutWaiting() {
        var pacer = Pacer(interval: .seconds(1))
        #expect(pacer.decide(now: start) == .run)
        #expect(pacer.decide(now: at(milliseconds: 1_000)) == .run)
        #expect(pacer.decide(now: at(milliseconds: 5_000)) == .run)
    }

    @Test func anUrgentRequestRunsWithinTheIntervalAndRestartsIt() {
        var pacer = Pacer(interval: .seconds(1))
        #expect(pacer.decide(now: start) == .run)
        #expect(pacer.decide(now: at(milliseconds: 200)) == .wait(until: at(milliseconds: 1_000)))
        #expect(pacer.decide(now: at(milliseconds: 300), urgent: true) == .run)
        #expect(pacer.lastRun == at(milliseconds: 300))
        // The wake-up scheduled before still comes; asked then, the interval
        // counts from the urgent run, so it waits again.
        pacer.woke()
        #expect(pacer.decide(now: at(milliseconds: 1_000)) == .wait(until: at(milliseconds: 1_300)))
    }
}
