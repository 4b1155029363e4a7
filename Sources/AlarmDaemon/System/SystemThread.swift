// SPDX-License-Identifier: Apache-2.0
import CLinux
import Glibc

/// A thread of the daemon's own, for the one loop that must block in the
/// kernel (epoll): started detached and named for `top -H` and the
/// journal's stack traces. Foundation's `Thread` does the same with a run
/// loop and a library the daemon does not link.
enum SystemThread {
    private final class Start {
        let name: String
        let body: () -> Void
        init(name: String, body: @escaping () -> Void) { (self.name, self.body) = (name, body) }
    }

    /// Runs `body` on a new thread named `name` (the kernel keeps 15 bytes).
    static func start(name: String, _ body: @escaping @Sendable () -> Void) {
        let start = Unmanaged.passRetained(Start(name: name, body: body)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, { argument in
            let start = Unmanaged<Start>.fromOpaque(argument!).takeRetainedValue()
            _ = alarmd_name_thread(start.name)
            start.body()
            return nil
        }, start)
        precondition(result == 0, "pthread_create failed: \(result)")
        pthread_detach(thread)
    }
}
