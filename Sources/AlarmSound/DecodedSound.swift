// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import CSoundLibraries
import Glibc

/// A sound file decoded into memory (interleaved 32-bit float samples) with
/// libsndfile, which reads the freedesktop theme's Ogg Vorbis as well as
/// FLAC and WAV. Held whole so the loop restarts without a gap or a disk read;
/// alarm sounds are seconds long, and ``maxSeconds`` bounds a mistaken choice
/// (a whole album) to what is then played of it.
public struct DecodedSound: Sendable {
    public static let maxSeconds = Sound.longestPlay
    /// 64 MiB of samples at most, whatever the header claims: a minute of
    /// 48 kHz stereo is 5.8 million, and 32 channels at 384 kHz would be 737.
    static let maxSamples = 16 * 1024 * 1024

    let samples: [Float]
    let channels: Int
    let rate: Int

    /// Why a file cannot be played.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Frames (one sample per channel) in the sound.
    var frames: Int { samples.count / channels }
    /// How long the sound plays.
    public var seconds: Double { Double(frames) / Double(rate) }

    /// Decodes the file at `path`, whose format libsndfile finds from its header.
    /// `seconds` bounds what is decoded: the whole of ``maxSeconds`` to play
    /// it, a fraction to learn whether it plays at all (the check before an
    /// alarm, which must not cost a whole decode each time).
    public static func decode(path: String, seconds: Double = Double(maxSeconds)) throws(Failure) -> DecodedSound {
        do throws(SoundLibraries.Failure) { try SoundLibraries.load() } catch { throw Failure(description: error.description) }
        var info = SF_INFO()
        guard let file = libsndfile.sf_open(path, Int32(SFM_READ), &info) else {
            throw Failure(description: "cannot decode \(path): \(SoundLibraries.text(libsndfile.sf_strerror(nil)))")
        }
        defer { _ = libsndfile.sf_close(file) }
        let channels = Int(info.channels), rate = Int(info.samplerate)
        // PulseAudio takes at most 32 channels and 384 kHz (PA_CHANNELS_MAX, PA_RATE_MAX).
        guard (1...32).contains(channels), (1_000...384_000).contains(rate) else {
            throw Failure(description: "cannot play \(path): \(channels) channels at \(rate) Hz")
        }
        let wanted = min(Int(info.frames), max(1, Int(seconds * Double(rate))), maxSamples / channels)
        var samples = [Float](repeating: 0, count: wanted * channels)
        let read = samples.withUnsafeMutableBufferPointer { libsndfile.sf_readf_float(file, $0.baseAddress, sf_count_t(wanted)) }
        guard read > 0 else { throw Failure(description: "\(path) holds no sound") }
        samples.removeLast((wanted - Int(read)) * channels)
        return DecodedSound(samples: samples, channels: channels, rate: rate)
    }
}
