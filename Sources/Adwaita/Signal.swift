// SPDX-License-Identifier: Apache-2.0
import CAdwaita

/// Connects Swift closures to GObject signals.
///
/// `g_signal_connect` is a macro, so this calls `g_signal_connect_data` with a
/// `@convention(c)` trampoline for the signal's C signature. The closure
/// travels in a retained ``SignalHandler`` box as the user data; GLib calls
/// the destroy notify when the handler is disconnected or the object
/// finalized, which releases the box. One trampoline per signature, here.
public enum Signal {
    /// A signal whose handler takes only the instance: `clicked`, `activate`,
    /// `value-changed`, `changed`, `destroy`.
    @discardableResult
    public static func connect(_ instance: gpointer, _ name: String, _ handler: @escaping () -> Void) -> gulong {
        let trampoline: @convention(c) (gpointer?, gpointer?) -> Void = { _, data in
            MainContext.assertOwner()
            SignalHandler<() -> Void>.from(data)()
        }
        return attach(instance, name, unsafeBitCast(trampoline, to: GCallback.self), handler)
    }

    /// A signal with one pointer argument: `notify::…` (a GParamSpec),
    /// `setup`/`bind` of a list item factory (the GtkListItem),
    /// `row-activated` (the row), `response` (the response id), an action's
    /// `activate` (the parameter variant).
    @discardableResult
    public static func connect(_ instance: gpointer, _ name: String, _ handler: @escaping (gpointer?) -> Void) -> gulong {
        let trampoline: @convention(c) (gpointer?, gpointer?, gpointer?) -> Void = { _, argument, data in
            MainContext.assertOwner()
            SignalHandler<(gpointer?) -> Void>.from(data)(argument)
        }
        return attach(instance, name, unsafeBitCast(trampoline, to: GCallback.self), handler)
    }

    /// A signal with an integer argument: a native dialog's `response`.
    @discardableResult
    public static func connectInt(_ instance: gpointer, _ name: String, _ handler: @escaping (Int32) -> Void) -> gulong {
        let trampoline: @convention(c) (gpointer?, gint, gpointer?) -> Void = { _, value, data in
            MainContext.assertOwner()
            SignalHandler<(Int32) -> Void>.from(data)(value)
        }
        return attach(instance, name, unsafeBitCast(trampoline, to: GCallback.self), handler)
    }

    /// A signal whose handler answers whether it handled it: `close-request`.
    @discardableResult
    public static func connectHandled(_ instance: gpointer, _ name: String, _ handler: @escaping () -> Bool) -> gulong {
        let trampoline: @convention(c) (gpointer?, gpointer?) -> gboolean = { _, data in
            MainContext.assertOwner()
            return SignalHandler<() -> Bool>.from(data)() ? 1 : 0
        }
        return attach(instance, name, unsafeBitCast(trampoline, to: GCallback.self), handler)
    }

    /// A signal with a boolean argument that answers whether it handled it:
    /// GtkSwitch's `state-set`.
    @discardableResult
    public static func connectHandled(_ instance: gpointer, _ name: String, _ handler: @escaping (Bool) -> Bool) -> gulong {
        let trampoline: @convention(c) (gpointer?, gboolean, gpointer?) -> gboolean = { _, value, data in
            MainContext.assertOwner()
            return SignalHandler<(Bool) -> Bool>.from(data)(value != 0) ? 1 : 0
        }
        return attach(instance, name, unsafeBitCast(trampoline, to: GCallback.self), handler)
    }

    /// GtkDropTarget's `drop`: the dropped value and where.
    @discardableResult
    public static func connectDrop(_ instance: gpointer, _ handler: @escaping (UnsafePointer<GValue>?, Double, Double) -> Bool) -> gulong {
        let trampoline: @convention(c) (gpointer?, UnsafePointer<GValue>?, Double, Double, gpointer?) -> gboolean = { _, value, x, y, data in
            MainContext.assertOwner()
            return SignalHandler<(UnsafePointer<GValue>?, Double, Double) -> Bool>.from(data)(value, x, y) ? 1 : 0
        }
        return attach(instance, "drop", unsafeBitCast(trampoline, to: GCallback.self), handler)
    }

    /// GtkDragSource's `prepare`: the content to drag, with a full reference
    /// (or `nil` to refuse).
    @discardableResult
    public static func connectPrepare(_ instance: gpointer, _ handler: @escaping (Double, Double) -> gpointer?) -> gulong {
        let trampoline: @convention(c) (gpointer?, Double, Double, gpointer?) -> gpointer? = { _, x, y, data in
            MainContext.assertOwner()
            return SignalHandler<(Double, Double) -> gpointer?>.from(data)(x, y)
        }
        return attach(instance, "prepare", unsafeBitCast(trampoline, to: GCallback.self), handler)
    }

    /// GtkEventControllerKey's `key-pressed`: key value, key code, modifiers.
    @discardableResult
    public static func connectKeyPressed(_ instance: gpointer, _ handler: @escaping (UInt32, UInt32, GdkModifierType) -> Bool) -> gulong {
        let trampoline: @convention(c) (gpointer?, guint, guint, GdkModifierType, gpointer?) -> gboolean = { _, key, code, state, data in
            MainContext.assertOwner()
            return SignalHandler<(UInt32, UInt32, GdkModifierType) -> Bool>.from(data)(key, code, state) ? 1 : 0
        }
        return attach(instance, "key-pressed", unsafeBitCast(trampoline, to: GCallback.self), handler)
    }

    public static func block(_ instance: gpointer, _ id: gulong) { g_signal_handler_block(instance, id) }
    public static func unblock(_ instance: gpointer, _ id: gulong) { g_signal_handler_unblock(instance, id) }

    private static func attach<H>(_ instance: gpointer, _ name: String, _ callback: GCallback, _ handler: H) -> gulong {
        let box = Unmanaged.passRetained(SignalHandler(handler)).toOpaque()
        let release: GClosureNotify = { data, _ in
            guard let data else { return }
            Unmanaged<AnyObject>.fromOpaque(data).release()
        }
        return g_signal_connect_data(instance, name, callback, box, release, GConnectFlags(rawValue: 0))
    }
}

/// The retained box a signal's closure travels in.
final class SignalHandler<H> {
    let handler: H
    init(_ handler: H) { self.handler = handler }

    /// The handler in a trampoline's user data (which ``Signal`` set).
    static func from(_ data: gpointer?) -> H {
        Unmanaged<SignalHandler<H>>.fromOpaque(data!).takeUnretainedValue().handler
    }
}
