// SPDX-License-Identifier: Apache-2.0
import Foundation
import Glibc

/// `alarmd-bench`: the Swift side of the benchmark harness (`bench/run`).
///
/// Every subcommand prints one JSON object on stdout (the `watch` subcommand
/// prints a `WATCHING` line first) and exits 0, or prints a message on stderr
/// and exits 1. The harness does the orchestration; this program does what has
/// to be precise or fast: writing big stores through `AlarmStore`, the
/// client-side hot loops on raw Unix sockets, and the core next-fire loop.
@main
struct Bench {
    static let usage = """
        Usage: alarmd-bench COMMAND [OPTIONS]

          make-store   --path P [--alarms N] [--reminders M --due-start US --due-end US]
                       [--avoid-start S --avoid-end S] [--zone Z] [--seed N] [--batch N]
          rtt          --socket S --method M [--params JSON] [--count N] [--warmup N]
          throughput   --socket S [--method M] [--connections N] [--seconds T]
          floor        --socket S [--reply-bytes N]   (serves until killed)
          watch        --socket S --expect N --timeout T --out FILE
          import       --socket S --alarms N [--fit BYTES] [--repeat N]
          core         [--iterations N] [--repeat N]
          core-chain   --zone Z --iterations N
          layout

        """

    static func main() {
        var arguments = Array(CommandLine.arguments.dropFirst())
        guard let command = arguments.first else {
            FileHandle.standardError.write(Data(usage.utf8))
            exit(64)
        }
        arguments.removeFirst()
        do {
            let options = try Options(arguments)
            switch command {
            case "make-store": try MakeStore.run(options)
            case "rtt": try ControlBench.roundTrips(options)
            case "throughput": try ControlBench.throughput(options)
            case "floor": try FloorServer.run(options)
            case "watch": try WatchBench.run(options)
            case "import": try ImportBench.run(options)
            case "core": try CoreBench.run(options)
            case "core-chain": try CoreBench.chain(options)
            case "layout": try LayoutReport.run()
            case "help", "--help", "-h": print(usage, terminator: "")
            default: throw BenchError("unknown command \(command)\n" + usage)
            }
        } catch {
            FileHandle.standardError.write(Data("alarmd-bench: \(error)\n".utf8))
            exit(1)
        }
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// `--name value` pairs.
struct Options {
    private var values: [String: String] = [:]

    init(_ arguments: [String]) throws {
        var rest = arguments[...]
        while let name = rest.popFirst() {
            guard name.hasPrefix("--") else { throw BenchError("unexpected argument \(name)") }
            guard let value = rest.popFirst() else { throw BenchError("\(name) needs a value") }
            values[String(name.dropFirst(2))] = value
        }
    }

    func string(_ name: String) -> String? { values[name] }

    func required(_ name: String) throws -> String {
        guard let value = values[name] else { throw BenchError("--\(name) is required") }
        return value
    }

    func int(_ name: String, default fallback: Int) throws -> Int {
        guard let text = values[name] else { return fallback }
        guard let value = Int(text) else { throw BenchError("--\(name) must be an integer, got \(text)") }
        return value
    }

    func int64(_ name: String) throws -> Int64? {
        guard let text = values[name] else { return nil }
        guard let value = Int64(text) else { throw BenchError("--\(name) must be an integer, got \(text)") }
        return value
    }

    func double(_ name: String, default fallback: Double) throws -> Double {
        guard let text = values[name] else { return fallback }
        guard let value = Double(text) else { throw BenchError("--\(name) must be a number, got \(text)") }
        return value
    }
}

/// Clocks, read directly.
enum Clocks {
    /// CLOCK_MONOTONIC in nanoseconds.
    @inline(__always)
    static func monotonicNanoseconds() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
    }

    /// CLOCK_REALTIME in microseconds since the epoch.
    @inline(__always)
    static func realtimeMicroseconds() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int64(spec.tv_sec) * 1_000_000 + Int64(spec.tv_nsec) / 1000
    }
}

/// Order statistics of a sample.
struct Summary {
    let count: Int
    let min: Double
    let p50: Double
    let p90: Double
    let p99: Double
    let max: Double
    let mean: Double

    init(_ samples: [Double]) {
        let sorted = samples.sorted()
        count = sorted.count
        func quantile(_ q: Double) -> Double {
            guard !sorted.isEmpty else { return .nan }
            // Nearest rank.
            let rank = Int((q * Double(sorted.count)).rounded(.up))
            return sorted[Swift.max(0, Swift.min(sorted.count - 1, rank - 1))]
        }
        min = sorted.first ?? .nan
        max = sorted.last ?? .nan
        p50 = quantile(0.50)
        p90 = quantile(0.90)
        p99 = quantile(0.99)
        mean = sorted.isEmpty ? .nan : sorted.reduce(0, +) / Double(sorted.count)
    }

    func json(unit: String) -> [String: Any] {
        ["count": count, "unit": unit, "min": min, "p50": p50, "p90": p90, "p99": p99, "max": max, "mean": mean]
    }
}

/// Prints one JSON object on stdout.
func emit(_ object: [String: Any]) throws {
    let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    FileHandle.standardOutput.write(data)
    FileHandle.standardOutput.write(Data("\n".utf8))
}
