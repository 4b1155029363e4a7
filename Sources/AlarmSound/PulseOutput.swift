// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import CSoundLibraries
import FoundationEssentials
import Glibc
import Synchronization

/// The sound process's connection to the desktop's sound server through
/// the PulseAudio client library (PipeWire serves it too, through
/// pipewire-pulse): one context, and at most one playback stream (the
/// process plays one item's sound).
///
/// libpulse's threaded main loop runs the connection on a thread of its own;
/// every libpulse call here is made holding that loop's lock, and the
/// stream's callbacks run on that thread with the lock held, so the loop lock
/// is what guards the ``PulsePlayback``. The calls here come from the thread
/// that made the output (the process's main thread); it is not `Sendable`.
public final class PulseOutput {
    /// Why the sound server cannot play.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// How long a connection may take before the server counts as absent.
    public static let connectTimeout: TimeInterval = 2
    /// The server's buffer ahead of the speaker: stopping and volume changes
    /// are heard within it.
    static let bufferMilliseconds: UInt64 = 100

    private var mainloop: OpaquePointer?
    private var context: OpaquePointer?
    /// The sound playing, with the stream it started.
    private var playing: (playback: PulsePlayback, stream: OpaquePointer)?

    public init() {}

    deinit { disconnect() }

    /// Starts `sound` looping on a stream that says what it is (`media.role`,
    /// the label as `media.name`), at `volume` percent on the stream, rising
    /// from silence over `fade` seconds; `once` plays it through once and then
    /// silence. Waits at most ``connectTimeout`` for the server.
    public func play(_ sound: DecodedSound, name: String, role: String, volume: Int, fade: TimeInterval, once: Bool = false,
                     failed: @escaping @Sendable (String) -> Void) throws(Failure) {
        stop()
        let (mainloop, context) = try connected()
        libpulse.pa_threaded_mainloop_lock(mainloop)
        defer { libpulse.pa_threaded_mainloop_unlock(mainloop) }
        let playback = PulsePlayback(sound: sound, fade: fade, once: once, failed: failed)
        guard let stream = playback.start(on: context, name: name, role: role, volume: volume) else {
            throw Failure(description: "the sound server refused a stream: \(SoundLibraries.text(libpulse.pa_strerror(libpulse.pa_context_errno(context))))")
        }
        playing = (playback, stream)
    }

    /// The sound to full volume at once.
    public func escalate() {
        guard let (playback, stream) = playing, let mainloop, let context else { return }
        libpulse.pa_threaded_mainloop_lock(mainloop)
        playback.escalate(stream, on: context)
        libpulse.pa_threaded_mainloop_unlock(mainloop)
    }

    /// Stops the sound at once (its stream goes from the server).
    public func stop() {
        guard let (playback, stream) = playing, let mainloop else { return }
        playing = nil
        libpulse.pa_threaded_mainloop_lock(mainloop)
        playback.stop(stream)
        libpulse.pa_threaded_mainloop_unlock(mainloop)
    }

    /// The output a stream would play on now (the server's default sink):
    /// its name, mute and loudest channel; `nil` when the server has none.
    /// Connects for the question when nothing plays, and closes again after;
    /// each answer may take ``connectTimeout``.
    public func defaultOutput() throws(Failure) -> AudibilityReport.Output? {
        let (mainloop, context) = try connected()
        let answer = OutputAnswer()
        let userdata = Unmanaged.passUnretained(answer).toOpaque()
        try withExtendedLifetime(answer) { () throws(Failure) in
            try wait(for: "the server's information", on: mainloop) {
                libpulse.pa_context_get_server_info(context, { _, info, userdata in
                    guard let userdata else { return }
                    let answer = Unmanaged<OutputAnswer>.fromOpaque(userdata).takeUnretainedValue()
                    let name = info?.pointee.default_sink_name.map { String(cString: $0) }
                    answer.found.withLock { $0.sinkName = name }
                }, userdata)
            }
            guard let sink = answer.found.withLock({ $0.sinkName }) else { return }
            try wait(for: "the output's state", on: mainloop) {
                libpulse.pa_context_get_sink_info_by_name(context, sink, { _, info, _, userdata in
                    guard let userdata, let info else { return }
                    let answer = Unmanaged<OutputAnswer>.fromOpaque(userdata).takeUnretainedValue()
                    var volume = info.pointee.volume
                    let loudest = UInt64(libpulse.pa_cvolume_max(&volume)), normal = UInt64(PA_VOLUME_NORM)
                    let description = info.pointee.description.map { String(cString: $0) }
                    let muted = info.pointee.mute != 0, percent = Int((loudest * 100 + normal / 2) / normal)
                    answer.found.withLock { $0.output = .init(name: description ?? $0.sinkName ?? "?", muted: muted, volume: percent) }
                }, userdata)
            }
        }
        return answer.found.withLock { $0.output }
    }

    /// What the introspection callbacks found; written on the loop's thread
    /// with its lock held, read on the caller's after the operation is done.
    private final class OutputAnswer: Sendable {
        let found = Mutex<(sinkName: String?, output: AudibilityReport.Output?)>((nil, nil))
    }

    /// Starts an operation (with the loop locked) and polls it to its end;
    /// one that does not end within ``connectTimeout`` is cancelled, so its
    /// callback can no longer run.
    private func wait(for what: String, on mainloop: OpaquePointer, _ start: () -> OpaquePointer?) throws(Failure) {
        libpulse.pa_threaded_mainloop_lock(mainloop)
        let operation = start()
        libpulse.pa_threaded_mainloop_unlock(mainloop)
        guard let operation else { throw Failure(description: "the sound server refused to say \(what)") }
        let deadline = Date().addingTimeInterval(Self.connectTimeout)
        while true {
            libpulse.pa_threaded_mainloop_lock(mainloop)
            let running = libpulse.pa_operation_get_state(operation) == PA_OPERATION_RUNNING
            if running, Date() >= deadline { libpulse.pa_operation_cancel(operation) }
            libpulse.pa_threaded_mainloop_unlock(mainloop)
            if !running { break }
            if Date() >= deadline {
                libpulse.pa_operation_unref(operation)
                throw Failure(description: "the sound server did not say \(what) within \(Int(Self.connectTimeout)) s")
            }
            usleep(2_000)
        }
        libpulse.pa_operation_unref(operation)
    }

    private func connected() throws(Failure) -> (OpaquePointer, OpaquePointer) {
        if let mainloop, let context {
            libpulse.pa_threaded_mainloop_lock(mainloop)
            let state = libpulse.pa_context_get_state(context)
            libpulse.pa_threaded_mainloop_unlock(mainloop)
            if state == PA_CONTEXT_READY { return (mainloop, context) }
            // The server went away since: start over.
            disconnect()
        }
        do throws(SoundLibraries.Failure) { try SoundLibraries.load() } catch {
            throw Failure(description: MessageFormat.fill(Audibility.noSoundServer, [error.description]))
        }
        guard let mainloop = libpulse.pa_threaded_mainloop_new() else {
            throw Failure(description: "cannot create the sound server's main loop")
        }
        let properties = libpulse.pa_proplist_new()
        _ = libpulse.pa_proplist_sets(properties, "application.name", "alarmd")
        _ = libpulse.pa_proplist_sets(properties, "application.id", "io.alarmd")
        _ = libpulse.pa_proplist_sets(properties, "application.icon_name", "alarm-clock")
        let context = libpulse.pa_context_new_with_proplist(libpulse.pa_threaded_mainloop_get_api(mainloop), "alarmd", properties)
        libpulse.pa_proplist_free(properties)
        guard let context else {
            libpulse.pa_threaded_mainloop_free(mainloop)
            throw Failure(description: "cannot create a sound-server context")
        }
        self.mainloop = mainloop
        self.context = context
        // No autospawn: a daemon must not start a sound server of its own.
        guard libpulse.pa_context_connect(context, nil, PA_CONTEXT_NOAUTOSPAWN, nil) >= 0, libpulse.pa_threaded_mainloop_start(mainloop) >= 0 else {
            let reason = SoundLibraries.text(libpulse.pa_strerror(libpulse.pa_context_errno(context)))
            disconnect()
            throw Failure(description: MessageFormat.fill(Audibility.noSoundServer, [reason]))
        }
        // Polled rather than waited for: the loop's wait has no timeout, and a
        // server that accepts and never answers must not hold the process.
        let deadline = Date().addingTimeInterval(Self.connectTimeout)
        while true {
            libpulse.pa_threaded_mainloop_lock(mainloop)
            let state = libpulse.pa_context_get_state(context)
            let reason = SoundLibraries.text(libpulse.pa_strerror(libpulse.pa_context_errno(context)))
            libpulse.pa_threaded_mainloop_unlock(mainloop)
            if state == PA_CONTEXT_READY { return (mainloop, context) }
            if state == PA_CONTEXT_FAILED || state == PA_CONTEXT_TERMINATED || Date() >= deadline {
                disconnect()
                let why = Date() >= deadline ? MessageFormat.fill(Audibility.noAnswer, [String(Int(Self.connectTimeout))]) : reason
                throw Failure(description: MessageFormat.fill(Audibility.noSoundServer, [why]))
            }
            usleep(5_000)
        }
    }

    /// Closes the connection and stops the loop's thread.
    private func disconnect() {
        guard let mainloop else { return }
        libpulse.pa_threaded_mainloop_lock(mainloop)
        if let (playback, stream) = playing { playback.stop(stream) }
        if let context {
            libpulse.pa_context_disconnect(context)
            libpulse.pa_context_unref(context)
        }
        libpulse.pa_threaded_mainloop_unlock(mainloop)
        libpulse.pa_threaded_mainloop_stop(mainloop)
        libpulse.pa_threaded_mainloop_free(mainloop)
        playing = nil
        self.mainloop = nil
        context = nil
    }
}
