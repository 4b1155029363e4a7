// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import AlarmCore

// Validation of whole items. Every rejection must name the field and show the
// offending value (escaped, so invisible characters are visible in the message).

private let created = Date(timeIntervalSince1970: 1_772_000_000)

private func alarm(
    label: String = Alarm.defaultLabel,
    sound: Sound = .defaultAlarm,
    snooze: SnoozeSettings = .default,
    ringSeconds: Int = Alarm.defaultRingSeconds
) throws -> Alarm {
    Alarm(time: try TimeOfDay(hour: 7, minute: 30), label: label, sound: sound, snooze: snooze, ringSeconds: ringSeconds, created: created)
}

private func reminder(title: String = "Buy milk", notes: String = "", imagePath: String? = nil, position: Int = 0) -> Reminder {
    Reminder(title: title, notes: notes, position: position, imagePath: imagePath, created: created)
}

@Suite("Alarm validation")
struct AlarmValidationTests {
    @Test(arguments: [
        "Alarm",
        "Work",
        String(repeating: "a", count: 256),
        "⏰ Wake up 🌅",
        // One family emoji is one character however many scalars it has
        // (25 bytes: 40 of them fit in 1024).
        String(repeating: "👨‍👩‍👧‍👦", count: 40),
        // 256 four-byte characters: exactly at both limits.
        String(repeating: "🎉", count: 256),
        "e\u{301}\u{302} accents stacked a little",
        "起床",
        "알람 アラーム",
        "Ünïcödé ✓",
        " leading and trailing spaces ",
    ])
    func acceptsLabel(label: String) throws {
        try alarm(label: label).validate()
    }

    @Test func defaultAlarmIsValid() throws {
        #expect(Alarm.defaultLabel == "Alarm")
        try alarm().validate()
    }

    @Test func labelOfTooManyCharacters() throws {
        let error = try #require(throws: ValidationError.self) { try alarm(label: String(repeating: "a", count: 257)).validate() }
        #expect(error.description == "label must be at most 256 characters, got 257 characters")
        let emoji = try #require(throws: ValidationError.self) { try alarm(label: String(repeating: "起", count: 257)).validate() }
        #expect(emoji.field == "label")
    }

    /// Combining marks do not add characters: one letter with 500,000 accents
    /// is one character, and a megabyte.
    @Test func labelOfTooManyBytes() throws {
        let heavy = "a" + String(repeating: "\u{301}", count: 500_000)
        #expect(heavy.count == 1)
        let error = try #require(throws: ValidationError.self) { try alarm(label: heavy).validate() }
        #expect(error.description == "label must be at most 1024 bytes in UTF-8, got 1000001 bytes")
        let families = try #require(throws: ValidationError.self) { try alarm(label: String(repeating: "👨‍👩‍👧‍👦", count: 41)).validate() }
        #expect(families.description == "label must be at most 1024 bytes in UTF-8, got 1025 bytes")
        let stacked = "a" + String(repeating: "\u{301}", count: 511)  // 1023 bytes, one character
        try alarm(label: stacked + "b").validate()
        #expect(throws: ValidationError.self) { try alarm(label: stacked + "bc").validate() }
    }

    /// Line and paragraph separators and bidirectional controls, each escaped
    /// in the message so it cannot reorder or break the message itself.
    @Test(arguments: [
        ("Line\u{2028}separator", #""Line\u{2028}separator""#),
        ("Para\u{2029}graph", #""Para\u{2029}graph""#),
        ("\u{202A}LRE", #""\u{202a}LRE""#),
        ("RLE\u{202B}", #""RLE\u{202b}""#),
        ("PDF\u{202C}", #""PDF\u{202c}""#),
        ("LRO\u{202D}", #""LRO\u{202d}""#),
        ("evil\u{202E}txt.exe", #""evil\u{202e}txt.exe""#),
        ("\u{2066}LRI", #""\u{2066}LRI""#),
        ("RLI\u{2067}", #""RLI\u{2067}""#),
        ("FSI\u{2068}", #""FSI\u{2068}""#),
        ("PDI\u{2069}", #""PDI\u{2069}""#),
    ])
    func labelWithSeparatorOrBidiControl(label: String, escaped: String) throws {
        let error = try #require(throws: ValidationError.self) { try alarm(label: label).validate() }
        #expect(error.description == "label must not contain line or paragraph separators or bidirectional controls, got \(escaped)")
        let title = try #require(throws: ValidationError.self) { try reminder(title: label).validate() }
        #expect(title.description == "title must not contain line or paragraph separators or bidirectional controls, got \(escaped)")
    }

    /// Marks that merely join or hint (ZWJ in emoji, LRM/RLM) stay allowed.
    @Test(arguments: ["👨‍👩‍👧‍👦", "abc\u{200E}", "שלום\u{200F} 1", "a\u{200B}b"])
    func labelWithHarmlessFormatCharacters(label: String) throws {
        try alarm(label: label).validate()
    }

    @Test(arguments: [
        ("Wake\u{7}up", #""Wake\u{7}up""#),
        ("Line\nbreak", #""Line\nbreak""#),
        ("Tab\there", #""Tab\there""#),
        ("CR\r", #""CR\r""#),
        ("\u{1B}[31mred", #""\u{1b}[31mred""#),
        ("nul\u{0}", #""nul\u{0}""#),
        ("del\u{7F}", #""del\u{7f}""#),
    ])
    func labelWithControlCharacter(label: String, escaped: String) throws {
        let error = try #require(throws: ValidationError.self) { try alarm(label: label).validate() }
        #expect(error.field == "label")
        #expect(error.description == "label must not contain control characters, got \(escaped)")
    }

    @Test(arguments: ["", " ", "   "])
    func emptyLabel(label: String) throws {
        let error = try #require(throws: ValidationError.self) { try alarm(label: label).validate() }
        #expect(error.description == "label must not be empty, got \"\(label)\"")
    }

    @Test(arguments: [1, 300, 3600])
    func ringSecondsInRange(seconds: Int) throws {
        try alarm(ringSeconds: seconds).validate()
    }

    @Test(arguments: [0, -1, 3601])
    func ringSecondsOutOfRange(seconds: Int) throws {
        let error = try #require(throws: ValidationError.self) { try alarm(ringSeconds: seconds).validate() }
        #expect(error.description == "ringSeconds must be 1–3600, got \(seconds)")
    }

    @Test func volumeAndFadeOutOfRangeAreNamed() throws {
        var loud = try alarm()
        loud.volume = 101
        #expect(throws: ValidationError(field: "volume", requirement: "must be 1–100 (percent)", value: "101")) { try loud.validate() }
        // Beyond the narrow storage it saturates, and is still refused.
        loud.volume = 1_000_000
        #expect((try? loud.validate()) == nil)
        loud.volume = nil
        loud.fadeSeconds = -5
        #expect(throws: ValidationError(field: "fadeSeconds", requirement: "must be 0–300 (seconds)", value: "-5")) { try loud.validate() }
        loud.fadeSeconds = Int.min
        #expect(loud.fadeSeconds != nil, "a huge negative value must not read back as unset")
        #expect((try? loud.validate()) == nil)
        loud.fadeSeconds = 300
        loud.volume = 1
        try loud.validate()
    }

    @Test(arguments: [
        (SnoozeSettings(minutes: 0), "snoozeMinutes must be 1–60, got 0"),
        (SnoozeSettings(minutes: 61), "snoozeMinutes must be 1–60, got 61"),
        (SnoozeSettings(minutes: -9), "snoozeMinutes must be 1–60, got -9"),
        (SnoozeSettings(maxCount: -1), "maxSnoozes must be 0–100 (0 = unlimited), got -1"),
        (SnoozeSettings(maxCount: 101), "maxSnoozes must be 0–100 (0 = unlimited), got 101"),
    ])
    func snoozeOutOfRange(snooze: SnoozeSettings, message: String) throws {
        let error = try #require(throws: ValidationError.self) { try alarm(snooze: snooze).validate() }
        #expect(error.description == message)
    }

    @Test(arguments: [
        SnoozeSettings(minutes: 1), SnoozeSettings(minutes: 60), SnoozeSettings(maxCount: 0), SnoozeSettings(maxCount: 100),
        SnoozeSettings(enabled: false, minutes: 9, maxCount: 3),
    ])
    func snoozeInRange(snooze: SnoozeSettings) throws {
        try alarm(snooze: snooze).validate()
    }

    @Test func snoozeDefaultsAreNineMinutesUnlimited() {
        #expect(SnoozeSettings.default == SnoozeSettings(enabled: true, minutes: 9, maxCount: 0))
    }

    @Test(arguments: [
        // (settings, snoozes so far, another allowed?)
        (SnoozeSettings(maxCount: 0), 0, true),
        (SnoozeSettings(maxCount: 0), 1_000, true),   // 0 means unlimited
        (SnoozeSettings(maxCount: 3), 2, true),
        (SnoozeSettings(maxCount: 3), 3, false),
        (SnoozeSettings(maxCount: 1), 0, true),
        (SnoozeSettings(maxCount: 1), 1, false),
        (SnoozeSettings(enabled: false, maxCount: 0), 0, false),
        (SnoozeSettings(enabled: false, maxCount: 3), 0, false),
    ])
    func snoozeAllowance(snooze: SnoozeSettings, count: Int, allowed: Bool) {
        #expect(snooze.allowsSnooze(after: count) == allowed)
    }

    @Test(arguments: [Sound.themed("-x"), .themed("../x"), .themed("a b"), .themed("none"), .file("relative/path.oga"), .themed("")])
    func handBuiltSoundMustObeyTheParser(sound: Sound) throws {
        let error = try #require(throws: ValidationError.self) { try alarm(sound: sound).validate() }
        #expect(error.field == "sound")
    }

    @Test(arguments: [Sound.defaultAlarm, .defaultReminder, .none, .file("/home/me/wake up.ogg"), .themed("bell")])
    func validSounds(sound: Sound) throws {
        try alarm(sound: sound).validate()
    }
}

@Suite("Sound.parse")
struct SoundParseTests {
    @Test(arguments: [
        ("alarm-clock-elapsed", Sound.themed("alarm-clock-elapsed")),
        ("message-new-instant", .themed("message-new-instant")),
        ("bell.oga", .themed("bell.oga")),
        ("Bell_2", .themed("Bell_2")),
        ("/usr/share/sounds/freedesktop/stereo/bell.oga", .file("/usr/share/sounds/freedesktop/stereo/bell.oga")),
        ("/home/me/My Sounds/wake up ☀️.ogg", .file("/home/me/My Sounds/wake up ☀️.ogg")),
        ("none", .none),
        ("None", .themed("None")),  // only the exact word is silence; "None" is a theme name
        (String(repeating: "a", count: 128), .themed(String(repeating: "a", count: 128))),
    ])
    func parses(text: String, expected: Sound) throws {
        #expect(try Sound.parse(text) == expected)
    }

    @Test(arguments: [
        "-x", "--help", "../x", "./x", ".hidden", "a b", "", "x/y", "ä", "bell;rm", "\u{7}",
        String(repeating: "a", count: 129), "/tmp/a\u{7}", "/tmp/a\nb", "/" + String(repeating: "a", count: 4096),
    ])
    func rejects(text: String) throws {
        let error = try #require(throws: ValidationError.self) { try Sound.parse(text) }
        #expect(error.field == "sound")
        #expect(error.value == ValidationError.quoted(text))
        #expect(error.description.hasPrefix("sound must "), "\(error)")
    }
}

@Suite("Reminder validation")
struct ReminderValidationTests {
    @Test func plainReminderIsValid() throws {
        try reminder().validate()
        try reminder(title: String(repeating: "t", count: 256), notes: String(repeating: "n", count: 4096)).validate()
    }

    @Test(arguments: ["Line one\nLine two", "\tindented", "", "emoji 🧾 and 中文", "trailing newline\n", "pasted from Windows\r\nsecond line"])
    func notesMayHaveLineBreaks(notes: String) throws {
        try reminder(notes: notes).validate()
    }

    @Test func notesLimit() throws {
        let error = try #require(throws: ValidationError.self) { try reminder(notes: String(repeating: "n", count: 4097)).validate() }
        #expect(error.description == "notes must be at most 4096 characters, got 4097 characters")
        try reminder(notes: String(repeating: "🎉", count: 4096)).validate()
        let bytes = try #require(throws: ValidationError.self) { try reminder(notes: "n" + String(repeating: "\u{301}", count: 10_000)).validate() }
        #expect(bytes.description == "notes must be at most 16384 bytes in UTF-8, got 20001 bytes")
    }

    /// Notes may span lines, with any of the separators.
    @Test func notesMayHaveLineSeparators() throws {
        try reminder(notes: "one\u{2028}two\u{2029}three").validate()
    }

    @Test(arguments: [("bell\u{7}", #""bell\u{7}""#), ("nul\u{0}", #""nul\u{0}""#), ("esc\u{1B}", #""esc\u{1b}""#)])
    func notesRejectOtherControlCharacters(notes: String, escaped: String) throws {
        let error = try #require(throws: ValidationError.self) { try reminder(notes: notes).validate() }
        #expect(error.description == "notes must not contain control characters, got \(escaped)")
    }

    @Test(arguments: [("", "title must not be empty, got \"\""), ("Two\nlines", #"title must not contain control characters, got "Two\nlines""#),
                      (String(repeating: "x", count: 257), "title must be at most 256 characters, got 257 characters")])
    func badTitle(title: String, message: String) throws {
        let error = try #require(throws: ValidationError.self) { try reminder(title: title).validate() }
        #expect(error.description == message)
    }

    @Test(arguments: ["relative.png", "", "~/x.png", "/tmp/a\u{7}.png", "/" + String(repeating: "p", count: 4096)])
    func badImagePath(path: String) throws {
        let error = try #require(throws: ValidationError.self) { try reminder(imagePath: path).validate() }
        #expect(error.field == "imagePath")
    }

    @Test func imagePathAndPosition() throws {
        try reminder(imagePath: "/home/me/Pictures/milk.png", position: 7).validate()
        let error = try #require(throws: ValidationError.self) { try reminder(position: -1).validate() }
        #expect(error.description == "position must be 0 or more, got -1")
    }
}

@Suite("ValidationError")
struct ValidationErrorTests {
    @Test(arguments: [
        ("plain", #""plain""#),
        ("say \"hi\"", #""say \"hi\"""#),
        (#"C:\path"#, #""C:\\path""#),
        ("a\nb\tc\rd", #""a\nb\tc\rd""#),
        ("\u{0}\u{1F}\u{7F}\u{85}", #""\u{0}\u{1f}\u{7f}\u{85}""#),
        ("trailing ", #""trailing ""#),
        ("é 起 🎉", #""é 起 🎉""#),
        ("a\u{2028}b\u{202E}c\u{2069}", #""a\u{2028}b\u{202e}c\u{2069}""#),
        ("👨‍👩‍👧‍👦", #""👨‍👩‍👧‍👦""#),
    ])
    func quoting(text: String, quoted: String) {
        #expect(ValidationError.quoted(text) == quoted)
        #expect(ValidationError.text("field", "must be nice", got: text).description == "field must be nice, got \(quoted)")
    }
}
