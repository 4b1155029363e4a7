// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import FoundationEssentials
import Testing

/// The sync process's supervision, event by event, with no process and no clock.
@Suite struct SyncSupervisionTests {
    typealias Effect = SyncSupervision.Effect
    let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    func machine(interval: TimeInterval = 300) -> SyncSupervision {
        SyncSupervision(limits: SyncSupervision.Limits(interval: interval), server: "https://dav.example/tasks/", now: t0)
    }

    func ok(_ pulled: Int = 0) -> SyncReport {
        var report = SyncReport()
        report.pulled = pulled
        return report
    }

    func failed(_ error: String, unauthorized: Bool = false) -> SyncReport {
        var report = SyncReport()
        report.error = error
        report.unauthorized = unauthorized
        return report
    }

    @Test func startSpawnsAndAsksForARoundThenWaitsAnInterval() {
        var m = machine()
        #expect(m.start(now: t0) == [.spawn, .sendRound(id: 1), .armTimer(t0 + 300)])
        #expect(m.roundDone(id: 1, report: ok(), now: t0 + 2) == [.armTimer(t0 + 302)])
        #expect(m.timer(now: t0 + 302) == [.sendRound(id: 2), .armTimer(t0 + 602)])
    }

    @Test func aReportForAnotherRoundIsIgnored() {
        var m = machine()
        _ = m.start(now: t0)
        #expect(m.roundDone(id: 7, report: ok(3), now: t0 + 1) == [])
        #expect(m.report.pulled == 0)
    }

    @Test func nudgesInABurstShareOneRound() {
        var m = machine()
        _ = m.start(now: t0)
        _ = m.roundDone(id: 1, report: ok(), now: t0 + 1)
        #expect(m.nudge(now: t0 + 10) == [.armTimer(t0 + 10.3)])
        #expect(m.nudge(now: t0 + 10.1) == [.armTimer(t0 + 10.3)])
        #expect(m.timer(now: t0 + 10.3) == [.sendRound(id: 2), .armTimer(t0 + 310.3)])
    }

    @Test func aRoundPastItsTimeHasItsProcessKilledAndRestartedWithBackOff() {
        var m = machine()
        _ = m.start(now: t0)
        let effects = m.timer(now: t0 + 300)
        #expect(effects.first == .kill)
        #expect(!effects.contains { if case .armTimer = $0 { true } else { false } })
        let exit = m.exited("was killed by signal 9", clean: false, now: t0 + 300.1)
        #expect(exit.contains(.armTimer(t0 + 305.1)))
        #expect(m.report.error?.contains("killed by signal 9") == true)
        #expect(m.timer(now: t0 + 305.1) == [.spawn, .sendRound(id: 2), .armTimer(t0 + 605.1)])
    }

    @Test func aProcessThatDiesEveryRoundIsRestartedLessAndLessOftenAndTheReportNamesWhatItRead() {
        var m = machine()
        _ = m.start(now: t0)
        var now = t0
        var delays: [TimeInterval] = []
        for round in 1...12 {
            m.reading("/cal/evil.ics")
            now += 1
            let effects = m.exited("was killed by signal 11", clean: false, now: now)
            guard case .armTimer(let at)? = effects.last else { Issue.record("no timer after exit \(round)"); return }
            delays.append(at.timeIntervalSince(now))
            #expect(m.report.error?.contains("while reading /cal/evil.ics") == true)
            now = at
            #expect(m.timer(now: now).prefix(2) == [.spawn, .sendRound(id: round + 1)])
        }
        #expect(Array(delays.prefix(5)) == [5, 10, 20, 40, 80])
        #expect(delays.last == 3600)
        // One line in the journal for the whole outage, not one per crash.
        var again = machine()
        _ = again.start(now: t0)
        again.reading("/cal/evil.ics")
        let first = again.exited("was killed by signal 11", clean: false, now: t0 + 1)
        _ = again.timer(now: t0 + 6)
        again.reading("/cal/evil.ics")
        let second = again.exited("was killed by signal 11", clean: false, now: t0 + 7)
        #expect(first.contains { if case .journal = $0 { true } else { false } })
        #expect(!second.contains { if case .journal = $0 { true } else { false } })
    }

    @Test func aRoundThatGoesThroughResetsTheBackOff() {
        var m = machine()
        _ = m.start(now: t0)
        _ = m.exited("was killed by signal 11", clean: false, now: t0 + 1)
        _ = m.timer(now: t0 + 6)
        #expect(m.roundDone(id: 2, report: ok(1), now: t0 + 7).contains(.armTimer(t0 + 307)))
        _ = m.timer(now: t0 + 307)
        let exit = m.exited("was killed by signal 11", clean: false, now: t0 + 308)
        #expect(exit.contains(.armTimer(t0 + 313)))
    }

    @Test func aProcessThatLeavesBetweenRoundsIsStartedForTheNextWithoutBackOff() {
        var m = machine()
        _ = m.start(now: t0)
        _ = m.roundDone(id: 1, report: ok(), now: t0 + 1)
        #expect(m.exited("exited with status 0", clean: true, now: t0 + 1.1) == [.armTimer(t0 + 301)])
        #expect(m.report.error == nil)
        #expect(m.timer(now: t0 + 301) == [.spawn, .sendRound(id: 2), .armTimer(t0 + 601)])
    }

    @Test func failedRoundsBackOffButARefusedPasswordWaitsTheInterval() {
        var m = machine()
        _ = m.start(now: t0)
        #expect(m.roundDone(id: 1, report: failed("cannot reach"), now: t0).last == .armTimer(t0 + 5))
        _ = m.timer(now: t0 + 5)
        #expect(m.roundDone(id: 2, report: failed("cannot reach"), now: t0 + 5).last == .armTimer(t0 + 15))
        _ = m.timer(now: t0 + 15)
        #expect(m.roundDone(id: 3, report: failed("HTTP 401", unauthorized: true), now: t0 + 15).contains(.armTimer(t0 + 315)))
    }

    @Test func syncNowAnswersWithTheNextRoundsReportAndWakesAProcessInBackOff() {
        var m = machine()
        _ = m.start(now: t0)
        _ = m.exited("was killed by signal 11", clean: false, now: t0 + 1)
        #expect(m.syncNow(41, now: t0 + 2) == [.spawn, .sendRound(id: 2), .armTimer(t0 + 302)])
        let done = m.roundDone(id: 2, report: ok(4), now: t0 + 3)
        #expect(done.contains { if case .answer([41], let report) = $0 { report.pulled == 4 } else { false } })
    }

    /// A round in flight took its snapshot before the request: it does not
    /// answer it; the round after it, started as soon as it ends, does.
    @Test func aRequestMadeDuringARoundIsAnsweredByTheNextOneWhichStartsAtOnce() {
        var m = machine()
        _ = m.start(now: t0)
        #expect(m.syncNow(7, now: t0 + 1) == [.armTimer(t0 + 300)])
        let first = m.roundDone(id: 1, report: ok(1), now: t0 + 2)
        #expect(!first.contains { if case .answer = $0 { true } else { false } }, "\(first)")
        #expect(first.contains(.sendRound(id: 2)), "\(first)")
        let second = m.roundDone(id: 2, report: ok(5), now: t0 + 3)
        #expect(second.contains { if case .answer([7], let report) = $0 { report.pulled == 5 } else { false } })
        #expect(second.contains(.armTimer(t0 + 303)))
    }

    @Test func aRequestWaitingOnARoundThatCrashedIsAnsweredWithWhy() {
        var m = machine()
        _ = m.start(now: t0)
        _ = m.syncNow(9, now: t0 + 1)
        let exit = m.exited("was killed by signal 6", clean: false, now: t0 + 2)
        #expect(exit.contains { if case .answer([9], let report) = $0 { report.error?.contains("signal 6") == true } else { false } })
    }

    @Test func heldRemovalsAreConfirmedSoon() {
        var m = machine()
        _ = m.start(now: t0)
        var report = ok()
        report.deletionsHeld = 4
        #expect(m.roundDone(id: 1, report: report, now: t0 + 1) == [.armTimer(t0 + 31)])
    }
}
