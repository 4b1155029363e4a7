// SPDX-License-Identifier: Apache-2.0
import VarlinkCore

/// The `io.alarmd.Wake` interface of the `alarmd-wake` system helper, shared
/// by the helper (which serves it) and alarmd (which calls it). Its definition
/// is `io.alarmd.Wake.varlink`, embedded at build time like `io.alarmd`'s.
///
/// Each method is declared once, as a ``WakeMethod`` (``SetWake``,
/// ``GetWake``) with typed parameters and reply, and the errors as
/// ``WakeError``; the helper and alarmd both read and write the wire form
/// through those alone. WakeInterfaceTests checks them against the definition.
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

    /// Every method of the interface, for the check against the definition.
    public static var methods: [any WakeMethod.Type] { [SetWake.self, GetWake.self] }
}
