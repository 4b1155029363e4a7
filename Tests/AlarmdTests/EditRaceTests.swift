// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmProtocol
import AlarmStore
import AlarmTestSupport
import Foundation
import Glibc
import Synchronization
import Testing

/// The real daemon, eight clients on connections of their own: six edit one
/// field each of the same alarms and reminders in a tight loop across their due
/// instants, one dismisses whatever rings, one watches. Afterwards every field
/// holds the last value written to it, every occurrence that fell due rang
/// exactly once (in the `Watch` stream, the history and the journal), and no
/// one-shot alarm that rang and was dismissed is on again.
///
/// Each field has one writer, so "the last value written" is the last one that
/// writer had acknowledged: an edit that wrote back a stale copy of the item
/// (the lost update this guards against) shows up as another writer's field
/// going back, or as a dismissed one-shot alarm switched on again.
@Suite struct EditRaceTests {
    /// One field of the items a client edits, with the values it had acknowledged.
    final class FieldWriter: @unchecked Sendable {
        let method: String
        let field: String
        let ids: [String]
        let value: @Sendable (Int) -> String
        private let lock = NSLock()
        private var acknowledged: [String: String] = [:]
        private(set) var writes = 0

        init(method: String, field: String, ids: [String], value: @escaping @Sendable (Int) -> String) {
            self.method = method
            self.field = field
            self.ids = ids
            self.value = value
        }

        var last: [String: String] { lock.lock(); defer { lock.unlock() }; return acknowledged }

        /// Edits round-robin until `end`; every reply must be a success.
        func run(_ socketPath: String, until end: Date) throws {
            let socket = try RawSocket(path: socketPath)
            defer { socket.close() }
            var serial = 0
            while Date() < end {
                for id in ids {
                    serial += 1
                    let text = value(serial)
                    let parameters = method == "io.alarmd.UpdateAlarm"
                        ? #"{"id":"\#(id)","fields":{"\#(field)":\#(text)}}"#
                        : #"{"id":"\#(id)","\#(field)":\#(text)}"#
                    let reply = try socket.call(#"{"method":"\#(method)","parameters":\#(parameters)}"#)
                    guard reply.error == nil else { throw HarnessError(description: "\(method) \(field) refused: \(reply.json)") }
                    lock.lock()
                    acknowledged[id] = text
                    writes += 1
                    lock.unlock()
                }
            }
        }
    }

    static func call(_ socket: RawSocket, _ json: String) throws -> JSONObject {
        let reply = try socket.call(json)
        guard reply.error == nil, let parameters = reply.parameters else { throw HarnessError(description: "\(json) failed: \(reply.json)") }
        return parameters
    }

    static func quoted(_ text: String) -> String { "\"\(text)\"" }

    @Test(.timeLimit(.minutes(3)))
    func eightClientsEditingAcrossDueInstantsLoseNothing() throws {
        let daemon = DaemonProcess()
        try daemon.startAndWaitReady()
        defer { daemon.stop() }
        let path = daemon.socketPath
        let control = try RawSocket(path: path)

        // Alarms have minute precision: the next minute boundary at least 12 s away.
        let now = Date().timeIntervalSince1970
        var boundary = (now / 60).rounded(.up) * 60
        if boundary - now < 12 { boundary += 60 }
        let instant = Date(timeIntervalSince1970: boundary)
        let seconds = Int64(boundary)
        let time = String(format: "%02d:%02d", seconds / 3600 % 24, seconds / 60 % 60)

        var oneShots: [String] = [], daily: [String] = [], reminders: [String: Date] = [:]
        for index in 0..<4 {
            let added = try Self.call(control, #"{"method":"io.alarmd.AddAlarm","parameters":{"fields":{"time":"\#(time)","label":"once \#(index)","sound":"none"}}}"#)
            oneShots.append(try #require(added["alarm"]?.objectValue?["id"]?.stringValue))
        }
        for index in 0..<2 {
            let added = try Self.call(control, #"{"method":"io.alarmd.AddAlarm","parameters":{"fields":{"time":"\#(time)","days":["mon","tue","wed","thu","fri","sat","sun"],"label":"daily \#(index)","sound":"none"}}}"#)
            daily.append(try #require(added["alarm"]?.objectValue?["id"]?.stringValue))
        }
        // Reminders due a second apart from 5 s before the alarms to 4 s after.
        for offset in -5...4 {
            let due = instant.addingTimeInterval(TimeInterval(offset))
            let added = try Self.call(control, #"{"method":"io.alarmd.AddReminder","parameters":{"title":"due \#(offset)","due":"\#(WireTime.string(due, in: Zone.utc))"}}"#)
            reminders[try #require(added["reminder"]?.objectValue?["id"]?.stringValue)] = due
        }
        let alarms = oneShots + daily
        let reminderIDs = Array(reminders.keys)

        // The watcher: every event, as it is announced, until told to stop.
        let events = Mutex<[(kind: String, id: String)]>([])
        let stopWatching = Mutex(false)
        let watching = Thread {
            guard let watcher = try? RawSocket(path: path), watcher.sendMessage(#"{"method":"io.alarmd.Watch","more":true}"#) else { return }
            defer { watcher.close() }
            while !stopWatching.withLock({ $0 }) {
                guard case .message(let bytes) = watcher.receive(timeout: 0.5) else { continue }
                guard let reply = try? VarlinkReply(message: bytes), let event = reply.parameters?["event"]?.objectValue,
                      let kind = event["kind"]?.stringValue, let id = event["id"]?.stringValue else { continue }
                events.withLock { $0.append((kind, id)) }
            }
        }
        watching.start()

        let start = instant.addingTimeInterval(-9)
        let end = instant.addingTimeInterval(7)
        let writers = [
            FieldWriter(method: "io.alarmd.UpdateAlarm", field: "label", ids: alarms) { Self.quoted("label \($0)") },
            FieldWriter(method: "io.alarmd.UpdateAlarm", field: "snoozeMinutes", ids: alarms) { String($0 % 30 + 1) },
            FieldWriter(method: "io.alarmd.UpdateAlarm", field: "ringSeconds", ids: alarms) { String($0 % 60 + 60) },
            FieldWriter(method: "io.alarmd.UpdateAlarm", field: "maxSnoozes", ids: alarms) { String($0 % 5) },
            FieldWriter(method: "io.alarmd.UpdateReminder", field: "title", ids: reminderIDs) { Self.quoted("title \($0)") },
            FieldWriter(method: "io.alarmd.UpdateReminder", field: "notes", ids: reminderIDs) { Self.quoted("notes \($0)") },
        ]
        Thread.sleep(until: start)
        let failures = Mutex<[String]>([])
        let group = DispatchGroup()
        for writer in writers {
            DispatchQueue.global().async(group: group) {
                do { try writer.run(path, until: end) } catch { failures.withLock { $0.append("\(error)") } }
            }
        }
        // The dismisser: whatever rings is dismissed, until everything due has rung and stopped.
        let dismissed = Mutex<Set<String>>([])
        DispatchQueue.global().async(group: group) {
            do {
                let socket = try RawSocket(path: path)
                while Date() < end.addingTimeInterval(20) {
                    let status = try Self.call(socket, #"{"method":"io.alarmd.Status"}"#)
                    let ringing = status["ringing"]?.arrayValue?.compactMap(\.stringValue) ?? []
                    if ringing.isEmpty, Date() > end { break }
                    for id in ringing {
                        let reply = try socket.call(#"{"method":"io.alarmd.Dismiss","parameters":{"id":"\#(id)"}}"#)
                        if reply.error == nil { _ = dismissed.withLock { $0.insert(id) } }
                    }
                    usleep(20_000)
                }
            } catch { failures.withLock { $0.append("dismisser: \(error)") } }
        }
        group.wait()
        #expect(failures.withLock { $0 } == [])
        for writer in writers { #expect(writer.writes > 100, "\(writer.field): only \(writer.writes) edits acknowledged") }

        // Every field holds the last value its writer had acknowledged. (A
        // connection of its own: the one that set up sat idle past IdleTimeout.)
        control.close()
        let checker = try RawSocket(path: path)
        defer { checker.close() }
        for id in alarms {
            let alarm = try #require(try Self.call(checker, #"{"method":"io.alarmd.GetAlarm","parameters":{"id":"\#(id)"}}"#)["alarm"]?.objectValue)
            // The Alarm type nests the snooze settings (the AlarmFields type does not).
            let snooze = alarm["snooze"]?.objectValue
            let stored = [
                alarm["label"]?.stringValue.map(Self.quoted),
                snooze?["minutes"]?.intValue.map(String.init),
                alarm["ringSeconds"]?.intValue.map(String.init),
                snooze?["maxCount"]?.intValue.map(String.init),
            ]
            for (writer, value) in zip(writers.prefix(4), stored) {
                #expect(value == writer.last[id], "alarm \(id) \(writer.field)")
            }
            #expect(alarm["enabled"]?.boolValue == daily.contains(id), "a one-shot alarm that rang and was dismissed is off; a daily one is on: \(id)")
        }
        let listed = try #require(try Self.call(checker, #"{"method":"io.alarmd.ListReminders","parameters":{"all":true}}"#)["reminders"]?.arrayValue)
        for reminder in listed.compactMap(\.objectValue) {
            let id = try #require(reminder["id"]?.stringValue)
            #expect(reminder["title"]?.stringValue.map(Self.quoted) == writers[4].last[id], "reminder \(id) title")
            #expect(reminder["notes"]?.stringValue.map(Self.quoted) == writers[5].last[id], "reminder \(id) notes")
        }

        // Every occurrence rang exactly once, and each was dismissed.
        let everything = alarms + reminderIDs
        #expect(waitUntil(timeout: 3) { events.withLock { $0.filter { $0.kind == "fired" }.count } >= everything.count })
        let fired = events.withLock { $0.filter { $0.kind == "fired" }.map(\.id) }
        for id in everything { #expect(fired.filter { $0 == id }.count == 1, "\(id) fired \(fired.filter { $0 == id }.count) times in Watch") }
        #expect(dismissed.withLock { $0 } == Set(everything))
        stopWatching.withLock { $0 = true }
        checker.close()
        daemon.stop()

        try withStore(at: daemon.databasePath) { store throws in
            for id in everything {
                let history = try store.history(itemID: try #require(UUID(uuidString: id)))
                #expect(history.filter { $0.event == .fired }.count == 1, "\(id) history: \(history.map(\.event))")
            }
        }
        if JournalFixture.isAvailable {
            for id in everything {
                let entries = JournalFixture.entries(itemID: id) { $0.contains { $0["ALARMD_EVENT"] == "dismissed" } }
                #expect(entries.filter { $0["ALARMD_EVENT"] == "fired" }.count == 1, "\(id) journal: \(entries.compactMap { $0["ALARMD_EVENT"] })")
            }
        }
    }
}
