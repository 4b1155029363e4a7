// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

/// alarmctl as someone uses it every morning, through the real binary and a
/// real daemon: the times people type, timers, history, an import that
/// merges, and a display that does not mislead.
@Suite(.serialized) struct EverydayUseTests {
    static func item(_ reply: [String: Any], _ key: String) -> [String: Any] { reply[key] as? [String: Any] ?? [:] }

    @Test func theTimesPeopleType() throws {
        let daemon = try AlarmctlTests.startDaemon()
        defer { daemon.stop() }
        // A day with the time: a one-off alarm on that day, in either order.
        let tomorrow = Self.item(try Alarmctl.json(["add", "tomorrow", "7:00", "--label", "Train"], daemon), "alarm")
        let day = CalendarTests.date(daysFromNow: 1)
        #expect((tomorrow["rule"] as? [String: Any])?["starting"] as? String == day, "\(tomorrow)")
        #expect((tomorrow["next"] as? String)?.hasPrefix(day + "T07:00:00") == true, "\(tomorrow)")
        let later = CalendarTests.date(daysFromNow: 3)
        let dated = Self.item(try Alarmctl.json(["add", "7.30pm", later], daemon), "alarm")
        #expect((dated["next"] as? String)?.hasPrefix(later + "T19:30:00") == true, "\(dated)")
        #expect(try Alarmctl.ok(["list"], daemon).contains("Train, Once on "))
        // The past is refused, naming what was typed.
        let past = try Alarmctl.run(["add", "2020-01-01", "7:00"], daemon)
        #expect(past.status == 64 && past.standardError.contains("TIME \"2020-01-01 7:00\" has passed"), "\(past.standardError)")
        // A reminder's day alone is all day, never midnight by surprise.
        let allDay = Self.item(try Alarmctl.json(["remind", "add", "Bins", "--at", later], daemon), "reminder")
        #expect(allDay["allDay"] as? Bool == true && (allDay["due"] as? String)?.hasPrefix(later + "T09:00:00") == true, "\(allDay)")
        // Durations as people write them.
        let before = Date()
        let soon = Self.item(try Alarmctl.json(["remind", "add", "Tea", "--in", "20 minutes"], daemon), "reminder")
        let due = try #require((soon["due"] as? String).flatMap { DesktopDaemon.instant($0) })
        #expect(abs(due.timeIntervalSince(before) - 1200) < 3, "\(soon)")
        // Every refusal names the option, the value and the forms; exit 64.
        let bad = try Alarmctl.run(["remind", "add", "Tea", "--in", "a while"], daemon)
        #expect(bad.status == 64 && bad.standardError.hasPrefix("alarmctl: --in must be a duration like 90s, 20m, 20min, 20 minutes"), "\(bad.standardError)")
        let badTime = try Alarmctl.run(["add", "at", "teatime"], daemon)
        #expect(badTime.status == 64 && badTime.standardError.contains("TIME must be a time, or a day and a time"), "\(badTime.standardError)")
        // The daemon's refusals name the option too, not the wire field.
        let empty = try Alarmctl.run(["add", "7:00", "--label", ""], daemon)
        #expect(empty.status == 1 && empty.standardError.hasPrefix("alarmctl: --label must not be empty"), "\(empty.standardError)")
    }

    /// A timer rings like an alarm, shows in `timer`, not in `remind list`,
    /// and is over once dismissed; the history has it.
    @Test func aTimerRingsAndIsGoneOnceDismissed() throws {
        let daemon = try AlarmctlTests.startDaemon()
        defer { daemon.stop() }
        let started = try Alarmctl.ok(["timer", "3s", "--label", "Eggs"], daemon)
        #expect(started.hasPrefix("Started timer \"Eggs\" ("), "\(started)")
        let listed = try Alarmctl.ok(["timer"], daemon)
        #expect(listed.contains("Eggs") && listed.hasPrefix("ID"), "\(listed)")
        #expect(!(try Alarmctl.ok(["remind", "list"], daemon)).contains("Eggs"))
        #expect(waitUntil(timeout: 15) { ((try? Alarmctl.json(["status"], daemon))?["ringing"] as? [String])?.count == 1 })
        // Snoozed as said (for N minutes), then dismissed with the word all.
        #expect(try Alarmctl.ok(["snooze", "for", "10", "minutes"], daemon).hasPrefix("Snoozed \"Eggs\" ("))
        let dismissed = try Alarmctl.ok(["dismiss", "all"], daemon)
        #expect(dismissed.hasPrefix("Dismissed \"Eggs\" ("), "\(dismissed)")
        #expect(try Alarmctl.ok(["timer"], daemon) == "No timers running.\n")
        #expect(try Alarmctl.ok(["dismiss", "--all"], daemon) == "Nothing is ringing or snoozed.\n")
        #expect(try Alarmctl.ok(["dismiss", "--all", "--json"], daemon) == "", "one reply a line, none here")
        // The history: fired, then dismissed, newest first.
        let history = try Alarmctl.json(["history", "--kind", "fired,dismissed"], daemon)
        let kinds = (history["events"] as? [[String: Any]] ?? []).map { $0["kind"] as? String ?? "" }
        #expect(kinds == ["dismissed", "fired"], "\(history)")
        let text = try Alarmctl.ok(["history"], daemon)
        #expect(text.hasPrefix("WHEN") && text.contains("fired") && text.contains("Eggs"), "\(text)")
        #expect(!text.contains("Z "), "one time format, local: \(text)")
        let refused = try Alarmctl.run(["history", "--kind", "rang"], daemon)
        #expect(refused.status == 64 && refused.standardError.contains("--kind must list event kinds"), "\(refused.standardError)")
    }

    /// What a new user typed on a first walk: a part of the day for a
    /// time, "to" before the new place or time, "since" without its dashes,
    /// and a to-do named by a later word of its title.
    @Test func theLittleWordsPeopleSay() throws {
        let daemon = try AlarmctlTests.startDaemon()
        defer { daemon.stop() }
        let tomorrow = CalendarTests.date(daysFromNow: 1)
        let milk = Self.item(try Alarmctl.json(["todo", "buy", "milk", "tomorrow", "evening"], daemon), "reminder")
        #expect(milk["title"] as? String == "buy milk" && (milk["due"] as? String)?.hasPrefix(tomorrow + "T18:00:00") == true, "\(milk)")
        let call = Self.item(try Alarmctl.json(["remind", "add", "Call mum", "--at", "tomorrow morning"], daemon), "reminder")
        #expect((call["due"] as? String)?.hasPrefix(tomorrow + "T08:00:00") == true, "\(call)")
        try Alarmctl.ok(["todo", "book", "dentist"], daemon)
        try Alarmctl.ok(["todo", "move", "dentist", "to", "top"], daemon)
        let first = try #require((try Alarmctl.json(["remind", "list"], daemon)["reminders"] as? [[String: Any]])?.first)
        #expect(first["title"] as? String == "book dentist", "\(first)")
        try Alarmctl.ok(["add", "7:00", "--label", "Work"], daemon)
        try Alarmctl.ok(["edit", "work", "to", "6:30"], daemon)
        #expect(try Alarmctl.ok(["list"], daemon).contains("06:30"))
        // The day of the month before the repeat, as a walk typed it.
        let rent = Self.item(try Alarmctl.json(["todo", "pay", "rent", "on", "the", "1st", "of", "every", "month", "at", "9am"], daemon), "reminder")
        #expect(rent["title"] as? String == "pay rent" && (rent["due"] as? String)?.contains("-01T09:00:00") == true, "\(rent)")
        let history = try Alarmctl.run(["history", "since", "yesterday"], daemon)
        #expect(history.status == 0, "\(history.standardError)")
        // A name that a later word of two items starts with is ambiguous, and changes nothing.
        try Alarmctl.ok(["todo", "call", "dentist", "back"], daemon)
        let ambiguous = try Alarmctl.run(["todo", "done", "dentist"], daemon)
        #expect(ambiguous.status != 0 && ambiguous.standardError.contains("book dentist") && ambiguous.standardError.contains("call dentist back"), "\(ambiguous.standardError)")
    }

    /// A name of several words, without quotes, wherever one item is named;
    /// `rename` in the words people use; a month's repeat said with a time
    /// alone falls on today's day of the month.
    @Test func namesOfSeveralWordsAndRenaming() throws {
        let daemon = try AlarmctlTests.startDaemon()
        defer { daemon.stop() }
        try Alarmctl.ok(["add", "8:00", "--days", "daily", "--label", "early train"], daemon)
        try Alarmctl.ok(["edit", "early", "train", "6:30"], daemon)
        try Alarmctl.ok(["edit", "early", "train", "--label", "early bus"], daemon)
        try Alarmctl.ok(["rename", "early", "bus", "to", "late", "bus"], daemon)
        try Alarmctl.ok(["rename", "late", "bus", "night", "bus"], daemon)
        try Alarmctl.ok(["skip", "night", "bus", "tomorrow"], daemon)
        let alarm = Self.item(try Alarmctl.json(["show", "night", "bus"], daemon), "alarm")
        #expect(alarm["label"] as? String == "night bus" && alarm["time"] as? String == "06:30", "\(alarm)")
        let exceptions = (alarm["rule"] as? [String: Any])?["exceptions"] as? [String]
        #expect(exceptions == [CalendarTests.date(daysFromNow: 1)], "\(alarm)")
        // "to" between two days is a range's, not a word before a new value.
        try Alarmctl.ok(["skip", "night", "bus", CalendarTests.date(daysFromNow: 10), "to", CalendarTests.date(daysFromNow: 12)], daemon)
        let trip = (Self.item(try Alarmctl.json(["show", "night", "bus"], daemon), "alarm")["rule"] as? [String: Any])?["exceptions"] as? [String]
        #expect(trip?.count == 4, "\(String(describing: trip))")
        // Without a sound server, `test` says the sound is not heard, and fails.
        let test = try Alarmctl.run(["test", "night", "bus"], daemon)
        #expect(test.status == 1 && test.standardError.hasPrefix("alarmctl: alarm \"night bus\" is not being heard: "), "\(test.standardError)")
        // The skipped day is said as a day, not counted into the repeat.
        let list = try Alarmctl.ok(["list"], daemon)
        #expect(list.contains("night bus, Every day ") && list.contains("skips ") && !list.contains("except"), "\(list)")

        try Alarmctl.ok(["todo", "book", "flights"], daemon)
        try Alarmctl.ok(["todo", "milk"], daemon)
        try Alarmctl.ok(["remind", "edit", "book", "flights", "--notes", "seat 12A"], daemon)
        try Alarmctl.ok(["remind", "move", "milk", "top"], daemon)
        try Alarmctl.ok(["remind", "move", "book", "flights", "top"], daemon)
        try Alarmctl.ok(["remind", "rename", "book", "flights", "to", "go", "to", "the", "airport"], daemon)
        let first = try #require((try Alarmctl.json(["remind", "list"], daemon)["reminders"] as? [[String: Any]])?.first)
        #expect(first["title"] as? String == "go to the airport" && first["notes"] as? String == "seat 12A", "\(first)")

        // Several words are a name only as a whole label: with "gym" and "gym monday",
        // `skip gym mon` skips gym's Monday, not "gym monday"'s next ring.
        try Alarmctl.ok(["add", "5:00", "daily", "--label", "gym"], daemon)
        try Alarmctl.ok(["add", "5:30", "daily", "--label", "gym monday"], daemon)
        try Alarmctl.ok(["skip", "gym", "mon"], daemon)
        let gym = Self.item(try Alarmctl.json(["show", "gym"], daemon), "alarm"), other = Self.item(try Alarmctl.json(["show", "gym", "monday"], daemon), "alarm")
        #expect(((gym["rule"] as? [String: Any])?["exceptions"] as? [String])?.count == 1 && other["skipNext"] as? Bool == false && other["rule"] == nil,
                "\(gym)\n\(other)")
        try Alarmctl.ok(["add", "18:00", "--label", "go to gym"], daemon)
        try Alarmctl.ok(["rename", "go", "to", "gym", "to", "the", "gym"], daemon)
        #expect(Self.item(try Alarmctl.json(["show", "the", "gym"], daemon), "alarm")["time"] as? String == "18:00")
        // A repeat before the time is no label: refused, nothing added.
        let repeated = try Alarmctl.run(["add", "weekdays", "work", "7:00"], daemon)
        #expect(repeated.status == 64, "\(repeated.standardOutput)")
        let sideways = try Alarmctl.run(["add", "7:00", "gym", "weekdays"], daemon)
        #expect(sideways.status == 64 && sideways.standardError.contains("\"weekdays\""), "\(sideways.standardError)")

        let today = CalendarTests.date(daysFromNow: 0)
        let rent = Self.item(try Alarmctl.json(["todo", "rent", "every", "month", "9am"], daemon), "reminder")
        let rule = rent["rule"] as? [String: Any]
        #expect(rule?["byMonthDay"] as? [Int] == [Int(today.suffix(2))!] && (rent["due"] as? String)?.contains(today.suffix(3) + "T09:00:00") == true, "\(rent)")
    }

    /// A label before the time, `--every day`, a day by its name, `--note`,
    /// a new day for a reminder keeping its time, a pause said in words,
    /// `remind undo`, one item's `next`, and "tomorrow" mistyped.
    @Test func theSecondWalksWords() throws {
        let daemon = try AlarmctlTests.startDaemon()
        defer { daemon.stop() }
        let morning = Self.item(try Alarmctl.json(["add", "morning", "7:15", "every", "day"], daemon), "alarm")
        #expect(morning["label"] as? String == "morning" && morning["time"] as? String == "07:15" && (morning["days"] as? [String])?.count == 7, "\(morning)")
        let daily = Self.item(try Alarmctl.json(["add", "9:00", "--every", "day", "--label", "Water"], daemon), "alarm")
        #expect((daily["rule"] as? [String: Any])?["frequency"] as? String == "daily", "\(daily)")
        let flight = Self.item(try Alarmctl.json(["add", "christmas", "eve", "6am", "--label", "flight"], daemon), "alarm")
        #expect((flight["next"] as? String)?.contains("-12-24T06:00:00") == true, "\(flight)")

        let dentist = Self.item(try Alarmctl.json(["remind", "add", "dentist", "next", "thu", "2:30pm", "--note", "bring the card"], daemon), "reminder")
        #expect(dentist["notes"] as? String == "bring the card" && (dentist["due"] as? String)?.contains("T14:30:00") == true, "\(dentist)")
        let moved = Self.item(try Alarmctl.json(["remind", "edit", "dentist", "fri"], daemon), "reminder")
        #expect((moved["due"] as? String)?.contains("T14:30:00") == true && moved["allDay"] as? Bool != true, "a day alone keeps the time: \(moved)")
        try Alarmctl.ok(["remind", "done", "dentist"], daemon)
        let undone = Self.item(try Alarmctl.json(["remind", "undo", "dentist"], daemon), "reminder")
        #expect(undone["done"] as? Bool == false, "\(undone)")

        let paused = try Alarmctl.run(["pause", "morning", "from", "monday", "for", "a", "week"], daemon)
        #expect(paused.status == 0, "\(paused.standardError)")
        let exceptions = ((Self.item(try Alarmctl.json(["show", "morning"], daemon), "alarm")["rule"] as? [String: Any])?["exceptions"] as? [String]) ?? []
        #expect(exceptions.count == 7, "a week from Monday, as skipped days: \(exceptions)")
        // It rings next on the first day outside the quiet week.
        let next = try Alarmctl.ok(["next", "morning"], daemon)
        #expect(next.contains(" morning, Every day: rings "), "\(next)")
        let shownNext = Self.item(try Alarmctl.json(["show", "morning"], daemon), "alarm")["next"] as? String ?? ""
        #expect(!shownNext.isEmpty && !exceptions.contains { shownNext.hasPrefix($0) }, "\(shownNext) is not on a quiet day: \(exceptions)")
        // "for" that is no length stays in a name: the timer "time for tea".
        try Alarmctl.ok(["timer", "10m", "--label", "time for tea"], daemon)
        #expect(try Alarmctl.ok(["pause", "time", "for", "tea"], daemon).contains("paused"))

        let call = Self.item(try Alarmctl.json(["remind", "add", "call", "mom", "tomorow", "9am"], daemon), "reminder")
        #expect(call["title"] as? String == "call mom" && (call["due"] as? String)?.hasPrefix(CalendarTests.date(daysFromNow: 1) + "T09:00:00") == true, "\(call)")
    }

    /// A to-do marked done before it is due is in the history as
    /// completed, by name, once; marking it open again adds nothing.
    @Test func aToDoMarkedDoneEarlyIsInTheHistory() throws {
        let daemon = try AlarmctlTests.startDaemon()
        defer { daemon.stop() }
        try Alarmctl.ok(["remind", "add", "Call the bank", "--in", "1h"], daemon)
        try Alarmctl.ok(["remind", "add", "Someday"], daemon)
        try Alarmctl.ok(["remind", "done", "call the bank"], daemon)
        try Alarmctl.ok(["remind", "done", "Someday"], daemon)
        try Alarmctl.ok(["remind", "done", "call the bank"], daemon)
        let history = try Alarmctl.json(["history", "--kind", "completed"], daemon)
        let titles = (history["events"] as? [[String: Any]] ?? []).map { $0["title"] as? String ?? "?" }
        #expect(titles.sorted() == ["Call the bank", "Someday"], "\(history)")
        #expect(try Alarmctl.ok(["history"], daemon).contains("completed"))
    }

    /// Timers are their own kind: out of the to-do order (`remind move`,
    /// `remind show`'s place), counted apart in `status` with the time left,
    /// a `timer` in `next`, and out of an export unless asked for; a replace
    /// by a document without them keeps them running.
    @Test func timersAreTheirOwnKind() throws {
        let daemon = try AlarmctlTests.startDaemon()
        defer { daemon.stop() }
        try Alarmctl.ok(["remind", "add", "milk"], daemon)
        try Alarmctl.ok(["timer", "1h", "--label", "Roast"], daemon)
        try Alarmctl.ok(["remind", "add", "bread"], daemon)
        try Alarmctl.ok(["remind", "add", "eggs"], daemon)
        try Alarmctl.ok(["remind", "move", "eggs", "2"], daemon)
        let titles = (try Alarmctl.json(["remind", "list"], daemon)["reminders"] as? [[String: Any]] ?? []).filter { $0["timer"] as? Bool != true }
        #expect(titles.map { $0["title"] as? String ?? "" } == ["milk", "eggs", "bread"], "the timer holds no place among the to-dos")
        #expect(try Alarmctl.ok(["remind", "show", "eggs"], daemon).contains("position:  2\n"))

        let status = try Alarmctl.json(["status"], daemon)
        #expect(status["reminders"] as? Int == 3 && status["timers"] as? Int == 1, "\(status)")
        let text = try Alarmctl.ok(["status"], daemon)
        #expect(text.matches(#"(?s).*timers: +1, the next rings in (59 min [0-9]+ s|1 h) \("Roast"\).*"#), "\(text)")
        #expect(try Alarmctl.ok(["next"], daemon).contains("timer"))

        let plain = try Alarmctl.json(["export"], daemon)["document"] as? [String: Any]
        #expect(((plain?["reminders"] as? [Any]) ?? []).count == 3, "no timer in a plain export")
        let withTimers = try Alarmctl.json(["export", "--timers"], daemon)["document"] as? [String: Any]
        #expect(((withTimers?["reminders"] as? [Any]) ?? []).count == 4)
        let document = try JSONSerialization.data(withJSONObject: plain ?? [:])
        try Alarmctl.ok(["import", "--replace", "-"], daemon, input: document)
        #expect(try Alarmctl.ok(["timer"], daemon).contains("Roast"), "a replace without timers keeps them")
    }

    /// A timer pauses, keeping its time left, gets more time, and goes on
    /// from where it stopped, as a phone's does.
    @Test func aTimerPausesResumesAndTakesMoreTime() throws {
        let daemon = try AlarmctlTests.startDaemon()
        defer { daemon.stop() }
        try Alarmctl.ok(["timer", "10m", "--label", "Tea"], daemon)
        func left() throws -> (due: String?, left: Int?) {
            let timer = try Alarmctl.json(["remind", "show", "tea"], daemon)["reminder"] as? [String: Any]
            return (timer?["due"] as? String, timer?["timerLeft"] as? Int)
        }
        let paused = try Alarmctl.ok(["timer", "pause", "tea"], daemon)
        #expect(paused.matches(#"Timer "Tea" \([0-9a-f]{8}\): paused, (9 min 5[0-9] s|10 min) left\n"#), "\(paused)")
        let stopped = try left()
        #expect(stopped.due == nil && (590...600).contains(stopped.left ?? 0), "\(stopped)")
        #expect(try Alarmctl.ok(["timer"], daemon).contains("(paused)"))
        #expect(try Alarmctl.run(["timer", "pause", "tea"], daemon).standardError.contains("paused already"))

        try Alarmctl.ok(["timer", "add", "tea", "1m"], daemon)
        #expect(try left().left == (stopped.left ?? 0) + 60)
        let resumed = try Alarmctl.ok(["timer", "resume", "tea"], daemon)
        // A ring after midnight says its day too: `rings at Sat 00:03`.
        #expect(resumed.matches(#"Timer "Tea" \([0-9a-f]{8}\): rings at ([A-Z][a-z]{2} )?[0-9:]+, in (10 min 5[0-9] s|11 min)\n"#), "\(resumed)")
        let running = try left()
        #expect(running.left == nil && running.due != nil)
        try Alarmctl.ok(["timer", "add", "tea", "30s"], daemon)
        let later = try left().due.flatMap { ISO8601DateFormatter().date(from: $0) }
        let before = running.due.flatMap { ISO8601DateFormatter().date(from: $0) }
        #expect(later.map { $0.timeIntervalSince(before ?? $0) } == 30)
        #expect(try Alarmctl.json(["status"], daemon)["timers"] as? Int == 1)

        try Alarmctl.ok(["remind", "add", "milk"], daemon)
        let notATimer = try Alarmctl.run(["timer", "pause", "milk"], daemon)
        #expect(notATimer.status == 1 && notATimer.standardError.contains("is not a running timer"), "\(notATimer.standardError)")
    }

    /// `import` merges by id and lists what it did; `--replace` says what
    /// goes and, without a terminal, wants `--yes`; `export --json` imports.
    @Test func importMergesAndReplaceAsksFirst() throws {
        let daemon = try AlarmctlTests.startDaemon()
        defer { daemon.stop() }
        try Alarmctl.ok(["add", "7:00", "--days", "weekdays", "--label", "Work"], daemon)
        let path = daemon.directory.path + "/backup.json"
        try Alarmctl.ok(["export", path], daemon)
        try Alarmctl.ok(["edit", Self.ids(daemon).first ?? "", "--label", "Work (late)"], daemon)
        try Alarmctl.ok(["add", "9:00", "--label", "Added since"], daemon)

        let merged = try Alarmctl.ok(["import", path], daemon)
        #expect(merged.contains("Updated alarm \"Work\" (") && merged.hasSuffix("Imported: 0 added, 1 updated, 0 removed\n"), "\(merged)")
        let labels = try Alarmctl.json(["list"], daemon)["alarms"] as? [[String: Any]] ?? []
        #expect(Set(labels.map { $0["label"] as? String ?? "" }) == ["Work", "Added since"], "nothing removed: \(labels)")

        let asked = try Alarmctl.run(["import", "--replace", path], daemon)
        #expect(asked.status == 64 && asked.standardError.contains("Would remove alarm \"Added since\"") && asked.standardError.contains("add --yes"),
                "\(asked.standardError)")
        let dry = try Alarmctl.ok(["import", "--replace", "--dry-run", path], daemon)
        #expect(dry.contains("Would remove alarm \"Added since\"") && dry.hasSuffix("Nothing changed (dry run): 0 added, 1 updated, 1 removed\n"), "\(dry)")
        let replaced = try Alarmctl.ok(["import", "--replace", "--yes", path], daemon)
        #expect(replaced.contains("they replace what alarmd had before"), "\(replaced)")
        #expect((try Alarmctl.json(["list"], daemon)["alarms"] as? [[String: Any]] ?? []).count == 1)

        // What export --json prints imports as it is.
        let reply = try Alarmctl.ok(["export", "--json"], daemon)
        let again = try Alarmctl.run(["import", "-"], daemon, input: Data(reply.utf8))
        #expect(again.status == 0 && again.standardOutput.hasSuffix("0 added, 0 updated, 0 removed (1 unchanged)\n"), "\(again.standardOutput)\(again.standardError)")
    }

    static func ids(_ daemon: DaemonProcess) -> [String] {
        ((try? Alarmctl.json(["list"], daemon))?["alarms"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
    }

    @Test func theDisplayDoesNotMislead() throws {
        let daemon = try AlarmctlTests.startDaemon()
        defer { daemon.stop() }
        // After skip, the occurrence that will really ring.
        let daily = Self.item(try Alarmctl.json(["add", "23:59", "--days", "daily", "--label", "鬧鐘☕"], daemon), "alarm")
        let id = daily["id"] as? String ?? ""
        let first = try #require((daily["next"] as? String).flatMap { DesktopDaemon.instant($0) })
        let skipped = Self.item(try Alarmctl.json(["skip", id], daemon), "alarm")
        let shown = try #require((skipped["next"] as? String).flatMap { DesktopDaemon.instant($0) })
        #expect(shown.timeIntervalSince(first) == 86_400, "skip shows the day after: \(skipped)")
        try Alarmctl.ok(["add", "7:00", "--label", "Work"], daemon)
        // Columns line up by display width: 鬧鐘☕ takes six columns.
        let lines = try Alarmctl.ok(["list"], daemon).split(separator: "\n").map(String.init)
        // The display column where ON/OFF (or its on/off cell) starts.
        let offsets = lines.map { line -> Int in
            guard let range = line.range(of: "ON/OFF") ?? line.range(of: "  on  ").map({ line.index($0.lowerBound, offsetBy: 2)..<$0.upperBound }) else { return -1 }
            return line[..<range.lowerBound].unicodeScalars.reduce(0) { width, scalar in
                width + (scalar.properties.isEmojiPresentation || (0x4E00...0x9FFF).contains(scalar.value) ? 2 : 1)
            }
        }
        #expect(Set(offsets).count == 1 && offsets.first != -1, "\(lines) \(offsets)")
        // Messages name the item; --version; remove names what went.
        let removed = try Alarmctl.ok(["rm", id], daemon)
        #expect(removed == "Removed alarm \"鬧鐘☕\" (\(id.prefix(8)))\n", "\(removed)")
        #expect(try Alarmctl.ok(["--version"], daemon) == "alarmctl 0.1.0\n")
        // Reminders numbered from 1; move takes top and bottom.
        for title in ["A", "B", "C"] { try Alarmctl.ok(["remind", "add", title], daemon) }
        let c = (try Alarmctl.json(["remind", "list"], daemon)["reminders"] as? [[String: Any]] ?? []).last?["id"] as? String ?? ""
        let moved = try Alarmctl.ok(["remind", "move", c, "top"], daemon)
        #expect(moved.split(separator: "\n").dropFirst().map { $0.split(separator: " ", omittingEmptySubsequences: true).first.map(String.init) ?? "" } == ["1", "2", "3"], "\(moved)")
        #expect(moved.split(separator: "\n")[1].contains("  C"), "\(moved)")
        let done = try Alarmctl.ok(["remind", "done", c, String((try Alarmctl.json(["remind", "list"], daemon)["reminders"] as? [[String: Any]] ?? [])[1]["id"] as? String ?? "")], daemon)
        #expect(done.split(separator: "\n").count == 2, "\(done)")
        let rest = try Alarmctl.ok(["remind", "list"], daemon)
        #expect(rest.split(separator: "\n").count == 2 && rest.contains("  1  "), "\(rest)")
    }
}
