// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmStore
import FoundationEssentials
import Glibc

/// alarmd's command line and the paths derived from it and from the XDG base
/// directory variables.
public struct DaemonOptions: Sendable, Equatable {
    public var configPath: String?
    public var stateDirectory: String
    public var socketPath: String
    public var showVersion = false
    public var showHelp = false

    public static let usage = """
        Usage: alarmd [--config PATH] [--state-dir DIR] [--socket PATH] [--version] [--help]

        The alarm and reminder daemon. Normally started by systemd as a user service
        (alarmd.service, alarmd.socket); alarmctl talks to it.

        Options:
          --config PATH     configuration file (default: $XDG_CONFIG_HOME/alarmd/alarmd.conf,
                            then alarmd/alarmd.conf in each $XDG_CONFIG_DIRS entry
                            (/etc/xdg), then built-in defaults)
          --state-dir DIR   where the database lives (default: $XDG_STATE_HOME/alarmd)
          --socket PATH     control socket (default: $XDG_RUNTIME_DIR/alarmd/io.alarmd;
                            also ALARMD_SOCKET)
          --version         print the version and exit
          --help            print this help and exit

        """

    /// Parses `arguments` (without the program name) against `environment`.
    public init(arguments: [String], environment: [String: String]) throws(CLIUsageError) {
        // The same rules as alarmctl's and the store's, so the three always meet.
        let paths = Self.paths(environment)
        stateDirectory = paths.stateDirectory
        socketPath = paths.controlSocket
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            var name = argument
            var inline: String?
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                name = String(argument[..<equals])
                inline = String(argument[argument.index(after: equals)...])
            }
            func value() throws(CLIUsageError) -> String {
                guard let value = inline ?? rest.popFirst(), !value.isEmpty else { throw CLIUsageError("\(name) needs a value") }
                return value
            }
            switch name {
            case "--config": configPath = try value()
            case "--state-dir": stateDirectory = try value()
            case "--socket": socketPath = try value()
            case "--version": showVersion = true
            case "--help", "-h": showHelp = true
            default: throw CLIUsageError("unknown argument \(ValidationError.quoted(argument)); see alarmd --help")
            }
        }
    }

    /// Where the configuration comes from: `--config`, else the first of the
    /// user's and the system-wide file that exists, else none (built-in defaults).
    public func configFile(environment: [String: String]) -> String? {
        if let configPath { return configPath }
        return Self.paths(environment).configCandidates.first { FileManager.default.fileExists(atPath: $0) }
    }

    private static func paths(_ environment: [String: String]) -> XDGPaths {
        XDGPaths(environment: environment, userID: getuid(), accountHome: Account.homeDirectory)
    }
}

public struct CLIUsageError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

