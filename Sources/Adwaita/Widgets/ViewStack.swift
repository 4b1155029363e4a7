// SPDX-License-Identifier: Apache-2.0
import CAdwaita

/// The app's pages with a switcher in the header (wide window) or at the
/// bottom (narrow window), as GNOME Clocks has them.
public struct ViewStack: WidgetWrapper {
    public let widget: Widget

    public init() { widget = Widget(adw_view_stack_new()) }

    public func add(_ child: some WidgetWrapper, name: String, title: String, icon: String) {
        adw_view_stack_add_titled_with_icon(widget.c(), child.widget.pointer, name, title, icon)
    }

    public var visibleName: String {
        get { String(glib: adw_view_stack_get_visible_child_name(widget.c())) ?? "" }
        nonmutating set { adw_view_stack_set_visible_child_name(widget.c(), newValue) }
    }

    public func onVisibleChanged(_ handler: @escaping () -> Void) { Signal.connect(widget.raw, "notify::visible-child") { _ in handler() } }

    /// The switcher for the header bar; when the window is narrow it gives
    /// way to `text` there and to `bar` at the bottom.
    public func makeSwitchers(title text: String) -> (title: Widget, bar: Widget) {
        let title = Widget(adw_view_switcher_title_new())
        // Shown instead of the switcher when the window is narrow.
        adw_view_switcher_title_set_title(title.c(), text)
        adw_view_switcher_title_set_stack(title.c(), widget.c())
        let bar = Widget(adw_view_switcher_bar_new())
        adw_view_switcher_bar_set_stack(bar.c(), widget.c())
        Signal.connect(title.raw, "notify::title-visible") { _ in
            adw_view_switcher_bar_set_reveal(bar.c(), adw_view_switcher_title_get_title_visible(title.c()))
        }
        return (title, bar)
    }
}
