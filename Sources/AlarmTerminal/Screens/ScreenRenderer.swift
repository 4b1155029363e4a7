// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmProtocol
import AlarmViewModels
import FoundationEssentials
import Terminal

/// The whole screen as a ``Canvas``, from the controller's state and the
/// time: the tab bar, the daemon's state, the list (or the open form, or
/// the keys), what rings, the last message and the key hints. No terminal
/// is touched, so layout is tested as a value. It keeps the chosen row in
/// view (the controller's `scroll`) as it lays the list out.
enum ScreenRenderer {
    /// The first screen row of the list.
    static let listTop = 2
    /// The switch or check box at the start of each row.
    static let switchColumns = 4

    /// The screen, and where the cursor goes (in a form's text field).
    static func render(_ c: TerminalController, rows: Int, columns: Int, now: Date) -> (canvas: Canvas, cursor: (row: Int, column: Int)?) {
        var canvas = Canvas(width: columns, height: rows)
        let l = c.language
        c.isTooSmall = rows < 6 || columns < 20
        guard !c.isTooSmall else {
            canvas.set(0, Line(l.L("Make the window larger"), .warning))
            return (canvas, nil)
        }
        canvas.set(0, tabBar(c, width: columns))
        canvas.set(1, statusLine(c, width: columns))
        var bottom = rows - 1
        canvas.set(bottom, hintLine(c, width: columns))
        bottom -= 1
        canvas.set(bottom, messageLine(c))
        if let ringing = c.ringing {
            // Its keys only while no form is open: a form takes z and x as text.
            bottom -= c.editor == nil ? 2 : 1
            let snooze = ringing.snoozeChoices.first.map { "z " + ringing.snoozeLabel + ($0.minutes == nil ? "" : " " + $0.text) + "   " } ?? ""
            let others = ringing.othersText.map { " · " + $0 } ?? ""
            canvas.set(bottom, Line([Span(" ⏰ " + l.Lf("Ringing: %1$s · %2$s", TextWidth.sanitized(ringing.title), ringing.timeText) + others, .ringing)],
                                    fill: .ringing))
            if c.editor == nil { canvas.set(bottom + 1, Line([Span(" " + snooze + "x " + ringing.stopLabel, .bold)])) }
        }
        var cursor: (row: Int, column: Int)?
        if c.showsHelp {
            // Scrolled by ↑/↓; the last line says when more is below.
            let lines = helpLines(c, width: columns)
            let room = bottom - listTop
            c.pageRows = room
            c.helpScroll = max(0, min(c.helpScroll, lines.count - room))
            for (index, line) in lines.dropFirst(c.helpScroll).prefix(room).enumerated() { canvas.set(listTop + index, line) }
            if c.helpScroll + room < lines.count { canvas.set(bottom - 1, Line(" " + l.L("↓ more"), .dim)) }
        } else if let editor = c.editor {
            let form = EditorRenderer.lines(editor, width: columns, language: l)
            for (index, line) in form.lines.enumerated() where listTop + index < bottom {
                canvas.set(listTop + index, line)
            }
            if let at = form.cursor, listTop + at.row < bottom { cursor = (listTop + at.row, at.column) }
        } else {
            var listBottom = bottom
            if c.tab == .todos, rows >= 16, let item = c.selectedTodo {
                // Notes get up to a third of the list's room; the list keeps the rest.
                let detail = detailLines(item, now: now, zone: c.zone, language: l, width: columns, noteLines: max(2, (bottom - listTop) / 3 - 3))
                listBottom -= detail.count
                for (index, line) in detail.enumerated() { canvas.set(listBottom + index, line) }
            }
            let lines = listLines(c, rows: listBottom - listTop, width: columns, now: now)
            for (index, line) in lines.enumerated() { canvas.set(listTop + index, line) }
        }
        return (canvas, cursor)
    }

    // MARK: Chrome

    static func tabTitles(_ c: TerminalController) -> [String] {
        Tab.allCases.map { tab in " \(tab.rawValue + 1) \(tab.name(in: c.language)) (\(c.count(tab))) " }
    }

    static func tabBar(_ c: TerminalController, width: Int) -> Line {
        var line = Line()
        for (index, title) in tabTitles(c).enumerated() {
            line.append(title, index == c.tab.rawValue ? .activeTab : .tab)
            line.append(" ")
        }
        return line
    }

    /// The tab whose title is at `column` of the tab bar, as drawn now.
    static func tab(atColumn column: Int, of c: TerminalController) -> Tab? {
        var start = 0
        for (tab, title) in zip(Tab.allCases, tabTitles(c)) {
            let width = TextWidth.columns(title) + 1
            if column >= start, column < start + width { return tab }
            start += width
        }
        return nil
    }

    /// The daemon out of reach, or its most important warning; else a rule.
    static func statusLine(_ c: TerminalController, width: Int) -> Line {
        let l = c.language
        let reachability: Reachability = c.reachable ? .connected : .unreachable(path: c.client.path)
        if let banner = StatusBanner(reachability: reachability, status: c.status, language: l) {
            let suffix = c.reachable ? "" : " · " + l.L("reconnecting…")
            return Line(TextWidth.sanitized(banner.title) + suffix, .warning)
        }
        return Line(String(repeating: "─", count: width), .dim)
    }

    static func messageLine(_ c: TerminalController) -> Line {
        guard let message = c.message else { return Line() }
        return Line(" " + TextWidth.sanitized(message.text), message.isError ? .error : .accent)
    }

    static func hintLine(_ c: TerminalController, width: Int) -> Line {
        let l = c.language
        var pairs: [(String, String)]
        if c.showsHelp {
            pairs = [("↑ ↓", l.L("Scroll")), (l.L("any other key"), l.L("Close"))]
        } else if let editor = c.editor {
            pairs = [("Enter", l.L("Save")), ("Esc", l.L("Cancel")), ("Tab", l.L("Next field"))]
            if editor.fields.contains(.sound) { pairs.append(("Ctrl+P", l.L("Play sound"))) }
        } else {
            pairs = KeyBinding.hints(on: c.tab, ringing: c.ringing != nil).map { ($0.keyText, l.L($0.meaning)) }
        }
        // Two spaces part the pairs, one when that lets every pair in (80
        // columns hold all of a tab's that way). The last two (? and q on the
        // lists) are always shown; of the rest, those that no longer fit go.
        let kept = c.editor == nil && !c.showsHelp ? Array(pairs.suffix(2)) : []
        let rest = pairs.dropLast(kept.count)
        func columns(_ pair: (String, String), gap: Int) -> Int { TextWidth.columns(pair.0) + TextWidth.columns(pair.1) + 2 + gap }
        let gap = pairs.reduce(0) { $0 + columns($1, gap: 1) } <= width ? " " : ""
        func columns(_ pair: (String, String)) -> Int { columns(pair, gap: gap.count) }
        var room = width - kept.reduce(0) { $0 + columns($1) }
        var line = Line()
        for pair in rest {
            if columns(pair) > room { break }
            room -= columns(pair)
            line.append(" " + pair.0, .accent)
            line.append(" " + pair.1 + gap)
        }
        for pair in kept {
            line.append(" " + pair.0, .accent)
            line.append(" " + pair.1 + gap)
        }
        return line
    }

    // MARK: Lists

    static func listLines(_ c: TerminalController, rows: Int, width: Int, now: Date) -> [Line] {
        guard rows > 0 else { return [] }
        c.pageRows = rows
        let count = c.rowCount
        let l = c.language
        guard count > 0 else {
            let empty: String
            switch c.tab {
            case .alarms: empty = l.L("No alarms. Press a to set one; it rings whether this screen is open or not.")
            case .todos: empty = l.L("Nothing to do. Press a to add a to-do.")
            case .timers: empty = l.L("No timers. Press a to start one.")
            }
            return [Line(), Line("  " + empty, .dim)]
        }
        var top = c.scroll[c.tab] ?? 0
        let selected = c.selected
        if selected < top { top = selected }
        if selected >= top + rows { top = selected - rows + 1 }
        top = max(0, min(top, count - rows))
        c.scroll[c.tab] = top
        let shown = top..<min(count, top + rows)
        switch c.tab {
        case .alarms:
            let rows = shown.map { AlarmRow(c.alarms.items[$0], now: now, zone: c.zone, language: l) }
            return AlarmColumns(rows, width: width, language: l).lines(rows, selected: selected - top)
        case .todos:
            let rows = shown.map { ReminderRow(c.todos.visible[$0], now: now, zone: c.zone, language: l) }
            return zip(shown, rows).map { index, row in todoLine(row, width: width, selected: index == selected) }
        case .timers:
            return shown.map { index in
                let row = TimerRow(c.timers.visible[index], now: now, language: l)
                return timerLine(row, width: width, selected: index == selected, language: l)
            }
        }
    }

    static func todoLine(_ row: ReminderRow, width: Int, selected: Bool) -> Line {
        let check = row.done ? "[x] " : "[ ] "
        let title = TextWidth.sanitized(row.title)
        let subtitle = TextWidth.sanitized(row.subtitle)
        let titleWidth = min(TextWidth.columns(title), max(10, (width - switchColumns) * 3 / 5))
        var line = Line(fill: selected ? .selected : .plain)
        line.append(check, selected ? .selected : .plain)
        line.append(TextWidth.padded(title, titleWidth), selected ? .selected : (row.isRinging ? .ringing : .bold))
        if !subtitle.isEmpty { line.append("  " + subtitle, selected ? .selected : row.isOverdue ? .error : .dim) }
        return line
    }

    static func timerLine(_ row: TimerRow, width: Int, selected: Bool, language l: some Localization) -> Line {
        let remaining = row.isRinging ? l.L("ringing") : row.isSnoozed ? l.Lf("snoozed, %s", row.remainingText)
            : row.isPaused ? l.Lf("paused, %s", row.remainingText) : row.remainingText
        let remainingWidth = max(8, TextWidth.columns(remaining))
        let title = TextWidth.padded("  " + TextWidth.sanitized(row.title), max(1, width - remainingWidth - 2))
        var line = Line(fill: selected ? .selected : .plain)
        line.append(title, selected ? .selected : .plain)
        line.append(TextWidth.padded(remaining, remainingWidth, right: true), selected ? .selected : (row.isRinging ? .ringing : .bold))
        return line
    }

    /// The chosen to-do under the list: its title, when it is due and how
    /// it repeats, and up to `noteLines` lines of its notes (the last saying
    /// `…` when more are left out).
    static func detailLines(_ item: ReminderItem, now: Date, zone: Zone, language l: some Localization, width: Int, noteLines: Int = 2) -> [Line] {
        var lines = [Line(String(repeating: "─", count: width), .dim)]
        let row = ReminderRow(item, now: now, zone: zone, language: l)
        lines.append(Line([Span(" " + TextWidth.sanitized(item.title), .bold)]))
        let due = row.whenText.isEmpty ? l.L("No due date") : row.whenText
        lines.append(Line(" " + TextWidth.sanitized(due), .dim))
        let notes = item.notes.isEmpty ? [] : item.notes.split(separator: "\n", omittingEmptySubsequences: false)
        for (index, note) in notes.prefix(noteLines).enumerated() {
            let more = index == noteLines - 1 && notes.count > noteLines
            lines.append(Line(" " + TextWidth.sanitized(String(note)) + (more ? " …" : "")))
        }
        return lines
    }

    // MARK: Help

    static func helpLines(_ c: TerminalController, width: Int) -> [Line] {
        let l = c.language
        var sections: [(String, [(String, String)])] = []
        func add(_ title: String, _ scope: KeyBinding.Scope) {
            sections.append((title, KeyBinding.table.filter { $0.scope == scope }.map { ($0.keyText, l.L($0.meaning)) }))
        }
        for tab in Tab.allCases { add(tab.name(in: l), .tab(tab)) }
        add(l.L("While ringing"), .ringing)
        add(l.L("Everywhere"), .everywhere)
        sections.append((l.L("In a form"), [
            ("Tab ↓", l.L("Next field")), ("S-Tab ↑", l.L("Previous field")), ("Enter", l.L("Save")), ("Esc", l.L("Cancel")),
            ("← →", l.L("Repeat: presets; snooze: minutes")), ("1–7", l.L("Repeat: Monday to Sunday")),
            ("Ctrl+P", l.L("Alarm: play the sound")), ("↑ ↓", l.L("Timer: preset lengths")),
        ]))
        // Columns as wide as the longest meaning needs, so that none is cut;
        // one column uses the whole width.
        let longest = sections.flatMap(\.1).map { TextWidth.columns($0.1) }.max() ?? 0
        let cell = max(40, longest + 13)
        let perRow = max(1, width / cell)
        let meaningWidth = perRow == 1 ? max(1, width - 11) : cell - 11
        var lines: [Line] = []
        for (title, entries) in sections where !entries.isEmpty {
            lines.append(Line([Span(" " + title, .bold)]))
            var index = 0
            while index < entries.count {
                var line = Line()
                for (key, meaning) in entries[index..<min(entries.count, index + perRow)] {
                    line.append("   " + TextWidth.padded(key, 8), .accent)
                    line.append(TextWidth.padded(meaning, meaningWidth))
                }
                lines.append(line)
                index += perRow
            }
        }
        return lines
    }
}

/// The alarm list's columns: switch, time, repeat, label and the next ring,
/// sized to the rows shown and the screen. Every row stays on one line: the
/// next ring goes first when the screen is narrow, then the label and the
/// repeat are cut with `…`.
struct AlarmColumns {
    let time: Int
    let repeatWidth: Int
    let label: Int
    let next: Int

    init(_ rows: [AlarmRow], width: Int, language l: some Localization) {
        let samples = [TimeOfDay.nineAM] + [(0, 0), (11, 59), (12, 0), (23, 59)].compactMap { try? TimeOfDay(hour: $0.0, minute: $0.1) }
        time = samples.map { TextWidth.columns(l.time($0)) }.max() ?? 5
        let repeats = rows.map { TextWidth.columns(TextWidth.sanitized($0.repeatText)) }.max() ?? 0
        let labels = rows.map { TextWidth.columns(TextWidth.sanitized($0.labelText)) }.max() ?? 0
        let nexts = rows.map { TextWidth.columns($0.nextText) }.max() ?? 0
        var free = width - ScreenRenderer.switchColumns - time - 2
        var next = min(nexts, 28)
        if free - next - 2 < 20 { next = 0 }
        if next > 0 { free -= next + 2 }
        // The repeat has half the room, and what the labels leave of the rest.
        let repeatWidth = min(repeats, max(6, free / 2, free - labels - 2))
        self.repeatWidth = repeatWidth
        label = max(1, free - repeatWidth - 2)
        self.next = next
    }

    func lines(_ rows: [AlarmRow], selected: Int) -> [Line] {
        rows.enumerated().map { index, row in
            let isSelected = index == selected
            func style(_ normal: Style) -> Style { isSelected ? .selected : normal }
            var line = Line(fill: isSelected ? .selected : .plain)
            line.append(row.enabled ? "[x] " : "[ ] ", style(.plain))
            line.append(TextWidth.padded(row.timeText, time), style(row.isRinging ? .ringing : (row.enabled ? .bold : .dim)))
            line.append("  " + TextWidth.padded(TextWidth.sanitized(row.repeatText), repeatWidth), style(.plain))
            line.append("  " + TextWidth.padded(TextWidth.sanitized(row.labelText), label), style(.plain))
            if next > 0 { line.append("  " + TextWidth.padded(row.nextText, next, right: true), style(.dim)) }
            return line
        }
    }
}
