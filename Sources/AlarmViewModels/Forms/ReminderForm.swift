// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmProtocol
import FoundationEssentials

/// The add and edit to-do form: title, notes, an optional due date (with a
/// time, or all day), a repeat, an image.
public struct ReminderForm: Sendable {
    public var title: String
    public var notes: String
    /// The due day (a day number); `nil` for no due date.
    public var dueDay: Int64?
    public var dueHour: Int
    public var dueMinute: Int
    /// Due on the day, at `[Reminders] AllDayAt=`, rather than at a time.
    public var allDay: Bool
    /// The weekdays it repeats on: every day is a daily rule, others weekly;
    /// never, no repeat. Needs a due day.
    public var repeatDays: RepeatDays
    /// A rule made elsewhere that the form keeps unless the repeat is changed.
    public var keptRule: RecurrenceRule?
    /// An absolute path; `nil` for none.
    public var imagePath: String?
    /// The reminder being edited; `nil` for a new one.
    public let original: ReminderItem?
    private let zone: Zone
    private let language: any Localization

    /// A new to-do's form, empty, due nowhere.
    public init(zone: Zone, language: some Localization) {
        self.init(original: nil, zone: zone, language: language)
    }

    private init(original: ReminderItem?, zone: Zone, language: some Localization) {
        title = ""
        notes = ""
        dueDay = nil
        dueHour = 9
        dueMinute = 0
        allDay = false
        repeatDays = .never
        keptRule = nil
        imagePath = nil
        self.original = original
        self.zone = zone
        self.language = language
    }

    /// The form of a reminder to edit; its due instant is shown in `zone`.
    public init(editing item: ReminderItem, zone: Zone, language: some Localization) {
        self.init(original: item, zone: zone, language: language)
        title = item.title
        notes = item.notes
        if let due = item.due {
            let local = zone.rules.localDateTime(at: due.epochSecondsFloor)
            dueDay = CivilTime.dayNumber(year: local.year, month: local.month, day: local.day)
            dueHour = local.hour
            dueMinute = local.minute
        }
        allDay = item.allDay
        if let rule = item.rule {
            if rule.frequency == .daily, rule.interval == 1, rule.byDay.isEmpty, rule.byMonthDay.isEmpty, rule.byMonth.isEmpty, rule.end == nil,
               rule.exceptions.isEmpty {
                repeatDays = .everyDay
            } else if rule.frequency == .weekly, rule.interval == 1, rule.byMonthDay.isEmpty, rule.byMonth.isEmpty, rule.end == nil,
                      rule.exceptions.isEmpty, rule.byDay.allSatisfy({ $0.ordinal == nil }) {
                repeatDays = RepeatDays(rule.byDay.isEmpty ? [CivilTime.weekday(dayNumber: rule.start)] : rule.byDay.map(\.weekday))
            } else {
                keptRule = rule
            }
        }
        imagePath = item.imagePath
    }

    public var isEditing: Bool { original != nil }

    /// The repeat's preset (custom for a kept rule); setting one drops a kept rule.
    public var preset: RepeatPreset {
        get { keptRule == nil ? RepeatPreset(days: repeatDays) : .custom }
        set {
            guard let days = newValue.days else { return }
            repeatDays = days
            keptRule = nil
        }
    }

    /// The repeat in words.
    public var repeatText: String {
        rule.map { $0.text(in: language) } ?? language.L("Never")
    }

    /// The rule to send; `nil` for none.
    var rule: RecurrenceRule? {
        if let keptRule { return keptRule }
        guard let dueDay, !repeatDays.isEmpty else { return nil }
        if repeatDays == .everyDay { return RecurrenceRule(.daily, start: dueDay) }
        return RecurrenceRule(.weekly, byDay: repeatDays.days.map { RecurrenceRule.DayOfWeek($0) }, start: dueDay)
    }

    /// The due instant, for a due day with a time.
    public var dueInstant: Date? {
        guard let dueDay, !allDay, (0...23).contains(dueHour), (0...59).contains(dueMinute) else { return nil }
        let wall = dueDay * CivilTime.secondsPerDay + Int64(dueHour * 3600 + dueMinute * 60)
        return Date(epochSeconds: zone.rules.instant(forWall: wall))
    }

    /// Every field that is wrong; empty when it may be sent. A new or changed
    /// image is looked at (``ImageCheck``).
    public func validate() -> [FieldError] {
        let l = language
        var errors: [FieldError] = []
        if title.allSatisfy(\.isWhitespace) {
            errors.append(FieldError(field: .title, message: l.L("Title must not be empty")))
        }
        let base = Reminder(title: "x", created: Date(timeIntervalSince1970: 0))
        func check(_ field: FormField, _ change: (inout Reminder) -> Void) {
            var reminder = base
            change(&reminder)
            do throws(ValidationError) { try reminder.validate() } catch { errors.append(FieldError(field, error, in: l)) }
        }
        if !title.allSatisfy(\.isWhitespace) { check(.title) { $0.title = title } }
        check(.notes) { $0.notes = notes }
        if dueDay != nil, !allDay {
            if !(0...23).contains(dueHour) { errors.append(FieldError(field: .due, message: l.Lf("Hour must be 0–23, got %d", dueHour))) }
            if !(0...59).contains(dueMinute) { errors.append(FieldError(field: .due, message: l.Lf("Minute must be 0–59, got %d", dueMinute))) }
        }
        if dueDay == nil, keptRule != nil || !repeatDays.isEmpty {
            errors.append(FieldError(field: .rule, message: l.L("A to-do that repeats needs a due date")))
        }
        if let imagePath, imagePath != original?.imagePath, case .failure(let problem) = ImageCheck.check(path: imagePath) {
            errors.append(FieldError(field: .image, message: problem.text(in: l)))
        }
        return errors
    }

    /// The members to send (`AddReminder`, or `UpdateReminder` with every
    /// field the form shows, clearing what was removed).
    public func changes() throws(FormInvalid) -> ReminderChanges {
        let errors = validate()
        guard errors.isEmpty else { throw FormInvalid(errors) }
        var changes = ReminderChanges(title: title, notes: notes)
        if let dueDay {
            if allDay {
                changes.on = RecurrenceRule.dateText(dueDay)
            } else if let instant = dueInstant {
                changes.due = WireTime.string(instant, in: zone)
            }
        } else if original?.due != nil {
            changes.due = ""
        }
        if let rule {
            changes.rule = .some(rule)
        } else if original?.rule != nil {
            changes.rule = .some(nil)
        }
        if let imagePath {
            changes.imagePath = imagePath
        } else if original?.imagePath != nil {
            changes.imagePath = ""
        }
        return changes
    }

    /// `AddReminder` for a new to-do.
    public func addRequest() throws(FormInvalid) -> AddReminder.Request { AddReminder.Request(try changes()) }

    /// `UpdateReminder` for the to-do edited; `nil` for a new one.
    public func updateRequest() throws(FormInvalid) -> UpdateReminder.Request? {
        guard let original else { return nil }
        return UpdateReminder.Request(id: original.id, try changes())
    }

    /// The field a reminder method's parameter belongs to.
    public static func field(forParameter parameter: String) -> FormField? {
        let member = parameter.split(separator: ".").first.map(String.init) ?? parameter
        switch member {
        case ReminderChanges.title.name: return .title
        case ReminderChanges.notes.name: return .notes
        case ReminderChanges.due.name, ReminderChanges.on.name: return .due
        case ReminderChanges.rule.name: return .rule
        case ReminderChanges.imagePath.name: return .image
        default: return nil
        }
    }

    /// A refusal of this form's request as a message next to its field.
    public func fieldError(for refusal: DaemonRefusal) -> FieldError? {
        guard let parameter = refusal.parameter, let field = Self.field(forParameter: parameter) else { return nil }
        return FieldError.refused(field, refusal, in: language)
    }
}
