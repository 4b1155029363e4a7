// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmTestSupport
import Dispatch
import Foundation
import Synchronization
import Testing
@testable import AlarmStore

/// The background quick check of a large store, and stopping it at shutdown.
@Suite("Checking a large store in the background")
struct StoreCheckTests {
    @Test func aCheckStoppedBeforeItStartsReadsNothing() throws {
        try withTemporaryDirectory { directory throws in
            let path = storePath(in: directory)
            try Store(path: path).close()
            let check = StoreCheck(path: path)
            check.stop()
            #expect(try check.run() == false)
            #expect(!check.isRunning)
        }
    }

    @Test func aSoundFilePasses() throws {
        try withTemporaryStore { store throws in
            try store.replaceAll(alarms: try (0..<50).map { try Sample.alarm(UInt8($0)) }, reminders: [])
            #expect(try StoreCheck(path: store.path).run())
        }
    }

    /// Stopping ends a running check early, and the store's own connection,
    /// now the last one, removes the write-ahead log when it closes; a check
    /// left running would keep the log for the next start to read again.
    @Test func stoppingARunningCheckLetsTheStoreCloseLastAndRemoveTheLog() throws {
        try withTemporaryStore { store throws in
            let path = store.path
            // About 37 MB of history: the check takes most of a second, far
            // longer than this thread needs to see it start and stop it.
            let detail = String(repeating: "x", count: 200)
            for batch in 0..<3 {
                try store.record((0..<50_000).map { Sample.event(Sample.id(1), .fired, at: 1_800_000_000 + Double(batch * 50_000 + $0), detail: detail) })
            }
            #expect(FileManager.default.fileExists(atPath: path + "-wal"))

            let check = StoreCheck(path: path)
            let outcome = Mutex<Result<Bool, StoreError>?>(nil)
            let finished = DispatchGroup()
            DispatchQueue.global().async(group: finished) {
                let result: Result<Bool, StoreError>
                do throws(StoreError) { result = .success(try check.run()) } catch { result = .failure(error) }
                outcome.withLock { $0 = result }
            }
            while !check.isRunning && outcome.withLock({ $0 == nil }) { usleep(100) }
            check.stop()
            finished.wait()
            #expect(outcome.withLock { $0 } == .success(false), "the check ran to its end instead of stopping")

            store.close()
            #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        }
    }
}
