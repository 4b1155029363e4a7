// SPDX-License-Identifier: Apache-2.0
@testable import AlarmCore
import Foundation
import Testing

/// The notices before an alarm, with literal times: what is due, when the
/// next one is, and that each is given once.
@Suite struct NoticePlanTests {
    static let now = Date(timeIntervalSince1970: 1_780_000_000)
    static let work = UUID(uuidString: "11111111-2222-4333-8444-555555555555")!
    static let gym = UUID(uuidString: "AAAAAAAA-BBBB-4CCC-8DDD-EEEEEEEEEEEE")!

    static func at(_ seconds: TimeInterval) -> Date { now.addingTimeInterval(seconds) }

    @Test func anHourAheadTheUpcomingNoticeComesFirstThenTheCheck() {
        let plan = NoticePlan.plan(firings: [(Self.work, Self.at(3600))], now: Self.now, upcomingLead: 1800, given: [])
        #expect(plan.due.isEmpty)
        #expect(plan.next == Self.at(1800))
        let later = NoticePlan.plan(firings: [(Self.work, Self.at(3600))], now: Self.at(1800), upcomingLead: 1800, given: [])
        #expect(later.due == [NoticePlan.Notice(kind: .upcoming, id: Self.work, occurrence: Self.at(3600), at: Self.at(1800))])
        #expect(later.next == Self.at(3000), "the audibility check ten minutes before")
    }

    @Test func aGivenNoticeIsNotGivenAgainAndPassedOnesArePruned() {
        let upcoming = NoticePlan.Notice(kind: .upcoming, id: Self.work, occurrence: Self.at(3600), at: Self.at(1800))
        let plan = NoticePlan.plan(firings: [(Self.work, Self.at(3600))], now: Self.at(1810), upcomingLead: 1800, given: [upcoming])
        #expect(plan.due.isEmpty)
        #expect(plan.next == Self.at(3000))
        #expect(NoticePlan.pruned([upcoming], now: Self.at(3599)) == [upcoming])
        #expect(NoticePlan.pruned([upcoming], now: Self.at(3600)).isEmpty)
    }

    /// An alarm set twenty minutes ahead gets its check, not a notice that
    /// should have come ten minutes ago; one a timer delivered late still comes.
    @Test func aNoticeMoreThanAMinuteLateIsDropped() {
        let fresh = NoticePlan.plan(firings: [(Self.work, Self.at(1200))], now: Self.now, upcomingLead: 1800, given: [])
        #expect(fresh.due.isEmpty)
        #expect(fresh.next == Self.at(600))
        let late = NoticePlan.plan(firings: [(Self.work, Self.at(1200))], now: Self.at(650), upcomingLead: 1800, given: [])
        #expect(late.due.map(\.kind) == [.audibility])
        let tooLate = NoticePlan.plan(firings: [(Self.work, Self.at(1200))], now: Self.at(661), upcomingLead: 1800, given: [])
        #expect(tooLate.due.isEmpty && tooLate.next == nil)
    }

    @Test func offMeansOnlyTheCheckAndSeveralAlarmsEachGetTheirs() {
        let firings = [(Self.work, Self.at(900)), (Self.gym, Self.at(1000))]
        let both = NoticePlan.plan(firings: firings, now: Self.at(300), upcomingLead: 0, given: [])
        #expect(both.due.map(\.id) == [Self.work], "work's check: 600 s before 900")
        #expect(both.due.map(\.kind) == [.audibility])
        #expect(both.next == Self.at(400), "gym's: 600 s before 1000")
        let gym = NoticePlan.plan(firings: firings, now: Self.at(400), upcomingLead: 0, given: Set(both.due))
        #expect(gym.due.map(\.id) == [Self.gym])
        #expect(gym.next == nil)
        // An occurrence that is due or past has nothing left to announce.
        #expect(NoticePlan.plan(firings: [(Self.work, Self.at(0))], now: Self.now, upcomingLead: 1800, given: []) == ([], nil))
    }
}

/// How the findings of a check become the words people read.
@Suite struct AudibilityTests {
    static let output = AudibilityReport.Output(name: "Speakers", muted: false, volume: 80)

    @Test func aHealthyMachineHasNothingToSay() {
        let report = AudibilityReport(output: Self.output)
        #expect(Audibility.machineWarnings(report).isEmpty)
        #expect(Audibility.warnings(for: .defaultAlarm, report).isEmpty)
    }

    @Test(arguments: [
        (AudibilityReport.Output(name: "Speakers", muted: true, volume: 80), "the output \"Speakers\" is muted"),
        (AudibilityReport.Output(name: "Speakers", muted: false, volume: 29), "the output \"Speakers\" is at 29 % volume"),
    ])
    func aMutedOrQuietOutputIsNamed(output: AudibilityReport.Output, warning: String) {
        let report = AudibilityReport(output: output)
        #expect(Audibility.warnings(for: .defaultAlarm, report) == [warning])
        #expect(Audibility.machineWarnings(report) == [warning])
        #expect(Audibility.warnings(for: .none, report).isEmpty, "a silent alarm is not heard anyway")
        #expect(Audibility.warnings(for: .defaultAlarm, AudibilityReport(output: .init(name: "Speakers", muted: false, volume: 30))).isEmpty)
    }

    @Test func everyOtherProblemIsNamed() {
        var report = AudibilityReport(serverProblem: "no sound server: Connection refused", hasPlayer: false,
                                      notificationProblem: "no session bus", wakeProblem: "alarmd lacks CAP_WAKE_ALARM",
                                      soundProblems: ["/home/me/x.mp3": "cannot decode /home/me/x.mp3: unknown format"])
        #expect(Audibility.warnings(for: .file("/home/me/x.mp3"), report) == [
            "nothing can play its sound (no sound server: Connection refused, and no sound player is installed)",
            "its sound cannot be played (cannot decode /home/me/x.mp3: unknown format)",
            "no notification will show (no session bus)",
            "the machine will not wake from suspend for it (alarmd lacks CAP_WAKE_ALARM)",
        ])
        report.hasPlayer = true
        #expect(Audibility.machineWarnings(report).first == "the output's volume and mute cannot be checked (no sound server: Connection refused)")
        #expect(!Audibility.machineWarnings(report).contains { $0.contains("x.mp3") }, "one alarm's sound is not the machine's problem")
        #expect(Audibility.warnings(for: .defaultAlarm, AudibilityReport()) == ["the sound server has no output to play on"])
    }
}
