import AlarmCore
import Foundation
import Glibc

/// Everything a command reads from its surroundings, passed in so that tests can
/// run commands in-process with a fixed clock and environment.
public struct CommandContext: Sendable {
    public var environment: [String: String]
    /// The instant commands treat as "now".
    public var now: Date
    /// The zone local times are read and shown in when no `--tz` is given.
    public var systemZone: TimeZone
    /// Whether standard output is a terminal; colour is used only then.
    public var isTerminal: Bool
    /// Relative paths given on the command line (`--image`) are made absolute
    /// against this before they go to the daemon, whose directory differs.
    public var workingDirectory: String
    /// The user whose runtime directory holds the socket when `XDG_RUNTIME_DIR` is unset.
    public var userID: UInt32
    public var standardOutput: @Sendable (String) -> Void
    public var standardError: @Sendable (String) -> Void
    /// Reads all of standard input (`import -`).
    public var readStandardInput: @Sendable () -> [UInt8]

    public init(
        environment: [String: String],
        now: Date,
        systemZone: TimeZone,
        isTerminal: Bool = false,
        workingDirectory: String = "/",
        userID: UInt32 = getuid(),
        standardOutput: @escaping @Sendable (String) -> Void,
        standardError: @escaping @Sendable (String) -> Void,
        readStandardInput: @escaping @Sendable () -> [UInt8] = { [] }
    ) {
        self.environment = environment
        self.now = now
        self.systemZone = systemZone
        self.isTerminal = isTerminal
        self.workingDirectory = workingDirectory
        self.userID = userID
        self.standardOutput = standardOutput
        self.standardError = standardError
        self.readStandardInput = readStandardInput
    }

    /// The environment, read straight from `environ`: `ProcessInfo` builds the
    /// same dictionary through more of Foundation, at a cost alarmctl's
    /// start-up notices (it is most of a short command's run).
    static func processEnvironment() -> [String: String] {
        var result: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "=") {
                result[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            entry += 1
        }
        return result
    }

    /// The real process surroundings: the environment, the clock, `TZ` or
    /// `/etc/localtime`, and the standard streams.
    public static func process() -> CommandContext {
        CommandContext(
            environment: processEnvironment(),
            now: Date(),
            // Foundation reads a plain `TZ=Europe/Berlin` but not `:Europe/Berlin`
            // or a zoneinfo path, which glibc and the daemon accept.
            systemZone: ProcessInfo.processInfo.environment["TZ"].flatMap { ZoneName.fromTZ($0) } ?? TimeZone.current,
            isTerminal: isatty(STDOUT_FILENO) == 1,
            workingDirectory: FileManager.default.currentDirectoryPath,
            userID: getuid(),
            // Unbuffered writes: `watch` output must reach a pipe as each event arrives.
            standardOutput: { FileHandle.standardOutput.write(Data($0.utf8)) },
            standardError: { FileHandle.standardError.write(Data($0.utf8)) },
            readStandardInput: { Array(FileHandle.standardInput.readDataToEndOfFile()) }
        )
    }
}
