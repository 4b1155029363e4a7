import Adwaita
import AlarmCore
import CAdwaita

/// "Pause until…": the day an alarm rings again (a holiday away, say).
enum PauseDialog {
    /// Calls `pause` with the chosen day's number when the user confirms.
    static func present(session: AppSession, label: String, pause: @escaping (Int64) -> Void) {
        let content = Box(vertical: true)
        let header = HeaderBar()
        header.hideWindowButtons()
        let cancel = Button(label: L("_Cancel"))
        let confirm = Button(label: L("_Pause"), classes: ["suggested-action"])
        header.packStart(cancel)
        header.packEnd(confirm)
        content.append(header)
        let body = Box(vertical: true, spacing: 12)
        body.widget.setMargins(18)
        let explanation = Label(Lf("“%s” rings again on the day you choose; until then its days pass silently.", label))
        explanation.setWrap(true)
        let calendar = Calendar()
        calendar.widget.setAccessibleLabel(L("Rings again on"))
        let tomorrow = session.zone.rules.localDateTime(at: session.now.epochSecondsFloor + 86_400)
        calendar.select(year: tomorrow.year, month: tomorrow.month, day: tomorrow.day)
        body.append(explanation).append(calendar)
        content.append(body)
        let dialog = Dialog(parent: session.window, title: L("Pause Until"), content: content, width: 360, height: -1)
        dialog.setDefault(confirm)
        cancel.onClicked { dialog.close() }
        confirm.onClicked {
            let day = calendar.day
            pause(CivilTime.dayNumber(year: day.year, month: day.month, day: day.day))
            dialog.close()
        }
        dialog.present()
    }
}
