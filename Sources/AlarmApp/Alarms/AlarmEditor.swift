// SPDX-License-Identifier: Apache-2.0
import Adwaita
import AlarmCore
import AlarmProtocol
import AlarmViewModels
import CAdwaita

/// The add and edit form (seed 001): the time, the repeat (presets, a toggle
/// per weekday, and the calendar repeats behind "More"), the label, the
/// sound with a Play button, snooze, volume and fade.
///
/// The form is an ``AlarmForm``: the widgets only carry its values. A
/// problem is said next to its field; a refusal or a lost daemon leaves the
/// dialog open with everything typed in place.
final class AlarmEditor {
    private let session: AppSession
    private var form: AlarmForm
    private let frame: FormDialog
    private let saved: (AlarmReply) -> Void
    private let twelveHour: Bool

    private let hour: SpinButton
    private let minute: SpinButton
    private let meridiem: DropDown
    private let preset: DropDown
    private var weekdays: [(Weekday, ToggleButton)] = []
    private let moreKind: DropDown
    private let moreCount: SpinButton
    private let moreDay: SpinButton
    private let moreDate = Calendar()
    private let moreBox = Box(vertical: true, spacing: 6)
    private let label = Entry()
    private let sound: DropDown
    private var sounds: [String?] = [nil, "none"]
    private let snooze = Switch()
    private let snoozeMinutes: SpinButton
    private let customVolume = Switch()
    private let volume: Scale
    private let fade: SpinButton
    private let customFade = Switch()

    /// The presets in the repeat menu, then "Custom" (days chosen one by one)
    /// and "More" (a calendar repeat).
    private static let presetChoices = RepeatPreset.choices
    private static let moreKinds = [N_("Every few days"), N_("Every few weeks"), N_("Monthly"), N_("Yearly"), N_("Once, on a date")]

    /// Opens the form; `saved` gets the daemon's reply (`alarm`) after Save.
    static func present(session: AppSession, editing item: AlarmItem?, saved: @escaping (AlarmReply) -> Void) {
        let editor = AlarmEditor(session: session, editing: item, saved: saved)
        editor.frame.present(keeping: editor)
        editor.hour.widget.grabFocus()
    }

    private init(session: AppSession, editing item: AlarmItem?, saved: @escaping (AlarmReply) -> Void) {
        self.session = session
        self.saved = saved
        let today = CivilTime.dayNumber(isoDate: session.zone.rules.localDateTime(at: session.now.epochSecondsFloor).dateText) ?? 0
        form = item.map { AlarmForm(editing: $0, today: today, language: appLanguage) } ?? AlarmForm(today: today, language: appLanguage)
        twelveHour = !appLanguage.time(hour: 13, minute: 0, second: nil).contains("13")

        hour = SpinButton(range: twelveHour ? 1...12 : 0...23, value: 0, wraps: true, twoDigits: !twelveHour)
        minute = SpinButton(range: 0...59, value: form.minute, wraps: true, twoDigits: true)
        meridiem = DropDown([L("AM"), L("PM")])
        preset = DropDown(Self.presetChoices.map { $0.name(in: appLanguage) } + [L("Custom"), L("More…")])
        moreKind = DropDown(Self.moreKinds.map(L))
        moreCount = SpinButton(range: 1...999, value: 2)
        moreDay = SpinButton(range: 1...31, value: 1)
        sound = DropDown([L("Default"), L("None")])
        snoozeMinutes = SpinButton(range: 1...60, value: form.snoozeMinutes)
        volume = Scale(range: 1...100, value: form.volume ?? 80)
        fade = SpinButton(range: 0...300, step: 5, value: form.fadeSeconds ?? 30)

        frame = FormDialog(session: session, title: item == nil ? L("New Alarm") : L("Edit Alarm"))
        let body = frame.body
        body.append(timeSection())
        body.append(repeatSection())
        body.append(labelSection())
        body.append(soundSection())
        body.append(snoozeSection())
        body.append(volumeSection())
        fill()

        frame.onSave = { [unowned self] in save() }
        loadSounds()
    }

    // MARK: Sections

    private func timeSection() -> Box {
        let box = Box(vertical: true, spacing: 6)
        let row = Box(spacing: 6)
        row.widget.align(horizontal: GTK_ALIGN_CENTER)
        hour.widget.setAccessibleLabel(L("Hour"))
        minute.widget.setAccessibleLabel(L("Minute"))
        meridiem.widget.setAccessibleLabel(L("AM or PM"))
        for spin in [hour, minute] {
            spin.widget.addCSSClass("title-1")
            gtk_orientable_set_orientation(spin.widget.c(), GTK_ORIENTATION_VERTICAL)
        }
        let colon = Label(":", classes: ["title-1"])
        row.append(hour).append(colon).append(minute)
        if twelveHour { row.append(meridiem) }
        box.append(row)
        box.append(frame.errorLabel(.hour))
        box.append(frame.errorLabel(.minute))
        return box
    }

    private func repeatSection() -> Box {
        let group = PreferencesGroup()
        let row = ActionRow(title: L("Repeat"))
        preset.widget.setAccessibleLabel(L("Repeat"))
        preset.widget.align(vertical: GTK_ALIGN_CENTER)
        row.addSuffix(preset)
        group.add(row)
        let days = Box(spacing: 4)
        days.setHomogeneous(true)
        days.widget.setMargins(top: 8)
        for day in Weekday.weekOrder {
            let toggle = ToggleButton(text: appLanguage.weekday(day), accessibleName: Self.dayName(day))
            toggle.widget.addCSSClass("circular")
            toggle.onToggled { [unowned self] on in
                if on { self.form.days.insert(RepeatDays(day)) } else { self.form.days.remove(RepeatDays(day)) }
                self.showPreset()
            }
            weekdays.append((day, toggle))
            days.append(toggle)
        }
        let box = Box(vertical: true, spacing: 6)
        box.append(group).append(days)
        let count = ActionRow(title: L("Repeat every"))
        moreCount.widget.align(vertical: GTK_ALIGN_CENTER)
        moreCount.widget.setAccessibleLabel(L("Repeat every"))
        count.addSuffix(moreCount)
        let monthDay = ActionRow(title: L("Day of the month"))
        moreDay.widget.align(vertical: GTK_ALIGN_CENTER)
        moreDay.widget.setAccessibleLabel(L("Day of the month"))
        monthDay.addSuffix(moreDay)
        let kind = ActionRow(title: L("Repeats"))
        moreKind.widget.align(vertical: GTK_ALIGN_CENTER)
        moreKind.widget.setAccessibleLabel(L("Repeats"))
        kind.addSuffix(moreKind)
        moreDate.widget.setAccessibleLabel(L("Date"))
        let moreGroup = PreferencesGroup()
        moreGroup.add(kind)
        moreGroup.add(count)
        moreGroup.add(monthDay)
        moreBox.append(moreGroup).append(moreDate)
        box.append(moreBox)
        box.append(frame.errorLabel(.days))
        box.append(frame.errorLabel(.rule))
        preset.onSelected { [unowned self] index in
            if index < Self.presetChoices.count {
                self.form.preset = Self.presetChoices[index]
            } else if index == Self.presetChoices.count + 1, self.form.more == nil {
                self.form.more = .everyWeeks(1)
            } else if index == Self.presetChoices.count {
                self.form.more = nil
            }
            self.fillRepeat()
        }
        moreKind.onSelected { [unowned self] _ in self.readMore(); self.fillRepeat() }
        return box
    }

    private func labelSection() -> Box {
        let group = PreferencesGroup(title: L("Label"))
        label.widget.setAccessibleLabel(L("Label"))
        gtk_entry_set_placeholder_text(label.widget.c(), form.defaultLabel)
        label.activatesDefault()
        group.add(label)
        return Box(vertical: true, spacing: 6).append(group).append(frame.errorLabel(.label))
    }

    private func soundSection() -> Box {
        let group = PreferencesGroup()
        let row = ActionRow(title: L("Sound"))
        sound.widget.setAccessibleLabel(L("Sound"))
        sound.widget.align(vertical: GTK_ALIGN_CENTER)
        let play = Button(icon: "media-playback-start-symbolic", accessibleName: L("Play Sound"), classes: ["flat"])
        play.widget.align(vertical: GTK_ALIGN_CENTER)
        play.onClicked { [unowned self] in self.play() }
        row.addSuffix(sound)
        row.addSuffix(play)
        group.add(row)
        return Box(vertical: true, spacing: 6).append(group).append(frame.errorLabel(.sound))
    }

    private func snoozeSection() -> Box {
        let group = PreferencesGroup()
        group.add(ActionRow(title: L("Snooze"), subtitle: L("Offer to snooze when it rings"), switchedBy: snooze))
        group.add(ActionRow(title: L("Snooze length"), subtitle: L("Minutes"), holding: snoozeMinutes))
        snooze.onToggled { [unowned self] on in self.snoozeMinutes.widget.isSensitive = on }
        return Box(vertical: true, spacing: 6).append(group).append(frame.errorLabel(.snoozeMinutes))
    }

    private func volumeSection() -> Box {
        let group = PreferencesGroup(title: L("Volume"), description: L("Of this alarm's sound only: the output's volume is never changed"))
        volume.widget.setSizeRequest(width: 180)
        group.add(ActionRow(title: L("Own volume"), subtitle: L("Off: the volume set for all alarms"), switchedBy: customVolume))
        group.add(ActionRow(title: L("Volume"), holding: volume))
        group.add(ActionRow(title: L("Own fade in"), subtitle: L("Off: the fade set for all alarms"), switchedBy: customFade))
        group.add(ActionRow(title: L("Fade in"), subtitle: L("Seconds from silence to full volume"), holding: fade))
        customVolume.onToggled { [unowned self] on in self.volume.widget.isSensitive = on }
        customFade.onToggled { [unowned self] on in self.fade.widget.isSensitive = on }
        return Box(vertical: true, spacing: 6).append(group).append(frame.errorLabel(.volume)).append(frame.errorLabel(.fade))
    }

    // MARK: Form ⇄ widgets

    private func fill() {
        if twelveHour {
            hour.value = form.hour % 12 == 0 ? 12 : form.hour % 12
            meridiem.selectedIndex = form.hour < 12 ? 0 : 1
        } else {
            hour.value = form.hour
        }
        minute.value = form.minute
        label.text = form.original == nil ? "" : form.label
        snooze.isOn = form.snoozeEnabled
        snoozeMinutes.value = form.snoozeMinutes
        snoozeMinutes.widget.isSensitive = form.snoozeEnabled
        customVolume.isOn = form.volume != nil
        volume.widget.isSensitive = form.volume != nil
        customFade.isOn = form.fadeSeconds != nil
        fade.widget.isSensitive = form.fadeSeconds != nil
        fillRepeat()
    }

    private func fillRepeat() {
        for (day, toggle) in weekdays { toggle.isActive = form.days.contains(day) }
        showPreset()
        let more = form.more
        moreBox.widget.isVisible = more != nil
        switch more {
        case .everyDays(let n)?: moreKind.selectedIndex = 0; moreCount.value = n
        case .everyWeeks(let n)?: moreKind.selectedIndex = 1; moreCount.value = n
        case .monthly(let day)?: moreKind.selectedIndex = 2; moreDay.value = max(day, 1)
        case .yearly(let month, let day)?:
            moreKind.selectedIndex = 3
            moreDate.select(year: CivilTime.date(dayNumber: form.starting).year, month: month, day: day)
        case .once(let day)?:
            moreKind.selectedIndex = 4
            let date = CivilTime.date(dayNumber: day)
            moreDate.select(year: date.year, month: date.month, day: date.day)
        case .kept?, nil: break
        }
        let kind = moreKind.selectedIndex
        moreCount.widget.parentRow?.isVisible = more != nil && kind <= 1
        moreDay.widget.parentRow?.isVisible = more != nil && kind == 2
        moreDate.widget.isVisible = more != nil && kind >= 3
        // The weekday toggles pick the days of a weekly repeat, and are the
        // repeat itself without one.
        let daysApply = more == nil || kind == 1
        weekdays.forEach { $0.1.widget.isSensitive = daysApply }
    }

    private func showPreset() {
        let index: Int
        if form.more != nil {
            index = Self.presetChoices.count + 1
        } else if let found = Self.presetChoices.firstIndex(of: form.preset) {
            index = found
        } else {
            index = Self.presetChoices.count
        }
        preset.selectedIndex = index
    }

    /// The "More" choice as the widgets show it now.
    private func readMore() {
        guard form.more != nil else { return }
        let date = moreDate.day
        switch moreKind.selectedIndex {
        case 0: form.more = .everyDays(moreCount.value)
        case 1: form.more = .everyWeeks(moreCount.value)
        case 2: form.more = .monthly(day: moreDay.value)
        case 3: form.more = .yearly(month: date.month, day: date.day)
        default: form.more = .once(day: CivilTime.dayNumber(year: date.year, month: date.month, day: date.day))
        }
    }

    private func read() {
        hour.commit()
        minute.commit()
        snoozeMinutes.commit()
        fade.commit()
        if twelveHour {
            form.hour = hour.value % 12 + (meridiem.selectedIndex == 1 ? 12 : 0)
        } else {
            form.hour = hour.value
        }
        form.minute = minute.value
        readMore()
        form.label = label.text
        let index = sound.selectedIndex
        if index >= 0, index < sounds.count { form.sound = sounds[index] }
        form.snoozeEnabled = snooze.isOn
        form.snoozeMinutes = snoozeMinutes.value
        form.volume = customVolume.isOn ? volume.value : nil
        form.fadeSeconds = customFade.isOn ? fade.value : nil
    }

    // MARK: Daemon

    private func save() {
        read()
        frame.submit(form, session: session, saved: saved)
    }

    private func loadSounds() {
        guard let reply = try? session.call(ListSounds.self, NoMembers()) else { return }
        let found = reply.sounds.map(\.name)
        var names: [String?] = [nil, "none"] + found.map { Optional($0) }
        if let current = form.sound, !names.contains(current) { names.append(current) }
        sounds = names
        sound.setItems(names.map { name in
            switch name {
            case nil: return L("Default")
            case "none"?: return L("None")
            case let name?: return name
            }
        })
        sound.selectedIndex = names.firstIndex(of: form.sound) ?? 0
    }

    private func play() {
        read()
        let chosen = form.sound ?? "alarm-clock-elapsed"
        guard chosen != "none" else { return }
        do throws(DaemonFailure) {
            _ = try session.call(PlaySound.self, PlaySound.Request(sound: Sound(wire: chosen), volume: form.volume))
            frame.show([])
        } catch {
            frame.show([], general: error.text(in: appLanguage))
        }
    }

    /// A weekday's full name, for a screen reader ("Monday").
    static func dayName(_ day: Weekday) -> String {
        switch day {
        case .monday: return L("Monday")
        case .tuesday: return L("Tuesday")
        case .wednesday: return L("Wednesday")
        case .thursday: return L("Thursday")
        case .friday: return L("Friday")
        case .saturday: return L("Saturday")
        case .sunday: return L("Sunday")
        }
    }
}

extension Widget {
    /// The list row a suffix widget sits in, to show or hide the whole row.
    var parentRow: Widget? {
        var current = gtk_widget_get_parent(pointer)
        while let widget = current {
            if g_type_check_instance_is_a(UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GTypeInstance.self), adw_action_row_get_type()) != 0 {
                return Widget(widget)
            }
            current = gtk_widget_get_parent(widget)
        }
        return nil
    }
}
