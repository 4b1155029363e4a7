// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import Foundation
import Testing

/// The commit bookkeeping, event by event, without a disk: what is handed
/// over, what comes back, and what the owner is told to do.
@Suite("Commit pipeline")
struct CommitPipelineTests {
    typealias Pipeline = CommitPipeline<String>
    let t0 = Date(timeIntervalSince1970: 1_800_000_000)
    let a = UUID(), b = UUID(), c = UUID()

    func ahead(_ id: UUID, at offset: TimeInterval) -> Pipeline.Ahead {
        let wake = t0.addingTimeInterval(offset)
        return .init(id: id, wake: wake, transition: RingTransition(state: RingState(anchor: wake, phase: .ringing(since: wake)), actions: [.startRinging(resumed: false)]))
    }

    @Test func serialsCountUpAndTheWriterIsIdleOnlyWhenEverythingIsCollected() {
        var pipeline = Pipeline()
        #expect(pipeline.isIdle)
        let first = pipeline.submit(waiter: .init(restoring: [a], reply: "add a"))
        let second = pipeline.submit()
        #expect(second == first + 1)
        #expect(pipeline.batchesInFlight == 2)
        _ = pipeline.collect([(first, true)])
        #expect(!pipeline.isIdle)
        _ = pipeline.collect([(second, true)])
        #expect(pipeline.isIdle)
    }

    @Test func durableWaitersComeBackInCommitOrder() {
        var pipeline = Pipeline()
        let one = pipeline.submit(waiter: .init(restoring: [a], reply: "one"))
        let two = pipeline.submit(waiter: .init(restoring: [b], reply: "two"))
        let history = pipeline.submit()
        let collected = pipeline.collect([(one, true), (two, true), (history, true)])
        #expect(collected.durable == ["one", "two"])
        #expect(collected.failed.isEmpty)
        #expect(collected.restore.isEmpty)
    }

    @Test func aFailedRequestPutsItsItemsBackAndIsAnsweredAfterTheOthers() {
        var pipeline = Pipeline()
        let one = pipeline.submit(waiter: .init(restoring: [a], reply: "one"))
        let two = pipeline.submit(waiter: .init(restoring: [b, c], reply: "two"))
        #expect(pipeline.needsRestoring([two]))
        #expect(!pipeline.needsRestoring([UInt64(99)]))
        let collected = pipeline.collect([(one, true), (two, false)])
        #expect(collected.durable == ["one"])
        #expect(collected.failed.map(\.serial) == [two])
        #expect(collected.failed.map(\.reply) == ["two"])
        #expect(collected.restore == [b, c])
    }

    @Test func aFailedChangeThatStandsInMemoryRestoresNothing() {
        var pipeline = Pipeline()
        let late = pipeline.submit(waiter: .init(restoring: [], reply: "late firing"))
        #expect(!pipeline.needsRestoring([late]))
        let collected = pipeline.collect([(late, false)])
        #expect(collected.failed.map(\.reply) == ["late firing"])
        #expect(collected.restore.isEmpty)
    }

    @Test func aFiringSavedAheadIsAnnouncedAtItsInstantOnlyOnceDurable() {
        var pipeline = Pipeline()
        let saving = pipeline.submit(ahead: [ahead(a, at: 0.1)])
        #expect(pipeline.isAhead(a))
        #expect(pipeline.isSavingAhead(anyOf: [a]))
        #expect(!pipeline.isSavingAhead(anyOf: [b]))
        // Not durable yet: nothing to announce.
        #expect(pipeline.takeSaved(a, at: t0.addingTimeInterval(0.1), tolerance: 1) == nil)
        _ = pipeline.collect([(saving, true)])
        #expect(!pipeline.isSavingAhead(anyOf: [a]))
        #expect(pipeline.takeSaved(a, at: t0.addingTimeInterval(0.1), tolerance: 1) == ahead(a, at: 0.1).transition)
        // Announced once.
        #expect(pipeline.takeSaved(a, at: t0.addingTimeInterval(0.1), tolerance: 1) == nil)
        #expect(!pipeline.isAhead(a))
    }

    @Test func aFiringSavedAheadButReachedTooLateFiresTheOrdinaryWay() {
        var pipeline = Pipeline()
        let saving = pipeline.submit(ahead: [ahead(a, at: 0.1)])
        _ = pipeline.collect([(saving, true)])
        #expect(pipeline.takeSaved(a, at: t0.addingTimeInterval(5), tolerance: 1) == nil)
        #expect(!pipeline.isAhead(a))
    }

    @Test func aFailedSaveAheadLeavesTheFiringToTheOrdinaryWay() {
        var pipeline = Pipeline()
        let saving = pipeline.submit(ahead: [ahead(a, at: 0.1), ahead(b, at: 0.2)])
        let collected = pipeline.collect([(saving, false)])
        #expect(collected.failed.isEmpty)
        #expect(!pipeline.isAhead(a) && !pipeline.isAhead(b))
        #expect(pipeline.takeSaved(a, at: t0.addingTimeInterval(0.1), tolerance: 1) == nil)
    }

    @Test func aFiringForgottenWhileItsSaveIsInFlightIsNeverAnnounced() {
        var pipeline = Pipeline()
        let saving = pipeline.submit(ahead: [ahead(a, at: 0.1), ahead(b, at: 0.1)])
        // An edit of `a` replaces the state saved ahead, in a later batch.
        pipeline.forget(a)
        let edit = pipeline.submit(waiter: .init(restoring: [a], reply: "edit a"))
        _ = pipeline.collect([(saving, true), (edit, true)])
        #expect(pipeline.takeSaved(a, at: t0.addingTimeInterval(0.1), tolerance: 1) == nil)
        #expect(pipeline.takeSaved(b, at: t0.addingTimeInterval(0.1), tolerance: 1) != nil)
    }

    @Test func aFiringSavedAgainInALaterBatchBelongsToThatBatch() {
        var pipeline = Pipeline()
        let first = pipeline.submit(ahead: [ahead(a, at: 0.1)])
        pipeline.forget(a)
        let second = pipeline.submit(ahead: [ahead(a, at: 0.3)])
        _ = pipeline.collect([(first, true)])
        // The first save is not the one in force.
        #expect(pipeline.isSavingAhead(anyOf: [a]))
        _ = pipeline.collect([(second, true)])
        #expect(pipeline.takeSaved(a, at: t0.addingTimeInterval(0.3), tolerance: 1) == ahead(a, at: 0.3).transition)
    }

    @Test func aFailedRequestForgetsTheFiringSavedAheadForItsItems() {
        var pipeline = Pipeline()
        let saving = pipeline.submit(ahead: [ahead(a, at: 0.1)])
        _ = pipeline.collect([(saving, true)])
        let edit = pipeline.submit(waiter: .init(restoring: [a], reply: "edit a"))
        let collected = pipeline.collect([(edit, false)])
        #expect(collected.restore == [a])
        #expect(!pipeline.isAhead(a))
    }

    @Test func aChangeOfPlanForgetsEverySaveAheadAndNamesTheStatesToPutBack() {
        var pipeline = Pipeline()
        let saved = pipeline.submit(ahead: [ahead(a, at: 0.1)])
        _ = pipeline.collect([(saved, true)])
        let inFlight = pipeline.submit(ahead: [ahead(b, at: 0.2)])
        pipeline.lookedAhead(until: t0.addingTimeInterval(0.25))
        let ids = pipeline.forgetAll()
        #expect(Set(ids) == [a, b])
        #expect(pipeline.lookedAheadUntil == .distantPast)
        _ = pipeline.collect([(inFlight, true)])
        #expect(!pipeline.isAhead(b))
        #expect(pipeline.takeSaved(b, at: t0.addingTimeInterval(0.2), tolerance: 1) == nil)
    }

    @Test func looksAheadAgainOnceHalfTheHorizonHasPassed() {
        var pipeline = Pipeline()
        #expect(pipeline.shouldLookAhead(at: t0, horizon: 0.25))
        pipeline.lookedAhead(until: t0.addingTimeInterval(0.25))
        #expect(!pipeline.shouldLookAhead(at: t0.addingTimeInterval(0.1), horizon: 0.25))
        #expect(pipeline.shouldLookAhead(at: t0.addingTimeInterval(0.125), horizon: 0.25))
    }

    @Test func anOutcomeOfABatchNeverHandedOverIsIgnored() {
        var pipeline = Pipeline()
        let collected = pipeline.collect([(UInt64(42), true)])
        #expect(collected.durable.isEmpty && collected.failed.isEmpty)
        #expect(pipeline.isIdle)
    }
}
