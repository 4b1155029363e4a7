// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import Glibc

extension VarlinkClient.Cause {
    /// The cause as a phrase for a person: the system's own words for an
    /// `errno` (strerror), alarmd's catalog for the rest.
    public func text(in l: some Localization) -> String {
        switch self {
        case .system(let code): return String(cString: strerror(code))
        case .pathTooLong(let limit): return l.Lf("the path is longer than %d bytes, the limit for a Unix socket", limit)
        case .timedOut(let sending): return sending ? l.L("alarmd did not accept the request in time") : l.L("alarmd did not answer in time")
        case .closedByPeer: return l.L("alarmd closed the connection")
        case .oversize(let limit): return l.Lf("a reply is larger than %d bytes", limit)
        case .malformed(let error): return error.description
        }
    }
}
