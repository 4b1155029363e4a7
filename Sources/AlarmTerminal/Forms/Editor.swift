// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmProtocol
import AlarmViewModels
import FoundationEssentials
import Terminal

/// An open form: the add and edit alarm form, the to-do form, the timer
/// form, and the one-line "pause until" question. It holds the fields as
/// typed and the view model's form; what it sends comes from the view
/// model (``AlarmForm``, ``ReminderForm``, ``TimerPresets``), so the
/// terminal and the desktop app send the same requests for the same input.
struct Editor: Sendable {
    enum Kind: Sendable {
        case alarm(AlarmForm)
        case todo(ReminderForm)
        case timer
        /// Pausing the alarm with this id and label.
        case pause(id: String, label: String)
    }

    /// One row of the form.
    enum Field: Hashable, Sendable {
        case time, repeatDays, label, sound, snooze, title, due, notes, duration, until
    }

    private(set) var kind: Kind
    let fields: [Field]
    private(set) var focus: Int = 0
    private(set) var texts: [Field: TextField] = [:]
    /// Messages under fields, and one for the form as a whole.
    var errors: [Field: String] = [:]
    var formError: String?
    /// Which timer preset ↑/↓ last chose.
    private var presetIndex = 1
    /// The repeat an edited item had that no preset is (a date, a monthly
    /// rule): the first of ←/→'s choices, so it can be had back.
    private var ownRepeat: OwnRepeat?

    private enum OwnRepeat {
        case alarm(days: RepeatDays, more: MoreRepeat, starting: Int64)
        case todo(days: RepeatDays, rule: RecurrenceRule)
    }

    var focused: Field { fields[focus] }

    // MARK: Opening

    /// The alarm form, new (`original` nil) or filled from an alarm.
    static func alarm(_ original: AlarmItem?, today: Int64, language l: some Localization) -> Editor {
        let form = original.map { AlarmForm(editing: $0, today: today, language: l) } ?? AlarmForm(today: today, language: l)
        var editor = Editor(kind: .alarm(form), fields: [.time, .repeatDays, .label, .sound, .snooze])
        editor.texts[.time] = TextField(Self.clock(form.hour, form.minute), typingReplaces: true)
        editor.texts[.label] = TextField(original == nil ? "" : form.label)
        editor.texts[.sound] = TextField(form.sound ?? "")
        if let more = form.more { editor.ownRepeat = .alarm(days: form.days, more: more, starting: form.starting) }
        return editor
    }

    /// The to-do form, new or filled from a to-do; times in `zone`.
    static func todo(_ original: ReminderItem?, zone: Zone, language l: some Localization) -> Editor {
        let form = original.map { ReminderForm(editing: $0, zone: zone, language: l) } ?? ReminderForm(zone: zone, language: l)
        var editor = Editor(kind: .todo(form), fields: [.title, .due, .repeatDays, .notes])
        editor.texts[.title] = TextField(form.title)
        var due = ""
        if let day = form.dueDay {
            due = RecurrenceRule.dateText(day) + (form.allDay ? "" : " " + Self.clock(form.dueHour, form.dueMinute))
        }
        editor.texts[.due] = TextField(due)
        editor.texts[.notes] = TextField(form.notes)
        if let rule = form.keptRule { editor.ownRepeat = .todo(days: form.repeatDays, rule: rule) }
        return editor
    }

    /// The timer form: a length (5 minutes to start with) and a label.
    static func timer() -> Editor {
        var editor = Editor(kind: .timer, fields: [.duration, .label])
        editor.texts[.duration] = TextField(String(TimerPresets.minutes[editor.presetIndex]), typingReplaces: true)
        editor.texts[.label] = TextField()
        return editor
    }

    /// "Pause until": a day; empty rings again at once.
    /// The pause form, holding the day an alarm already paused rings again
    /// (`2026-12-10`), so that Enter keeps it and typing replaces it.
    static func pause(id: String, label: String, until: Int64? = nil) -> Editor {
        var editor = Editor(kind: .pause(id: id, label: label), fields: [.until])
        editor.texts[.until] = TextField(until.map(RecurrenceRule.dateText) ?? "", typingReplaces: until != nil)
        return editor
    }

    private init(kind: Kind, fields: [Field]) {
        self.kind = kind
        self.fields = fields
    }

    /// `07:30`, as ``TimeOfDay`` writes it; empty for no time of day.
    static func clock(_ hour: Int, _ minute: Int) -> String {
        (try? TimeOfDay(hour: hour, minute: minute))?.description ?? ""
    }

    // MARK: Keys

    /// What a key asks of the form's owner.
    enum Outcome: Equatable, Sendable {
        case none, save, cancel, playSound
    }

    /// Applies a key: moving between fields, editing the focused one, or
    /// asking to save, cancel or play.
    mutating func handle(_ key: Key) -> Outcome {
        switch key {
        case .escape: return .cancel
        case .enter: return .save
        case .control("p"): return isAlarm ? .playSound : .none
        case .tab: move(by: 1)
        case .backTab: move(by: -1)
        case .up where focused != .duration: move(by: -1)
        case .down where focused != .duration: move(by: 1)
        default: edit(key)
        }
        return .none
    }

    private var isAlarm: Bool { if case .alarm = kind { return true } else { return false } }

    private mutating func move(by step: Int) {
        if focused == .time { takeRepeatFromTime() }
        focus = (focus + step + fields.count) % fields.count
        texts[focused]?.selectAll()
    }

    /// A repeat said in the alarm's Time field (`7:30 weekdays`, `6:15
    /// every 2 weeks on fri`), as alarmctl add takes it, on leaving the field
    /// or saving: the Repeat row takes the repeat and the field keeps the
    /// time, so the row shows what will be saved and a preset picked after
    /// it wins. A repeat with a day stays in the field, which refuses it.
    private mutating func takeRepeatFromTime() {
        guard case .alarm(var form) = kind, let text = texts[.time]?.text,
              let spoken = try? SpokenRepeat.split(text, field: "Time"), let said = spoken.repeat,
              let when = try? DayAndTime.parse(spoken.rest, field: "Time", requireTime: true), when.day == nil else { return }
        form.days = said.days
        form.more = said.isWeeklyOnDays ? nil : MoreRepeat(said.rule(start: form.starting))
        kind = .alarm(form)
        texts[.time] = TextField(spoken.rest)
    }

    /// Focuses the first field with a message, its text selected.
    private mutating func focusFirstError() {
        guard let first = fields.firstIndex(where: { errors[$0] != nil }) else { return }
        focus = first
        texts[focused]?.selectAll()
    }

    private mutating func edit(_ key: Key) {
        let field = focused
        switch field {
        case .repeatDays: editDays(key)
        case .snooze: editSnooze(key)
        case .duration where key == .up || key == .down:
            let count = TimerPresets.minutes.count
            presetIndex = (presetIndex + (key == .up ? 1 : -1) + count) % count
            texts[.duration] = TextField(String(TimerPresets.minutes[presetIndex]), typingReplaces: true)
        default:
            guard var text = texts[field], text.handle(key) else { return }
            texts[field] = text
            errors[field] = nil
        }
    }

    /// ←/→ go through the presets; 1–7 toggle Monday to Sunday.
    private mutating func editDays(_ key: Key) {
        var days = currentDays
        switch key {
        case .left, .right:
            let presets = RepeatPreset.choices
            let first = ownRepeat == nil ? 0 : 1
            let count = presets.count + first
            let now = hasOwnRepeat ? 0 : presets.firstIndex(of: RepeatPreset(days: days)).map { $0 + first } ?? (key == .right ? -1 : 0)
            let next = (now + (key == .right ? 1 : -1) + count) % count
            guard next >= first else { return restoreOwnRepeat() }
            days = presets[next - first].days ?? days
        case .character(let c):
            guard let digit = c.wholeNumberValue, (1...7).contains(digit) else { return }
            let day = RepeatDays(Weekday.weekOrder[digit - 1])
            days = days.contains(day) ? days.subtracting(day) : days.union(day)
        default:
            return
        }
        errors[.repeatDays] = nil
        switch kind {
        case .alarm(var form):
            form.days = days
            form.more = nil
            kind = .alarm(form)
        case .todo(var form):
            form.repeatDays = days
            form.keptRule = nil
            kind = .todo(form)
        case .timer, .pause: break
        }
    }

    /// Whether the Repeat row shows the item's own repeat (no preset).
    private var hasOwnRepeat: Bool {
        switch kind {
        case .alarm(let form): return form.more != nil
        case .todo(let form): return form.keptRule != nil
        case .timer, .pause: return false
        }
    }

    private mutating func restoreOwnRepeat() {
        errors[.repeatDays] = nil
        switch (kind, ownRepeat) {
        case (.alarm(var form), .alarm(let days, let more, let starting)?):
            (form.days, form.more, form.starting) = (days, more, starting)
            kind = .alarm(form)
        case (.todo(var form), .todo(let days, let rule)?):
            (form.repeatDays, form.keptRule) = (days, rule)
            kind = .todo(form)
        default:
            break
        }
    }

    /// Space switches snoozing; ←/→ (or -/+) change its minutes.
    private mutating func editSnooze(_ key: Key) {
        guard case .alarm(var form) = kind else { return }
        switch key {
        case .character(" "): form.snoozeEnabled.toggle()
        case .left, .character("-"): form.snoozeMinutes = max(SnoozeSettings.minutesRange.lowerBound, form.snoozeMinutes - 1)
        case .right, .character("+"): form.snoozeMinutes = min(SnoozeSettings.minutesRange.upperBound, form.snoozeMinutes + 1)
        default: return
        }
        errors[.snooze] = nil
        kind = .alarm(form)
    }

    /// The weekdays the Repeat row has on.
    var currentDays: RepeatDays {
        switch kind {
        case .alarm(let form): return form.days
        case .todo(let form): return form.repeatDays
        case .timer, .pause: return .never
        }
    }

    // MARK: Sending

    /// What the form sends when saved.
    enum Request: Sendable {
        case addAlarm(AddAlarm.Request)
        case updateAlarm(UpdateAlarm.Request)
        case addReminder(AddReminder.Request)
        case updateReminder(UpdateReminder.Request)
        case startTimer(AddReminder.Request, seconds: Int)
        case pause(id: String, until: Int64?)
    }

    /// The request for the fields as typed, or the fields' messages (set on
    /// the form, which stays open).
    mutating func request(now: Date, zone: Zone, language l: some Localization) -> Request? {
        errors = [:]
        formError = nil
        if isAlarm { takeRepeatFromTime() }
        switch kind {
        case .alarm(var form):
            // An alarm pinned to a zone has its days and minutes there.
            let alarmZone = form.original?.timeZone.flatMap { Zone(identifier: $0) } ?? zone
            if let (time, day) = parseTime(now: now, zone: alarmZone, l) {
                form.hour = time.hour
                form.minute = time.minute
                // A day with the time (tomorrow 9:15, dec 24 7:00): once, then.
                if let day { form.more = .once(day: day) } else if case .once? = form.more { form.more = nil }
            }
            form.label = texts[.label]?.text ?? ""
            let sound = texts[.sound]?.text ?? ""
            form.sound = sound.isEmpty ? (form.isEditing ? form.sound : nil) : sound
            kind = .alarm(form)
            guard errors.isEmpty else {
                focusFirstError()
                return nil
            }
            do throws(FormInvalid) {
                if let update = try form.updateRequest() { return .updateAlarm(update) }
                return .addAlarm(try form.addRequest())
            } catch {
                show(error.errors)
                return nil
            }
        case .todo(var form):
            form.title = texts[.title]?.text ?? ""
            form.notes = texts[.notes]?.text ?? ""
            readDue(into: &form, now: now, zone: zone, l)
            kind = .todo(form)
            guard errors.isEmpty else {
                focusFirstError()
                return nil
            }
            do throws(FormInvalid) {
                if let update = try form.updateRequest() { return .updateReminder(update) }
                return .addReminder(try form.addRequest())
            } catch {
                show(error.errors)
                return nil
            }
        case .timer:
            switch TimerDuration.parse(texts[.duration]?.text ?? "", in: l) {
            case .failure(let error):
                errors[.duration] = error.message
                focusFirstError()
                return nil
            case .success(let seconds):
                let label = texts[.label]?.text
                return .startTimer(TimerPresets.startRequest(seconds: seconds, label: label, now: now, zone: zone, language: l), seconds: seconds)
            }
        case .pause(let id, _):
            let text = texts[.until]?.text ?? ""
            if text.allSatisfy(\.isWhitespace) { return .pause(id: id, until: nil) }
            // Messages name the field as the form does.
            let name = l.Lf("“%s”", l.L("Rings again on"))
            do throws(ValidationError) {
                let when = try DayAndTime.parse(text, field: name)
                let day = when.resolveDay(now: now.epochSecondsFloor, rules: zone.rules, allDay: .nineAM)
                guard day > zone.rules.localDay(at: now.epochSecondsFloor) else {
                    errors[.until] = l.Lf("%1$s must be a day after today, got %2$s", name, ValidationError.quoted(text))
                    return nil
                }
                return .pause(id: id, until: day)
            } catch {
                errors[.until] = FieldError.message(named: name, error, in: l)
                return nil
            }
        }
    }

    /// The time typed, and its day when one was typed with it (`tomorrow
    /// 9:15`: a one-off alarm on that day).
    private mutating func parseTime(now: Date, zone: Zone, _ l: some Localization) -> (TimeOfDay, day: Int64?)? {
        let text = texts[.time]?.text ?? ""
        let problem = l.Lf("Time must be a time of day like 07:30 or 7am, or a day and a time like tomorrow 9:15, got %s", ValidationError.quoted(text))
        do throws(ValidationError) {
            // `in 25 min`: once, that long from now, as `alarmctl add in 25 min` sets it.
            if let seconds = try? DurationParser.relative(text, field: FormField.hour.name(in: l)), seconds > 0 {
                let (day, time) = DayAndTime.minute(after: seconds, from: now.epochSecondsFloor, rules: zone.rules)
                return (time, day)
            }
            let parsed = try DayAndTime.parse(text, field: FormField.hour.name(in: l), requireTime: true)
            guard let time = parsed.time else {
                errors[.time] = problem
                return nil
            }
            guard parsed.day != nil else { return (time, nil) }
            return (time, parsed.resolveDay(now: now.epochSecondsFloor, rules: zone.rules, allDay: time))
        } catch {
            errors[.time] = problem
            return nil
        }
    }

    private mutating func readDue(into form: inout ReminderForm, now: Date, zone: Zone, _ l: some Localization) {
        let text = texts[.due]?.text ?? ""
        guard !text.allSatisfy(\.isWhitespace) else {
            form.dueDay = nil
            return
        }
        do throws(ValidationError) {
            let when = try DayAndTime.parse(text, field: FormField.due.name(in: l))
            form.dueDay = when.resolveDay(now: now.epochSecondsFloor, rules: zone.rules, allDay: .nineAM)
            form.allDay = when.time == nil
            if let time = when.time {
                form.dueHour = time.hour
                form.dueMinute = time.minute
            }
        } catch {
            errors[.due] = FieldError(.due, error, in: l).message
        }
    }

    /// Puts each message under its field (the first for each).
    mutating func show(_ fieldErrors: [FieldError]) {
        for error in fieldErrors {
            let field = Self.field(error.field)
            if errors[field] == nil { errors[field] = error.message }
        }
        if let first = fields.firstIndex(where: { errors[$0] != nil }) { focus = first }
    }

    /// The row a view model's field is shown in.
    static func field(_ field: FormField) -> Field {
        switch field {
        case .hour, .minute: return .time
        case .days, .rule: return .repeatDays
        case .label: return .label
        case .sound, .volume, .fade: return .sound
        case .snoozeMinutes: return .snooze
        case .title: return .title
        case .notes, .image: return .notes
        case .due: return .due
        case .duration: return .duration
        }
    }

    /// A daemon's refusal of the request: under its field when it names one
    /// of the form's, else for the form as a whole.
    mutating func refused(_ refusal: DaemonRefusal, language l: some Localization) {
        let fieldError: FieldError?
        switch kind {
        case .alarm(let form): fieldError = form.fieldError(for: refusal)
        case .todo(let form): fieldError = form.fieldError(for: refusal)
        case .timer, .pause: fieldError = nil
        }
        if let fieldError { show([fieldError]) } else { formError = refusal.text(in: l) }
        focusFirstError()
    }

    /// The volume the alarm form has (`nil`: the configuration's).
    var volumeToPlay: Int? {
        if case .alarm(let form) = kind { return form.volume }
        return nil
    }

    /// The sound the alarm form would play (Ctrl+P): the typed one, else the
    /// alarm's, else the default.
    var soundToPlay: String {
        let typed = texts[.sound]?.text ?? ""
        if !typed.isEmpty { return typed }
        if case .alarm(let form) = kind, let own = form.sound { return own }
        return Sound.defaultAlarm.description
    }
}
