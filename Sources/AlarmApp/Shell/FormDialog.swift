// SPDX-License-Identifier: Apache-2.0
import Adwaita
import AlarmCore
import AlarmProtocol
import AlarmViewModels
import CAdwaita

/// The frame of the forms and the pause dialog: a modal dialog with Cancel
/// and a default button in its header, a scrolling body, a label under each
/// field for its problem, and the way Save goes: the form's own checks
/// first, then the daemon's, each problem said next to its field, the dialog
/// left open with everything typed when the daemon refuses or cannot be
/// reached.
final class FormDialog {
    let dialog: Dialog
    /// Where the form puts its sections, top to bottom.
    let body = Box(vertical: true, spacing: 18)
    private var errors: [FormField: Label] = [:]
    private let general = Label(classes: ["error"])

    /// What Save (or Enter in a field) does.
    var onSave: () -> Void = {}

    /// A dialog titled `title` whose default button says `confirm` (Save,
    /// Pause); `width` and `height` are its default size.
    init(session: AppSession, title: String, confirm: String = L("_Save"), width: Int32 = 420, height: Int32 = 600) {
        let content = Box(vertical: true)
        let header = HeaderBar()
        header.hideWindowButtons()
        let cancel = Button(label: L("_Cancel"))
        let saveButton = Button(label: confirm, classes: ["suggested-action"])
        header.packStart(cancel)
        header.packEnd(saveButton)
        content.append(header)
        body.widget.setMargins(top: 12, bottom: 24, start: 12, end: 12)
        let clamp = Widget(adw_clamp_new())
        adw_clamp_set_maximum_size(clamp.c(), 560)
        adw_clamp_set_child(clamp.c(), body.widget.pointer)
        content.append(ScrolledWindow(clamp))
        dialog = Dialog(parent: session.window, title: title, content: content, width: width, height: height)
        dialog.setDefault(saveButton)
        general.setWrap(true)
        general.setSelectable(true)
        general.widget.isVisible = false
        body.append(general)
        let dialog = dialog
        cancel.onClicked { dialog.close() }
        saveButton.onClicked { [unowned self] in self.onSave() }
    }

    /// Shows the dialog; it keeps `form` (whose handlers its widgets call)
    /// until it is gone.
    func present(keeping form: AnyObject) {
        dialog.widget.keepAlive(form)
        dialog.present()
    }

    /// A label for `field`'s problems, hidden until there is one.
    func errorLabel(_ field: FormField) -> Label {
        let label = Label(classes: ["error", "caption"])
        label.setXAlign(0)
        label.setWrap(true)
        label.widget.isVisible = false
        errors[field] = label
        return label
    }

    /// Shows each problem under its field, and `text` (a lost daemon) above
    /// them all; clears the rest.
    func show(_ problems: [FieldError], general text: String? = nil) {
        for (field, label) in errors {
            let messages = problems.filter { $0.field == field }.map(\.message)
            label.text = messages.joined(separator: "\n")
            label.widget.isVisible = !messages.isEmpty
        }
        general.text = text ?? ""
        general.widget.isVisible = text != nil
    }

    /// Sends the form: its own problems first, then the daemon's answer; the
    /// dialog closes and `saved` gets the reply only when the daemon took it.
    func submit<Form: ItemForm>(_ form: Form, session: AppSession, saved: (Form.Add.Reply) -> Void) {
        let reply: Form.Add.Reply
        do throws(FormInvalid) {
            let update = try form.updateRequest()
            let add = try form.addRequest()
            do throws(DaemonFailure) {
                if let update {
                    reply = try session.call(Form.Update.self, update)
                } else {
                    reply = try session.call(Form.Add.self, add)
                }
            } catch {
                if case .refused(let refusal) = error, let problem = form.fieldError(for: refusal) {
                    return show([problem])
                }
                return show([], general: error.text(in: appLanguage) + "\n" + L("Nothing you typed is lost: press Save again once alarmd is back."))
            }
        } catch {
            return show(error.errors)
        }
        dialog.close()
        saved(reply)
    }
}
