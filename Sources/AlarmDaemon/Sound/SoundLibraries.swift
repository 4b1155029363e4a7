// SPDX-License-Identifier: Apache-2.0
import CSoundLibraries
import Dispatch
import Synchronization

/// The sound stack, in memory only around a ring: libpulse and libsndfile
/// (with what they bring: FLAC, Vorbis, Opus, MP3, X11, D-Bus) are opened
/// with dlopen when something is about to play or be checked, and let go of
/// ``grace`` seconds after the last use ends, so that an idle alarmd maps
/// none of them. The one place for their ownership rules:
///
/// - a caller holds a ``Lease`` for as long as it calls into either
///   library: a connection to the sound server, a decode (``acquire()``);
/// - while any lease is held, ``pulse`` and ``sndfile`` are the loaded
///   libraries' functions; without one they must not be called, which is
///   checked;
/// - when the last lease ends, the libraries are closed after ``grace``,
///   unless a lease was taken meanwhile.
///
/// A library that cannot be opened (not installed) fails the acquire with
/// dlopen's words, naming it; callers then ring through the external player.
final class SoundLibraries: Sendable {
    static let shared = SoundLibraries()

    /// How long the libraries stay after their last use: an audibility
    /// check is followed by its ring, a ring by the next item's.
    static let grace: Double = 30

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private struct State {
        var pulse = alarmd_pulse()
        var sndfile = alarmd_sndfile()
        var loaded = false
        var leases = 0
        /// Counts leases taken, so that a close scheduled before one was
        /// taken (and returned) does not go ahead.
        var taken = 0
    }

    private let state = Mutex(State())
    private let queue = DispatchQueue(label: "alarmd.sound-libraries")

    /// A hold on both libraries, given back when the last copy goes.
    final class Lease: Sendable {
        private let libraries: SoundLibraries
        fileprivate init(_ libraries: SoundLibraries) { self.libraries = libraries }
        deinit { libraries.release() }
    }

    /// Opens the libraries if they are not open, and holds them.
    func acquire() throws(Failure) -> Lease {
        try state.withLock { (state: inout State) throws(Failure) in
            if !state.loaded {
                var error = [CChar](repeating: 0, count: 512)
                guard alarmd_sound_open(&state.pulse, &state.sndfile, &error, UInt(error.count)) == 0 else {
                    throw Failure(description: "cannot load the sound libraries: " + String(decoding: error.prefix { $0 != 0 }.map(UInt8.init), as: UTF8.self))
                }
                state.loaded = true
            }
            state.leases += 1
            state.taken += 1
        }
        return Lease(self)
    }

    /// Whether the libraries are open now, for the tests and the journal.
    var isLoaded: Bool { state.withLock { $0.loaded } }

    private func release() {
        let taken = state.withLock { state in
            state.leases -= 1
            return state.taken
        }
        queue.asyncAfter(deadline: .now() + Self.grace) { [self] in
            state.withLock { state in
                guard state.loaded, state.leases == 0, state.taken == taken else { return }
                alarmd_sound_close()
                state.pulse = alarmd_pulse()
                state.sndfile = alarmd_sndfile()
                state.loaded = false
            }
        }
    }

    /// A library's message (`pa_strerror`, `sf_strerror`) as text.
    static func text(_ message: UnsafePointer<CChar>?) -> String {
        message.map { String(cString: $0) } ?? "unknown error"
    }

    /// libpulse's functions; only under a lease.
    var pulse: Pulse { Pulse(table: tables().pulse) }
    /// libsndfile's functions; only under a lease.
    var sndfile: Sndfile { Sndfile(table: tables().sndfile) }

    private func tables() -> (pulse: alarmd_pulse, sndfile: alarmd_sndfile) {
        state.withLock { state in
            precondition(state.leases > 0, "the sound libraries are called without a lease")
            return (state.pulse, state.sndfile)
        }
    }

    /// A table's functions by their C names: `libpulse.pa_context_connect(…)`.
    @dynamicMemberLookup
    struct Pulse {
        let table: alarmd_pulse
        subscript<F>(dynamicMember function: KeyPath<alarmd_pulse, F?>) -> F { table[keyPath: function]! }
    }

    @dynamicMemberLookup
    struct Sndfile {
        let table: alarmd_sndfile
        subscript<F>(dynamicMember function: KeyPath<alarmd_sndfile, F?>) -> F { table[keyPath: function]! }
    }
}

/// libpulse's functions, for the code that holds a lease (``SoundLibraries``).
var libpulse: SoundLibraries.Pulse { SoundLibraries.shared.pulse }
/// libsndfile's functions, for the code that holds a lease.
var libsndfile: SoundLibraries.Sndfile { SoundLibraries.shared.sndfile }
