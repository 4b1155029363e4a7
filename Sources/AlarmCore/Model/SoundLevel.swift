// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials

/// How loud a ringing item plays, and how it rises: the stream's volume
/// (1–100 %, as desktop volume sliders show it) and a fade from silence to it.
/// Pure, so the curve is tested with numbers rather than by ear.
public enum SoundLevel {
    public static let volumeRange = 1...100
    /// Seconds of fade, whole, as alarms and the configuration give it.
    public static let fadeSecondsRange = 0...300
    public static let defaultVolume = 80
    public static let defaultFade: TimeInterval = 30

    /// The gain (0–1) on the samples `elapsed` seconds into a fade of `fade`
    /// seconds. Quadratic, not linear: loudness follows the logarithm of the
    /// amplitude, and a linear ramp sounds almost full-volume from a third of
    /// the way in. With a 6 s fade the first second is about 38 dB below the
    /// last; a sleeper is eased awake rather than startled at once.
    public static func fadeGain(elapsed: TimeInterval, fade: TimeInterval) -> Float {
        guard fade > 0, elapsed < fade else { return 1 }
        guard elapsed > 0 else { return 0 }
        let progress = Float(elapsed / fade)
        return progress * progress
    }
}
