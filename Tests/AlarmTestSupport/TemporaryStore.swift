// SPDX-License-Identifier: Apache-2.0

import AlarmStore

/// Where the daemon keeps its store below a state directory
/// (`$XDG_STATE_HOME/alarmd/alarmd.sqlite3`): two levels down, so that opening
/// a store there has directories to create.
public func storePath(in directory: String) -> String {
    directory + "/state/alarmd/alarmd.sqlite3"
}

/// A store opened at ``storePath(in:)`` in a ``TemporaryDirectory`` of its
/// own, for a fixture that keeps one across several steps. When it goes, the
/// store is closed and the directory removed; a test that must close the
/// store at a certain point (after stopping a scheduler on it) still calls
/// `store.close()` itself.
public final class TemporaryStore {
    public let directory = TemporaryDirectory()
    public let store: Store

    public init() throws {
        store = try Store(path: storePath(in: directory.path))
    }

    /// The store's file.
    public var path: String { store.path }

    deinit { store.close() }
}

/// Runs `body` with a new, empty store in a temporary directory, then closes
/// the store and removes the directory, whether `body` returns or throws.
public func withTemporaryStore<T>(_ body: (Store) throws -> T) throws -> T {
    let temporary = try TemporaryStore()
    defer { withExtendedLifetime(temporary) {} }
    return try body(temporary.store)
}

/// Opens the store at `path` (creating it if there is none), runs `body` with
/// it and closes it, whether `body` returns or throws: to fill a store before
/// a daemon or scheduler starts on it, or to read what one left behind.
public func withStore<T>(at path: String, _ body: (Store) throws -> T) throws -> T {
    let store = try Store(path: path)
    defer { store.close() }
    return try body(store)
}
