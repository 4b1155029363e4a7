// SPDX-License-Identifier: Apache-2.0
import Adwaita
import AlarmCore
import CAdwaita

/// "Pause until…": the day an alarm rings again (a holiday away, say).
enum PauseDialog {
    /// Calls `pause` with the chosen day's number when the user confirms.
    static func present(session: AppSession, label: String, pause: @escaping (Int64) -> Void) {
        let frame = FormDialog(session: session, title: L("Pause Until"), confirm: L("_Pause"), width: 380, height: 430)
        let explanation = Label(Lf("“%s” rings again on the day you choose; until then its days pass silently.", label))
        explanation.setWrap(true)
        let calendar = Calendar()
        calendar.widget.setAccessibleLabel(L("Rings again on"))
        let tomorrow = session.zone.rules.localDateTime(at: session.now.epochSecondsFloor + 86_400)
        calendar.select(year: tomorrow.year, month: tomorrow.month, day: tomorrow.day)
        frame.body.append(explanation).append(calendar)
        frame.onSave = { [unowned frame] in
            let day = calendar.day
            pause(CivilTime.dayNumber(year: day.year, month: day.month, day: day.day))
            frame.dialog.close()
        }
        frame.present(keeping: frame)
    }
}
