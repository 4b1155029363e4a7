// SPDX-License-Identifier: Apache-2.0
import CAdwaita

/// A choice among texts. `onSelected` fires for the user's changes only.
public final class DropDown: WidgetWrapper {
    public let widget: Widget
    private let change: ChangeSignal
    private let model: StringList

    public init(_ items: [String]) {
        model = StringList(items)
        // gtk_drop_down_new takes over the reference it is given: it gets one
        // of its own, and the StringList keeps the one it owns.
        widget = Widget(gtk_drop_down_new(OpaquePointer(g_object_ref(model.reference.pointer)), nil))
        change = ChangeSignal(widget.raw, "notify::selected")
    }

    public var selectedIndex: Int {
        get { Int(gtk_drop_down_get_selected(widget.c())) }
        set { change.quietly { gtk_drop_down_set_selected(widget.c(), guint(newValue)) } }
    }

    /// Replaces the choices (the sounds found once the daemon answers).
    public func setItems(_ items: [String]) {
        change.quietly { model.replaceAll(items) }
    }

    public func onSelected(_ handler: @escaping (Int) -> Void) { change.handler = { [unowned self] in handler(self.selectedIndex) } }
}
