import VarlinkCore

/// The `io.alarmd.Wake` interface of the `alarmd-wake` system helper, shared
/// by the helper (which serves it) and alarmd (which calls it). Its definition
/// is `io.alarmd.Wake.varlink`, embedded at build time like `io.alarmd`'s.
public enum WakeInterface {
    public static let name = "io.alarmd.Wake"
    public static let text = String(decoding: PackageResources.io_alarmd_Wake_varlink, as: UTF8.self)
    /// Where `alarmd-wake.socket` listens; alarmd looks there unless
    /// `ALARMD_WAKE_HELPER` names another socket.
    public static let defaultSocket = "/run/alarmd/io.alarmd.Wake"
    /// Every message either way fits in far less; more is a broken or hostile peer.
    public static let maxMessageSize = 4096
    /// The package's version, which `alarmd-wake --version` and `GetInfo`
    /// report: `AlarmdVersion.string`, which is in AlarmCore and so out of the
    /// helper's reach (AlarmWakeTests checks that the two agree).
    public static let version = "0.1.0"

    /// `SetWake`: sets the caller's wake-up to `at`, or clears it.
    public static func setWake(at: WakeInstant?) -> VarlinkCall {
        VarlinkCall(method: name + ".SetWake", parameters: at.map { ["at": .string($0.rfc3339)] } ?? [:])
    }

    /// `GetWake`: the caller's wake-up.
    public static func getWake() -> VarlinkCall {
        VarlinkCall(method: name + ".GetWake")
    }

    /// The error that says why `WakeSlots` refused a change.
    public static func error(_ refusal: WakeSlots.Refusal) -> VarlinkError {
        switch refusal {
        case .inThePast(let at, let now):
            VarlinkError(name: name + ".InThePast", parameters: ["at": .string(at.rfc3339), "now": .string(now.rfc3339)])
        case .tooFarAhead(let at, let latest):
            VarlinkError(name: name + ".TooFarAhead", parameters: ["at": .string(at.rfc3339), "latest": .string(latest.rfc3339)])
        case .tooManyChanges(let limit):
            VarlinkError(name: name + ".TooManyChanges", parameters: ["limit": .number(Double(limit))])
        }
    }

    /// `InvalidParameter`, naming the parameter and what it must be.
    public static func invalidParameter(_ parameter: String, _ message: String) -> VarlinkError {
        VarlinkError(name: name + ".InvalidParameter", parameters: ["parameter": .string(parameter), "message": .string(message)])
    }
}
