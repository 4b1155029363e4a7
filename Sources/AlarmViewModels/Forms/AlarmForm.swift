// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmProtocol
import FoundationEssentials

/// The add and edit alarm form: what it holds, whether it may be sent,
/// what it sends, and where a refusal belongs. Values stay as typed until
/// the person changes them, whatever the daemon answers.
public struct AlarmForm: Sendable {
    /// What a new alarm starts with.
    public struct Defaults: Equatable, Sendable {
        public var hour: Int
        public var minute: Int
        public var days: RepeatDays
        public var snoozeMinutes: Int

        /// 07:00, never repeating, snoozing 9 minutes (the daemon's default).
        public init(hour: Int = 7, minute: Int = 0, days: RepeatDays = .never, snoozeMinutes: Int = SnoozeSettings.default.minutes) {
            self.hour = hour
            self.minute = minute
            self.days = days
            self.snoozeMinutes = snoozeMinutes
        }
    }

    public var hour: Int
    public var minute: Int
    /// The weekdays toggled on (also those of an every-N-weeks rule).
    public var days: RepeatDays
    /// A calendar repeat from "More"; `nil` repeats on ``days``.
    public var more: MoreRepeat?
    /// The day a "More" rule starts and counts its intervals from.
    public var starting: Int64
    /// As typed; empty sends the default label (``defaultLabel``).
    public var label: String
    /// A sound-theme name or an absolute path; `nil` keeps the daemon's
    /// configured sound (new alarm) or the alarm's own (edit).
    public var sound: String?
    public var snoozeEnabled: Bool
    /// 1–60.
    public var snoozeMinutes: Int
    /// 1–100 %; `nil` follows `[Sound] Volume=`.
    public var volume: Int?
    /// 0–300 s; `nil` follows `[Sound] Fade=`.
    public var fadeSeconds: Int?
    /// The alarm being edited; `nil` for a new one.
    public let original: AlarmItem?
    private let language: any Localization

    /// A new alarm's form; `today` (a day number) starts its rules.
    public init(defaults: Defaults = Defaults(), today: Int64, language: some Localization) {
        hour = defaults.hour
        minute = defaults.minute
        days = defaults.days
        more = nil
        starting = today
        label = ""
        sound = nil
        snoozeEnabled = true
        snoozeMinutes = defaults.snoozeMinutes
        volume = nil
        fadeSeconds = nil
        original = nil
        self.language = language
    }

    /// The form of an alarm to edit, filled with its values.
    public init(editing item: AlarmItem, today: Int64, language: some Localization) {
        hour = item.time.hour
        minute = item.time.minute
        days = item.days
        more = item.rule.map(MoreRepeat.init)
        if let rule = item.rule, case .everyWeeks = more {
            days = RepeatDays(rule.byDay.map(\.weekday))
        }
        starting = item.rule?.start ?? today
        label = item.label
        sound = item.sound
        snoozeEnabled = item.snooze.enabled
        snoozeMinutes = item.snooze.minutes
        volume = item.volume
        fadeSeconds = item.fadeSeconds
        original = item
        self.language = language
    }

    /// Whether this form edits an alarm (Save sends `UpdateAlarm`).
    public var isEditing: Bool { original != nil }

    /// The label an empty one stands for: Alarm, 鬧鐘.
    public var defaultLabel: String { language.L(Alarm.defaultLabel) }

    /// The preset the days are (custom when "More" is chosen); setting one
    /// sets the days and leaves "More".
    public var preset: RepeatPreset {
        get { more == nil ? RepeatPreset(days: days) : .custom }
        set {
            guard let presetDays = newValue.days else { return }
            days = presetDays
            more = nil
        }
    }

    /// The repeat in words, as the form's Repeat row says it.
    public var repeatText: String {
        guard let more else { return days.text(in: language) }
        return more.rule(start: starting, days: days).text(in: language)
    }

    /// The label that will be sent.
    public var effectiveLabel: String {
        label.allSatisfy(\.isWhitespace) ? defaultLabel : label
    }

    /// Every field that is wrong, in the form's order; empty when it may be sent.
    public func validate() -> [FieldError] {
        let l = language
        var errors: [FieldError] = []
        if !(0...23).contains(hour) { errors.append(FieldError(field: .hour, message: l.Lf("Hour must be 0–23, got %d", hour))) }
        if !(0...59).contains(minute) { errors.append(FieldError(field: .minute, message: l.Lf("Minute must be 0–59, got %d", minute))) }
        if let more {
            if let error = Self.ruleError(more, start: starting, days: days, in: l) { errors.append(error) }
        }
        // The daemon's own rules, field by field, on an alarm with only that
        // field set: the same limits, and every field's problem at once.
        let base = Alarm(time: .nineAM, created: Date(timeIntervalSince1970: 0))
        func check(_ field: FormField, _ change: (inout Alarm) -> Void) {
            var alarm = base
            change(&alarm)
            do throws(ValidationError) { try alarm.validate() } catch { errors.append(FieldError(field, error, in: l)) }
        }
        check(.label) { $0.label = effectiveLabel }
        if let sound {
            do throws(ValidationError) { _ = try Sound.parse(sound) } catch { errors.append(FieldError(.sound, error, in: l)) }
        }
        if snoozeEnabled, !SnoozeSettings.minutesRange.contains(snoozeMinutes) {
            errors.append(FieldError(field: .snoozeMinutes, message: l.Lf("Snooze length must be 1–60 minutes, got %d", snoozeMinutes)))
        }
        if let volume, !SoundLevel.volumeRange.contains(volume) {
            errors.append(FieldError(field: .volume, message: l.Lf("Volume must be 1–100 percent, got %d", volume)))
        }
        if let fadeSeconds, !SoundLevel.fadeSecondsRange.contains(fadeSeconds) {
            errors.append(FieldError(field: .fade, message: l.Lf("Fade in must be 0–300 seconds, got %d", fadeSeconds)))
        }
        return errors
    }

    /// Why a "More" rule cannot be sent, checked as the daemon checks rules.
    static func ruleError(_ more: MoreRepeat, start: Int64, days: RepeatDays, in l: some Localization) -> FieldError? {
        switch more {
        case .everyDays(let n), .everyWeeks(let n):
            guard RecurrenceRule.intervalRange.contains(n) else {
                return FieldError(field: .rule, message: l.Lf("Repeat every must be 1–999, got %d", n))
            }
        case .monthly(let day):
            guard day == -1 || (1...31).contains(day) else {
                return FieldError(field: .rule, message: l.Lf("Day of the month must be 1–31 or the last, got %d", day))
            }
        case .yearly(let month, let day):
            guard (1...12).contains(month), (1...31).contains(day), day <= CivilTime.daysInMonth(year: 2000, month: month) else {
                return FieldError(field: .rule, message: l.Lf("The date must exist, got %1$d/%2$d", month, day))
            }
        case .once, .kept:
            break
        }
        let rule = more.rule(start: start, days: days)
        do throws(ValidationError) {
            try rule.validate()
            try rule.validateDaysExist()
        } catch {
            return FieldError(.rule, error, in: l)
        }
        return nil
    }

    /// The fields to send: `AddAlarm`'s for a new alarm, `UpdateAlarm`'s
    /// for an edit (every field the form shows, so what is seen is what is
    /// set). Throws every field's problem when the form may not be sent.
    public func request() throws(FormInvalid) -> AlarmFields {
        let errors = validate()
        guard errors.isEmpty else { throw FormInvalid(errors) }
        var fields = AlarmFields()
        fields.time = try? TimeOfDay(hour: hour, minute: minute)
        if let more {
            fields.rule = .some(more.rule(start: starting, days: days))
        } else {
            // Days replace any rule the alarm had.
            fields.days = days
        }
        fields.label = effectiveLabel
        if let sound { fields.sound = Sound(wire: sound) }
        fields.snoozeEnabled = snoozeEnabled
        if snoozeEnabled || original != nil { fields.snoozeMinutes = snoozeMinutes }
        if original != nil {
            // nil returns to the configuration's, which an edit must say.
            fields.volume = .some(volume)
            fields.fadeSeconds = .some(fadeSeconds)
        } else {
            if let volume { fields.volume = .some(volume) }
            if let fadeSeconds { fields.fadeSeconds = .some(fadeSeconds) }
        }
        return fields
    }

    /// `AddAlarm` for a new alarm.
    public func addRequest() throws(FormInvalid) -> AddAlarm.Request { AddAlarm.Request(fields: try request()) }

    /// `UpdateAlarm` for the alarm edited; `nil` for a new one.
    public func updateRequest() throws(FormInvalid) -> UpdateAlarm.Request? {
        guard let original else { return nil }
        return UpdateAlarm.Request(id: original.id, fields: try request())
    }

    /// The field a wire parameter of `AlarmFields` belongs to
    /// (`fields.snoozeMinutes` → ``FormField/snoozeMinutes``).
    public static func field(forParameter parameter: String) -> FormField? {
        let name = parameter.hasPrefix("fields.") ? String(parameter.dropFirst("fields.".count)) : parameter
        let member = name.split(separator: ".").first.map(String.init) ?? name
        switch member {
        case AlarmFields.time.name: return .hour
        case AlarmFields.days.name: return .days
        case AlarmFields.rule.name: return .rule
        case AlarmFields.label.name: return .label
        case AlarmFields.sound.name: return .sound
        case AlarmFields.snooze.name, AlarmFields.snoozeMinutes.name: return .snoozeMinutes
        case AlarmFields.volume.name: return .volume
        case AlarmFields.fadeSeconds.name: return .fade
        default: return nil
        }
    }

    /// A daemon's refusal of this form's request as a message next to its
    /// field; `nil` when it names no field of the form (show it as a toast).
    public func fieldError(for refusal: DaemonRefusal) -> FieldError? {
        guard let parameter = refusal.parameter, let field = Self.field(forParameter: parameter) else { return nil }
        return FieldError.refused(field, refusal, in: language)
    }
}
