// SPDX-License-Identifier: Apache-2.0
import Adwaita
import CAdwaita

/// The keyboard shortcuts window (F1, Ctrl+?), in the user's language.
enum ShortcutsWindow {
    /// (title, accelerator) pairs, the order the window lists them in.
    static var shortcuts: [(String, String)] {
        [
            (L("New alarm or to-do"), "<Control>n"),
            (L("Delete the selected alarm or to-do"), "Delete"),
            (L("Undo"), "<Control>z"),
            (L("Keyboard shortcuts"), "F1 <Control>question"),
            (L("Quit"), "<Control>q"),
        ]
    }

    static func present(over window: some WidgetWrapper) {
        let items = shortcuts.map { title, accelerator in
            """
            <child><object class="GtkShortcutsShortcut">\
            <property name="title">\(markupEscaped(title))</property>\
            <property name="accelerator">\(markupEscaped(accelerator))</property>\
            </object></child>
            """
        }.joined()
        let general = markupEscaped(L("General"))
        let xml = """
            <interface><object class="GtkShortcutsWindow" id="shortcuts"><property name="modal">1</property>\
            <child><object class="GtkShortcutsSection"><property name="section-name">main</property>\
            <child><object class="GtkShortcutsGroup"><property name="title">\(general)</property>\
            \(items)</object></child></object></child></object></interface>
            """
        guard let shortcuts = Builder(xml: xml).widget("shortcuts") else { return }
        gtk_window_set_transient_for(shortcuts.c(), window.widget.c())
        gtk_window_present(shortcuts.c())
    }
}
