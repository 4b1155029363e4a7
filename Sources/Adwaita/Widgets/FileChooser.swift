// SPDX-License-Identifier: Apache-2.0
import CAdwaita

/// The desktop's own file chooser (through the portal when there is one):
/// GtkFileChooserNative, as GTK 4.8 has no GtkFileDialog yet.
public enum FileChooser {
    /// Asks for an image file; `chosen` gets its path, if the user picked one.
    public static func openImage(over parent: some WidgetWrapper, title: String, accept: String, cancel: String, filterName: String,
                                 chosen: @escaping (String) -> Void) {
        guard let chooser = gtk_file_chooser_native_new(title, parent.widget.c(), GTK_FILE_CHOOSER_ACTION_OPEN, accept, cancel) else { return }
        let filter = gtk_file_filter_new()
        gtk_file_filter_set_name(filter, filterName)
        gtk_file_filter_add_pixbuf_formats(filter)
        // The chooser adds a reference of its own.
        gtk_file_chooser_add_filter(chooser, filter)
        g_object_unref(UnsafeMutableRawPointer(filter))
        gtk_native_dialog_set_modal(UnsafeMutableRawPointer(chooser).assumingMemoryBound(to: GtkNativeDialog.self), 1)
        Signal.connectInt(UnsafeMutableRawPointer(chooser), "response") { response in
            defer { g_object_unref(UnsafeMutableRawPointer(chooser)) }
            guard response == GTK_RESPONSE_ACCEPT.rawValue, let file = gtk_file_chooser_get_file(chooser) else { return }
            defer { g_object_unref(UnsafeMutableRawPointer(file)) }
            guard let path = g_file_get_path(file) else { return }
            defer { g_free(path) }
            chosen(String(cString: path))
        }
        gtk_native_dialog_show(UnsafeMutableRawPointer(chooser).assumingMemoryBound(to: GtkNativeDialog.self))
    }
}
