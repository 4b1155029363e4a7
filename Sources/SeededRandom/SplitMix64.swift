// SPDX-License-Identifier: Apache-2.0

/// SplitMix64: a tiny deterministic generator, so "random" samples are the same
/// on every run and every machine (the standard library's generator is seeded
/// randomly). For tests, benchmarks and fuzzing; nothing secret depends on it.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound` (the small modulo bias does not matter here).
    public mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
