// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import CSoundLibraries
import FoundationEssentials
import Synchronization

/// One ringing item's stream on the sound server: the decoded sound looped
/// without a gap, its volume set on the stream (as a desktop mixer shows it),
/// the fade applied to the samples (``SoundLevel/fadeGain(elapsed:fade:)``).
///
/// Used with ``PulseOutput``'s loop lock held: created, started and stopped
/// on the output's thread with it held, and its callbacks run on the loop's
/// thread, which holds it. The stream itself is the output's, kept there
/// and handed in. What the callbacks change is in a `Mutex` too: the loop
/// lock already keeps the two threads apart, but the compiler cannot see
/// it. libpulse is never called with the `Mutex` held.
final class PulsePlayback: Sendable {
    private let sound: DecodedSound
    /// Play the sound through once, then silence until stopped (a preview),
    /// rather than loop.
    private let once: Bool
    private let failed: @Sendable (String) -> Void
    private let state: Mutex<State>

    private struct State {
        var fade: TimeInterval
        /// The next frame of `sound` to write, and the frames written so far.
        var position = 0
        var written = 0
    }

    init(sound: DecodedSound, fade: TimeInterval, once: Bool = false, failed: @escaping @Sendable (String) -> Void) {
        self.sound = sound
        self.once = once
        self.failed = failed
        state = Mutex(State(fade: fade))
    }

    /// Opens and connects the stream, which the caller keeps (for
    /// ``escalate(_:on:)`` and ``stop(_:)``); `nil` if the server refused it.
    func start(on context: OpaquePointer, name: String, role: String, volume: Int) -> OpaquePointer? {
        var spec = pa_sample_spec(format: PA_SAMPLE_FLOAT32LE, rate: UInt32(sound.rate), channels: UInt8(sound.channels))
        let properties = libpulse.pa_proplist_new()
        defer { libpulse.pa_proplist_free(properties) }
        _ = libpulse.pa_proplist_sets(properties, "media.role", role)
        _ = libpulse.pa_proplist_sets(properties, "media.name", name)
        _ = libpulse.pa_proplist_sets(properties, "application.name", "alarmd")
        guard let stream = libpulse.pa_stream_new_with_proplist(context, name, &spec, nil, properties) else { return nil }
        let this = Unmanaged.passUnretained(self).toOpaque()
        libpulse.pa_stream_set_write_callback(stream, { stream, bytes, userdata in
            guard let stream, let userdata else { return }
            Unmanaged<PulsePlayback>.fromOpaque(userdata).takeUnretainedValue().fill(stream, bytes)
        }, this)
        libpulse.pa_stream_set_state_callback(stream, { stream, userdata in
            guard let stream, let userdata, libpulse.pa_stream_get_state(stream) == PA_STREAM_FAILED else { return }
            let playback = Unmanaged<PulsePlayback>.fromOpaque(userdata).takeUnretainedValue()
            playback.failed("the sound server ended the stream: \(SoundLibraries.text(libpulse.pa_strerror(libpulse.pa_context_errno(libpulse.pa_stream_get_context(stream)))))")
        }, this)
        // A short buffer: Stop and escalation are heard within it.
        let unset = UInt32.max
        var attributes = pa_buffer_attr(maxlength: unset, tlength: UInt32(libpulse.pa_usec_to_bytes(PulseOutput.bufferMilliseconds * 1000, &spec)),
                                        prebuf: unset, minreq: unset, fragsize: unset)
        var level = pa_cvolume()
        _ = libpulse.pa_cvolume_set(&level, UInt32(sound.channels), pa_volume_t(UInt64(PA_VOLUME_NORM) * UInt64(volume) / 100))
        guard libpulse.pa_stream_connect_playback(stream, nil, &attributes, PA_STREAM_ADJUST_LATENCY, &level, nil) >= 0 else {
            stop(stream)
            return nil
        }
        return stream
    }

    /// Full volume at once: the fade ends and the stream's volume goes to
    /// 100 % (within the server's short buffer).
    func escalate(_ stream: OpaquePointer, on context: OpaquePointer) {
        state.withLock { $0.fade = 0 }
        var level = pa_cvolume()
        _ = libpulse.pa_cvolume_set(&level, UInt32(sound.channels), pa_volume_t(PA_VOLUME_NORM))
        if let operation = libpulse.pa_context_set_sink_input_volume(context, libpulse.pa_stream_get_index(stream), &level, nil, nil) {
            libpulse.pa_operation_unref(operation)
        }
    }

    /// Ends the stream (gone after this): the server drops it at once.
    func stop(_ stream: OpaquePointer) {
        libpulse.pa_stream_set_write_callback(stream, nil, nil)
        libpulse.pa_stream_set_state_callback(stream, nil, nil)
        _ = libpulse.pa_stream_disconnect(stream)
        libpulse.pa_stream_unref(stream)
    }

    /// The server asks for `bytes`: the next samples of the loop, faded.
    private func fill(_ stream: OpaquePointer, _ bytes: Int) {
        var data: UnsafeMutableRawPointer?
        var size = bytes
        guard libpulse.pa_stream_begin_write(stream, &data, &size) >= 0, let data else { return }
        let channels = sound.channels
        let frames = size / (channels * MemoryLayout<Float>.size)
        let out = data.bindMemory(to: Float.self, capacity: frames * channels)
        let rate = Double(sound.rate)
        sound.samples.withUnsafeBufferPointer { samples in
            state.withLock { state in
                for frame in 0..<frames {
                    let to = frame * channels
                    guard state.position < sound.frames else {
                        for channel in 0..<channels { out[to + channel] = 0 }
                        continue
                    }
                    let gain = SoundLevel.fadeGain(elapsed: Double(state.written + frame) / rate, fade: state.fade)
                    let from = state.position * channels
                    for channel in 0..<channels { out[to + channel] = samples[from + channel] * gain }
                    state.position += 1
                    if state.position == sound.frames, !once { state.position = 0 }
                }
                state.written += frames
            }
        }
        _ = libpulse.pa_stream_write(stream, data, frames * channels * MemoryLayout<Float>.size, nil, 0, PA_SEEK_RELATIVE)
    }
}
