// SPDX-License-Identifier: Apache-2.0
// Shared by every fuzz target: invariant checks that stop the run with a
// readable message (libFuzzer then saves the input as a crash).
import Foundation

/// Known findings, by tag, that a run may be told to step over so the fuzzer
/// keeps searching past them: FUZZ_IGNORE=tag,tag (see Fuzz/README.md). By
/// default nothing is ignored, so a known bug fails the run until it is fixed.
let ignoredFindings: Set<String> = Set(
    (ProcessInfo.processInfo.environment["FUZZ_IGNORE"] ?? "").split(separator: ",").map { String($0) }
)

/// Where invariant messages go: a copy of stderr taken before libFuzzer runs,
/// so they still show when a noisy target is run with -close_fd_mask=2.
nonisolated(unsafe) var reportFD: Int32 = 2

@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(_ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> Int32 {
    reportFD = dup(2)
    return 0
}

func report(_ text: String) {
    var bytes = Array(text.utf8)
    bytes.withUnsafeMutableBytes { buffer in _ = write(reportFD, buffer.baseAddress, buffer.count) }
}

/// Stops with `message` unless `condition` holds. `known` tags a finding
/// already reported, which FUZZ_IGNORE may name.
func check(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String, known: String? = nil) {
    if condition() { return }
    if let known, ignoredFindings.contains(known) { return }
    let tag = known.map { " [\($0)]" } ?? ""
    report("INVARIANT VIOLATED\(tag): \(message())\n")
    abort()
}

/// Swift-style quoting, so invisible characters show in messages.
func quoted(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
        if scalar == "\"" || scalar == "\\" { out += "\\" + String(scalar) }
        else if scalar.value < 0x20 || (0x7F..<0xA0).contains(scalar.value) { out += "\\u{\(String(scalar.value, radix: 16))}" }
        else { out.unicodeScalars.append(scalar) }
    }
    return out + "\""
}

func bytesOf(_ data: UnsafePointer<UInt8>, _ size: Int) -> [UInt8] {
    Array(UnsafeBufferPointer(start: data, count: size))
}
