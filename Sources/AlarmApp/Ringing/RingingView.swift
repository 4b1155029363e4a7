// SPDX-License-Identifier: Apache-2.0
import Adwaita
import AlarmCore
import AlarmProtocol
import AlarmViewModels
import CAdwaita

/// While the app is open and something rings: the whole window says what,
/// with large Stop and Snooze buttons and the other snooze lengths. The
/// desktop notification does the same when the app is closed.
final class RingingView: WidgetWrapper {
    let widget: Widget
    private let session: AppSession
    private let title = Label(classes: ["title-1"])
    private let time = Label(classes: ["ringing-time", "numeric"])
    private let stop: Button
    private let snooze: Button
    private let moreLengths = Box(spacing: 8)
    private var otherButtons: [Button] = []
    /// `1 more ringing`: each shows once this one is stopped or snoozed.
    private let others = Label(classes: ["dim-label"])
    private var model: RingingModel?
    /// What rings now, as the lists know it.
    private var alarms: [AlarmItem] = []
    private var reminders: [ReminderItem] = []
    var onChange: () -> Void = {}

    init(session: AppSession) {
        self.session = session
        let box = Box(vertical: true, spacing: 24)
        box.widget.align(horizontal: GTK_ALIGN_CENTER, vertical: GTK_ALIGN_CENTER)
        box.widget.setMargins(24)
        let icon = Widget(gtk_image_new_from_icon_name("alarm-symbolic"))
        gtk_image_set_pixel_size(icon.c(), 96)
        icon.addCSSClass("dim-label")
        time.setJustifyCenter()
        title.setJustifyCenter()
        title.setWrap(true)
        stop = Button(label: L("Stop"), classes: ["pill", "destructive-action"])
        snooze = Button(label: L("Snooze"), classes: ["pill", "suggested-action"])
        for button in [stop, snooze] {
            button.widget.setSizeRequest(width: 140, height: 56)
            button.widget.addCSSClass("title-3")
        }
        let buttons = Box(spacing: 18)
        buttons.widget.align(horizontal: GTK_ALIGN_CENTER)
        buttons.append(snooze).append(stop)
        moreLengths.widget.align(horizontal: GTK_ALIGN_CENTER)
        others.widget.isVisible = false
        box.append(icon).append(time).append(title).append(buttons).append(moreLengths).append(others)
        widget = box.widget
        stop.onClicked { [unowned self] in self.act { model in (try? self.session.call(Dismiss.self, model.stopRequest)) != nil } }
        snooze.onClicked { [unowned self] in self.act { model in (try? self.session.call(Snooze.self, model.snoozeRequest())) != nil } }
    }

    var isShowing: Bool { model != nil }

    /// Shows the first of what rings now (alarms first) and how many others
    /// ring, or steps aside.
    func update(alarms: [AlarmItem], reminders: [ReminderItem]) {
        self.alarms = alarms.filter { $0.phase == .ringing }
        self.reminders = reminders.filter { $0.phase == .ringing }
        show()
    }

    private func show() {
        let next = RingingModel.first(alarms: alarms, reminders: reminders, keeping: model?.id, now: session.now, zone: session.zone,
                                      language: appLanguage)
        let changed = (next == nil) != (model == nil)
        model = next
        if let model {
            title.text = model.title
            time.text = model.timeText
            others.text = model.othersText ?? ""
            others.widget.isVisible = model.othersText != nil
            snooze.widget.isVisible = model.snoozeAllowed
            otherButtons.forEach { moreLengths.remove($0) }
            otherButtons = model.snoozeChoices.dropFirst().map { choice in
                let button = Button(text: choice.text, accessibleName: Lf("Snooze for %s", choice.text), classes: ["pill"])
                button.onClicked { [unowned self] in
                    self.act { model in (try? self.session.call(Snooze.self, model.snoozeRequest(minutes: choice.minutes))) != nil }
                }
                moreLengths.append(button)
                return button
            }
        }
        if changed { onChange() }
        if model != nil { (snooze.widget.isVisible ? snooze.widget : stop.widget).grabFocus() }
    }

    /// Sends Stop or Snooze; the daemon's event then takes the view away.
    /// If it is no longer ringing (stopped elsewhere), the view goes now.
    private func act(_ send: (RingingModel) -> Bool) {
        guard let model else { return }
        if !send(model) {
            alarms.removeAll { $0.id == model.id }
            reminders.removeAll { $0.id == model.id }
            show()
        }
    }
}
