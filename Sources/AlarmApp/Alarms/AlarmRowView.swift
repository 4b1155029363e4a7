// SPDX-License-Identifier: Apache-2.0
import Adwaita
import AlarmViewModels
import CAdwaita

/// One row of the alarm list, as GNOME Clocks draws it: the time large, the
/// label, repeat and next ring beneath, the on/off switch and a menu at the
/// end. Rows are recycled as the list scrolls: ``show(_:)`` fills one for an
/// alarm, and its handlers act on the alarm shown at the time.
final class AlarmRowView: WidgetWrapper {
    let widget: Widget
    private let time = Label(classes: ["title-1", "numeric"])
    private let subtitle = Label(classes: ["dim-label"])
    private let open: Button
    let toggle = Switch()
    private let menu: MenuButton
    private let actions = ActionGroup()
    private(set) var id: String?
    private var paused = false, skipping = false
    /// The accessible names last given, so that refilling a row with what it
    /// already says sends nothing to a screen reader (each change is a D-Bus
    /// signal on the accessibility bus).
    private var names: [String] = []

    /// What the row's controls ask for; the page acts on them.
    struct Handlers {
        var edit: (String) -> Void
        var setEnabled: (String, Bool) -> Void
        var skipNext: (String, Bool) -> Void
        var pause: (String) -> Void
        var resume: (String) -> Void
        var delete: (String) -> Void
    }

    init(_ handlers: Handlers) {
        let box = Box(spacing: 12)
        box.widget.setMargins(top: 6, bottom: 6, start: 12, end: 12)
        let text = Box(vertical: true, spacing: 2)
        time.setXAlign(0)
        subtitle.setXAlign(0)
        subtitle.setEllipsize(true)
        text.append(time).append(subtitle)
        open = Button(label: "", classes: ["flat", "row-open"])
        gtk_button_set_child(open.widget.c(), text.widget.pointer)
        open.widget.expand(horizontally: true)
        menu = MenuButton(icon: "view-more-symbolic", accessibleName: L("More"))
        box.append(open).append(toggle).append(menu)
        widget = box.widget
        widget.insertActionGroup("row", actions.reference)

        open.onClicked { [unowned self] in if let id = self.id { handlers.edit(id) } }
        toggle.onToggled { [unowned self] on in if let id = self.id { handlers.setEnabled(id, on) } }
        actions.add("edit") { [unowned self] in if let id = self.id { handlers.edit(id) } }
        actions.add("skip") { [unowned self] in if let id = self.id { handlers.skipNext(id, !self.skipping) } }
        actions.add("pause") { [unowned self] in if let id = self.id { handlers.pause(id) } }
        actions.add("resume") { [unowned self] in if let id = self.id { handlers.resume(id) } }
        actions.add("delete") { [unowned self] in if let id = self.id { handlers.delete(id) } }
    }

    func show(_ row: AlarmRow, item: AlarmItem) {
        id = row.id
        time.text = row.timeText
        subtitle.text = row.subtitle
        toggle.isOn = row.enabled
        // The switch is named by its alarm, so a screen reader says which
        // alarm it turns on or off.
        let names = [row.switchName, Lf("Edit %1$s, %2$s", row.label, row.timeText), Lf("More for %s", row.label)]
        if names != self.names {
            self.names = names
            toggle.widget.setAccessibleLabel(names[0])
            open.widget.setAccessibleLabel(names[1])
            menu.widget.setAccessibleLabel(names[2])
        }
        widget.setCSSClass("dim-label", !row.enabled)
        skipping = item.skipNext
        paused = item.pausedUntil != nil
        var items = [(L("Edit"), "row.edit")]
        if !item.isOneShot || item.skipNext { items.append((item.skipNext ? L("Unskip") : L("Skip Next"), "row.skip")) }
        if !item.isOneShot { items.append(paused ? (L("Resume"), "row.resume") : (L("Pause Until…"), "row.pause")) }
        items.append((L("Delete"), "row.delete"))
        menu.setItems(items)
    }
}
