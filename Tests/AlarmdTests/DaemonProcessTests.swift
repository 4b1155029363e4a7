// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmStore
import Foundation
import Glibc
import Testing

/// The real alarmd binary, with a real store, a real journald and a
/// NOTIFY_SOCKET listener standing in for systemd.
@Suite struct DaemonProcessTests {
    /// Writes items (and their ring states) into a fresh store before the daemon starts.
    static func seed(_ daemon: DaemonProcess, alarms: [Alarm] = [], reminders: [Reminder] = [], states: [UUID: RingState] = [:]) throws {
        let store = try Store(path: daemon.databasePath)
        defer { store.close() }
        for alarm in alarms { try store.insert(alarm) }
        for reminder in reminders { try store.insert(reminder) }
        try store.saveRingStates(states.map { id, state in (id, alarms.contains { $0.id == id } ? ItemKind.alarm : .reminder, state) })
    }

    /// Writes `alarms` into a fresh store, each last anchored at `anchor`: the
    /// daemon takes whatever fell due since as due at start.
    static func seed(_ daemon: DaemonProcess, alarms: [Alarm], anchoredAt anchor: Date) throws {
        try seed(daemon, alarms: alarms, states: Dictionary(uniqueKeysWithValues: alarms.map { ($0.id, RingState(anchor: anchor)) }))
    }

    /// The minute `date` falls in, as a time of day in UTC (the test daemons'
    /// zone): a daily alarm at it is due that minute.
    static func utcMinute(of date: Date) throws -> TimeOfDay {
        let local = Zone.utc.rules.localDateTime(at: date.epochSecondsFloor)
        return try TimeOfDay(hour: local.hour, minute: local.minute)
    }

    /// A SIGTERM sent the moment READY=1 arrives stops the daemon: its signal
    /// handlers are in place before READY (a Dispatch signal source is armed
    /// later, on Dispatch's own thread, and lost a signal sent in between).
    @Test func aSigtermRightAfterReadyStopsTheDaemon() throws {
        for attempt in 0..<10 {
            let daemon = DaemonProcess()
            try daemon.start()
            #expect(daemon.notify.wait(for: "READY=1", timeout: 20) != nil, "attempt \(attempt): \(daemon.standardError)")
            #expect(daemon.stop(signal: SIGTERM, timeout: 5) == 0, "attempt \(attempt): SIGTERM right after READY was lost")
        }
    }

    /// A store over 32 MiB is quick-checked in the background after READY=1;
    /// a stop then ends the check first, so the store's connection closes last
    /// and SQLite removes the write-ahead log instead of leaving it for the next
    /// start to read again.
    @Test func aStopDuringTheBackgroundCheckLeavesNoWriteAheadLog() throws {
        let daemon = DaemonProcess()
        do {
            let store = try Store(path: daemon.databasePath)
            defer { store.close() }
            let detail = String(repeating: "history ", count: 30)
            let item = UUID()
            for batch in 0..<3 {
                try store.record((0..<50_000).map { index in
                    let at = Date(timeIntervalSince1970: 1_800_000_000 + Double(batch * 50_000 + index))
                    return HistoryEvent(itemID: item, itemKind: .alarm, event: .fired, scheduled: at, actual: at, detail: detail)
                })
            }
        }
        let size = try FileManager.default.attributesOfItem(atPath: daemon.databasePath)[.size] as? Int ?? 0
        #expect(size > 32 << 20, "the store must be large enough to be checked in the background")
        try daemon.startAndWaitReady()
        #expect(daemon.stop(signal: SIGTERM, timeout: 10) == 0)
        #expect(!FileManager.default.fileExists(atPath: daemon.databasePath + "-wal"), "alarmd stopped, but left its write-ahead log")
    }

    @Test func notifiesReadyStatusReloadingAndStopping() throws {
        let daemon = DaemonProcess()
        let now = Date()
        try Self.seed(daemon, alarms: [Alarm(time: try TimeOfDay(hour: 7, minute: 30), days: .weekdays, label: "Work", created: now)],
                      reminders: [Reminder(title: "Tax", due: now.addingTimeInterval(86_400 * 30), created: now)])
        try daemon.start()
        let ready = try #require(daemon.notify.wait(for: "READY=1"))
        #expect(ready.message.contains("STATUS=1 alarm, 1 reminder; next: "))
        #expect(ready.message.contains("07:30 Work"))

        kill(daemon.process.processIdentifier, SIGHUP)
        let reloading = try #require(daemon.notify.wait(for: "RELOADING=1", after: ready.index + 1))
        #expect(reloading.message.contains("MONOTONIC_USEC="))
        #expect(daemon.notify.wait(for: "READY=1", after: reloading.index + 1) != nil)

        #expect(daemon.stop() == 0)
        #expect(daemon.notify.messages.contains { $0.contains("STOPPING=1") })
    }

    @Test func pingsTheWatchdogAtHalfItsInterval() throws {
        let daemon = DaemonProcess(environment: ["WATCHDOG_USEC": "400000"])
        try daemon.start()
        #expect(daemon.notify.wait(for: "READY=1") != nil)
        let pings = waitUntil(timeout: 5) { daemon.notify.messages.filter { $0.contains("WATCHDOG=1") }.count >= 3 }
        #expect(pings, "messages: \(daemon.notify.messages)")
        daemon.stop()
    }

    @Test(.enabled(if: JournalFixture.isAvailable, "\(JournalFixture.unavailableReason ?? "")"))
    func aReminderDueSoonFiresOnTimeWithEveryJournalField() throws {
        let daemon = DaemonProcess()
        let now = Date()
        let reminder = Reminder(title: "Tea <ready> & \"hot\"", notes: "green", due: now.addingTimeInterval(1.2), created: now)
        try Self.seed(daemon, reminders: [reminder], states: [reminder.id: RingState(anchor: now)])
        try daemon.start()
        #expect(daemon.notify.wait(for: "READY=1") != nil)
        let id = reminder.id.uuidString.lowercased()
        let entries = JournalFixture.entries(itemID: id) { $0.contains { $0["ALARMD_EVENT"] == "fired" } }
        let fired = try #require(entries.first { $0["ALARMD_EVENT"] == "fired" }, "stderr: \(daemon.standardError)")
        #expect(fired["MESSAGE_ID"] == "7bad90afa51843e2918574dcf3196838")
        #expect(fired["ALARMD_KIND"] == "reminder")
        #expect(fired["ALARMD_LABEL"] == reminder.title)
        #expect(fired["ALARMD_SNOOZE_COUNT"] == "0")
        #expect(fired["PRIORITY"] == "5")
        let scheduled = Int64((reminder.due!.timeIntervalSince1970 * 1_000_000).rounded())
        #expect(fired["ALARMD_SCHEDULED_USEC"] == String(scheduled))
        let lateness = try #require(fired["ALARMD_LATENESS_USEC"].flatMap { Int64($0) })
        // On time means within a second here (the field is what this test is
        // about); bench/ measures precision on a quiet machine.
        #expect(lateness >= 0 && lateness < 1_000_000, "fired \(lateness) µs late")
        #expect(fired["MESSAGE"]?.hasPrefix("Reminder \"Tea <ready> & \\\"hot\\\"\" fired ") == true)
        daemon.stop()

        // The history row is in the store.
        let store = try Store(path: daemon.databasePath)
        defer { store.close() }
        #expect(try store.history(itemID: reminder.id).map(\.event) == [.fired])
    }

    @Test(.enabled(if: JournalFixture.isAvailable, "\(JournalFixture.unavailableReason ?? "")"))
    func anOccurrenceTwoMinutesOverdueAtStartRingsLate() throws {
        let daemon = DaemonProcess()
        let now = Date()
        let alarm = Alarm(time: try Self.utcMinute(of: now.addingTimeInterval(-120)), days: .everyDay, label: "Late",
                          created: now.addingTimeInterval(-86_400 * 3))
        try Self.seed(daemon, alarms: [alarm], anchoredAt: now.addingTimeInterval(-86_400))
        try daemon.start()
        let entries = JournalFixture.entries(itemID: alarm.id.uuidString.lowercased()) { $0.contains { $0["ALARMD_EVENT"] == "fired" } }
        let fired = try #require(entries.first { $0["ALARMD_EVENT"] == "fired" }, "stderr: \(daemon.standardError)")
        let lateness = try #require(fired["ALARMD_LATENESS_USEC"].flatMap { Int64($0) })
        #expect(lateness > 60_000_000 && lateness < 240_000_000)
        #expect(!entries.contains { $0["ALARMD_EVENT"] == "missed" })
        daemon.stop()
    }

    @Test(.enabled(if: JournalFixture.isAvailable, "\(JournalFixture.unavailableReason ?? "")"))
    func anOccurrenceTwoHoursOverdueGivesExactlyOneMissedEvent() throws {
        let daemon = DaemonProcess()
        let now = Date()
        let alarm = Alarm(time: try Self.utcMinute(of: now.addingTimeInterval(-7200)), days: .everyDay, label: "Gone",
                          created: now.addingTimeInterval(-86_400 * 10))
        // Anchored five days back: five occurrences were lost, one event reports them.
        try Self.seed(daemon, alarms: [alarm], anchoredAt: now.addingTimeInterval(-86_400 * 5))
        try daemon.start()
        #expect(daemon.notify.wait(for: "READY=1") != nil)
        let id = alarm.id.uuidString.lowercased()
        _ = JournalFixture.entries(itemID: id) { $0.contains { $0["ALARMD_EVENT"] == "missed" } }
        daemon.stop()
        // Read again after the daemon is gone, so nothing can still be on its way.
        let entries = JournalFixture.entries(itemID: id)
        #expect(entries.filter { $0["ALARMD_EVENT"] == "missed" }.count == 1, "entries: \(entries.map { $0["MESSAGE"] ?? "" })")
        #expect(!entries.contains { $0["ALARMD_EVENT"] == "fired" })
        #expect(entries.first { $0["ALARMD_EVENT"] == "missed" }?["PRIORITY"] == "4")
    }

    @Test func withoutAJournalLinesGoToStandardError() throws {
        try #require(getuid() == 0, "hiding the journal socket needs a private mount namespace (root)")
        // A private mount namespace with an empty tmpfs over the journal's directory.
        let directory = TemporaryDirectory()
        let notify = NotifyListener(directory: directory.path)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        process.arguments = ["-m", "sh", "-c", "mkdir -p /run/systemd/journal && mount -t tmpfs none /run/systemd/journal && exec \"$0\" --state-dir \"$1\"",
                             productsDirectory + "/alarmd", directory.path + "/state"]
        process.environment = ["PATH": "/usr/bin:/bin", "HOME": directory.path, "NOTIFY_SOCKET": notify.path, "TZ": "UTC", "XDG_RUNTIME_DIR": directory.path]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        #expect(notify.wait(for: "READY=1") != nil)
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 0)
        #expect(text.contains("alarmd[") && text.contains("started: 0 alarms, 0 reminders; next: none"), "stderr: \(text)")
        #expect(text.contains("alarmd stopping"))
    }

    @Test func anInvalidConfigurationValueStopsStartUpNamingFileLineAndKey() throws {
        let daemon = DaemonProcess(config: "# test\n[Alarms]\nSnoozeMinutes=9\nMissedGrace=soon\n")
        let status = try daemon.runToExit()
        #expect(status == 78)
        #expect(daemon.standardError.contains("alarmd.conf:4: MissedGrace: must be 0 or a duration up to 1d, like 5m, got \"soon\""), "stderr: \(daemon.standardError)")
    }

    /// Without --config, alarmd reads $XDG_CONFIG_HOME/alarmd/alarmd.conf, else
    /// the first $XDG_CONFIG_DIRS entry that holds alarmd/alarmd.conf, and only
    /// that one file. MaxClients= makes the file in force visible.
    @Test func withoutConfigTheUserFileWinsThenTheFirstXDGConfigDir() throws {
        let configs = TemporaryDirectory()
        let home = configs.path + "/home", first = configs.path + "/first", second = configs.path + "/second"
        func write(_ text: String, under base: String) throws {
            try FileManager.default.createDirectory(atPath: base + "/alarmd", withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: base + "/alarmd/alarmd.conf"))
        }
        let environment = ["XDG_CONFIG_HOME": home, "XDG_CONFIG_DIRS": first + ":" + second]

        // Only the second entry has a file: it is read (its bad value stops
        // start-up, naming it).
        try write("[Alarms]\nMissedGrace=soon\n", under: second)
        let fromSecond = DaemonProcess(environment: environment)
        #expect(try fromSecond.runToExit() == 78)
        #expect(fromSecond.standardError.contains(second + "/alarmd/alarmd.conf:2: MissedGrace"), "stderr: \(fromSecond.standardError)")

        // The first entry's file shadows the second's.
        try write("[Control]\nMaxClients=1\n", under: first)
        #expect(try Self.refusal(afterClients: 1, DaemonProcess(environment: environment)).contains("(limit 1)"))

        // The user's own file shadows both.
        try write("[Control]\nMaxClients=2\n", under: home)
        #expect(try Self.refusal(afterClients: 2, DaemonProcess(environment: environment)).contains("(limit 2)"))
    }

    /// A reload chooses the file again: one the user made after start-up is
    /// read (its SnoozeMinutes= is a new alarm's), and one with a mistake
    /// keeps what was read before, saying so.
    @Test func aReloadReadsAUserFileMadeSinceTheStart() throws {
        let configs = TemporaryDirectory()
        let daemon = DaemonProcess(environment: ["XDG_CONFIG_HOME": configs.path + "/home", "XDG_CONFIG_DIRS": configs.path + "/none"])
        try daemon.startAndWaitReady()
        defer { daemon.stop() }
        func snoozeOfANewAlarm(_ label: String) throws -> Int? {
            let reply = try RawSocket.call(daemon.socketPath, #"{"method":"io.alarmd.AddAlarm","parameters":{"fields":{"time":"07:30","label":"\#(label)"}}}"#)
            return reply.parameters?["alarm"]?.objectValue?["snooze"]?.objectValue?["minutes"]?.intValue
        }
        #expect(try snoozeOfANewAlarm("before") == 9)
        func reload(with text: String) throws {
            try FileManager.default.createDirectory(atPath: configs.path + "/home/alarmd", withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: configs.path + "/home/alarmd/alarmd.conf"))
            let ready = daemon.notify.messages.count
            kill(daemon.process.processIdentifier, SIGHUP)
            try #require(daemon.notify.wait(for: "READY=1", after: ready) != nil)
        }
        try reload(with: "[Alarms]\nSnoozeMinutes=5\n")
        #expect(try snoozeOfANewAlarm("after") == 5)
        try reload(with: "[Alarms]\nSnoozeMinutes=99\n")
        #expect(try snoozeOfANewAlarm("kept") == 5)
        if !JournalFixture.isAvailable {
            #expect(waitUntil(timeout: 5) { daemon.standardError.contains("Reloaded, keeping the configuration read before from \(configs.path)/home/alarmd/alarmd.conf") },
                    "stderr: \(daemon.standardError)")
        }
    }

    /// Starts `daemon`, holds `count` answered connections open and returns what
    /// the next connection is told.
    static func refusal(afterClients count: Int, _ daemon: DaemonProcess) throws -> String {
        try daemon.startAndWaitReady()
        defer { daemon.stop() }
        let clients = try (0..<count).map { _ in try RawSocket(path: daemon.socketPath) }
        for client in clients {
            #expect(client.sendMessage(#"{"method":"io.alarmd.Status"}"#))
            #expect(client.receive(timeout: 5).isMessage)
        }
        let extra = try RawSocket(path: daemon.socketPath)
        guard case .error(let error) = try extra.reply(timeout: 5) else { return "accepted" }
        return error.description
    }

    @Test func aDatabaseThatIsNotOursIsRefusedAndLeftAlone() throws {
        let daemon = DaemonProcess()
        let junk = Data("this is not a database, it is a shopping list\n".utf8)
        #expect(FileManager.default.createFile(atPath: daemon.databasePath, contents: junk))
        let status = try daemon.runToExit()
        #expect(status == 78)
        #expect(daemon.standardError.contains(daemon.databasePath), "stderr: \(daemon.standardError)")
        #expect(FileManager.default.contents(atPath: daemon.databasePath) == junk)
    }

    /// `--socket PATH` and `ALARMD_SOCKET` move the control socket; the
    /// command line wins over the environment, as for alarmctl.
    @Test func theSocketPathComesFromTheCommandLineOrTheEnvironment() throws {
        let first = TemporaryDirectory(), second = TemporaryDirectory()
        let byEnvironment = DaemonProcess(directory: first, environment: ["ALARMD_SOCKET": first.path + "/env.sock"])
        try byEnvironment.startAndWaitReady()
        #expect(try RawSocket.call(first.path + "/env.sock", #"{"method":"io.alarmd.Status"}"#).parameters?["version"] != nil)
        #expect(!FileManager.default.fileExists(atPath: byEnvironment.socketPath), "the default path was bound too")
        _ = byEnvironment.stop()

        let fromEnvironment = second.path + "/env.sock", fromArgument = second.path + "/arg.sock"
        let both = DaemonProcess(directory: second, environment: ["ALARMD_SOCKET": fromEnvironment], arguments: ["--socket", fromArgument])
        try both.startAndWaitReady()
        defer { _ = both.stop() }
        #expect(try RawSocket.call(fromArgument, #"{"method":"io.alarmd.Status"}"#).parameters?["version"] != nil)
        #expect(!FileManager.default.fileExists(atPath: fromEnvironment), "the environment's path was bound despite --socket")
    }

    @Test func helpAndVersion() throws {
        let help = DaemonProcess(arguments: ["--help"])
        #expect(try help.runToExit() == 0)
        let bad = DaemonProcess(arguments: ["--frobnicate"])
        #expect(try bad.runToExit() == 64)
        #expect(bad.standardError.contains("unknown argument \"--frobnicate\""))
    }
}
