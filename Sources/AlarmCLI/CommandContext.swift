// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import FoundationEssentials
import Glibc
import Synchronization

/// Everything a command reads from its surroundings, passed in so that tests can
/// run commands in-process with a fixed clock and environment.
public struct CommandContext: Sendable {
    public var environment: [String: String]
    /// The instant commands treat as "now".
    public var now: Date
    /// The zone local times are read and shown in when no `--tz` is given.
    ///
    /// Found on first use: a command that talks to alarmd finds it while the
    /// daemon works on the request (``prepareSystemZone()``), not before sending.
    public var systemZone: Zone {
        get { zoneSource.zone }
        set { zoneSource = ZoneSource(newValue) }
    }
    private var zoneSource: ZoneSource
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
    /// Asks a yes/no question on the terminal (`import --replace`): `nil`
    /// when standard input is no terminal, so a script is never left waiting.
    public var askYesNo: @Sendable (String) -> Bool? = { _ in nil }
    /// The terminal's width when standard output is one: tables cut their
    /// label or title column to fit it. `nil` for a pipe or a file.
    public var terminalColumns: Int?

    public init(
        environment: [String: String],
        now: Date,
        systemZone: Zone,
        isTerminal: Bool = false,
        workingDirectory: String = "/",
        userID: UInt32 = getuid(),
        standardOutput: @escaping @Sendable (String) -> Void,
        standardError: @escaping @Sendable (String) -> Void,
        readStandardInput: @escaping @Sendable () -> [UInt8] = { [] }
    ) {
        self.environment = environment
        self.now = now
        self.zoneSource = ZoneSource(systemZone)
        self.isTerminal = isTerminal
        self.workingDirectory = workingDirectory
        self.userID = userID
        self.standardOutput = standardOutput
        self.standardError = standardError
        self.readStandardInput = readStandardInput
    }

    /// The environment variables alarmctl reads, and the only ones
    /// ``process()`` puts in ``environment`` (a test checks the sources for others).
    public static let variables = ["ALARMD_SOCKET", "XDG_RUNTIME_DIR", "TZ", "NO_COLOR"]

    /// The variables alarmctl reads, each looked up with `getenv`: copying the
    /// whole environment into a dictionary was a tenth of a short command's run.
    static func processEnvironment() -> [String: String] {
        var result: [String: String] = [:]
        for name in variables {
            if let value = getenv(name) { result[name] = String(cString: value) }
        }
        return result
    }

    /// Finds the system zone now if it has not been found yet.
    public func prepareSystemZone() { _ = zoneSource.zone }

    /// The real process surroundings: the environment, the clock, `TZ` or
    /// `/etc/localtime`, and the standard streams.
    public static func process() -> CommandContext {
        let environment = processEnvironment()
        var context = CommandContext(
            environment: environment,
            now: Date(),
            systemZone: .utc,
            isTerminal: isatty(STDOUT_FILENO) == 1,
            workingDirectory: currentDirectory(),
            userID: getuid(),
            // Unbuffered writes: `watch` output must reach a pipe as each event arrives.
            standardOutput: { writeAll(STDOUT_FILENO, $0) },
            standardError: { writeAll(STDERR_FILENO, $0) },
            readStandardInput: { readAll(STDIN_FILENO) }
        )
        let tz = environment["TZ"]
        let standardError = context.standardError
        // A TZ that names no zone is said once, when the zone is first needed,
        // as the daemon says it in its journal.
        context.zoneSource = ZoneSource {
            let lookup = ZoneDatabase.lookUpSystemZone(environmentTZ: tz)
            if let refused = lookup.refusedTZ {
                standardError("alarmctl: " + Lf("warning: TZ=%1$s is not a known time zone; using %2$s", inQuotes(refused), lookup.zone.identifier) + "\n")
            }
            return lookup.zone
        }
        var size = winsize()
        if context.isTerminal, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { context.terminalColumns = Int(size.ws_col) }
        context.askYesNo = { question in
            guard isatty(STDIN_FILENO) == 1 else { return nil }
            writeAll(STDERR_FILENO, question + " [y/N] ")
            guard let answer = readLine() else { return false }
            return ["y", "yes"].contains(answer.lowercased().filter { $0 != " " })
        }
        return context
    }

    private static func currentDirectory() -> String {
        guard let pointer = getcwd(nil, 0) else { return "/" }
        defer { free(pointer) }
        return String(cString: pointer)
    }

    /// Writes all of `text`; a closed pipe (EPIPE) or another error ends the write.
    private static func writeAll(_ fd: Int32, _ text: String) {
        var text = text
        text.withUTF8 { buffer in
            var offset = 0
            while offset < buffer.count {
                let count = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return }
                offset += count
            }
        }
    }

    private static func readAll(_ fd: Int32) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return bytes }
            bytes += chunk[..<count]
        }
    }
}

/// The system zone, found once on first use.
private final class ZoneSource: Sendable {
    private let found: Mutex<Zone?>
    private let find: @Sendable () -> Zone

    init(_ zone: Zone) {
        found = Mutex(zone)
        find = { zone }
    }

    init(find: @escaping @Sendable () -> Zone) {
        found = Mutex(nil)
        self.find = find
    }

    var zone: Zone {
        found.withLock { found in
            if let found { return found }
            let zone = find()
            found = zone
            return zone
        }
    }
}
