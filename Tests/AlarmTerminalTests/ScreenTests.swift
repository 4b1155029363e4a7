// SPDX-License-Identifier: Apache-2.0
@testable import AlarmTerminal
import AlarmCore
import AlarmProtocol
import AlarmViewModels
import FoundationEssentials
import Glibc
import Terminal
import Testing

/// The terminal interface's screens and forms as values: what each key
/// does to a form, what a form sends, and how the screen is laid out, with
/// no terminal and no daemon (the client's socket does not exist, and
/// nothing here calls it).
@Suite struct ScreenTests {
    init() { setlocale(LC_CTYPE, "C.UTF-8") }

    static let now = Date(timeIntervalSince1970: 1_796_371_200) // 2026-12-04 (Fri) 00:00 UTC
    static let today = Zone.utc.rules.localDay(at: 1_796_371_200)

    static func controller() -> TerminalController {
        TerminalController(client: DaemonClient(path: "/nonexistent/io.alarmd"), zone: .utc, language: SourceLocalization.source)
    }

    static func alarm(_ id: String, _ hour: Int, _ minute: Int, days: RepeatDays = .never, label: String, enabled: Bool = true) -> AlarmItem {
        AlarmItem(id: id, time: try! TimeOfDay(hour: hour, minute: minute), days: days, label: label, enabled: enabled)
    }

    /// A long repeat is shown whole where the labels are short and the
    /// screen wide; a narrow screen still cuts, every row on one line.
    @Test func theRepeatColumnTakesWhatShortLabelsLeave() {
        var rule = RecurrenceRule(.weekly, interval: 2, byDay: [Weekday.monday, .wednesday, .friday].map { RecurrenceRule.DayOfWeek($0) }, start: Self.today)
        rule.exceptions = [Self.today + 14, Self.today + 21, Self.today + 28]
        let item = AlarmItem(id: "a1", time: try! TimeOfDay(hour: 7, minute: 0), rule: rule, label: "Gym")
        let row = AlarmRow(item, now: Self.now, zone: .utc, language: SourceLocalization.source)
        #expect(TextWidth.columns(row.repeatText) > 32, "\(row.repeatText)")
        #expect(AlarmColumns([row], width: 120, language: SourceLocalization.source).repeatWidth == TextWidth.columns(row.repeatText))
        let narrow = AlarmColumns([row], width: 60, language: SourceLocalization.source)
        #expect(narrow.lines([row], selected: -1).allSatisfy { TextWidth.columns($0.text) <= 60 })
    }

    // MARK: Keys

    @Test func noKeyMeansTwoThingsAtOnce() {
        for tab in Tab.allCases {
            for ringing in [false, true] {
                let live = KeyBinding.table.filter { $0.applies(on: tab, ringing: ringing) }
                var seen: [Key: Action] = [:]
                for binding in live {
                    for key in binding.keys {
                        // The first binding wins (the ringing keys, then the tab's); a
                        // later one for the same key in the same scope would never run.
                        if let earlier = seen[key] {
                            #expect(earlier == binding.action || binding.scope == .everywhere,
                                    "\(key) is both \(earlier) and \(binding.action) on \(tab)")
                        } else {
                            seen[key] = binding.action
                        }
                    }
                }
            }
        }
        #expect(KeyBinding.action(for: .character("z"), on: .alarms, ringing: true) == .snooze)
        #expect(KeyBinding.action(for: .character("z"), on: .alarms, ringing: false) == nil)
        #expect(KeyBinding.action(for: .character(" "), on: .todos, ringing: false) == .toggle)
        #expect(KeyBinding.action(for: .character("J"), on: .todos, ringing: false) == .moveDown)
        #expect(KeyBinding.action(for: .character("2"), on: .alarms, ringing: false) == .showTab(.todos))
    }

    // MARK: Forms

    @Test func theAlarmFormSendsWhatTheAppsFormSends() {
        var editor = Editor.alarm(nil, today: Self.today, language: SourceLocalization.source)
        // The time is typed over; Weekdays is two presets to the right of Never.
        for character in "6:45" { _ = editor.handle(.character(character)) }
        _ = editor.handle(.tab)
        _ = editor.handle(.right)
        _ = editor.handle(.right)
        _ = editor.handle(.tab)
        for character in "Gym" { _ = editor.handle(.character(character)) }
        #expect(editor.handle(.enter) == .save)
        Self.expectAddAlarm(&editor) { form in
            form.hour = 6
            form.minute = 45
            form.preset = .weekdays
            form.label = "Gym"
        }
    }

    /// The editor's request is `AddAlarm`, with what the app's `AlarmForm`
    /// sends once `fill` has set it.
    static func expectAddAlarm(_ editor: inout Editor, fill: (inout AlarmForm) -> Void) {
        guard case .addAlarm(let request)? = editor.request(now: Self.now, zone: .utc, language: SourceLocalization.source) else {
            Issue.record("no AddAlarm: \(editor.errors)")
            return
        }
        var form = AlarmForm(today: Self.today, language: SourceLocalization.source)
        fill(&form)
        #expect(request.json == (try? form.addRequest())?.json)
    }

    /// An alarm's own repeat that no preset is (once on a date) is the first
    /// of ←/→'s choices: passing it by to try a preset, it can be had back.
    @Test func anEditedAlarmsOwnRepeatIsAmongThePresets() {
        let xmas = Self.today + 20
        let item = AlarmItem(id: "a1", time: try! TimeOfDay(hour: 7, minute: 0), rule: .once(on: xmas), label: "Xmas")
        var editor = Editor.alarm(item, today: Self.today, language: SourceLocalization.source)
        _ = editor.handle(.tab)
        _ = editor.handle(.right)
        guard case .alarm(let preset) = editor.kind else { Issue.record("no alarm form"); return }
        #expect(preset.more == nil && preset.days == .never, "→ goes to the first preset, Never")
        _ = editor.handle(.left)
        guard case .alarm(let own) = editor.kind else { Issue.record("no alarm form"); return }
        #expect(own.more == .once(day: xmas), "← comes back to its own date")
        _ = editor.handle(.left)
        _ = editor.handle(.right)
        guard case .alarm(let again) = editor.kind else { Issue.record("no alarm form"); return }
        #expect(again.more == .once(day: xmas), "the presets go round through it")
    }

    @Test func aBadTimeStaysTypedWithItsMessage() {
        var editor = Self.alarmEditor(typing: "25:99")
        #expect(editor.request(now: Self.now, zone: .utc, language: SourceLocalization.source) == nil)
        #expect(editor.errors[.time]?.contains("\"25:99\"") == true, "\(editor.errors)")
        #expect(editor.texts[.time]?.text == "25:99")
        #expect(editor.handle(.escape) == .cancel)
    }

    /// A new alarm's form with `time` typed into its Time field.
    static func alarmEditor(typing time: String) -> Editor {
        var editor = Editor.alarm(nil, today: Self.today, language: SourceLocalization.source)
        for character in time { _ = editor.handle(.character(character)) }
        return editor
    }

    @Test func aDayWithTheTimeMakesAOneOffAlarm() {
        var editor = Self.alarmEditor(typing: "tomorrow 9:15")
        Self.expectAddAlarm(&editor) { form in
            form.hour = 9
            form.minute = 15
            form.more = .once(day: Self.today + 1)
        }
    }

    /// A repeat in words with the time, as alarmctl add takes it, sets the
    /// Repeat row; a message under a field is wrapped at 80 columns, not cut.
    @Test func aRepeatSaidWithTheTimeSetsTheRepeat() {
        var editor = Self.alarmEditor(typing: "6:45 weekdays")
        Self.expectAddAlarm(&editor) { form in
            form.hour = 6
            form.minute = 45
            form.days = .weekdays
        }
        // Leaving the field, the Repeat row takes the repeat and the field the
        // time; a preset picked after it is what is saved.
        var left = Self.alarmEditor(typing: "6:45 weekdays")
        _ = left.handle(.tab)
        guard case .alarm(let taken) = left.kind else { Issue.record("no alarm form"); return }
        #expect(taken.days == .weekdays && left.texts[.time]?.text == "6:45", "\(taken.days) \(String(describing: left.texts[.time]?.text))")
        _ = left.handle(.right)
        guard case .alarm(let picked) = left.kind else { Issue.record("no alarm form"); return }
        Self.expectAddAlarm(&left) { form in
            form.hour = 6
            form.minute = 45
            form.days = picked.days
            form.more = picked.more
        }
        #expect(picked.days != .weekdays || picked.more != nil, "→ picked another preset")
        var fortnightly = Self.alarmEditor(typing: "6:15 every 2 weeks on fri")
        Self.expectAddAlarm(&fortnightly) { form in
            form.hour = 6
            form.minute = 15
            form.days = RepeatDays(.friday)
            form.more = .everyWeeks(2)
        }
        var bad = Self.alarmEditor(typing: "tomorrow 7:30 weekdays")
        #expect(bad.request(now: Self.now, zone: .utc, language: SourceLocalization.source) == nil)
        let message = bad.errors[.time] ?? ""
        let shown = EditorRenderer.lines(bad, width: 80, language: SourceLocalization.source).lines.map(\.text).joined(separator: " ")
        #expect(!message.isEmpty && shown.split(separator: " ").joined(separator: " ").contains(message), "\(shown)")
    }

    @Test func aFieldReachedWithTabOrAnErrorIsTypedOver() {
        var editor = Editor.todo(nil, zone: .utc, language: SourceLocalization.source)
        for character in "Milk" { _ = editor.handle(.character(character)) }
        _ = editor.handle(.tab)
        for character in "someday" { _ = editor.handle(.character(character)) }
        #expect(editor.request(now: Self.now, zone: .utc, language: SourceLocalization.source) == nil)
        #expect(editor.focused == .due)
        for character in "fri" { _ = editor.handle(.character(character)) }
        #expect(editor.texts[.due]?.text == "fri")
        _ = editor.handle(.backTab)
        _ = editor.handle(.character("B"))
        #expect(editor.texts[.title]?.text == "B")
    }

    @Test func theKeyLineKeepsHelpAndQuitWhenShort() {
        let c = Self.controller()
        for width in [40, 60, 100] {
            let line = ScreenRenderer.render(c, rows: 20, columns: width, now: Self.now).canvas.text[19]
            #expect(line.contains("? All keys") && line.contains("q Quit"), "\(width): \(line)")
        }
    }

    @Test func eightyColumnsHoldEveryTabsHints() {
        let c = Self.controller()
        for tab in Tab.allCases {
            c.tab = tab
            let line = ScreenRenderer.render(c, rows: 20, columns: 80, now: Self.now).canvas.text[19]
            for binding in KeyBinding.hints(on: tab, ringing: false) {
                #expect(line.contains(binding.keyText + " " + binding.meaning), "\(tab): \(line)")
            }
        }
        c.tab = .alarms
        let wide = ScreenRenderer.render(c, rows: 20, columns: 120, now: Self.now).canvas.text[19]
        #expect(wide.contains("Add  Space On/off"), "two spaces when there is room: \(wide)")
    }

    @Test func daysAreToggledByNumber() {
        var editor = Editor.alarm(nil, today: Self.today, language: SourceLocalization.source)
        _ = editor.handle(.tab)
        for digit in "135" { _ = editor.handle(.character(digit)) }
        #expect(editor.currentDays == RepeatDays([.monday, .wednesday, .friday]))
        _ = editor.handle(.character("3"))
        #expect(editor.currentDays == RepeatDays([.monday, .friday]))
    }

    @Test func pauseTakesADayAndEmptyResumes() {
        var editor = Editor.pause(id: "a1", label: "Work")
        for character in "mon" { _ = editor.handle(.character(character)) }
        guard case .pause(let id, let until)? = editor.request(now: Self.now, zone: .utc, language: SourceLocalization.source) else {
            Issue.record("no pause: \(editor.errors)")
            return
        }
        #expect(id == "a1")
        #expect(until == Self.today + 3)
        var empty = Editor.pause(id: "a1", label: "Work")
        guard case .pause(_, nil)? = empty.request(now: Self.now, zone: .utc, language: SourceLocalization.source) else {
            Issue.record("empty should resume")
            return
        }
        var today = Editor.pause(id: "a1", label: "Work")
        for character in "today" { _ = today.handle(.character(character)) }
        #expect(today.request(now: Self.now, zone: .utc, language: SourceLocalization.source) == nil)
        #expect(today.errors[.until] != nil)
    }

    @Test func theTimerFormCyclesPresetsAndReadsLengths() {
        var editor = Editor.timer()
        #expect(editor.texts[.duration]?.text == "5")
        _ = editor.handle(.up)
        #expect(editor.texts[.duration]?.text == "10")
        for character in "1:30" { _ = editor.handle(.character(character)) }
        guard case .startTimer(_, let seconds)? = editor.request(now: Self.now, zone: .utc, language: SourceLocalization.source) else {
            Issue.record("no timer: \(editor.errors)")
            return
        }
        #expect(seconds == 90)
    }

    @Test func textFieldsEditAsALineEditorDoes() {
        var field = TextField("hello world")
        _ = field.handle(.control("w"))
        #expect(field.text == "hello ")
        _ = field.handle(.home)
        _ = field.handle(.character(">"))
        #expect(field.text == ">hello ")
        _ = field.handle(.end)
        _ = field.handle(.backspace)
        #expect(field.text == ">hello")
        var replaced = TextField("07:00", typingReplaces: true)
        _ = replaced.handle(.character("9"))
        #expect(replaced.text == "9")
        var kept = TextField("07:00", typingReplaces: true)
        _ = kept.handle(.backspace)
        #expect(kept.text == "07:0")
        var long = TextField()
        for _ in 0..<(TextField.limit + 50) { _ = long.handle(.character("x")) }
        #expect(long.text.count == TextField.limit)
    }

    // MARK: Layout

    @Test func everyRowFitsANarrowScreenOnOneLine() {
        let c = Self.controller()
        c.alarms = AlarmList([
            Self.alarm("a1", 7, 30, days: .weekdays, label: "Work with a rather long label that will not fit"),
            Self.alarm("a2", 9, 0, days: .weekends, label: "鬧鐘 ⏰ with wide characters everywhere"),
        ])
        for width in [20, 40, 60, 120] {
            let screen = ScreenRenderer.render(c, rows: 20, columns: width, now: Self.now).canvas
            for line in screen.lines { #expect(line.columns <= width, "\(width): \(line.text)") }
            let rows = screen.text.filter { $0.hasPrefix("[x] ") }
            #expect(rows.count == 2, "\(width): \(screen.text)")
        }
    }

    @Test func aLabelFromOutsideCannotReachTheTerminalAsControlCodes() {
        let c = Self.controller()
        c.alarms = AlarmList([Self.alarm("a1", 7, 30, label: "evil\u{1B}]0;owned\u{07}\u{1B}[2J")])
        let screen = ScreenRenderer.render(c, rows: 10, columns: 80, now: Self.now).canvas
        for line in screen.lines {
            for span in line.spans {
                #expect(!span.text.unicodeScalars.contains { $0.value < 0x20 || (0x7F..<0xA0).contains($0.value) }, "\(span.text)")
            }
        }
        #expect(screen.text.contains { $0.contains("evil\u{FFFD}]0;owned\u{FFFD}\u{FFFD}[2J") })
    }

    @Test func theChosenRowStaysInViewOverTenThousandAlarms() {
        let c = Self.controller()
        c.alarms = AlarmList((0..<10_000).map { Self.alarm("a\($0)", $0 / 60 % 24, $0 % 60, label: "Alarm \($0)") })
        _ = ScreenRenderer.render(c, rows: 30, columns: 100, now: Self.now)
        c.select(5_000)
        let screen = ScreenRenderer.render(c, rows: 30, columns: 100, now: Self.now).canvas
        let chosen = c.alarms.items[5_000].label
        #expect(screen.text.contains { $0.contains(chosen + " ") || $0.hasSuffix(chosen) })
        #expect(screen.lines.filter { $0.fill == .selected }.count == 1)
    }

    @Test func theChosenItemStaysChosenWhenTheListChanges() {
        let c = Self.controller()
        c.alarms = AlarmList([Self.alarm("a1", 7, 0, label: "Seven"), Self.alarm("a2", 8, 0, label: "Eight")])
        c.select(1)
        #expect(c.selectedAlarm?.id == "a2")
        // Added elsewhere, sorted in above: the highlight stays on Eight.
        c.alarms.update(Self.alarm("a0", 6, 0, label: "Six"))
        c.clampSelection()
        #expect(c.selectedAlarm?.id == "a2")
        // Removed: the row it was on.
        c.alarms.remove(id: "a2")
        c.clampSelection()
        #expect(c.selectedAlarm?.id == "a1")
    }

    @Test func aClickUnderTheListChangesNothing() {
        let c = Self.controller()
        c.alarms = AlarmList((0..<40).map { Self.alarm("a\($0)", $0 % 24, $0 % 60, label: "Alarm \($0)") })
        _ = ScreenRenderer.render(c, rows: 20, columns: 80, now: Self.now)
        // The key line (row 19) and the message line above it are no rows.
        for row in [18, 19] { c.handleMouse(Key.Mouse(.click, row: row, column: 1)) }
        #expect(c.selected == 0)
        #expect(c.message == nil)
        // A click on a row under the list's top chooses that row.
        c.handleMouse(Key.Mouse(.click, row: ScreenRenderer.listTop + 3, column: 10))
        #expect(c.selected == 3)
    }

    @Test func theHelpScrollsWhenTheScreenIsShort() {
        let c = Self.controller()
        c.showsHelp = true
        let first = ScreenRenderer.render(c, rows: 16, columns: 80, now: Self.now).canvas.text
        #expect(first.contains { $0.contains("↓ more") })
        for _ in 0..<40 { c.handle(.down) }
        let last = ScreenRenderer.render(c, rows: 16, columns: 80, now: Self.now).canvas.text
        #expect(last.contains { $0.contains("Timer: preset lengths") }, "\(last)")
        #expect(!last.contains { $0.contains("↓ more") })
        c.handle(.character("x"))
        #expect(!c.showsHelp)
    }

    /// A note under the list goes after a few seconds, as a toast does; an
    /// error stays until a key is pressed.
    @Test func aNoteGoesByItselfAnErrorStays() {
        let c = Self.controller()
        c.say("“Work” will ring as usual")
        c.expireNote(monotonic: 100)
        c.expireNote(monotonic: 100 + TerminalController.noteSeconds - 1)
        #expect(c.message?.text == "“Work” will ring as usual")
        c.expireNote(monotonic: 100 + TerminalController.noteSeconds)
        #expect(c.message == nil)
        c.say("alarmd is not running", error: true)
        c.expireNote(monotonic: 200)
        c.expireNote(monotonic: 300)
        #expect(c.message?.isError == true)
    }

    /// The help's columns are as wide as its longest meaning: none is cut,
    /// in one column on a narrow screen or in several on a wide one.
    @Test func theHelpCutsNoMeaning() {
        let c = Self.controller()
        for width in [60, 80, 200] {
            let text = ScreenRenderer.helpLines(c, width: width).map(\.text).joined(separator: "\n")
            #expect(text.contains("Undo deletes, dones and skips, latest first"), "\(width): \(text)")
            #expect(text.contains("Repeat: presets; snooze: minutes"), "\(width): \(text)")
        }
    }

    /// The chosen to-do's pane: when it is due once, not its first note
    /// line again; its notes line by line, as many as it has room for.
    @Test func theToDoPaneShowsEachLineOfTheNotesOnce() {
        let item = ReminderItem(id: "t1", title: "Gym", notes: "line one\nline two\nline three", due: Self.now.addingTimeInterval(3600))
        let text = ScreenRenderer.detailLines(item, now: Self.now, zone: .utc, language: SourceLocalization.source, width: 60, noteLines: 5).map(\.text)
        #expect(text.dropFirst() == [" Gym", " Due 09:00", " line one", " line two", " line three"], "\(text)")
        let short = ScreenRenderer.detailLines(item, now: Self.now, zone: .utc, language: SourceLocalization.source, width: 60, noteLines: 2).map(\.text)
        #expect(short.suffix(2) == [" line one", " line two …"], "\(short)")
    }

    /// A screen too small to show anything says so, and keys that act on
    /// what cannot be seen do nothing until it grows; q still quits.
    @Test func aTinyScreenSaysSoAndIgnoresKeys() {
        let c = Self.controller()
        let screen = ScreenRenderer.render(c, rows: 4, columns: 30, now: Self.now).canvas
        #expect(screen.text.first == "Make the window larger")
        c.handle(.character("a"))
        #expect(c.editor == nil, "no form opened unseen")
        c.handle(.character("?"))
        #expect(!c.showsHelp)
        _ = ScreenRenderer.render(c, rows: 24, columns: 80, now: Self.now)
        c.handle(.character("a"))
        #expect(c.editor != nil, "keys act again once it shows")
        c.editor = nil
        _ = ScreenRenderer.render(c, rows: 4, columns: 30, now: Self.now)
        c.handle(.character("q"))
        #expect(!c.running)
    }
}
