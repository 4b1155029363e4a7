// SPDX-License-Identifier: Apache-2.0
import AlarmProtocol
import CLinux
import Dispatch
import FoundationEssentials
import Glibc
import Synchronization

/// alarmd's side of `io.alarmd.Wake`: asks the `alarmd-wake` system helper
/// to wake the machine at an instant, for an alarmd that cannot set a wake-up
/// itself and whose user manager cannot either.
///
/// The helper keeps nothing on disk: if it stops (an upgrade, a crash) the
/// wake-up it held is gone. So while a wake-up is set, the connection that set
/// it stays open and watched; when the helper closes it, `lost` tells the
/// owner, which sets the wake-up again (socket activation starts the helper).
///
/// Its calls block (for at most ``timeout`` each), so it lives on the output
/// worker; every entry point checks that.
final class WakeHelperClient: Sendable {
    /// Why the helper could not set the wake-up.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static let timeout = 2.0

    private struct State {
        /// Watches the connection that set the wake-up, while one is set.
        var kept: OwnedReadSource?
        /// The instant the helper holds for this user, as far as alarmd knows.
        var armed: Date?
    }

    let path: String
    private let queue: DispatchQueue
    private let state: QueueBound<State>
    /// Behind a mutex: the owner sets it from its own queue.
    private let lostHandler = Mutex<(@Sendable () -> Void)?>(nil)

    init(path: String, queue: DispatchQueue) {
        self.path = path
        self.queue = queue
        state = QueueBound(State(), queue: queue)
    }

    /// The instant the helper holds for this user, as far as alarmd knows.
    var armed: Date? { state.armed }

    /// Runs on `queue` when the helper closes the connection of a wake-up still set.
    var lost: (@Sendable () -> Void)? {
        get { lostHandler.withLock { $0 } }
        set { lostHandler.withLock { $0 = newValue } }
    }

    /// Sets this user's wake-up with the helper to `instant`, or clears it.
    func set(_ instant: Date?) throws(Failure) {
        dispatchPrecondition(condition: .onQueue(queue))
        forget()
        let fd: Int32
        do throws(UnixSocketAddress.Failure) { fd = try UnixSocketAddress(path).connect(timeout: Self.timeout) } catch {
            let missing = error.code == ENOENT || error.code == ECONNREFUSED
            throw Failure(description: missing ? "the alarmd-wake helper is not installed or not running (no socket at \(path))"
                                                : "cannot reach the alarmd-wake helper: \(error)")
        }
        let message: [UInt8]
        do throws(Failure) { message = try Self.call(WakeInterface.SetWake.call(.init(at: instant.map(WakeInstant.init))), on: fd) } catch {
            close(fd)
            throw error
        }
        do throws(WakeCallFailure) { _ = try WakeInterface.SetWake.reply(message: message) } catch {
            close(fd)
            switch error {
            case .refused(.inThePast):
                // Closer than the trip to the helper: the machine is awake now.
                return
            case .malformed(let reason):
                throw Failure(description: "the alarmd-wake helper's reply is not io.alarmd.Wake's: \(reason)")
            case .refused, .methodNotFound, .interfaceNotFound, .undeclared:
                throw Failure(description: "the alarmd-wake helper refused: \(error)")
            }
        }
        guard let instant else {
            close(fd)
            return
        }
        state.armed = instant
        watch(fd)
    }

    /// Sends `call` and reads its one reply message, blocking (the socket's
    /// timeouts bound both).
    private static func call(_ call: VarlinkCall, on fd: Int32) throws(Failure) -> [UInt8] {
        let bytes = VarlinkFramer.frame(call.json)
        let sent = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, alarmd_msg_nosignal()) }
        guard sent == bytes.count else { throw Failure(description: "cannot write to the alarmd-wake helper: \(String(cString: strerror(errno)))") }
        var framer = VarlinkFramer(maxMessageSize: WakeInterface.maxMessageSize)
        var buffer = [UInt8](repeating: 0, count: 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                throw Failure(description: count == 0 ? "the alarmd-wake helper closed the connection without a reply"
                                                     : "no reply from the alarmd-wake helper: \(String(cString: strerror(errno)))")
            }
            let messages: [[UInt8]]
            do throws(VarlinkFramer.Oversize) { messages = try framer.append(buffer[..<count]) } catch {
                throw Failure(description: "the alarmd-wake helper's reply is over \(error.limit) bytes")
            }
            if let first = messages.first { return first }
        }
    }

    /// Watches `fd` for the helper closing it (it never sends unasked).
    private func watch(_ fd: Int32) {
        let source = OwnedReadSource(fd: fd, queue: queue)
        source.activate { [weak self] in
            guard let self else { return }
            forget()
            lost?()
        }
        state.kept = source
    }

    /// Lets go of the watched connection (the helper keeps the slot).
    private func forget() {
        state.kept?.cancel()
        state.kept = nil
        state.armed = nil
    }
}
