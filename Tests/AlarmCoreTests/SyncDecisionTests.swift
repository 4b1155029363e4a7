// SPDX-License-Identifier: Apache-2.0
@testable import AlarmCore
import Foundation
import Testing

/// The decisions of a sync round beyond the plan itself, event by event:
/// removals held while many, hrefs not read again, each item read from the
/// server (same, taken, conflict either way), how one is read, and what is
/// sent there in which order.
@Suite struct SyncDecisionTests {
    static let a = UUID(uuidString: "00000000-0000-4000-8000-00000000000A")!
    static let b = UUID(uuidString: "00000000-0000-4000-8000-00000000000B")!
    static let c = UUID(uuidString: "00000000-0000-4000-8000-00000000000C")!
    static let d = UUID(uuidString: "00000000-0000-4000-8000-00000000000D")!
    static let t0 = Date(epochSeconds: 1_800_000_000)

    static func record(_ id: UUID, _ href: String, _ etag: String, _ stamp: Int64, uid: String? = nil) -> SyncPlan.Record {
        SyncPlan.Record(id: id, uid: uid ?? id.uuidString.lowercased(), href: href, etag: etag, stamp: stamp)
    }

    static func reminder(_ id: UUID, _ title: String, updated: Date, created: Date = t0, due: Date? = nil,
                         position: Int = 0, command: [String] = []) -> Item {
        .reminder(Reminder(id: id, title: title, due: due, position: position, command: command, created: created, updated: updated))
    }

    static func fetched(_ item: Item, uid: String = "4711@tasks.org", href: String = "/r/4711.ics", etag: String = "e2") -> SyncPlan.Fetched {
        SyncPlan.Fetched(item: item, uid: uid, href: href, etag: etag)
    }

    static func settings() throws -> ICalendarItems.Settings {
        ICalendarItems.Settings(zone: try zone("UTC"), allDayAt: try timeOfDay("08:30"), now: t0, zoneNamed: { ZoneName.zone($0) })
    }

    // MARK: Removals held while many

    @Test func fewRemovalsThereGoAheadAtOnce() {
        var plan = SyncPlan()
        plan.deleteLocal = [Self.a]
        let (kept, held) = plan.holdingMassDeletions(records: 3, heldLastRound: nil)
        #expect(kept == plan && held == nil)
    }

    @Test func exactlyHalfOfTheRecordsGoesAhead() {
        var plan = SyncPlan()
        plan.deleteLocal = [Self.a, Self.b]
        let (kept, held) = plan.holdingMassDeletions(records: 4, heldLastRound: nil)
        #expect(kept.deleteLocal == [Self.a, Self.b] && held == nil)
    }

    @Test func moreThanHalfWaitsForTheNextRoundToSayTheSame() {
        var plan = SyncPlan()
        plan.deleteLocal = [Self.a, Self.b, Self.c]
        plan.fetch = ["/d.ics"]
        plan.create = [Self.d]
        // First round: held, and the rest of the plan goes on.
        let first = plan.holdingMassDeletions(records: 4, heldLastRound: nil)
        #expect(first.held == [Self.a, Self.b, Self.c])
        #expect(first.plan.deleteLocal.isEmpty && first.plan.fetch == ["/d.ics"] && first.plan.create == [Self.d])
        // Second round, the same removals: they go ahead.
        let second = plan.holdingMassDeletions(records: 4, heldLastRound: first.held)
        #expect(second.plan == plan && second.held == nil)
    }

    @Test func anotherSetOfManyRemovalsIsHeldAfresh() {
        var plan = SyncPlan()
        plan.deleteLocal = [Self.a, Self.b, Self.c]
        let (kept, held) = plan.holdingMassDeletions(records: 4, heldLastRound: [Self.a, Self.b])
        #expect(kept.deleteLocal.isEmpty && held == [Self.a, Self.b, Self.c])
    }

    @Test func noRemovalsHoldNothing() {
        let (kept, held) = SyncPlan().holdingMassDeletions(records: 0, heldLastRound: [Self.a])
        #expect(kept.isEmpty && held == nil)
        let fromNone = SyncPlan().holdingMassDeletions(records: 0, heldLastRound: nil)
        #expect(fromNone.held == nil)
    }

    // MARK: Hrefs not read again

    @Test func anUnkeepableHrefIsReadAgainOnlyOnceItsETagChanges() {
        var plan = SyncPlan()
        plan.fetch = ["/bad.ics", "/changed.ics", "/new.ics"]
        let known = ["/bad.ics": "e1", "/changed.ics": "e1"]
        let remote = ["/bad.ics": "e1", "/changed.ics": "e2", "/new.ics": "e3"]
        #expect(plan.ignoring(known, remote: remote).fetch == ["/changed.ics", "/new.ics"])
        #expect(plan.ignoring([:], remote: remote) == plan)
    }

    // MARK: Each item read from the server

    @Test func newThereIsTakenWithTheServersStamp() {
        let theirs = Self.reminder(Self.a, "Milk", updated: Self.t0)
        let decision = SyncPlan.decide(fetched: Self.fetched(theirs), mine: nil, record: nil)
        let record = Self.record(Self.a, "/r/4711.ics", "e2", SyncPlan.stamp(Self.t0), uid: "4711@tasks.org")
        #expect(decision == .take(theirs, record))
        #expect(decision.id == Self.a && decision.record == record && decision.taken == theirs && decision.send == nil)
    }

    @Test func removedHereButChangedThereIsTakenBack() {
        let theirs = Self.reminder(Self.a, "Milk and eggs", updated: Self.t0)
        let old = Self.record(Self.a, "/r/4711.ics", "e1", SyncPlan.stamp(Self.t0 - 60), uid: "4711@tasks.org")
        let decision = SyncPlan.decide(fetched: Self.fetched(theirs), mine: nil, record: old)
        #expect(decision == .take(theirs, Self.record(Self.a, "/r/4711.ics", "e2", SyncPlan.stamp(Self.t0), uid: "4711@tasks.org")))
    }

    @Test func theSameContentIsRecordedOnlyWithTheStampHere() {
        // What the calendar does not carry differs: the command, the list
        // place, `updated`, and fractions of a second.
        let mine = Self.reminder(Self.a, "Milk", updated: Self.t0 + 30, created: Self.t0 + 0.25, due: Self.t0 + 3600.5,
                                 position: 3, command: ["/bin/true"])
        let theirs = Self.reminder(Self.a, "Milk", updated: Self.t0, created: Self.t0, due: Self.t0 + 3600)
        let decision = SyncPlan.decide(fetched: Self.fetched(theirs), mine: mine, record: nil)
        let record = Self.record(Self.a, "/r/4711.ics", "e2", SyncPlan.stamp(Self.t0 + 30), uid: "4711@tasks.org")
        #expect(decision == .same(record))
        #expect(decision.id == Self.a && decision.record == record && decision.taken == nil && decision.send == nil)
    }

    @Test func changedThereOnlyIsTakenKeepingTheFractionsHere() {
        let mine = Self.reminder(Self.a, "Milk", updated: Self.t0, created: Self.t0 + 0.25, due: Self.t0 + 3600.5)
        let theirs = Self.reminder(Self.a, "Milk and eggs", updated: Self.t0 + 60, created: Self.t0, due: Self.t0 + 3600)
        let record = Self.record(Self.a, "/r/4711.ics", "e1", SyncPlan.stamp(Self.t0), uid: "4711@tasks.org")
        let decision = SyncPlan.decide(fetched: Self.fetched(theirs), mine: mine, record: record)
        let taken = Self.reminder(Self.a, "Milk and eggs", updated: Self.t0 + 60, created: Self.t0 + 0.25, due: Self.t0 + 3600.5)
        #expect(decision == .take(taken, Self.record(Self.a, "/r/4711.ics", "e2", SyncPlan.stamp(Self.t0 + 60), uid: "4711@tasks.org")))
    }

    @Test func aTimeInAnotherSecondIsTheServers() {
        let mine = Self.reminder(Self.a, "Milk", updated: Self.t0, due: Self.t0 + 3600.5)
        let theirs = Self.reminder(Self.a, "Milk", updated: Self.t0 + 60, due: Self.t0 + 7200)
        let record = Self.record(Self.a, "/r/4711.ics", "e1", SyncPlan.stamp(Self.t0))
        #expect(SyncPlan.decide(fetched: Self.fetched(theirs), mine: mine, record: record).taken == theirs)
    }

    @Test func changedOnBothSidesTheNewerHereIsSentBack() {
        let mine = Self.reminder(Self.a, "Milk", updated: Self.t0 + 120)
        let theirs = Self.reminder(Self.a, "Eggs", updated: Self.t0 + 60)
        let record = Self.record(Self.a, "/r/4711.ics", "e1", SyncPlan.stamp(Self.t0), uid: "4711@tasks.org")
        let decision = SyncPlan.decide(fetched: Self.fetched(theirs), mine: mine, record: record)
        let send = SyncPlan.Send(item: mine, uid: "4711@tasks.org", href: "/r/4711.ics", etag: "e2")
        #expect(decision == .conflict(winner: .local, loser: theirs, keep: .send(send)))
        #expect(decision.id == Self.a && decision.record == nil && decision.taken == nil && decision.send == send)
    }

    @Test func changedOnBothSidesTheNewerThereIsTaken() {
        let mine = Self.reminder(Self.a, "Milk", updated: Self.t0 + 60, created: Self.t0 + 0.25)
        let theirs = Self.reminder(Self.a, "Eggs", updated: Self.t0 + 120, created: Self.t0)
        let record = Self.record(Self.a, "/r/4711.ics", "e1", SyncPlan.stamp(Self.t0), uid: "4711@tasks.org")
        let decision = SyncPlan.decide(fetched: Self.fetched(theirs), mine: mine, record: record)
        let taken = Self.reminder(Self.a, "Eggs", updated: Self.t0 + 120, created: Self.t0 + 0.25)
        let kept = Self.record(Self.a, "/r/4711.ics", "e2", SyncPlan.stamp(Self.t0 + 120), uid: "4711@tasks.org")
        #expect(decision == .conflict(winner: .remote, loser: mine, keep: .take(taken, kept)))
        #expect(decision.id == Self.a && decision.record == kept && decision.taken == taken && decision.send == nil)
    }

    @Test func changedOnBothSidesAtTheSameTimeTheServersWins() {
        let mine = Self.reminder(Self.a, "Milk", updated: Self.t0 + 60)
        let theirs = Self.reminder(Self.a, "Eggs", updated: Self.t0 + 60)
        let record = Self.record(Self.a, "/r/4711.ics", "e1", SyncPlan.stamp(Self.t0))
        guard case .conflict(.remote, let loser, .take(let taken, _)) = SyncPlan.decide(fetched: Self.fetched(theirs), mine: mine, record: record) else {
            Issue.record("a tie is not the server's")
            return
        }
        #expect(loser == mine && taken == theirs)
    }

    @Test func differentHereWithoutARecordIsAConflict() {
        // Made on both sides under one id before either had synced: when
        // each changed cannot be told, so the newer wins and the other is logged.
        let mine = Self.reminder(Self.a, "Milk", updated: Self.t0 + 120)
        let theirs = Self.reminder(Self.a, "Eggs", updated: Self.t0 + 60)
        let decision = SyncPlan.decide(fetched: Self.fetched(theirs), mine: mine, record: nil)
        #expect(decision == .conflict(winner: .local, loser: theirs, keep: .send(SyncPlan.Send(item: mine, uid: "4711@tasks.org", href: "/r/4711.ics", etag: "e2"))))
    }

    // MARK: Reading one item

    @Test func readsTheItemOfItsKindKeepingAnotherProgramsUID() throws {
        let text = "BEGIN:VCALENDAR\nBEGIN:VTODO\nUID:4711@tasks.org\nSUMMARY:Milk\nDTSTAMP:20270115T080000Z\nEND:VTODO\nEND:VCALENDAR\n"
        let fetched = try #require(try SyncPlan.read(text, href: "/r/4711.ics", etag: "e1", kind: .reminder, settings: Self.settings()))
        #expect(fetched.uid == "4711@tasks.org" && fetched.href == "/r/4711.ics" && fetched.etag == "e1")
        #expect(fetched.item.kind == .reminder && fetched.item.title == "Milk")
    }

    @Test func anItemOfTheOtherKindIsNotThisPasss() throws {
        let text = "BEGIN:VCALENDAR\nBEGIN:VTODO\nUID:4711@tasks.org\nSUMMARY:Milk\nEND:VTODO\nEND:VCALENDAR\n"
        #expect(try SyncPlan.read(text, href: "/r/4711.ics", etag: "e1", kind: .alarm, settings: Self.settings()) == nil)
    }

    @Test func whatCannotBeKeptIsThrown() throws {
        let text = "BEGIN:VCALENDAR\nBEGIN:VTODO\nUID:a\nRECURRENCE-ID:20261224T070000\nEND:VTODO\nEND:VCALENDAR\n"
        let settings = try Self.settings()
        #expect(throws: ICalendarError.self) { try SyncPlan.read(text, href: "/r/a.ics", etag: "e1", kind: .reminder, settings: settings) }
    }

    // MARK: What is sent there

    @Test func sendsCreatesThenUpdatesThenConflictsWonHere() {
        let mineA = Self.reminder(Self.a, "New here", updated: Self.t0)
        let mineB = Self.reminder(Self.b, "Changed here", updated: Self.t0 + 60)
        let mineC = Self.reminder(Self.c, "Removed there, changed here", updated: Self.t0 + 60)
        let mineD = Self.reminder(Self.d, "Won here", updated: Self.t0 + 120)
        let recordB = Self.record(Self.b, "/r/b.ics", "eb", SyncPlan.stamp(Self.t0))
        let recordC = Self.record(Self.c, "/r/4711.ics", "ec", SyncPlan.stamp(Self.t0), uid: "4711@tasks.org")
        var plan = SyncPlan()
        plan.create = [Self.a, Self.c]
        plan.update = [recordB]
        let wonHere = SyncPlan.Send(item: mineD, uid: "d@elsewhere", href: "/r/d.ics", etag: "ed2")
        let decisions: [SyncPlan.FetchDecision] = [.conflict(winner: .local, loser: Self.reminder(Self.d, "Lost", updated: Self.t0), keep: .send(wonHere))]
        let local = [Self.a: mineA, Self.b: mineB, Self.c: mineC, Self.d: mineD]
        let sends = plan.sends(local: local, records: [recordB, recordC], decisions: decisions, href: { "/r/" + $0.uuidString.lowercased() + ".ics" })
        #expect(sends == [
            SyncPlan.Send(item: mineA, uid: Self.a.uuidString.lowercased(), href: "/r/" + Self.a.uuidString.lowercased() + ".ics", etag: nil),
            // A dropped record's UID stays: the server's copy may be another program's.
            SyncPlan.Send(item: mineC, uid: "4711@tasks.org", href: "/r/" + Self.c.uuidString.lowercased() + ".ics", etag: nil),
            SyncPlan.Send(item: mineB, uid: recordB.uid, href: "/r/b.ics", etag: "eb"),
            wonHere,
        ])
    }

    @Test func anItemReadThisRoundOrGoneHereIsNotSent() {
        let mineA = Self.reminder(Self.a, "There already", updated: Self.t0)
        var plan = SyncPlan()
        plan.create = [Self.a, Self.b]
        plan.update = [Self.record(Self.c, "/r/c.ics", "ec", 0)]
        let record = Self.record(Self.a, "/r/other-name.ics", "e1", SyncPlan.stamp(Self.t0))
        let sends = plan.sends(local: [Self.a: mineA], records: [], decisions: [.same(record)], href: { "/r/" + $0.uuidString + ".ics" })
        #expect(sends.isEmpty)
    }
}
