// SPDX-License-Identifier: Apache-2.0
import Adwaita
import AlarmCore
import AlarmProtocol
import AlarmViewModels
import CAdwaita

/// Timers: presets (1, 5, 10, 15, 25 min) and a custom length start one;
/// each timer shows its countdown, Pause (or Resume), +1 min and Cancel,
/// under "Running" ("Paused" when all of them are). A timer is a
/// reminder the daemon rings like an alarm, so it rings with the app closed.
final class TimersPage: WidgetWrapper {
    let widget: Widget
    private let session: AppSession
    private var list = ReminderList(content: .timers)
    private let running = PreferencesGroup(title: L("Running"))
    private var rows: [String: (row: ActionRow, remaining: Label, pause: Button, more: Button, cancel: Button)] = [:]
    /// What a row says besides its countdown; the once-a-second tick touches
    /// the row only when this changes.
    private struct Look: Equatable {
        let title, pauseName, moreTimeName, cancelName: String
        let isPaused, isCounting: Bool
    }
    private var looks: [String: Look] = [:]
    private let custom = Entry(placeholder: L("Minutes, or h:mm:ss"))
    private let customError = Label(classes: ["error", "caption"])
    private let label = Entry(placeholder: L("Timer"))

    init(session: AppSession) {
        self.session = session
        let body = Box(vertical: true, spacing: 18)
        body.widget.setMargins(top: 18, bottom: 18, start: 12, end: 12)
        let clamp = Widget(adw_clamp_new())
        adw_clamp_set_maximum_size(clamp.c(), 640)
        adw_clamp_set_child(clamp.c(), body.widget.pointer)
        widget = ScrolledWindow(clamp).widget
        let presets = FlowBox(maxPerLine: UInt32(TimerPresets.minutes.count))
        for minutes in TimerPresets.minutes {
            let button = Button(text: TimerPresets.name(minutes: minutes, in: appLanguage),
                                accessibleName: Lf("Start a %d-minute timer", minutes), classes: ["pill"])
            presets.append(button)
            button.onClicked { [unowned self] in self.start(seconds: minutes * 60) }
        }
        let startGroup = PreferencesGroup(title: L("New Timer"))
        let customRow = ActionRow(title: L("Length"))
        custom.widget.setAccessibleLabel(L("Timer length"))
        custom.widget.align(vertical: GTK_ALIGN_CENTER)
        custom.setWidthChars(8)
        custom.activatesDefault()
        let go = Button(label: L("_Start"), classes: ["suggested-action"])
        go.widget.align(vertical: GTK_ALIGN_CENTER)
        customRow.addSuffix(custom)
        customRow.addSuffix(go)
        let labelRow = ActionRow(title: L("Label"))
        label.widget.setAccessibleLabel(L("Timer label"))
        label.widget.align(vertical: GTK_ALIGN_CENTER)
        label.setWidthChars(8)
        labelRow.addSuffix(label)
        startGroup.add(customRow)
        startGroup.add(labelRow)
        customError.setXAlign(0)
        customError.widget.isVisible = false
        body.append(presets).append(startGroup).append(customError).append(running)
        running.widget.isVisible = false
        go.onClicked { [unowned self] in self.startCustom() }
        Signal.connect(custom.widget.raw, "activate") { [unowned self] in self.startCustom() }
    }

    func focusCustom() { custom.widget.grabFocus() }

    func reload() {
        guard let reply = try? session.call(ListReminders.self, ListReminders.Request(all: false)) else { return }
        let items = ReminderItem.list(reply.reminders)
        list = ReminderList(items, content: .timers)
        show()
    }

    func apply(_ events: [WatchEvent]) {
        guard list.apply(events) else { return reload() }
        show()
    }

    /// A handful of rows, made again when the set of timers changes.
    private func show() {
        let ids = Set(list.visible.map(\.id))
        for (id, entry) in rows where !ids.contains(id) {
            adw_preferences_group_remove(running.widget.c(), entry.row.widget.pointer)
            rows[id] = nil
            looks[id] = nil
        }
        for item in list.visible where rows[item.id] == nil {
            let row = ActionRow(title: item.title)
            let remaining = Label(classes: ["title-3", "numeric"])
            let pause = Button(icon: "media-playback-pause-symbolic", accessibleName: L("Pause"), classes: ["flat", "circular"])
            let more = Button(text: L("+1 min"), accessibleName: L("One more minute"), classes: ["flat"])
            let cancel = Button(icon: "process-stop-symbolic", accessibleName: L("Cancel"), classes: ["flat", "circular"])
            let id = item.id
            pause.onClicked { [unowned self] in
                if let timer = self.list[id: id] { self.change(timer, .pauseOrResume(timer)) }
            }
            more.onClicked { [unowned self] in
                if let timer = self.list[id: id] { self.change(timer, TimerRow.moreTime) }
            }
            cancel.onClicked { [unowned self] in
                if self.session.perform(RemoveReminder.self, IDRequest(id: id)) != nil {
                    self.list.remove(id: id)
                    self.show()
                }
            }
            row.addSuffix(remaining)
            for button in [pause, more, cancel] {
                button.widget.align(vertical: GTK_ALIGN_CENTER)
                row.addSuffix(button)
            }
            running.add(row)
            rows[id] = (row, remaining, pause, more, cancel)
        }
        running.widget.isVisible = !rows.isEmpty
        tick()
    }

    /// The countdowns, once a second; the group is "Paused" while every
    /// timer in it is.
    func tick() {
        defer {
            let title = !looks.isEmpty && looks.values.allSatisfy(\.isPaused) ? L("Paused") : L("Running")
            if running.title != title { running.title = title }
        }
        let now = session.now
        for item in list.visible {
            guard let entry = rows[item.id] else { continue }
            let row = TimerRow(item, now: now, language: appLanguage)
            entry.remaining.text = row.isRinging ? L("Ringing") : row.remainingText
            let look = Look(title: row.title, pauseName: row.pauseName, moreTimeName: row.moreTimeName, cancelName: row.cancelName,
                            isPaused: row.isPaused, isCounting: !row.isRinging && !row.isSnoozed)
            guard looks[item.id] != look else { continue }
            looks[item.id] = look
            // Renamed elsewhere (alarmctl edit), the row follows.
            entry.row.title = row.title
            entry.row.subtitle = row.isPaused ? L("Paused") : ""
            entry.pause.setIcon(row.isPaused ? "media-playback-start-symbolic" : "media-playback-pause-symbolic")
            // Pause and more time are for a countdown; a ringing timer has Stop and Snooze.
            entry.pause.widget.isVisible = look.isCounting
            entry.more.widget.isVisible = look.isCounting
            for (button, name) in [(entry.pause, row.pauseName), (entry.more, row.moreTimeName), (entry.cancel, row.cancelName)] {
                button.widget.setAccessibleLabel(name)
                button.widget.setTooltip(name)
            }
        }
    }

    /// Pauses, resumes or gives more time to `timer`; the reply shows at once.
    private func change(_ timer: ReminderItem, _ change: TimerChange) {
        switch change.request(for: timer, now: session.now, zone: session.zone) {
        case .success(let request):
            guard let reply = session.perform(UpdateReminder.self, request), let item = ReminderItem.one(reply.reminder) else { return }
            list.update(item)
            show()
            session.toast(ToastText.timerChanged(change, TimerRow(item, now: session.now, language: appLanguage), language: appLanguage))
        case .failure(let refusal):
            session.toast(ToastText.timerRefused(refusal, title: timer.title, language: appLanguage))
        }
    }

    private func startCustom() {
        switch TimerDuration.parse(custom.text, in: appLanguage) {
        case .success(let seconds):
            customError.widget.isVisible = false
            start(seconds: seconds)
        case .failure(let problem):
            customError.text = problem.message
            customError.widget.isVisible = true
        }
    }

    private func start(seconds: Int) {
        let request = TimerPresets.startRequest(seconds: seconds, label: label.text, now: session.now, zone: session.zone, language: appLanguage)
        guard let reply = session.perform(AddReminder.self, request), let item = ReminderItem.one(reply.reminder) else { return }
        list.update(item)
        show()
        session.toast(ToastText.timerStarted(seconds: seconds, language: appLanguage))
    }
}
