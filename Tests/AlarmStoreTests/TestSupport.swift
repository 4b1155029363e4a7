// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import CSQLite
import Foundation
import Testing
@testable import AlarmStore

struct TestFailure: Error, CustomStringConvertible {
    let description: String
}

/// The permission bits of `path`, or `nil` if it does not exist.
func permissions(of path: String) -> mode_t? {
    var status = stat()
    return stat(path, &status) == 0 ? status.st_mode & 0o7777 : nil
}

func contents(of path: String) throws -> Data {
    try Data(contentsOf: URL(fileURLWithPath: path))
}

func directoryListing(_ path: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: path).sorted()
}

/// Runs `sql` on the file at `path` through the raw C API, creating the file if
/// needed: for building files the store did not write.
func rawExecute(_ path: String, _ sql: String) throws {
    var handle: OpaquePointer?
    let opened = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil)
    defer { sqlite3_close_v2(handle) }
    guard opened == SQLITE_OK else { throw TestFailure(description: "cannot open \(path): \(opened)") }
    var message: UnsafeMutablePointer<CChar>?
    let code = sqlite3_exec(handle, sql, nil, nil, &message)
    defer { sqlite3_free(message) }
    guard code == SQLITE_OK else {
        throw TestFailure(description: "\(sql): \(message.map { String(cString: $0) } ?? String(code))")
    }
}

/// The text of the checked-in fixture `name`, found next to this source file.
func fixture(_ name: String) throws -> String {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures").appendingPathComponent(name)
    return try String(contentsOf: url, encoding: .utf8)
}

/// Sample data. Instants have whole microseconds, the precision the store keeps, so
/// they compare equal after a round trip.
enum Sample {
    static let created = Date(timeIntervalSince1970: 1_767_225_600.123456)
    static let updated = Date(timeIntervalSince1970: 1_767_312_000.654321)

    static func id(_ number: UInt8) -> UUID {
        UUID(uuid: (number, 0xA1, 0xA2, 0xA3, 0xB1, 0xB2, 0x41, 0xC2, 0x81, 0xD2, 0xE1, 0xE2, 0xE3, 0xE4, 0xE5, number))
    }

    static func alarm(_ number: UInt8, label: String = "Alarm", hour: Int = 7, minute: Int = 30) throws -> Alarm {
        Alarm(id: id(number), time: try TimeOfDay(hour: hour, minute: minute), label: label, created: created)
    }

    static func reminder(_ number: UInt8, title: String? = nil) -> Reminder {
        Reminder(id: id(number), title: title ?? "Reminder \(number)", created: created)
    }

    static func event(_ item: UUID, _ kind: EventKind, at seconds: Double, detail: String = "") -> HistoryEvent {
        HistoryEvent(itemID: item, itemKind: .alarm, event: kind,
                     scheduled: Date(timeIntervalSince1970: seconds - 60),
                     actual: Date(timeIntervalSince1970: seconds), detail: detail)
    }
}

/// Expects `body` to throw exactly `expected`.
func expectError<T>(
    _ expected: StoreError, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws(StoreError) -> T
) {
    do throws(StoreError) {
        _ = try body()
        Issue.record("expected \(expected), but nothing was thrown", sourceLocation: sourceLocation)
    } catch {
        #expect(error == expected, sourceLocation: sourceLocation)
    }
}

/// The `ValidationError` inside a thrown `.invalid`, or `nil` (recording an issue).
func invalidError<T>(
    sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws(StoreError) -> T
) -> ValidationError? {
    do throws(StoreError) {
        _ = try body()
        Issue.record("expected StoreError.invalid, but nothing was thrown", sourceLocation: sourceLocation)
    } catch {
        if case .invalid(let validation) = error { return validation }
        Issue.record("expected StoreError.invalid, got \(error)", sourceLocation: sourceLocation)
    }
    return nil
}
