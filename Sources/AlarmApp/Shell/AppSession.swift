// SPDX-License-Identifier: Apache-2.0
import Adwaita
import AlarmCore
import AlarmProtocol
import AlarmViewModels
import FoundationEssentials
import Glibc

/// What every screen of the window shares: the daemon, the clock and zone,
/// the toasts, and the window itself. Lives on GTK's thread.
final class AppSession {
    let link: DaemonLink
    let window: ApplicationWindow
    let toasts: ToastOverlay
    /// The system zone, looked up again each minute (it may change).
    private(set) var zone: Zone

    init(link: DaemonLink, window: ApplicationWindow, toasts: ToastOverlay) {
        self.link = link
        self.window = window
        self.toasts = toasts
        zone = ZoneDatabase.lookUpSystemZone(environmentTZ: AppSession.environment["TZ"]).zone
    }

    /// Reads the clock: the one place the app does.
    var now: Date { Date() }

    func refreshZone() {
        zone = ZoneDatabase.lookUpSystemZone(environmentTZ: AppSession.environment["TZ"]).zone
    }

    /// Calls the daemon; a failure comes back as it is, for a form to show
    /// next to its field. A lost daemon also goes to the banner.
    func call<M: VarlinkMethod>(_ method: M.Type, _ request: M.Request) throws(DaemonFailure) -> M.Reply {
        MainContext.assertOwner()
        do throws(DaemonFailure) {
            return try link.client.call(method, request)
        } catch {
            link.lost(error)
            throw error
        }
    }

    /// Calls the daemon for a one-click action (a switch, a menu item); a
    /// failure is said in a toast. `nil` when it failed.
    @discardableResult
    func perform<M: VarlinkMethod>(_ method: M.Type, _ request: M.Request) -> M.Reply? {
        do throws(DaemonFailure) {
            return try call(method, request)
        } catch {
            toast(error.text(in: appLanguage))
            return nil
        }
    }

    func toast(_ text: String, button: String? = nil, action: String? = nil) {
        toasts.show(text, button: button, action: action)
    }

    /// Shows a view model's toast; its button, if any, invokes `win.undo`.
    func toast(_ text: ToastText) {
        toasts.show(text.title, button: text.buttonLabel, action: text.buttonLabel == nil ? nil : "win.undo")
    }

    /// The environment variables the app reads, and the only ones it takes in.
    static let variables = ["ALARMD_SOCKET", "XDG_RUNTIME_DIR", "TZ", "XDG_STATE_HOME", "HOME", "ALARMS_FRAME_LOG"]

    static let environment: [String: String] = {
        var result: [String: String] = [:]
        for name in variables {
            if let value = getenv(name) { result[name] = String(cString: value) }
        }
        return result
    }()
}
