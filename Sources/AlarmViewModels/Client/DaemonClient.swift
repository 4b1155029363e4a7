// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmProtocol

/// alarmd for an app: typed calls with a short timeout over one connection,
/// made on the first call and made again on the next call after it broke
/// (the daemon restarted, or was not running yet). Blocking: a call takes
/// what the daemon takes, a few milliseconds, at most ``timeout``.
public final class DaemonClient {
    /// Seconds a call may take before the daemon counts as stuck.
    public static let defaultTimeout = 5.0

    /// The socket path.
    public let path: String
    /// Seconds each send and receive may take.
    public let timeout: Double
    private var connection: VarlinkClient?

    /// A client of the daemon at `path`; nothing is connected yet.
    public init(path: String, timeout: Double = DaemonClient.defaultTimeout) {
        self.path = path
        self.timeout = timeout
    }

    /// A client of the daemon where alarmctl finds it (``DaemonSocket``).
    public convenience init(environment: [String: String], userID: UInt32) {
        self.init(path: DaemonSocket.path(environment: environment, userID: userID))
    }

    /// Whether a connection is open (it may still turn out broken).
    public var isConnected: Bool { connection != nil }

    /// Calls `method` and returns its reply, read as the method's. A reply
    /// that does not read (a daemon of another version) is `lost` with the
    /// reason naming the member, as one that is not Varlink at all is.
    ///
    /// A connection kept from an earlier call that turns out closed when the
    /// call is sent (the daemon restarted in between) is replaced and the
    /// call sent once more: nothing reached the daemon. A connection that
    /// breaks after the call was sent is `lost`, not retried, since the
    /// daemon may have carried it out.
    public func call<M: VarlinkMethod>(_ method: M.Type, _ request: M.Request) throws(DaemonFailure) -> M.Reply {
        let call = VarlinkCall(method: M.qualifiedName, parameters: request.json)
        var reused = connection?.isOpen == true
        while true {
            let client = try connected()
            do throws(VarlinkClient.Failure) {
                try client.send(call)
            } catch {
                connection = nil
                if reused, case .connectionLost(.system) = error {
                    reused = false
                    continue
                }
                throw .lost(reason: error.cause)
            }
            let reply: VarlinkReply
            do throws(VarlinkClient.Failure) { reply = try client.receive() } catch {
                // The stream is out of step after a failure: start afresh.
                connection = nil
                throw .lost(reason: error.cause)
            }
            switch reply {
            case .parameters(let parameters, _):
                do throws(VarlinkError) { return try M.Reply(Parameters(parameters)) } catch {
                    throw .lost(reason: .malformed(error))
                }
            case .error(let error): throw .refused(DaemonRefusal(error))
            }
        }
    }

    /// Calls a method that takes no parameters.
    public func call<M: VarlinkMethod>(_ method: M.Type) throws(DaemonFailure) -> M.Reply where M.Request == NoMembers {
        try call(method, NoMembers())
    }

    /// Closes the connection; the next call opens a new one.
    public func disconnect() { connection = nil }

    private func connected() throws(DaemonFailure) -> VarlinkClient {
        if let connection, connection.isOpen { return connection }
        do throws(VarlinkClient.Failure) {
            let client = try VarlinkClient(path: path, timeout: timeout)
            connection = client
            return client
        } catch {
            throw .unreachable(path: path, reason: error.cause)
        }
    }
}
