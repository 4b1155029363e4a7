// SPDX-License-Identifier: Apache-2.0
import AlarmCore

/// Why a command failed, and so which exit code it ends with (BSD `sysexits.h`
/// codes where one fits, as `at(1)` and `systemctl` do).
public enum CLIError: Error, Equatable, CustomStringConvertible {
    /// The command line was wrong: exit 64 (`EX_USAGE`).
    case usage(String)
    /// The daemon answered with an error: exit 1.
    case daemon(String)
    /// The daemon has no item by the id or name given: exit 1, as any of its
    /// errors; apart so that several words can be tried one by one.
    case notFound(String)
    /// The daemon could not be reached, or stopped answering: exit 69 (`EX_UNAVAILABLE`).
    case unreachable(String)
    /// A file named on the command line could not be read or written: exit 66 (`EX_NOINPUT`).
    case file(String)
    /// A file's content is not what the command needs (an import that is not JSON): exit 65 (`EX_DATAERR`).
    case data(String)

    public var exitCode: Int32 {
        switch self {
        case .usage: return 64
        case .daemon, .notFound: return 1
        case .unreachable: return 69
        case .file: return 66
        case .data: return 65
        }
    }

    public var description: String {
        switch self {
        case .usage(let message), .daemon(let message), .notFound(let message), .unreachable(let message), .file(let message), .data(let message):
            return message
        }
    }

    /// A validation failure in a command-line value is a usage error.
    /// Its requirement in the reader's language when the catalog has it.
    static func invalid(_ error: ValidationError) -> CLIError {
        .usage(Lf("%1$s %2$s, got %3$s", error.field, DaemonErrorText.requirement(error.requirement), relocalized(error.value, among: ValidationError.templates)))
    }
}
