// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import Testing

@Suite struct PathTextTests {
    @Test func directoryAndLastComponent() {
        #expect(PathText.directory("/a/b") == "/a")
        #expect(PathText.directory("/a") == "/")
        #expect(PathText.directory("a") == "")
        #expect(PathText.lastComponent("/usr/bin/paplay") == "paplay")
        #expect(PathText.lastComponent("paplay") == "paplay")
    }

    @Test func aHelperProgramIsLookedForBesideItsProgramThenInLibexec() {
        #expect(PathText.helperCandidates("alarmctl-ui", besideExecutable: "/usr/bin/alarmctl") == ["/usr/bin/alarmctl-ui", "/usr/libexec/alarmctl-ui"])
        #expect(PathText.helperCandidates("alarmd-sync", besideExecutable: "/w/.build/debug/alarmd") == ["/w/.build/debug/alarmd-sync", "/w/.build/libexec/alarmd-sync"])
    }
}
