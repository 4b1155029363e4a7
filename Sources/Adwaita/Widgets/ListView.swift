// SPDX-License-Identifier: Apache-2.0
import CAdwaita

/// A scrolling list that makes widgets only for the rows on screen (GTK's
/// GtkListView over a ``StringList`` of ids): ten thousand alarms cost ten
/// thousand strings, not ten thousand rows of widgets.
///
/// `makeRow` builds one reusable row; `bind` fills it for an id. Rows are
/// recycled as the list scrolls, so a row must keep no state of its own
/// beyond the id it shows now.
public final class ListView<Row: WidgetWrapper>: WidgetWrapper {
    public let widget: Widget
    public let model: StringList
    private var rows: [UnsafeMutableRawPointer: Row] = [:]

    public init(model: StringList, makeRow: @escaping () -> Row, bind: @escaping (Row, String) -> Void) {
        self.model = model
        let factory = ObjectReference(taking: UnsafeMutableRawPointer(gtk_signal_list_item_factory_new()))
        // The selection model takes over the string list's reference it is
        // given; the view takes over the selection model's and the factory's.
        let selection = gtk_no_selection_new(OpaquePointer(g_object_ref(model.reference.pointer)))
        g_object_ref(factory.pointer)
        widget = Widget(gtk_list_view_new(selection, factory.c()))
        Signal.connect(factory.pointer, "setup") { [unowned self] item in
            guard let item else { return }
            let row = makeRow()
            gtk_list_item_set_child(OpaquePointer(item), row.widget.pointer)
            gtk_list_item_set_activatable(OpaquePointer(item), 0)
            self.rows[item] = row
        }
        Signal.connect(factory.pointer, "bind") { [unowned self] item in
            guard let item, let row = self.rows[item],
                  let id = StringList.string(of: gtk_list_item_get_item(OpaquePointer(item))) else { return }
            bind(row, id)
        }
        Signal.connect(factory.pointer, "teardown") { [unowned self] item in
            guard let item else { return }
            self.rows[item] = nil
        }
    }

    /// The rows that exist now (those on screen and a few around them).
    public var boundRows: [Row] { Array(rows.values) }

    /// Fills every row on screen again (the minute changed: "in 8 h 5 min").
    public func rebindVisible(_ bind: (Row, String) -> Void) {
        for (item, row) in rows {
            guard let id = StringList.string(of: gtk_list_item_get_item(OpaquePointer(item))) else { continue }
            bind(row, id)
        }
    }

    /// Scrolls so the row at `index` is shown (the alarm just added).
    public func scroll(to index: Int) {
        guard index >= 0, index < model.count else { return }
        // gtk_list_view_scroll_to is GTK 4.12; activating the action the view
        // installs is how 4.8 does it.
        let target = g_variant_new_uint32(guint32(index))
        gtk_widget_activate_action_variant(widget.pointer, "list.scroll-to-item", target)
    }
}
