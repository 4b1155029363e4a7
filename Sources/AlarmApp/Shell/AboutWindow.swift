// SPDX-License-Identifier: Apache-2.0
import Adwaita
import AlarmCore
import CAdwaita

/// About Alarms: version, license, where it comes from.
enum AboutWindow {
    static func present(over window: some WidgetWrapper) {
        let about = Widget(adw_about_window_new())
        adw_about_window_set_application_name(about.c(), L("Alarms"))
        adw_about_window_set_application_icon(about.c(), "io.alarmd.Alarms")
        adw_about_window_set_developer_name(about.c(), L("alarmd developers"))
        adw_about_window_set_version(about.c(), AlarmdVersion.string)
        adw_about_window_set_comments(about.c(), L("Alarms, to-dos and timers that ring whether this window is open or not."))
        adw_about_window_set_license_type(about.c(), GTK_LICENSE_APACHE_2_0)
        adw_about_window_set_translator_credits(about.c(), L("translator-credits"))
        gtk_window_set_transient_for(about.c(), window.widget.c())
        gtk_window_set_modal(about.c(), 1)
        gtk_window_present(about.c())
    }
}
