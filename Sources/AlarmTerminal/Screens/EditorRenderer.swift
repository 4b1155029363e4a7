// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmViewModels
import Terminal

/// An open form as lines: its title, one row per field (the focused one
/// marked, its help under it), each field's message under it, and the
/// form's own message last; the cursor's place in a text field.
enum EditorRenderer {
    static func lines(_ editor: Editor, width: Int, language l: some Localization) -> (lines: [Line], cursor: (row: Int, column: Int)?) {
        var lines = [Line([Span(" " + title(editor, l), .bold)]), Line()]
        var cursor: (row: Int, column: Int)?
        let names = editor.fields.map { name($0, l) }
        let nameWidth = (names.map(TextWidth.columns).max() ?? 0) + 2
        let valueWidth = max(8, min(48, width - nameWidth - 6))
        for (index, field) in editor.fields.enumerated() {
            let focused = index == editor.focus
            var line = Line()
            line.append(focused ? " › " : "   ", .accent)
            line.append(TextWidth.padded(names[index], nameWidth), focused ? .bold : .plain)
            if let text = editor.texts[field] {
                let shown = text.visible(width: valueWidth)
                line.append(TextWidth.padded(shown.text, valueWidth), focused ? .selected : .dim)
                if focused { cursor = (lines.count, 3 + nameWidth + shown.cursorColumn) }
            } else {
                line.spans += choice(editor, field, focused: focused, l)
            }
            lines.append(line)
            // A message or help under its field, whole: wrapped, never cut.
            let indent = String(repeating: " ", count: 3 + nameWidth)
            if let error = editor.errors[field] {
                for piece in TextWidth.wrapped(TextWidth.sanitized(error), width - indent.count - 1) { lines.append(Line(indent + piece, .error)) }
            }
            if focused, let help = help(editor, field, l) {
                for piece in TextWidth.wrapped(help, width - indent.count - 1) { lines.append(Line(indent + piece, .dim)) }
            }
        }
        if let error = editor.formError {
            lines.append(Line())
            for piece in TextWidth.wrapped(TextWidth.sanitized(error), width - 2) { lines.append(Line(" " + piece, .error)) }
        }
        return (lines, cursor)
    }

    static func title(_ editor: Editor, _ l: some Localization) -> String {
        switch editor.kind {
        case .alarm(let form): return form.isEditing ? l.L("Edit Alarm") : l.L("New Alarm")
        case .todo(let form): return form.isEditing ? l.L("Edit To-do") : l.L("New To-do")
        case .timer: return l.L("New Timer")
        case .pause(_, let label): return l.Lf("Pause “%s”", TextWidth.sanitized(label))
        }
    }

    static func name(_ field: Editor.Field, _ l: some Localization) -> String {
        switch field {
        case .time: return l.L("Time")
        case .repeatDays: return FormField.days.name(in: l)
        case .label: return FormField.label.name(in: l)
        case .sound: return FormField.sound.name(in: l)
        case .snooze: return l.L("Snooze")
        case .title: return FormField.title.name(in: l)
        case .due: return FormField.due.name(in: l)
        case .notes: return FormField.notes.name(in: l)
        case .duration: return FormField.duration.name(in: l)
        case .until: return l.L("Rings again on")
        }
    }

    /// The Repeat row (preset and days) and the Snooze row.
    static func choice(_ editor: Editor, _ field: Editor.Field, focused: Bool, _ l: some Localization) -> [Span] {
        switch (field, editor.kind) {
        case (.repeatDays, .alarm(let form)):
            return repeatSpans(form.more == nil ? form.preset.name(in: l) : form.repeatText, days: form.days, focused: focused, l)
        case (.repeatDays, .todo(let form)):
            return repeatSpans(form.keptRule == nil ? form.preset.name(in: l) : form.repeatText, days: form.repeatDays, focused: focused, l)
        case (.snooze, .alarm(let form)):
            let text = form.snoozeEnabled ? "[x] " + l.Lf("%d min", form.snoozeMinutes) : "[ ] " + l.L("Off")
            return [Span(focused ? "‹ " + text + " ›" : text, focused ? .selected : .plain)]
        default:
            return []
        }
    }

    private static func repeatSpans(_ name: String, days: RepeatDays, focused: Bool, _ l: some Localization) -> [Span] {
        var spans = [Span(focused ? "‹ " + name + " ›" : name, focused ? .selected : .plain), Span("  ")]
        for day in Weekday.weekOrder {
            spans.append(Span(l.weekday(day), days.contains(day) ? .bold : .dim))
            spans.append(Span(" "))
        }
        return spans
    }

    static func help(_ editor: Editor, _ field: Editor.Field, _ l: some Localization) -> String? {
        switch field {
        case .time: return l.L("7:30, 19:30, 7am; once: tomorrow 9:15, in 25 min; 7:30 weekdays")
        case .repeatDays: return l.L("←/→ preset · 1–7 switch Monday to Sunday")
        case .label:
            if case .timer = editor.kind { return l.L("Empty: its length, as “Timer 5:00”") }
            return l.Lf("Empty: “%s”", l.L(Alarm.defaultLabel))
        case .sound: return l.L("A sound name or a file; empty keeps the usual one · Ctrl+P plays it")
        case .snooze: return l.L("Space on/off · ←/→ minutes")
        case .due: return l.L("Empty for none; tomorrow 9:00, fri, dec 24 18:00")
        case .duration: return l.L("25 (minutes), 1:30, 1h 30m · ↑/↓ presets")
        case .until: return l.L("A day: tomorrow, mon, dec 24, 2027-01-04; empty rings again now")
        case .title, .notes: return nil
        }
    }
}
