// SPDX-License-Identifier: Apache-2.0
import AlarmWake
import Dispatch
import Glibc
import SystemCalls

/// One ``AlarmClock`` timer, armed for an absolute wall-clock instant: it
/// wakes the machine from suspend when it expires. It cannot be disarmed, so
/// the helper closes the timer when no slot is left, and opens another for the next.
///
/// The descriptor is closed in the read source's cancel handler, once
/// Dispatch has taken it out of its epoll set, never sooner (see
/// ARCHITECTURE.md, "Descriptors outlive their sources").
final class AlarmTimer {
    private let fd: Int32
    private let source: DispatchSourceRead
    /// The instant armed, if any.
    private(set) var armed: WakeInstant?

    /// A timer delivering to `queue`: `expired` runs there each time the armed instant passes.
    init(queue: DispatchQueue, expired: @escaping () -> Void) throws(SystemError) {
        let fd = try AlarmClock.create()
        self.fd = fd
        source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        source.setCancelHandler { close(fd) }
        source.setEventHandler {
            if AlarmClock.acknowledge(fd) { expired() }
        }
        source.resume()
    }

    deinit { source.cancel() }

    /// Arms the timer for `instant`.
    func arm(_ instant: WakeInstant) throws(SystemError) {
        try AlarmClock.arm(fd, atMicroseconds: instant.microseconds)
        armed = instant
    }
}
