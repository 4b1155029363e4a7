// SPDX-License-Identifier: Apache-2.0
import Adwaita
import AlarmViewModels
import CAdwaita

/// One to-do (seed 000): a check button to mark it done, the title with its
/// due time, repeat and notes beneath, the image as a thumbnail, and a menu
/// with Move Up and Move Down for the keyboard and screen readers. The row
/// itself can be dragged onto another to reorder.
final class ReminderRowView: WidgetWrapper {
    let widget: Widget
    private let check = CheckButton()
    private let title = Label()
    private let subtitle = Label(classes: ["dim-label", "caption"])
    private let open: Button
    private let thumbnail = Picture()
    private let menu: MenuButton
    private let actions = ActionGroup()
    private(set) var id: String?
    /// The accessible names last given (see ``AlarmRowView``).
    private var names: [String] = []

    struct Handlers {
        var setDone: (String, Bool) -> Void
        var edit: (String) -> Void
        var move: (String, Int) -> Void
        var drop: (_ dragged: String, _ onto: String) -> Bool
        var delete: (String) -> Void
    }

    init(_ handlers: Handlers) {
        let box = Box(spacing: 12)
        box.widget.setMargins(top: 6, bottom: 6, start: 12, end: 12)
        let text = Box(vertical: true, spacing: 2)
        title.setXAlign(0)
        title.setEllipsize(true)
        subtitle.setXAlign(0)
        subtitle.setEllipsize(true)
        text.append(title).append(subtitle)
        open = Button(label: "", classes: ["flat", "row-open"])
        gtk_button_set_child(open.widget.c(), text.widget.pointer)
        open.widget.expand(horizontally: true)
        thumbnail.widget.setSizeRequest(width: 40, height: 40)
        thumbnail.widget.align(vertical: GTK_ALIGN_CENTER)
        menu = MenuButton(icon: "view-more-symbolic", accessibleName: L("More"))
        check.widget.align(vertical: GTK_ALIGN_CENTER)
        box.append(check).append(open).append(thumbnail).append(menu)
        widget = box.widget
        widget.insertActionGroup("row", actions.reference)

        check.onToggled { [unowned self] done in if let id = self.id { handlers.setDone(id, done) } }
        open.onClicked { [unowned self] in if let id = self.id { handlers.edit(id) } }
        actions.add("edit") { [unowned self] in if let id = self.id { handlers.edit(id) } }
        actions.add("up") { [unowned self] in if let id = self.id { handlers.move(id, -1) } }
        actions.add("down") { [unowned self] in if let id = self.id { handlers.move(id, 1) } }
        actions.add("delete") { [unowned self] in if let id = self.id { handlers.delete(id) } }
        DragAndDrop.makeSource(widget) { [unowned self] in self.id }
        DragAndDrop.makeTarget(widget) { [unowned self] dragged in
            guard let id = self.id, dragged != id else { return false }
            return handlers.drop(dragged, id)
        }
    }

    func show(_ row: ReminderRow, canMoveUp: Bool, canMoveDown: Bool) {
        id = row.id
        title.text = row.title
        subtitle.text = row.subtitle
        subtitle.widget.isVisible = !row.subtitle.isEmpty
        // Overdue in the theme's error colour, undimmed; the words say it too.
        subtitle.widget.setCSSClass("error", row.isOverdue)
        subtitle.widget.setCSSClass("dim-label", !row.isOverdue)
        check.isActive = row.done
        let names = [row.checkName, Lf("Edit %s", row.title), Lf("More for %s", row.title)]
        if names != self.names {
            self.names = names
            check.widget.setAccessibleLabel(names[0])
            open.widget.setAccessibleLabel(names[1])
            menu.widget.setAccessibleLabel(names[2])
        }
        title.widget.setCSSClass("dim-label", row.done)
        thumbnail.setFile(row.imagePath)
        thumbnail.widget.isVisible = row.imagePath != nil
        var items = [(L("Edit"), "row.edit")]
        if canMoveUp { items.append((L("Move Up"), "row.up")) }
        if canMoveDown { items.append((L("Move Down"), "row.down")) }
        items.append((L("Delete"), "row.delete"))
        menu.setItems(items)
    }
}
