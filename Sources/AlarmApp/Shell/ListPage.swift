// SPDX-License-Identifier: Apache-2.0
import Adwaita
import AlarmViewModels
import CAdwaita

/// The frame both lists share: a GtkListView over the items' ids, in a clamp
/// that scrolls, and an empty state that says what to do. Rows exist only for
/// what is on screen; ``show(_:)`` splices in just the ids that changed and
/// refills the rows on screen.
final class ListPage<Row: WidgetWrapper>: WidgetWrapper {
    let widget: Widget
    private let stack = Stack()
    private let ids = StringList()
    /// The ids the list view shows, as last spliced in.
    private var shown: [String] = []
    private var view: ListView<Row>!
    private let bind: (Row, String) -> Void

    init(empty: StatusPage, makeRow: @escaping () -> Row, bind: @escaping (Row, String) -> Void) {
        self.bind = bind
        widget = stack.widget
        view = ListView(model: ids, makeRow: makeRow, bind: bind)
        view.widget.addCSSClass("item-list")
        // Delete belongs to the list: in a text field it still deletes text.
        view.widget.addShortcut("Delete", action: "win.delete")
        let clamp = Widget(adw_clamp_new())
        adw_clamp_set_maximum_size(clamp.c(), 640)
        adw_clamp_set_child(clamp.c(), view.widget.pointer)
        stack.add(ScrolledWindow(clamp), name: "list")
        stack.add(empty, name: "empty")
        stack.visibleName = "empty"
    }

    /// Shows `items`, in order.
    func show(_ items: [String]) {
        ids.apply(IDSplice.between(shown, items))
        shown = items
        refill()
        stack.visibleName = items.isEmpty ? "empty" : "list"
    }

    /// Fills the rows on screen again (the minute changed, an item changed
    /// in place).
    func refill() { view.rebindVisible(bind) }

    func scroll(to index: Int) { view.scroll(to: index) }

    /// The row that has the keyboard focus, if one has.
    func focusedRow() -> Row? {
        guard let focus = widget.focusInWindow else { return nil }
        return view.boundRows.first { $0.widget.contains(focus) }
    }
}

extension StringList {
    /// Applies a splice the view model worked out (nothing for `nil`).
    func apply(_ splice: IDSplice?) {
        guard let splice else { return }
        self.splice(at: splice.index, removing: splice.removing, inserting: splice.inserting)
    }
}
