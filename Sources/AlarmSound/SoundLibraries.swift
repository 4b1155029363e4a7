// SPDX-License-Identifier: Apache-2.0
import CSoundLibraries
import Synchronization

/// The sound stack of alarmd's sound process: libpulse and libsndfile (with
/// what they bring: FLAC, Vorbis, Opus, MP3, X11, D-Bus), opened with dlopen
/// at the first use and kept for the process's short life. dlopen rather
/// than linking, so that a system without one of them gets a message naming
/// it (and alarmd rings through the external player) instead of a process
/// that cannot start. The one place for their ownership rules: ``load()``
/// succeeds before ``pulse`` or ``sndfile`` is used, which is checked.
public enum SoundLibraries {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    private static let tables = Mutex<(pulse: alarmd_pulse, sndfile: alarmd_sndfile)?>(nil)

    /// Opens both libraries if they are not open yet.
    public static func load() throws(Failure) {
        try tables.withLock { (tables: inout (pulse: alarmd_pulse, sndfile: alarmd_sndfile)?) throws(Failure) in
            guard tables == nil else { return }
            var pulse = alarmd_pulse(), sndfile = alarmd_sndfile()
            var error = [CChar](repeating: 0, count: 512)
            guard alarmd_sound_open(&pulse, &sndfile, &error, UInt(error.count)) == 0 else {
                throw Failure(description: "cannot load the sound libraries: " + String(decoding: error.prefix { $0 != 0 }.map(UInt8.init), as: UTF8.self))
            }
            tables = (pulse, sndfile)
        }
    }

    /// A library's message (`pa_strerror`, `sf_strerror`) as text.
    static func text(_ message: UnsafePointer<CChar>?) -> String {
        message.map { String(cString: $0) } ?? "unknown error"
    }

    /// libpulse's functions; only after ``load()``.
    static var pulse: Pulse { Pulse(table: loaded().pulse) }
    /// libsndfile's functions; only after ``load()``.
    static var sndfile: Sndfile { Sndfile(table: loaded().sndfile) }

    private static func loaded() -> (pulse: alarmd_pulse, sndfile: alarmd_sndfile) {
        guard let tables = tables.withLock({ $0 }) else { preconditionFailure("the sound libraries are called before they are loaded") }
        return tables
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

/// libpulse's functions, once ``SoundLibraries/load()`` has succeeded.
var libpulse: SoundLibraries.Pulse { SoundLibraries.pulse }
/// libsndfile's functions, once ``SoundLibraries/load()`` has succeeded.
var libsndfile: SoundLibraries.Sndfile { SoundLibraries.sndfile }
