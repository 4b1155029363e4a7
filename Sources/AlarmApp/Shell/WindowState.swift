// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import CAdwaita
import Glibc

/// The main window's size and whether it was maximized, kept in the user's
/// state directory (`$XDG_STATE_HOME/alarms/window.ini`, else
/// `~/.local/state/alarms/window.ini`) as a GKeyFile, the format GLib reads
/// and writes for exactly this.
struct WindowState: Equatable {
    /// Wide enough for the page switcher in the header, as GNOME Clocks
    /// opens; narrower, it moves to the bottom.
    var width: Int32 = 640
    var height: Int32 = 640
    var maximized = false

    static let maxFileSize = 4096

    /// The file, by the XDG base directory rules.
    static func path(environment: [String: String]) -> String? {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") { return state + "/alarms/window.ini" }
        guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
        return home + "/.local/state/alarms/window.ini"
    }

    /// The saved state; the defaults when there is none or it does not read.
    /// Sizes are kept within what a screen can hold, whatever the file says.
    static func load(from path: String) -> WindowState {
        var state = WindowState()
        // Three numbers: anything larger is not this file, and is not read.
        var info = stat()
        guard stat(path, &info) == 0, info.st_size <= maxFileSize, (info.st_mode & S_IFMT) == S_IFREG else { return state }
        let file = g_key_file_new()
        defer { g_key_file_free(file) }
        guard g_key_file_load_from_file(file, path, G_KEY_FILE_NONE, nil) != 0 else { return state }
        var error: UnsafeMutablePointer<GError>?
        let width = g_key_file_get_integer(file, "window", "width", &error)
        if error == nil { state.width = min(max(width, 360), 8192) } else { g_clear_error(&error) }
        let height = g_key_file_get_integer(file, "window", "height", &error)
        if error == nil { state.height = min(max(height, 360), 8192) } else { g_clear_error(&error) }
        let maximized = g_key_file_get_boolean(file, "window", "maximized", &error)
        if error == nil { state.maximized = maximized != 0 } else { g_clear_error(&error) }
        return state
    }

    /// Writes the state, making the directory; a failure only loses the size.
    func save(to path: String) {
        if let slash = path.lastIndex(of: "/") { g_mkdir_with_parents(String(path[..<slash]), 0o700) }
        let file = g_key_file_new()
        defer { g_key_file_free(file) }
        g_key_file_set_integer(file, "window", "width", width)
        g_key_file_set_integer(file, "window", "height", height)
        g_key_file_set_boolean(file, "window", "maximized", maximized ? 1 : 0)
        g_key_file_save_to_file(file, path, nil)
    }
}
