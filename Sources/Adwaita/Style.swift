// SPDX-License-Identifier: Apache-2.0
import CAdwaita

/// The app's own CSS, on top of libadwaita's (which also gives the dark
/// style when the desktop asks for it).
public enum Style {
    public static func add(css: String) {
        guard let display = gdk_display_get_default() else { return }
        let provider = gtk_css_provider_new()
        gtk_css_provider_load_from_data(provider, css, -1)
        gtk_style_context_add_provider_for_display(display, OpaquePointer(provider), guint(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
        g_object_unref(UnsafeMutableRawPointer(provider))
    }
}
