// SPDX-License-Identifier: Apache-2.0
import AlarmViewModels
import Testing

@Suite struct IDSpliceTests {
    /// Applies a splice the way a GtkStringList does.
    private func apply(_ splice: IDSplice?, to old: [String]) -> [String] {
        guard let splice else { return old }
        var list = old
        list.replaceSubrange(splice.index..<(splice.index + splice.removing), with: splice.inserting)
        return list
    }

    @Test func equalListsNeedNoSplice() {
        #expect(IDSplice.between(["a", "b"], ["a", "b"]) == nil)
        #expect(IDSplice.between([], []) == nil)
    }

    @Test func anAddedItemIsOneInsertion() {
        #expect(IDSplice.between(["a", "c"], ["a", "b", "c"]) == IDSplice(index: 1, removing: 0, inserting: ["b"]))
        #expect(IDSplice.between([], ["a"]) == IDSplice(index: 0, removing: 0, inserting: ["a"]))
    }

    @Test func aRemovedItemIsOneRemoval() {
        #expect(IDSplice.between(["a", "b", "c"], ["a", "c"]) == IDSplice(index: 1, removing: 1, inserting: []))
    }

    @Test func aMoveReplacesOnlyTheSpanBetween() {
        let old = ["a", "b", "c", "d", "e"], new = ["a", "d", "b", "c", "e"]
        let splice = IDSplice.between(old, new)
        #expect(splice == IDSplice(index: 1, removing: 3, inserting: ["d", "b", "c"]))
        #expect(apply(splice, to: old) == new)
    }

    @Test func repeatedIdsAtTheEdgesStillGiveTheNewList() {
        for (old, new) in [(["a", "a"], ["a"]), (["a"], ["a", "a"]), (["x", "a", "x"], ["x", "x"]), (["a", "b", "a"], ["b", "a", "b"])] {
            #expect(apply(IDSplice.between(old, new), to: old) == new)
        }
    }

    @Test func randomEditsAlwaysApply() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let old = (0..<Int.random(in: 0...8, using: &generator)).map { _ in String(Int.random(in: 0...4, using: &generator)) }
            let new = (0..<Int.random(in: 0...8, using: &generator)).map { _ in String(Int.random(in: 0...4, using: &generator)) }
            #expect(apply(IDSplice.between(old, new), to: old) == new)
        }
    }
}
