// SPDX-License-Identifier: Apache-2.0
import Adwaita
import AlarmCore
import AlarmViewModels
import CAdwaita
import Glibc

/// The app's entry: one AdwApplication (`io.alarmd.Alarms`), one window,
/// the application's actions and every shortcut.
/// The lists' rows as cards, the way GNOME Clocks shows its alarms, with an
/// edge that needs no blur (a blurred shadow under every row is most of a
/// frame's cost where GTK renders in software). A row's
/// main area is a flat button (click or Enter opens the editor); its text
/// keeps the list's weights rather than a button's bold.
private let appCSS = """
    listview.item-list { background: none; padding: 12px 12px 24px 12px; }
    listview.item-list > row { background-color: @card_bg_color; border-radius: 12px; margin: 4px 0;
        box-shadow: 0 0 0 1px alpha(@card_shade_color, 0.9), 0 1px 0 1px alpha(@card_shade_color, 0.6); }
    listview.item-list > row:focus-within { outline: 2px solid alpha(@accent_color, 0.5); outline-offset: -2px; }
    button.row-open { font-weight: normal; padding: 6px 8px; }
    button.row-open .title-1 { font-weight: 300; }
    .ringing-time { font-size: 56pt; font-weight: 300; }
    """

public enum AlarmsApp {
    public static func main() -> Int32 {
        // GTK's own strings (the file chooser, the shortcuts window) follow
        // the locale too.
        setlocale(LC_ALL, "")
        _ = appLanguage
        g_set_application_name(L("Alarms"))
        let application = Application(id: "io.alarmd.Alarms")
        var window: MainWindow?
        application.onActivate {
            if let window { return window.window.present() }
            Style.add(css: appCSS)
            let created = MainWindow(application: application,
                                     socketPath: DaemonSocket.path(environment: AppSession.environment, userID: getuid()))
            window = created
            created.window.present()
        }
        application.addAction("quit", shortcuts: ["<Control>q"]) { application.quit() }
        application.addAction("shortcuts", shortcuts: ["F1", "<Control>question"]) {
            if let window { ShortcutsWindow.present(over: window.window) }
        }
        application.addAction("about") {
            if let window { AboutWindow.present(over: window.window) }
        }
        for (action, keys) in MainWindow.shortcuts { application.setShortcuts(action, keys) }
        return application.run()
    }
}
