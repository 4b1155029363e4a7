// SPDX-License-Identifier: Apache-2.0
import AlarmCore

/// Why a call to alarmd did not give a reply: the daemon could not be
/// reached, the connection broke during the call, or the daemon refused.
public enum DaemonFailure: Error, Equatable, Sendable {
    /// Nothing listens at `path` (not running, no socket unit), or the path
    /// is unusable.
    case unreachable(path: String, reason: VarlinkClient.Cause)
    /// The connection broke or the reply could not be read: the call may
    /// or may not have been carried out.
    case lost(reason: VarlinkClient.Cause)
    /// The daemon answered with an error.
    case refused(DaemonRefusal)

    /// Whether the daemon is out of reach (a banner's business rather than
    /// a field's).
    public var isConnectionProblem: Bool {
        if case .refused = self { return false }
        return true
    }

    /// One sentence for a person.
    public func text(in l: some Localization) -> String {
        switch self {
        case .unreachable(let path, let reason):
            return l.Lf("cannot reach alarmd at %1$s: %2$s\nis alarmd running? try: systemctl --user start alarmd.socket", path, reason.text(in: l))
        case .lost(let reason):
            return l.Lf("Lost the connection to alarmd: %s", reason.text(in: l))
        case .refused(let refusal):
            return refusal.text(in: l)
        }
    }
}
