// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmProtocol

/// Turns the daemon's errors into one sentence for stderr.
enum DaemonErrorText {
    /// Wire parameters and the options alarmctl takes them from.
    static let options: [(wire: String, typed: String)] = [
        ("fields.time", "TIME"), ("fields.days", "--days"), ("fields.label", "--label"), ("fields.sound", "--sound"),
        ("fields.snoozeMinutes", "--snooze"), ("fields.snooze", "--snooze"), ("fields.maxSnoozes", "--max-snoozes"),
        ("fields.ringSeconds", "--ring"), ("fields.volume", "--volume"), ("fields.fadeSeconds", "--fade"), ("fields.timeZone", "--tz"),
        ("fields.command", "--command"), ("fields.escalateCommand", "--escalate-command"), ("fields.pausedUntil", "--until"),
        ("fields.skipHolidays", "--skip-holidays"), ("fields.rule.starting", "--starting"), ("fields.rule.until", "--until"),
        ("fields.rule.times", "--times"), ("fields.rule", N_("the repeat")),
        ("title", "TITLE"), ("notes", "--notes"), ("due", "--at"), ("on", "--on"), ("imagePath", "--image"), ("command", "--command"),
        ("before", "--before"), ("rule", N_("the repeat")),
    ]

    /// The options a command line gave for wire parameters that more than
    /// one option sets (``Option/fills``): a single day's start is `--date`'s,
    /// the sound `sounds --play` plays is `--play`'s.
    static func names(given arguments: ParsedArguments) -> [String: String] {
        var names: [String: String] = [:]
        for option in arguments.spec.options {
            if let wire = option.fills, arguments.given(option) { names[wire] = "--" + option.name }
        }
        return names
    }

    /// `--label` for `fields.label`; `the repeat (byDay)` for `fields.rule.byDay`;
    /// `names` first, as ``names(given:)`` makes them.
    static func typed(_ wire: String, names: [String: String] = [:]) -> String {
        if let given = names[wire] { return given }
        for (known, typed) in options {
            if wire == known { return L(typed) }
            if wire.hasPrefix(known + "."), known.hasSuffix("rule") { return "\(L(typed)) (\(wire.dropFirst(known.count + 1)))" }
        }
        return wire
    }

    /// A value's requirement (`must be 0–59`) in the reader's language: as a
    /// message of the catalog, or made again from its template when something
    /// is filled in (`must be at most 200 characters`, an unknown item).
    static func requirement(_ english: String) -> String {
        let translated = L(english)
        return translated != english ? translated : relocalized(english, among: ValidationError.templates)
    }

    /// The error's own `message` when it has one (the daemon words those to name
    /// the field and the value); otherwise a sentence built from its parameters,
    /// read as ``InterfaceError`` for the errors `io.alarmd` declares.
    /// `subject` is what a missing id was supposed to be: "alarm", "reminder", …
    static func message(for error: VarlinkError, subject: String, names: [String: String] = [:]) -> String {
        guard let declared = InterfaceError(error) else { return undeclared(error) }
        switch declared {
        case .noSuchItem(let id, _):
            return Lf("no %1$s with id or name %2$s", L(subject), shown(id))
        case .ambiguousId(let id, let matches, let titles, _):
            return Lf("%s matches several items; name one by its id:", shown(id)) + candidates(matches, titles: titles)
        case .duplicateAlarm(let id, _):
            return Lf("alarm %s is the same; nothing was added (--force adds another)", shown(id))
        case .invalidParameter(let wire, let message):
            let name = wire.isEmpty ? "a parameter" : typed(wire, names: names)
            guard !message.isEmpty else { return Lf("%s is not valid", name) }
            // The daemon's messages start with the parameter's name: say it as
            // the person typed it (`--label`, not `fields.label`), and keep it
            // visible if a message does not start with it.
            guard message.hasPrefix(wire) else { return "\(name): \(message)" }
            // `FIELD REQUIREMENT, got VALUE`: the requirement in the reader's
            // language when the catalog has it (the daemon's words are English).
            let rest = message.dropFirst(wire.count + 1)
            if let got = rest.ranges(of: ", got ").last {
                return Lf("%1$s %2$s, got %3$s", name, requirement(String(rest[..<got.lowerBound])),
                          relocalized(String(rest[got.upperBound...]), among: ValidationError.templates))
            }
            return name + message.dropFirst(wire.count)
        case _ where !declared.message.isEmpty:
            // The daemon's English, in the reader's language where the catalog has it.
            return L(declared.message)
        case .notRinging:
            return L("nothing is ringing")
        case .snoozeNotAllowed(let id, _):
            return Lf("%1$s %2$s may not be snoozed now", L(subject), shown(id))
        case .storeFailure:
            return L("alarmd could not save the change; nothing was changed")
        case .invalidRequest:
            return error.description
        }
    }

    /// An id as the daemon sent it, quoted; `?` for an error without one.
    static func shown(_ id: String) -> String { id.isEmpty ? "?" : inQuotes(id) }

    /// The items an ambiguous id or name matches, a line each: the shortest
    /// id prefix (8 characters at least) that tells them apart, and the
    /// label or title when the daemon sent them.
    static func candidates(_ ids: [String], titles: [String]) -> String {
        var length = 8
        while length < 36, Set(ids.map { $0.prefix(length) }).count < ids.count { length += 1 }
        return ids.indices.map { index in
            let title = titles.count == ids.count ? "  " + inQuotes(titles[index]) : ""
            return "\n  " + ids[index].prefix(length) + title
        }.joined()
    }

    /// An error `io.alarmd` does not declare: the standard Varlink ones in
    /// words, any other by its message, or its name and parameters.
    static func undeclared(_ error: VarlinkError) -> String {
        if error.parameters["message"]?.stringValue?.isEmpty == false { return error.description }
        switch error.name {
        case "org.varlink.service.MethodNotFound", "org.varlink.service.InterfaceNotFound":
            return Lf("this alarmd does not offer %s; is it older than alarmctl?", error.description)
        case "org.varlink.service.PermissionDenied":
            return L("alarmd refused the request: permission denied")
        default:
            return error.description
        }
    }
}
