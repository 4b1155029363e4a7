import Foundation

/// Everything a command reads from its surroundings, passed in so that tests can
/// run commands in-process with a fixed clock and environment.
public struct CommandContext: Sendable {
    public var environment: [String: String]
    /// The instant commands treat as "now".
    public var now: Date
    /// The zone local times are read in when no `--tz` is given.
    public var systemZone: TimeZone
    public var standardOutput: @Sendable (String) -> Void
    public var standardError: @Sendable (String) -> Void

    public init(
        environment: [String: String],
        now: Date,
        systemZone: TimeZone,
        standardOutput: @escaping @Sendable (String) -> Void,
        standardError: @escaping @Sendable (String) -> Void
    ) {
        self.environment = environment
        self.now = now
        self.systemZone = systemZone
        self.standardOutput = standardOutput
        self.standardError = standardError
    }

    /// The real process surroundings: the environment, the clock, `TZ` or
    /// `/etc/localtime`, and the standard streams.
    public static func process() -> CommandContext {
        CommandContext(
            environment: ProcessInfo.processInfo.environment,
            now: Date(),
            systemZone: TimeZone.current,
            standardOutput: { FileHandle.standardOutput.write(Data($0.utf8)) },
            standardError: { FileHandle.standardError.write(Data($0.utf8)) }
        )
    }
}
