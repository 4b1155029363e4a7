// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmProtocol
import FoundationEssentials

/// The options `add` and `edit` share, read into the interface's `AlarmFields`.
///
/// Values alarmctl can check without the daemon (times, days, numbers, zones)
/// are checked here, so a typo is a usage error naming the option; text fields
/// (label, sound) are the daemon's to judge.
enum AlarmFieldOptions {
    static let days = Option("days", "SPEC", .days, N_("repeat days: mon,wed,fri  mon-fri  weekdays  weekends  daily  never"))
    static let label = Option("label", "TEXT", .text, N_("what the alarm is for (default \"Alarm\")"))
    static let sound = Option("sound", "NAME", .sound, N_("a sound-theme name (see alarmctl sounds), an absolute file path, or none"))
    static let snooze = Option("snooze", "MINUTES", .number, N_("allow snoozing, for 1–60 minutes at a time"))
    static let noSnooze = Option(flag: "no-snooze", N_("do not offer snooze"))
    static let maxSnoozes = Option("max-snoozes", "N", .number, N_("snoozes allowed per occurrence, 0–100 (0: no limit)"))
    static let ring = Option("ring", "SECONDS", .duration, N_("ring this long before going quiet, 1–3600 s (or a duration like 5m)"))
    static let volume = Option("volume", "PCT", .number, N_("the sound's volume, 1–100 % of the stream (default: [Sound] Volume= of alarmd.conf, 80)"))
    static let fade = Option("fade", "DURATION", .duration, N_("rise from silence to the volume over this long, 0–5m (0: at once; default: [Sound] Fade=, 30s)"))
    static let tz = Option("tz", "ZONE", .zone, N_("pin to an IANA zone such as Europe/Berlin (default: follow the system zone)"))
    static let command = Option("command", "LINE", .commandLine, N_("run this when it fires: a program and its arguments, quoted like a shell line but never run by a shell"))
    static let escalateCommand = Option("escalate-command", "LINE", .commandLine,
                                        N_("run this when it has rung unanswered for [Alarms] EscalateAfter= (a push message to a phone, say); quoted like --command"))

    static let skipHolidays = Option(flag: "skip-holidays", N_("do not ring on the days [Alarms] Holidays= lists"))
    /// Only `edit` has these.
    static let noSkipHolidays = Option(flag: "no-skip-holidays", N_("ring on holidays too"))
    static let time = Option("time", "TIME", .timeOfDay, N_("the new time of day; with a day (tomorrow 7:00, 2026-12-24 7:00) a one-off alarm on it"))
    static let noCommand = Option(flag: "no-command", N_("remove the command"))
    static let noEscalateCommand = Option(flag: "no-escalate-command", N_("remove the escalation command"))
    static let enabled = Option(flag: "enabled", N_("switch it on"))
    static let disabled = Option(flag: "disabled", N_("switch it off"))
    static let onOrOff = Alternatives(enabled, disabled)

    /// The options `add` and `edit` share, in the order their help lists them.
    static let options = [days] + RuleOptions.options + [skipHolidays, label, sound, volume, fade, snooze, noSnooze, maxSnoozes, ring, tz, command,
                                                         escalateCommand]
    static let holidaysOrNot = Alternatives(skipHolidays, noSkipHolidays)

    static let snoozeOrNot = Alternatives(snooze, noSnooze)
    static let commandOrNot = Alternatives(command, noCommand)
    static let escalateCommandOrNot = Alternatives(escalateCommand, noEscalateCommand)

    /// Reads an alarm's TIME into `fields`: a time of day alone; with a day
    /// (`tomorrow 7:00`, `dec 24 9am`) or from now (`in 25 min`), a one-off
    /// alarm then; with a repeat in words (`every monday 7:00`, `weekdays at
    /// 7`, `每天早上7點`), that repeat, which the repeat options cannot join.
    /// Returns the time of day it read.
    @discardableResult
    static func readTime(_ text: String, field: String, into fields: inout AlarmFields, _ arguments: ParsedArguments, zone: Zone, now date: Date) throws(CLIError) -> TimeOfDay {
        let repeatOptions = RuleOptions.options.filter(arguments.spec.declares) + [Self.days]
        let spoken: (repeat: SpokenRepeat?, rest: String)
        do { spoken = try SpokenRepeat.split(text, field: field) } catch { throw .invalid(error) }
        let now = date.epochSecondsFloor
        let today = zone.rules.localDay(at: now)
        if let seconds = try relative(spoken.rest, field: field) {
            // A one-off alarm at that minute: the nearest, and never one already begun.
            let (day, time) = DayAndTime.minute(after: seconds, from: now, rules: zone.rules)
            fields.time = time
            guard spoken.repeat == nil, !arguments.hasAny(repeatOptions) else {
                throw .usage(Lf("%1$s %2$s is one moment from now: a one-off alarm, so --days and the repeat options cannot go with it", field, inQuotes(text)))
            }
            fields.rule = .some(.once(on: day))
            return time
        }
        let when: DayAndTime
        do { when = try DayAndTime.parse(spoken.rest, field: field, requireTime: true) } catch { throw .invalid(error) }
        // `requireTime` has made sure of a time; nine is never taken.
        let time = when.time ?? .nineAM
        fields.time = time
        if let repeatWords = spoken.repeat {
            if when.day != nil { throw .usage(Lf("%1$s %2$s names a repeat and a day; give one of them", field, inQuotes(text))) }
            if arguments.hasAny(repeatOptions) {
                throw .usage(Lf("%1$s %2$s says how it repeats, so --days and the repeat options cannot go with it", field, inQuotes(text)))
            }
            if repeatWords.isWeeklyOnDays {
                fields.days = repeatWords.days
            } else {
                fields.rule = .some(repeatWords.rule(start: today))
            }
            return time
        }
        // A day with the time (`tomorrow 7:00`, `2026-12-24 7:00`) is a
        // one-off alarm on that day.
        guard when.day != nil else { return time }
        if arguments.hasAny(repeatOptions) {
            throw .usage(Lf("%1$s names a day (%2$s): that is a one-off alarm, so --days and the repeat options cannot go with it", field, inQuotes(text)))
        }
        let day = when.resolveDay(now: now, rules: zone.rules, allDay: .nineAM)
        guard zone.rules.instant(forWall: day * CivilTime.secondsPerDay + Int64(time.secondsIntoDay)) > now else {
            throw .usage(Lf("%1$s %2$s has passed (%3$s %4$s); give a time still to come", field, inQuotes(text), RecurrenceRule.dateText(day), time))
        }
        fields.rule = .some(.once(on: day))
        return time
    }

    /// `in 25 min`, `25 分鐘後`: seconds from now, or `nil` for another form.
    private static func relative(_ text: String, field: String) throws(CLIError) -> Int64? {
        do { return try DurationParser.relative(text, field: field) } catch { throw .invalid(error) }
    }

    /// Reads the options into `AlarmFields`. `editing` allows `--tz ""`
    /// (un-pin), which means nothing for a new alarm.
    /// A rule's default start is today where the alarm rings (`--tz`, else
    /// the system zone).
    static func fields(_ arguments: ParsedArguments, time timeText: String?, editing: Bool, context: CommandContext) throws(CLIError) -> AlarmFields {
        var fields = AlarmFields()
        if let spec = arguments.value(Self.days) {
            do { fields.days = try RepeatDays.parse(spec, field: "--days") } catch { throw .invalid(error) }
        }
        var zone = context.systemZone
        if let name = arguments.value(tz), !name.isEmpty { zone = try PreviewCommand.zone(named: name) }
        if let timeText {
            try readTime(timeText, field: editing ? "--time" : "TIME", into: &fields, arguments, zone: zone, now: context.now)
        }
        if let rule = try RuleOptions.rule(arguments, days: fields.days, today: RuleOptions.today(context.now, in: zone)) {
            fields.rule = .some(rule)
            fields.days = nil
        }
        if editing { try arguments.exclusive(holidaysOrNot) }
        if arguments.flag(skipHolidays) { fields.skipHolidays = true }
        if editing, arguments.flag(noSkipHolidays) { fields.skipHolidays = false }
        fields.label = arguments.value(Self.label)
        // A new alarm's label is the reader's word for "Alarm" (鬧鐘 under
        // zh_TW): the person typing decides, not the daemon's session. Sent
        // only when it differs, so the English request is unchanged.
        if !editing, fields.label == nil, L(Alarm.defaultLabel) != Alarm.defaultLabel { fields.label = L(Alarm.defaultLabel) }
        fields.sound = arguments.value(Self.sound).map(Sound.init(wire:))
        try arguments.exclusive(snoozeOrNot)
        if let minutes = try arguments.integer(snooze, in: SnoozeSettings.minutesRange) {
            fields.snoozeEnabled = true
            fields.snoozeMinutes = minutes
        }
        if arguments.flag(noSnooze) { fields.snoozeEnabled = false }
        fields.maxSnoozes = try arguments.integer(maxSnoozes, in: SnoozeSettings.maxCountRange)
        if let text = arguments.value(ring) { fields.ringSeconds = try ringSeconds(text) }
        if let text = arguments.value(volume) { fields.volume = .some(try volumePercent(text, editing: editing)) }
        if let text = arguments.value(fade) { fields.fadeSeconds = .some(try fadeSeconds(text, editing: editing)) }
        // `add` has only --disabled: a new alarm is on unless told otherwise.
        if editing {
            try arguments.exclusive(onOrOff)
            if arguments.flag(enabled) { fields.enabled = true }
        }
        // add declares its own --disabled, with its own help; options are read by name.
        if arguments.flag(disabled) { fields.enabled = false }
        if let name = arguments.value(tz) {
            fields.timeZone = name.isEmpty && editing ? .some(nil) : .some(try PreviewCommand.zone(named: name))
        }
        if editing { try arguments.exclusive(commandOrNot) }
        if let line = arguments.value(command) { fields.command = try commandVector(line) }
        if editing, arguments.flag(noCommand) { fields.command = [] }
        if editing { try arguments.exclusive(escalateCommandOrNot) }
        if let line = arguments.value(escalateCommand) { fields.escalateCommand = try commandVector(line, option: "--escalate-command") }
        if editing, arguments.flag(noEscalateCommand) { fields.escalateCommand = [] }
        return fields
    }

    /// Splits `--command` into an argument vector here, so that what the daemon
    /// stores is exactly the words it will run (it never calls a shell).
    static func commandVector(_ line: String, option: String = "--command") throws(CLIError) -> [String] {
        guard let argv = try? ArgumentVector.split(line), !argv.isEmpty else {
            throw .usage(Lf("%1$s must be a program and its arguments with balanced quotes, got %2$s", option, inQuotes(line)))
        }
        return argv
    }

    /// `25` or `25%`; with `edit`, `default` returns to the configuration's.
    static func volumePercent(_ text: String, editing: Bool) throws(CLIError) -> Int? {
        if editing, text == "default" { return nil }
        let range = SoundLevel.volumeRange
        let digits = text.hasSuffix("%") ? String(text.dropLast()) : text
        guard let percent = Int(digits), range.contains(percent) else {
            let reset = editing ? ", or default" : ""
            throw .usage(Lf("--volume must be a percentage from %1$s to %2$s%3$s, got %4$s", range.lowerBound, range.upperBound, reset, inQuotes(text)))
        }
        return percent
    }

    /// `0`, whole seconds or a duration (`6s`, `1m30s`); with `edit`, `default`.
    private static func fadeSeconds(_ text: String, editing: Bool) throws(CLIError) -> Int? {
        if editing, text == "default" { return nil }
        let range = SoundLevel.fadeSecondsRange
        let seconds = Int64(text) ?? (try? DurationParser.parse(text, field: "--fade"))
        guard let seconds, seconds >= Int64(range.lowerBound), seconds <= Int64(range.upperBound) else {
            let reset = editing ? ", or default" : ""
            throw .usage(Lf("--fade must be 0 (no fade) or a duration up to 5m such as 30s or 1m30s%1$s, got %2$s", reset, inQuotes(text)))
        }
        return Int(seconds)
    }

    /// Whole seconds (`90`) or a duration (`5m`, `1m30s`).
    private static func ringSeconds(_ text: String) throws(CLIError) -> Int {
        let range = Alarm.ringSecondsRange
        let seconds: Int64
        if let number = Int64(text) {
            seconds = number
        } else {
            do { seconds = try DurationParser.parse(text, field: "--ring") } catch {
                throw .usage(Lf("--ring must be seconds (%1$s–%2$s) or a duration like 5m, got %3$s", range.lowerBound, range.upperBound, inQuotes(text)))
            }
        }
        guard seconds >= Int64(range.lowerBound), seconds <= Int64(range.upperBound) else {
            throw .usage(Lf("--ring must be %1$s–%2$s seconds, got %3$s", range.lowerBound, range.upperBound, text))
        }
        return Int(seconds)
    }
}
