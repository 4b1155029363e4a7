// SPDX-License-Identifier: Apache-2.0
import CAdwaita

/// Sources on GLib's default main context: the app's one loop. Each closure
/// travels in a retained box that the source's destroy notify releases.
public enum MainLoop {
    /// Calls `handler` whenever `descriptor` is readable or hung up, until it
    /// returns false. The daemon's Watch stream comes in through this: no
    /// thread of its own, no polling.
    @discardableResult
    public static func watch(_ descriptor: Int32, _ handler: @escaping (_ hungUp: Bool) -> Bool) -> UInt32 {
        let box = Unmanaged.passRetained(SignalHandler(handler)).toOpaque()
        let callback: GUnixFDSourceFunc = { _, condition, data in
            MainContext.assertOwner()
            let hungUp = condition.rawValue & (G_IO_HUP.rawValue | G_IO_ERR.rawValue) != 0
            return SignalHandler<(Bool) -> Bool>.from(data)(hungUp) ? 1 : 0
        }
        let condition = GIOCondition(rawValue: G_IO_IN.rawValue | G_IO_HUP.rawValue | G_IO_ERR.rawValue)
        return g_unix_fd_add_full(G_PRIORITY_DEFAULT, descriptor, condition, callback, box, release)
    }

    /// Calls `handler` every `milliseconds` until it returns false.
    @discardableResult
    public static func every(milliseconds: UInt32, _ handler: @escaping () -> Bool) -> UInt32 {
        g_timeout_add_full(G_PRIORITY_DEFAULT, milliseconds, sourceCallback, Unmanaged.passRetained(SignalHandler(handler)).toOpaque(), release)
    }

    /// Calls `handler` once, when the loop is next idle (after drawing).
    @discardableResult
    public static func idle(_ handler: @escaping () -> Void) -> UInt32 {
        let once: () -> Bool = { handler(); return false }
        return g_idle_add_full(G_PRIORITY_DEFAULT_IDLE, sourceCallback, Unmanaged.passRetained(SignalHandler(once)).toOpaque(), release)
    }

    /// Removes a source that has not ended itself.
    public static func remove(_ source: UInt32) {
        if source != 0 { g_source_remove(source) }
    }

    private static let sourceCallback: GSourceFunc = { data in
        MainContext.assertOwner()
        return SignalHandler<() -> Bool>.from(data)() ? 1 : 0
    }

    private static let release: GDestroyNotify = { data in
        guard let data else { return }
        Unmanaged<AnyObject>.fromOpaque(data).release()
    }
}
