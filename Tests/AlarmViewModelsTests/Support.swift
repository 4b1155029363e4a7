// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmLocale
import AlarmProtocol
import AlarmViewModels
import Foundation

/// The languages the view models are checked in: alarmd's English, and
/// Traditional Chinese from the catalogs `make locale` builds in
/// `.build/locale`, through a localization with its own locale (uselocale),
/// so nothing process-wide changes under the other suites running in parallel.
enum Languages {
    static let english = SourceLocalization()
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent(".build/locale").path
    static let chinese: GettextLocalization? = GettextLocalization(locale: "zh_TW.UTF-8", localeDirectory: directory)

    static var chineseUnavailable: String? {
        if !FileManager.default.fileExists(atPath: directory + "/zh_TW/LC_MESSAGES/alarmd.mo") { return "no catalogs in \(directory): run make locale" }
        if chinese == nil { return "zh_TW.UTF-8 is not generated: run make test-locales" }
        return nil
    }

    /// The Chinese localization, for tests enabled only when it exists.
    static var zh: GettextLocalization {
        guard let chinese else { fatalError("zh_TW.UTF-8 unavailable") }
        return chinese
    }
}

enum Fixture {
    static let berlin = Zone(identifier: "Europe/Berlin")!

    /// An instant from RFC 3339 text.
    static func at(_ text: String) -> Date { try! InstantParser.parse(text, rules: Zone.utc.rules) }

    static func day(_ year: Int, _ month: Int, _ day: Int) -> Int64 { CivilTime.dayNumber(year: year, month: month, day: day) }

    static func time(_ hour: Int, _ minute: Int) -> TimeOfDay { try! TimeOfDay(hour: hour, minute: minute) }

    static let ids = (0..<10).map { String(format: "%08x-0000-4000-8000-000000000000", 0xa0a0_0000 + $0) }

    static func alarm(_ index: Int = 0, _ hour: Int = 7, _ minute: Int = 30, days: RepeatDays = .weekdays, label: String = "Work",
                      next: String? = nil, enabled: Bool = true) -> AlarmItem {
        AlarmItem(id: ids[index], time: time(hour, minute), days: days, label: label, enabled: enabled, next: next.map(at))
    }

    /// A core alarm with a fixed id, for events and wire objects as the daemon makes them.
    static func coreAlarm(_ index: Int, _ hour: Int, _ minute: Int, label: String = "Work") -> Alarm {
        Alarm(id: UUID(uuidString: ids[index])!, time: time(hour, minute), days: .weekdays, label: label, created: at("2026-03-01T00:00:00Z"))
    }

    static func coreReminder(_ index: Int, title: String, position: Int, done: Bool = false) -> Reminder {
        Reminder(id: UUID(uuidString: ids[index])!, title: title, done: done, position: position, created: at("2026-03-01T00:00:00Z"))
    }

    /// A `Watch` reply as the daemon sends it.
    static func event(_ kind: String, _ item: Item, detail: String = "") -> WatchEvent {
        let json = Wire.Event.json(kind: kind, item: item, scheduled: nil, actual: at("2026-03-09T06:00:00Z"), snoozeCount: 0, detail: detail, zone: .utc)
        return WatchEvent(reply: ["event": json])
    }
}
