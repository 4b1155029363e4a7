// SPDX-License-Identifier: Apache-2.0
import Foundation
import Glibc
import Testing

/// A sound file or reminder image must be a readable regular file whichever
/// way the item comes in (SECURITY.md, "Paths are checked"): `add` and
/// `edit` refuse a device or a FIFO, and so do a JSON import (merged or
/// replacing), an iCalendar import and a CalDAV sync round, changing nothing.
@Suite struct ImportValidationTests {
    /// A daemon with one alarm and one reminder whose sound and image are a
    /// real file, and the paths that are not one.
    struct Fixture {
        let daemon: DaemonProcess
        let good: String
        let fifo: String
        let alarm: String
        let reminder: String

        init() throws {
            daemon = try AlarmctlTests.startDaemon()
            good = daemon.directory.path + "/ring.oga"
            #expect(FileManager.default.createFile(atPath: good, contents: Data("x".utf8)))
            fifo = daemon.directory.path + "/fifo"
            #expect(mkfifo(fifo, 0o600) == 0)
            alarm = try #require(EverydayUseTests.item(try Alarmctl.json(["add", "7:30", "--label", "Work", "--sound", good], daemon), "alarm")["id"] as? String)
            reminder = try #require(EverydayUseTests.item(try Alarmctl.json(["remind", "add", "Look", "--image", good, "--sound", good, "--in", "2h"], daemon),
                                                          "reminder")["id"] as? String)
        }

        var refused: [String] { ["/dev/zero", "/dev/null", fifo, daemon.directory.path, daemon.directory.path + "/missing.oga"] }

        /// The store's view of everything, to see that a refusal changed nothing.
        func exported() throws -> String { try Alarmctl.ok(["export", "--json"], daemon) }
    }

    /// `alarmctl import FILE`, with `document` written to FILE.
    func importing(_ document: String, _ fixture: Fixture, _ options: [String] = []) throws -> Alarmctl.Result {
        let path = fixture.daemon.directory.path + "/import"
        try document.write(toFile: path, atomically: true, encoding: .utf8)
        return try Alarmctl.run(["import"] + options + [path], fixture.daemon)
    }

    @Test func addAndEditRefuseThem() throws {
        let fixture = try Fixture()
        defer { fixture.daemon.stop() }
        for path in fixture.refused {
            let added = try Alarmctl.run(["add", "8:00", "--sound", path], fixture.daemon)
            #expect(added.status == 1 && added.standardError.contains("--sound") && added.standardError.contains("readable regular file"), "\(path): \(added.standardError)")
            let edited = try Alarmctl.run(["edit", fixture.alarm, "--sound", path], fixture.daemon)
            #expect(edited.status == 1 && edited.standardError.contains(path), "\(path): \(edited.standardError)")
            let image = try Alarmctl.run(["remind", "edit", fixture.reminder, "--image", path], fixture.daemon)
            #expect(image.status == 1 && image.standardError.contains(path), "\(path): \(image.standardError)")
        }
    }

    @Test(arguments: [[], ["--replace", "--yes"]])
    func aJSONImportRefusesThem(options: [String]) throws {
        let fixture = try Fixture()
        defer { fixture.daemon.stop() }
        let before = try fixture.exported()
        for path in fixture.refused {
            for (what, document) in [("sounds", before.replacingOccurrences(of: #""sound":"\#(fixture.good)""#, with: #""sound":"\#(path)""#)),
                                     ("image", before.replacingOccurrences(of: #""imagePath":"\#(fixture.good)""#, with: #""imagePath":"\#(path)""#))] {
                #expect(document != before, "the export names the file as expected: \(before)")
                let result = try importing(document, fixture, options)
                #expect(result.status != 0, "\(what) \(path) was imported: \(result.standardOutput)")
                #expect(result.standardError.contains("must be an absolute path to a readable regular file") && result.standardError.contains(path),
                        "\(what) \(path): \(result.standardError)")
                #expect(try fixture.exported() == before, "\(what) \(path): a refused import changes nothing")
            }
        }
        // The same document with the real file imports.
        #expect(try importing(before, fixture, options).status == 0)
    }

    @Test func anICalendarImportRefusesThem() throws {
        let fixture = try Fixture()
        defer { fixture.daemon.stop() }
        let before = try fixture.exported()
        let calendar = try Alarmctl.ok(["export", "--ical"], fixture.daemon)
        #expect(calendar.contains("X-ALARMD-SOUND:" + fixture.good), "\(calendar)")
        for path in fixture.refused {
            let result = try importing(calendar.replacingOccurrences(of: "X-ALARMD-SOUND:" + fixture.good, with: "X-ALARMD-SOUND:" + path), fixture, ["--ical"])
            #expect(result.status != 0, "\(path) was imported: \(result.standardOutput)")
            #expect(result.standardError.contains("must be an absolute path to a readable regular file") && result.standardError.contains(path),
                    "\(path): \(result.standardError)")
            #expect(try fixture.exported() == before, "\(path): a refused import changes nothing")
        }
        #expect(try importing(calendar, fixture, ["--ical"]).status == 0)
    }

    /// An alarm whose sound is a file on the machine that made it, synced to
    /// a machine where that path is a FIFO: it comes with the default sound.
    @Test func aSyncRoundRingsThemWithTheDefaultSound() throws {
        let server = try RadicaleServer(python: try CalDAVSyncTests.python())
        let sounds = TemporaryDirectory()
        let path = sounds.path + "/shared.oga"
        #expect(FileManager.default.createFile(atPath: path, contents: Data("x".utf8)))
        let first = try CalDAVSyncTests.daemon(server, interval: "1h", alarms: true)
        defer { first.stop() }
        try Alarmctl.ok(["add", "7:30", "--days", "weekdays", "--label", "Shared", "--sound", path], first)
        // A round may be running already (the one at start-up): the next sends it.
        #expect(try waitUntil(timeout: 10) {
            try Alarmctl.ok(["sync"], first)
            return (try server.phone(["list-events"], alarms: true) as? [[String: Any]] ?? []).count == 1
        }, "the alarm did not reach the server")
        #expect(unlink(path) == 0 && mkfifo(path, 0o600) == 0)
        let second = try CalDAVSyncTests.daemon(server, interval: "1h", alarms: true)
        defer { second.stop() }
        // Another machine's file this one cannot play: the alarm comes, with
        // the default sound, rather than a round refused every time.
        var alarms: [[String: Any]] = []
        #expect(try waitUntil(timeout: 10) {
            _ = try Alarmctl.run(["sync"], second)
            alarms = try Alarmctl.json(["list"], second)["alarms"] as? [[String: Any]] ?? []
            return !alarms.isEmpty
        }, "the alarm did not arrive")
        #expect(alarms.first?["sound"] as? String == "alarm-clock-elapsed", "\(alarms)")
    }
}
