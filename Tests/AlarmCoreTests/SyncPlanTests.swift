// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import Foundation
import Testing

/// The decisions of a sync round, every case of here × there × last round.
@Suite struct SyncPlanTests {
    static let a = UUID(uuidString: "00000000-0000-4000-8000-00000000000A")!
    static let b = UUID(uuidString: "00000000-0000-4000-8000-00000000000B")!

    static func record(_ id: UUID, _ href: String, _ etag: String, _ stamp: Int64) -> SyncPlan.Record {
        SyncPlan.Record(id: id, uid: id.uuidString.lowercased(), href: href, etag: etag, stamp: stamp)
    }

    @Test func nothingChangedIsNothingToDo() {
        let plan = SyncPlan.plan(local: [Self.a: 1], records: [Self.record(Self.a, "/a.ics", "e1", 1)], remote: ["/a.ics": "e1"])
        #expect(plan.isEmpty)
    }

    @Test func newOnEitherSide() {
        let plan = SyncPlan.plan(local: [Self.a: 1], records: [], remote: ["/other.ics": "e9"])
        #expect(plan.create == [Self.a] && plan.fetch == ["/other.ics"])
    }

    @Test func changedOnOneSideOrBoth() {
        let records = [Self.record(Self.a, "/a.ics", "e1", 1), Self.record(Self.b, "/b.ics", "e2", 1)]
        // a changed here only; b changed there only.
        let plan = SyncPlan.plan(local: [Self.a: 2, Self.b: 1], records: records, remote: ["/a.ics": "e1", "/b.ics": "e3"])
        #expect(plan.update == [records[0]] && plan.fetch == ["/b.ics"])
        // Both: read first, resolved once read.
        let both = SyncPlan.plan(local: [Self.a: 2], records: [records[0]], remote: ["/a.ics": "e5"])
        #expect(both.fetch == ["/a.ics"] && both.update.isEmpty)
    }

    @Test func removalsTravelUnlessTheOtherSideChanged() {
        let record = Self.record(Self.a, "/a.ics", "e1", 1)
        #expect(SyncPlan.plan(local: [:], records: [record], remote: ["/a.ics": "e1"]).deleteRemote == [record])
        #expect(SyncPlan.plan(local: [:], records: [record], remote: ["/a.ics": "e2"]).fetch == ["/a.ics"], "changed there: it comes back")
        #expect(SyncPlan.plan(local: [Self.a: 1], records: [record], remote: [:]).deleteLocal == [Self.a])
        let edited = SyncPlan.plan(local: [Self.a: 2], records: [record], remote: [:])
        #expect(edited.create == [Self.a] && edited.forget == [record] && edited.deleteLocal.isEmpty, "changed here: sent again")
        #expect(SyncPlan.plan(local: [:], records: [record], remote: [:]).forget == [record])
    }

    @Test func theNewerChangeWinsAndATieGoesToTheServer() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(SyncPlan.resolve(local: now, remote: now.addingTimeInterval(-1)) == .local)
        #expect(SyncPlan.resolve(local: now, remote: now.addingTimeInterval(1)) == .remote)
        #expect(SyncPlan.resolve(local: now, remote: now) == .remote)
    }
}
