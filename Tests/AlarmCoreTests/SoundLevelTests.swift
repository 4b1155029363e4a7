// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import Foundation
import Testing

/// The fade curve: silence at the start, the full level at the end, rising
/// quadratically so that the first seconds are far quieter than the last.
@Suite struct SoundLevelTests {
    @Test func theFadeRisesFromSilenceToFullQuadratically() {
        #expect(SoundLevel.fadeGain(elapsed: 0, fade: 6) == 0)
        #expect(SoundLevel.fadeGain(elapsed: 3, fade: 6) == 0.25)
        #expect(SoundLevel.fadeGain(elapsed: 6, fade: 6) == 1)
        #expect(SoundLevel.fadeGain(elapsed: 600, fade: 6) == 1)
        #expect(SoundLevel.fadeGain(elapsed: 0, fade: 0) == 1, "no fade: full at once")
        // The first second of a 6 s fade against its last: over 20 dB quieter
        // in amplitude at the first second's end already.
        #expect(20 * log10(Double(SoundLevel.fadeGain(elapsed: 5.5, fade: 6) / SoundLevel.fadeGain(elapsed: 1, fade: 6))) > 20)
    }

    @Test func gainNeverLeavesZeroToOne() {
        for fade in [0.0, 0.001, 1, 30, 300] {
            for elapsed in stride(from: -1.0, through: 400, by: 0.37) {
                let gain = SoundLevel.fadeGain(elapsed: elapsed, fade: fade)
                #expect((0...1).contains(gain), "\(gain) at \(elapsed) of \(fade)")
            }
        }
    }
}
