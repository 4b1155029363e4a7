import AlarmCore
import FoundationEssentials

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

    /// `SetWake`: sets the caller's wake-up to `at`, or clears it.
    public static func setWake(_ at: Date?) -> VarlinkCall {
        VarlinkCall(method: name + ".SetWake", parameters: at.map { ["at": .string(WireTime.string($0, in: .utc))] } ?? [:])
    }

    /// `GetWake`: the caller's wake-up.
    public static func getWake() -> VarlinkCall {
        VarlinkCall(method: name + ".GetWake")
    }

    /// The error that says why `WakeSlots` refused a change.
    public static func error(_ refusal: WakeSlots.Refusal) -> VarlinkError {
        switch refusal {
        case .inThePast(let at, let now):
            VarlinkError(name: name + ".InThePast", parameters: ["at": .string(WireTime.string(at, in: .utc)), "now": .string(WireTime.string(now, in: .utc))])
        case .tooFarAhead(let at, let latest):
            VarlinkError(name: name + ".TooFarAhead", parameters: ["at": .string(WireTime.string(at, in: .utc)), "latest": .string(WireTime.string(latest, in: .utc))])
        case .tooManyChanges(let limit):
            VarlinkError(name: name + ".TooManyChanges", parameters: ["limit": .number(Double(limit))])
        }
    }

    /// `InvalidParameter`, naming the parameter and what it must be.
    public static func invalidParameter(_ parameter: String, _ message: String) -> VarlinkError {
        VarlinkError(name: name + ".InvalidParameter", parameters: ["parameter": .string(parameter), "message": .string(message)])
    }
}
