// SPDX-License-Identifier: Apache-2.0
import CAdwaita

/// The app's main window.
public struct ApplicationWindow: WidgetWrapper {
    public let widget: Widget

    public init(_ application: Application) {
        widget = Widget(adw_application_window_new(application.reference.c()))
    }

    public func setContent(_ content: some WidgetWrapper) { adw_application_window_set_content(widget.c(), content.widget.pointer) }
    public func setTitle(_ title: String) { gtk_window_set_title(widget.c(), title) }
    public func setDefaultSize(width: Int32, height: Int32) { gtk_window_set_default_size(widget.c(), width, height) }
    public var isMaximized: Bool { gtk_window_is_maximized(widget.c()) != 0 }
    public func maximize() { gtk_window_maximize(widget.c()) }
    public func present() { gtk_window_present(widget.c()) }

    /// The size the user gave the window (not the maximized one).
    public var defaultSize: (width: Int32, height: Int32) {
        var width: Int32 = 0, height: Int32 = 0
        gtk_window_get_default_size(widget.c(), &width, &height)
        return (width, height)
    }

    /// Called when the window is about to close; `true` keeps it open.
    public func onCloseRequest(_ handler: @escaping () -> Bool) { Signal.connectHandled(widget.raw, "close-request", handler) }

    public func addController(_ controller: gpointer) { gtk_widget_add_controller(widget.pointer, OpaquePointer(controller)) }
}
