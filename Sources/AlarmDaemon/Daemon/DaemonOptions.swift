import AlarmCore
import Foundation

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
        let home = environment["HOME"] ?? NSHomeDirectory()
        stateDirectory = (environment["XDG_STATE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/.local/state") + "/alarmd"
        // The same rule as alarmctl's, so the two always meet: a relative
        // XDG_RUNTIME_DIR is ignored (XDG base directories must be absolute),
        // and without one, /run/user/UID is where systemd puts it.
        let runtime = environment["XDG_RUNTIME_DIR"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/run/user/\(getuid())"
        socketPath = environment["ALARMD_SOCKET"].flatMap { $0.isEmpty ? nil : $0 } ?? runtime + "/alarmd/io.alarmd"
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
        let home = environment["HOME"] ?? NSHomeDirectory()
        let userConfig = (environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/.config") + "/alarmd/alarmd.conf"
        let dirs = (environment["XDG_CONFIG_DIRS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/etc/xdg").split(separator: ":").map(String.init)
        for candidate in [userConfig] + dirs.map({ $0 + "/alarmd/alarmd.conf" }) where FileManager.default.fileExists(atPath: candidate) {
            return candidate
        }
        return nil
    }
}

public struct CLIUsageError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

/// The version printed by `--version` and reported by `Status`.
public enum AlarmdVersion {
    public static let string = "0.1.0"
}
