// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmProtocol

/// A `Watch` subscription on a connection of its own, for a main loop: put
/// ``descriptor`` in a source that fires on input (or hang-up), then call
/// ``receiveEvents()``, which never blocks.
public final class DaemonWatch {
    private let client: VarlinkClient

    /// Connects to the daemon at `path` and subscribes.
    public init(path: String) throws(DaemonFailure) {
        do throws(VarlinkClient.Failure) {
            client = try VarlinkClient(path: path, timeout: DaemonClient.defaultTimeout)
        } catch {
            throw .unreachable(path: path, reason: error.cause)
        }
        do throws(VarlinkClient.Failure) {
            try client.send(VarlinkCall(method: Watch.qualifiedName, more: true))
        } catch {
            throw .lost(reason: error.cause)
        }
    }

    /// The socket to watch for input; closed when this object goes away.
    public var descriptor: Int32 { client.descriptor }

    /// The events that have arrived, decoded, in order; empty when nothing
    /// complete has. An event the client cannot read comes back as an
    /// ``WatchEvent`` with `item` `nil` (the list then reloads); a refusal
    /// or a closed connection throws, and the subscription is over.
    public func receiveEvents() throws(DaemonFailure) -> [WatchEvent] {
        let replies: [VarlinkReply]
        do throws(VarlinkClient.Failure) { replies = try client.receiveAvailable() } catch {
            throw .lost(reason: error.cause)
        }
        var events: [WatchEvent] = []
        for reply in replies {
            switch reply {
            case .parameters(let parameters, _):
                events.append(WatchEvent(reply: parameters))
            case .error(let error):
                throw .refused(DaemonRefusal(error))
            }
        }
        return events
    }
}
