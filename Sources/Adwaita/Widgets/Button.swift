// SPDX-License-Identifier: Apache-2.0
import CAdwaita

/// A push button.
///
/// GTK 4.8 names a button with a mnemonic label twice for a screen reader
/// ("Stop Stop": the label's text, then again through the label's relation
/// to its mnemonic widget). So no button here has a mnemonic: its text is a
/// plain label and its name is set once, explicitly.
public struct Button: WidgetWrapper {
    public let widget: Widget

    /// A button with a text label, which is also what a screen reader calls
    /// it. A translation's mnemonic mark (`_Save`, `儲存(_S)`) is dropped.
    public init(label: String, classes: [String] = []) {
        let text = Self.withoutMnemonic(label)
        self.init(text: text, accessibleName: text, classes: classes)
    }

    /// A button that shows `text` but that a screen reader names otherwise
    /// ("5 min" read as "Snooze for 5 min").
    public init(text: String, accessibleName: String, classes: [String] = []) {
        widget = Widget(gtk_button_new())
        gtk_button_set_child(widget.c(), gtk_label_new(text))
        widget.setAccessibleLabel(accessibleName)
        classes.forEach(widget.addCSSClass)
    }

    /// An icon button; `accessibleName` is what a screen reader reads (and
    /// the tooltip), since the icon says nothing to one.
    public init(icon: String, accessibleName: String, classes: [String] = []) {
        widget = Widget(gtk_button_new_from_icon_name(icon))
        widget.setAccessibleLabel(accessibleName)
        widget.setTooltip(accessibleName)
        classes.forEach(widget.addCSSClass)
    }

    /// Shows `icon` instead (Pause becoming Resume); the name is set apart.
    public func setIcon(_ icon: String) { gtk_button_set_icon_name(widget.c(), icon) }

    /// "_Save" and "儲存(_S)" as a person reads them: "Save", "儲存".
    public static func withoutMnemonic(_ text: String) -> String {
        var characters = Array(text)
        // A translation's "(_S)" after its own words goes whole.
        if characters.count >= 4, characters[characters.count - 4] == "(", characters[characters.count - 3] == "_", characters.last == ")" {
            characters.removeLast(4)
        }
        return String(characters.filter { $0 != "_" })
    }

    /// Makes the button invoke `name` (`win.new`), with its shortcut shown.
    public func setAction(_ name: String) { gtk_actionable_set_action_name(widget.c(), name) }

    public func onClicked(_ handler: @escaping () -> Void) { Signal.connect(widget.raw, "clicked", handler) }
}
