// SPDX-License-Identifier: Apache-2.0
import Adwaita
import AlarmCore
import AlarmProtocol
import AlarmViewModels
import CAdwaita

/// The add and edit form of a to-do: title, notes, an optional due day and
/// time (or all day), a repeat, and an image chosen with the desktop's file
/// chooser. A ``ReminderForm`` holds the values; as in the alarm form, a
/// problem is said next to its field and nothing typed is lost.
final class ReminderEditor {
    private let session: AppSession
    private var form: ReminderForm
    private let frame: FormDialog
    private let saved: (ReminderReply) -> Void

    private let title = Entry()
    private let notes = TextView()
    private let hasDue = Switch()
    private let allDay = Switch()
    private let calendar = Calendar()
    private let hour: SpinButton
    private let minute: SpinButton
    private let repeatChoice: DropDown
    private let thumbnail = Picture()
    private let imageName = Label(classes: ["dim-label"])
    private let removeImage: Button
    private let dueBox = Box(vertical: true, spacing: 6)

    static func present(session: AppSession, editing item: ReminderItem?, saved: @escaping (ReminderReply) -> Void) {
        let editor = ReminderEditor(session: session, editing: item, saved: saved)
        editor.frame.present(keeping: editor)
        editor.title.widget.grabFocus()
    }

    private init(session: AppSession, editing item: ReminderItem?, saved: @escaping (ReminderReply) -> Void) {
        self.session = session
        self.saved = saved
        form = item.map { ReminderForm(editing: $0, zone: session.zone, language: appLanguage) } ?? ReminderForm(zone: session.zone, language: appLanguage)
        hour = SpinButton(range: 0...23, value: form.dueHour, wraps: true, twoDigits: true)
        minute = SpinButton(range: 0...59, value: form.dueMinute, wraps: true, twoDigits: true)
        repeatChoice = DropDown(RepeatPreset.choices.map { $0.name(in: appLanguage) } + [L("Custom")])
        removeImage = Button(icon: "edit-delete-symbolic", accessibleName: L("Remove Image"), classes: ["flat"])

        frame = FormDialog(session: session, title: item == nil ? L("New To-do") : L("Edit To-do"))
        let body = frame.body

        let titleGroup = PreferencesGroup(title: L("Title"))
        title.widget.setAccessibleLabel(L("Title"))
        title.activatesDefault()
        titleGroup.add(title)
        body.append(Box(vertical: true, spacing: 6).append(titleGroup).append(frame.errorLabel(.title)))

        let notesGroup = PreferencesGroup(title: L("Notes"))
        notes.widget.setAccessibleLabel(L("Notes"))
        notes.widget.addCSSClass("card")
        notesGroup.add(notes)
        body.append(Box(vertical: true, spacing: 6).append(notesGroup).append(frame.errorLabel(.notes)))

        let dueGroup = PreferencesGroup(title: L("Due"))
        dueGroup.add(ActionRow(title: L("Due"), subtitle: L("Rings like an alarm when it is due"), switchedBy: hasDue))
        let allDayRow = ActionRow(title: L("All day"), switchedBy: allDay)
        let timeRow = ActionRow(title: L("Time"))
        hour.widget.setAccessibleLabel(L("Hour"))
        minute.widget.setAccessibleLabel(L("Minute"))
        let time = Box(spacing: 4)
        time.widget.align(vertical: GTK_ALIGN_CENTER)
        time.append(hour).append(Label(":")).append(minute)
        timeRow.addSuffix(time)
        let repeatRow = ActionRow(title: L("Repeat"))
        repeatChoice.widget.setAccessibleLabel(L("Repeat"))
        repeatChoice.widget.align(vertical: GTK_ALIGN_CENTER)
        repeatRow.addSuffix(repeatChoice)
        let dueDetails = PreferencesGroup()
        [allDayRow, timeRow, repeatRow].forEach(dueDetails.add)
        calendar.widget.setAccessibleLabel(L("Due day"))
        dueBox.append(calendar).append(dueDetails)
        body.append(Box(vertical: true, spacing: 6).append(dueGroup).append(dueBox).append(frame.errorLabel(.due)))

        let imageGroup = PreferencesGroup(title: L("Image"))
        let imageRow = ActionRow(title: L("Image"))
        thumbnail.widget.setSizeRequest(width: 64, height: 64)
        let choose = Button(text: Button.withoutMnemonic(L("_Choose…")), accessibleName: L("Choose Image"))
        choose.widget.align(vertical: GTK_ALIGN_CENTER)
        removeImage.widget.align(vertical: GTK_ALIGN_CENTER)
        imageRow.addPrefix(thumbnail)
        imageRow.addSuffix(imageName)
        imageRow.addSuffix(choose)
        imageRow.addSuffix(removeImage)
        imageGroup.add(imageRow)
        body.append(Box(vertical: true, spacing: 6).append(imageGroup).append(frame.errorLabel(.image)))

        fill()
        hasDue.onToggled { [unowned self] _ in self.showDue() }
        allDay.onToggled { [unowned self] _ in self.showDue() }
        repeatChoice.onSelected { [unowned self] index in
            if index < RepeatPreset.choices.count { self.form.preset = RepeatPreset.choices[index] }
        }
        choose.onClicked { [unowned self] in
            FileChooser.openImage(over: self.frame.dialog, title: L("Choose Image"), accept: L("_Open"), cancel: L("_Cancel"),
                                  filterName: L("Images")) { [weak self] path in self?.chooseImage(path) }
        }
        removeImage.onClicked { [unowned self] in self.setImage(nil) }
        frame.onSave = { [unowned self] in save() }
    }

    private func fill() {
        title.text = form.title
        notes.text = form.notes
        hasDue.isOn = form.dueDay != nil
        allDay.isOn = form.allDay
        let day = form.dueDay ?? CivilTime.dayNumber(isoDate: session.zone.rules.localDateTime(at: session.now.epochSecondsFloor).dateText) ?? 0
        let date = CivilTime.date(dayNumber: day)
        calendar.select(year: date.year, month: date.month, day: date.day)
        hour.value = form.dueHour
        minute.value = form.dueMinute
        repeatChoice.selectedIndex = RepeatPreset.choices.firstIndex(of: form.preset) ?? RepeatPreset.choices.count
        setImage(form.imagePath)
        showDue()
    }

    private func showDue() {
        dueBox.widget.isVisible = hasDue.isOn
        hour.widget.isSensitive = !allDay.isOn
        minute.widget.isSensitive = !allDay.isOn
    }

    private func setImage(_ path: String?) {
        form.imagePath = path
        thumbnail.setFile(path)
        thumbnail.widget.isVisible = path != nil
        imageName.text = path.map { String($0.split(separator: "/").last ?? "") } ?? L("None")
        removeImage.widget.isVisible = path != nil
    }

    /// A chosen file is checked before anything reads it as an image: a huge
    /// file or one that is not an image is refused with a message.
    private func chooseImage(_ path: String) {
        switch ImageCheck.check(path: path) {
        case .success:
            setImage(path)
            frame.show([])
        case .failure(let problem):
            frame.show([FieldError(field: .image, message: problem.text(in: appLanguage))])
        }
    }

    private func read() {
        hour.commit()
        minute.commit()
        form.title = title.text
        form.notes = notes.text
        if hasDue.isOn {
            let date = calendar.day
            form.dueDay = CivilTime.dayNumber(year: date.year, month: date.month, day: date.day)
        } else {
            form.dueDay = nil
        }
        form.allDay = allDay.isOn
        form.dueHour = hour.value
        form.dueMinute = minute.value
    }

    private func save() {
        read()
        frame.submit(form, session: session, saved: saved)
    }
}
