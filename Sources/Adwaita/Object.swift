// SPDX-License-Identifier: Apache-2.0
import CAdwaita

/// GObject's reference rules, written once.
///
/// - A widget belongs to the widget tree: a new widget's reference is
///   floating, and the parent it is added to sinks it; a window belongs to
///   GTK's list of toplevels until it is destroyed. So a ``Widget`` is a plain,
///   non-owning handle, valid while the widget is in a tree or shown.
/// - Every other object the app creates (models, actions, textures, key files)
///   comes with a full reference, and an ``ObjectReference`` owns exactly
///   that one: it releases it when the Swift value goes.
/// - A widget that must outlive its place in the tree (taken out to be put
///   back later) is held by ``ObjectReference/init(retaining:)``.
///
/// Everything here runs on the thread that owns GLib's default main context
/// (GTK's one thread); ``MainContext/assertOwner()`` checks it where a
/// callback enters Swift.
public final class ObjectReference {
    public let pointer: gpointer

    /// Takes over a reference the caller owns (a `transfer full` return).
    public init(taking pointer: gpointer) {
        self.pointer = pointer
    }

    /// Adds a reference of its own (sinking a floating one).
    public init(retaining pointer: gpointer) {
        self.pointer = g_object_ref_sink(pointer)
    }

    deinit { g_object_unref(pointer) }

    /// The object as a pointer to the C type a call expects.
    public func c<T>() -> UnsafeMutablePointer<T> { pointer.assumingMemoryBound(to: T.self) }
    public func c() -> OpaquePointer { OpaquePointer(pointer) }
}

/// GLib's default main context: the one GTK and the app run on.
public enum MainContext {
    /// Stops the process if called off GTK's thread: every widget and every
    /// view model of the app is confined to it.
    public static func assertOwner(file: StaticString = #fileID, line: UInt = #line) {
        precondition(g_main_context_is_owner(g_main_context_default()) != 0, "GTK used off its main context", file: file, line: line)
    }
}

extension String {
    /// A C string GLib handed over (`transfer none`), or `nil` for NULL.
    init?(glib pointer: UnsafePointer<CChar>?) {
        guard let pointer else { return nil }
        self.init(cString: pointer)
    }
}
