// SPDX-License-Identifier: Apache-2.0
import Testing
@testable import AlarmCLI

/// alarmctl's own way of joining words reads as the standard library's.
@Suite struct SpacedTests {
    @Test(arguments: [[], [""], ["", ""], ["add"], ["add", "7:00"], ["in", "", "20", "min"], [" a ", "b"], ["鬧鐘", "7:00", "每天"]])
    func wordsAreJoinedAsJoinedSeparatorSpaceJoinsThem(_ words: [String]) {
        #expect(words.spaced == words.joined(separator: " "))
        #expect(words.dropFirst().spaced == words.dropFirst().joined(separator: " "))
        #expect(words.reversed().spaced == words.reversed().joined(separator: " "))
    }
}
