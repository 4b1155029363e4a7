// SPDX-License-Identifier: Apache-2.0
import CAdwaita
import Glibc

/// The process's AdwApplication: one instance per session (a second start
/// presents the first window), its actions and their shortcuts.
public final class Application {
    public let reference: ObjectReference

    public init(id: String) {
        reference = ObjectReference(taking: UnsafeMutableRawPointer(adw_application_new(id, G_APPLICATION_DEFAULT_FLAGS)))
    }

    public var raw: gpointer { reference.pointer }

    /// `activate`: started, or started again while running.
    public func onActivate(_ handler: @escaping () -> Void) { Signal.connect(raw, "activate", handler) }

    /// Adds `app.NAME`, with its keyboard shortcuts (`<Control>q`).
    public func addAction(_ name: String, shortcuts: [String] = [], _ handler: @escaping () -> Void) {
        let action = SimpleAction(name, handler)
        g_action_map_add_action(reference.c(), action.reference.c())
        setShortcuts("app." + name, shortcuts)
    }

    /// Sets the shortcuts of a detailed action name (`win.new-alarm`).
    public func setShortcuts(_ action: String, _ shortcuts: [String]) {
        guard !shortcuts.isEmpty else { return }
        withCStrings(shortcuts) { gtk_application_set_accels_for_action(reference.c(), action, $0) }
    }

    public func quit() { g_application_quit(reference.c()) }

    /// Runs the main loop until the last window closes; the exit status.
    public func run() -> Int32 {
        alarms_application_run(reference.c(), CommandLine.argc, CommandLine.unsafeArgv)
    }
}

/// A GSimpleAction without a parameter, activated by a button, a menu item
/// or a shortcut.
public final class SimpleAction {
    public let reference: ObjectReference

    public init(_ name: String, _ handler: @escaping () -> Void) {
        reference = ObjectReference(taking: UnsafeMutableRawPointer(g_simple_action_new(name, nil)))
        Signal.connect(reference.pointer, "activate") { _ in handler() }
    }
}

/// A set of actions under one prefix on a widget (`win.`, `row.`).
public final class ActionGroup {
    public let reference: ObjectReference

    public init() {
        reference = ObjectReference(taking: UnsafeMutableRawPointer(g_simple_action_group_new()))
    }

    @discardableResult
    public func add(_ name: String, _ handler: @escaping () -> Void) -> SimpleAction {
        let action = SimpleAction(name, handler)
        g_action_map_add_action(reference.c(), action.reference.c())
        return action
    }
}
