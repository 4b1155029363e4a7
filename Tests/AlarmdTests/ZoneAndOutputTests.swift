// SPDX-License-Identifier: Apache-2.0
import AlarmCore
@testable import AlarmDaemon
import AlarmStore
import AlarmTestSupport
import Foundation
import Glibc
import Synchronization
import SystemCalls
import Testing

@Suite struct ZoneAndOutputTests {
    /// The real inotify watcher on a private directory standing in for /etc:
    /// re-pointing the `localtime` symlink, the way timedatectl does (a new link
    /// renamed over the old one), is noticed and read back.
    @Test func repointingLocaltimeIsNoticed() throws {
        let etc = TemporaryDirectory()
        let link = etc.path + "/localtime"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/usr/share/zoneinfo/Europe/Berlin")
        let source = SystemZone(environmentTZ: nil, etcDirectory: etc.path)
        #expect(source.current().identifier == "Europe/Berlin")
        let changes = Mutex(0)
        let owner = try Owner(label: "test.zone")
        let watcher = try owner.sync { () throws(SystemError) in try TimeZoneWatcher(directory: etc.path, owner: owner) { changes.withLock { $0 += 1 } } }
        try FileManager.default.createSymbolicLink(atPath: link + ".new", withDestinationPath: "../usr/share/zoneinfo/Asia/Tokyo")
        #expect(rename(link + ".new", link) == 0)
        #expect(waitUntil(timeout: 5) { changes.withLock { $0 } > 0 })
        #expect(source.current().identifier == "Asia/Tokyo")
        // TZ wins over /etc/localtime, as in glibc.
        #expect(SystemZone(environmentTZ: ":America/Santiago", etcDirectory: etc.path).current().identifier == "America/Santiago")
        withExtendedLifetime(watcher) {}
    }

    /// A POSIX rule in `TZ` is the daemon's zone, as it is glibc's: named by
    /// the rule, with its offset in the times the daemon gives out.
    @Test func aPosixRuleInTZIsTheDaemonsZone() throws {
        let daemon = DaemonProcess(environment: ["TZ": "IST-5:30"])
        try daemon.startAndWaitReady()
        defer { daemon.stop() }
        let status = try RawSocket.call(daemon.socketPath, #"{"method":"io.alarmd.Status"}"#)
        #expect(status.parameters?["timeZone"]?.stringValue == "IST-5:30", "\(status.text)")
        let added = try RawSocket.call(daemon.socketPath, #"{"method":"io.alarmd.AddAlarm","parameters":{"fields":{"time":"07:30"}}}"#)
        let next = try #require(added.parameters?["alarm"]?.objectValue?["next"]?.stringValue, "\(added.text)")
        #expect(next.hasSuffix("T07:30:00+05:30"), "\(next)")
        #expect(!daemon.standardError.contains("IST-5:30"), "\(daemon.standardError)")
    }

    /// A `TZ` that names no zone is logged once, at warning priority, naming it
    /// and the zone used instead; a reload that finds the same `TZ` says nothing more.
    @Test func anUnusableTZIsLoggedOnce() throws {
        let daemon = DaemonProcess(environment: ["TZ": "Mars/Olympus"])
        try daemon.startAndWaitReady()
        defer { daemon.stop() }
        let fallback = ZoneDatabase.lookUpSystemZone(environmentTZ: nil).zone.identifier
        let status = try RawSocket.call(daemon.socketPath, #"{"method":"io.alarmd.Status"}"#)
        #expect(status.parameters?["timeZone"]?.stringValue == fallback, "\(status.text)")
        let ready = try #require(daemon.notify.wait(for: "READY=1")).index
        kill(daemon.process.processIdentifier, SIGHUP)
        #expect(daemon.notify.wait(for: "READY=1", after: ready + 1) != nil, "no READY=1 after the reload")
        let expected = #"TZ="Mars/Olympus" names no time zone alarmd can use"#
        var warnings: [String] = []
        if JournalFixture.isAvailable {
            _ = waitUntil(timeout: 10) {
                let entries = JournalFixture.query(["SYSLOG_IDENTIFIER=alarmd"], of: daemon)
                    .filter { ($0["MESSAGE"] ?? "").contains("Reloaded") || ($0["MESSAGE"] ?? "").contains(expected) }
                // The reload's own entry comes after any second warning would.
                guard entries.contains(where: { ($0["MESSAGE"] ?? "").contains("Reloaded") }) else { return false }
                warnings = entries.filter { ($0["MESSAGE"] ?? "").contains(expected) }.map { "<\($0["PRIORITY"] ?? "?")> " + ($0["MESSAGE"] ?? "") }
                return true
            }
        } else {
            _ = waitUntil(timeout: 10) { daemon.standardError.contains("Reloaded") }
            warnings = daemon.standardError.split(separator: "\n").map(String.init).filter { $0.contains(expected) }
                .map { String($0[$0.range(of: "<")!.lowerBound...]) }
        }
        #expect(warnings == ["<4> \(expected) (a tz database name such as Europe/Berlin, a path into /usr/share/zoneinfo, "
            + "or a POSIX rule such as EST5EDT,M3.2.0,M11.1.0); using \(fallback) (\(fallbackSource)) instead"], "stderr: \(daemon.standardError)")
    }

    private var fallbackSource: String { ZoneDatabase.lookUpSystemZone(environmentTZ: nil).source }

    final class Box: Sendable { let events = Mutex<[DaemonEvent]>([]) }

    /// A zone change moves floating alarms with it and leaves pinned ones alone.
    @Test func aZoneChangeMovesFloatingAlarmsOnly() throws {
        let temporary = try TemporaryStore()
        let clock = ShiftedClock()
        let scheduler = Scheduler(store: temporary.store, clock: clock, journal: Journal(), ringer: LoggingRinger(journal: Journal()), policy: .default, zone: Zone(identifier: "Asia/Tokyo")!, owner: try Owner())
        try scheduler.start()
        defer { scheduler.stop(); temporary.store.close() }
        let now = Date()
        let floating = Alarm(time: try TimeOfDay(hour: 7, minute: 30), days: .everyDay, label: "Floating", created: now)
        let pinned = Alarm(time: try TimeOfDay(hour: 7, minute: 30), days: .everyDay, label: "Pinned", timeZone: Zone(identifier: "Asia/Tokyo"), created: now)
        try scheduler.add(.alarm(floating))
        try scheduler.add(.alarm(pinned))
        func next(_ id: UUID) -> Date? { scheduler.snapshot().first { $0.item.id == id }?.next }
        let before = try #require(next(floating.id))
        #expect(next(pinned.id) == before)
        scheduler.onOwner { scheduler.zoneChanged(Zone(identifier: "America/New_York")!) }
        let after = try #require(next(floating.id))
        // 07:30 in New York, not Tokyo: a different instant, at 07:30 New York wall time.
        let local = Zone(identifier: "America/New_York")!.rules.localDateTime(at: after.epochSecondsFloor)
        #expect(local.hour == 7 && local.minute == 30)
        #expect(after != before)
        #expect(next(pinned.id) == before)
    }

    /// A ringer that takes half a second per call cannot delay firings or the
    /// events about them.
    @Test func aSlowRingerDelaysNoFiring() throws {
        struct SlowRinger: Ringer {
            func startRinging(_ item: Item, occurrence: Date, snoozeCount: Int, resumed: Bool) { usleep(500_000) }
            func stopRinging(_ id: UUID) {}
            func escalate(_ id: UUID) {}
            func showMissed(_ item: Item, scheduled: Date, zone: Zone) {}
            func stopAll() {}
        }
        let temporary = try TemporaryStore()
        let scheduler = Scheduler(store: temporary.store, clock: SystemClock(), journal: Journal(), ringer: SlowRinger(), policy: .default, zone: Zone.utc, owner: try Owner())
        try scheduler.start()
        defer { scheduler.stop(); temporary.store.close() }
        let box = Box()
        let received = Mutex<[Date]>([])
        _ = scheduler.events.subscribe { event in
            guard event.kind == .fired else { return }
            box.events.withLock { $0.append(event) }
            received.withLock { $0.append(Date()) }
        }
        let start = Date()
        for index in 0..<3 {
            try scheduler.add(.reminder(Reminder(title: "R\(index)", due: start.addingTimeInterval(0.3 + 0.1 * Double(index)), created: start)))
        }
        #expect(waitUntil(timeout: 5) { box.events.withLock { $0.count } == 3 })
        let events = box.events.withLock { $0 }
        let arrivals = received.withLock { $0 }
        for (event, arrival) in zip(events, arrivals) {
            let lateness = try #require(event.lateness)
            // A firing held up by the ringer would be 0.4 s late or more; the
            // bounds sit well below that and well above a loaded machine's jitter.
            #expect(lateness < 0.25, "\(event.item.title) fired \(lateness) s late")
            #expect(arrival.timeIntervalSince(event.scheduled!) < 0.3, "\(event.item.title) was announced \(arrival.timeIntervalSince(event.scheduled!)) s late")
        }
    }
}
