// SPDX-License-Identifier: Apache-2.0

// SplitMix64 comes with the test helpers: a test target imports this module
// alone. It lives in SeededRandom, a library of its own, because alarmd-bench
// draws from the same generator and a benchmark should not link test code.
@_exported import SeededRandom
