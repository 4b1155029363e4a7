// SPDX-License-Identifier: Apache-2.0
import Adwaita
import AlarmCore
import AlarmProtocol
import AlarmViewModels
import Glibc

/// The app's two connections to alarmd: calls (``client``), and the `Watch`
/// stream, whose socket is a source on GLib's main loop, so an event reaches
/// the window in the loop's next turn with no thread of its own.
///
/// While the daemon cannot be reached it tries again every second (the
/// socket unit starts alarmd on the first connection), and says so once
/// through `onReachability`.
final class DaemonLink {
    let client: DaemonClient
    private var watch: DaemonWatch?
    private var source: UInt32 = 0
    private var retry: UInt32 = 0
    private(set) var isReachable = false
    /// Why the daemon was last out of reach, for the banner.
    private(set) var failure: DaemonFailure?

    /// Called with each batch of events, in order.
    var onEvents: ([WatchEvent]) -> Void = { _ in }
    /// Called when the daemon becomes reachable (reload everything) or stops
    /// being so (show the banner).
    var onReachability: (Bool) -> Void = { _ in }

    init(path: String) {
        client = DaemonClient(path: path)
    }

    /// Subscribes now, or keeps trying every second until it can.
    func start() {
        MainContext.assertOwner()
        if subscribe() { return }
        scheduleRetry()
    }

    /// A call failed for want of the daemon: drop the subscription and retry.
    func lost(_ failure: DaemonFailure) {
        guard failure.isConnectionProblem else { return }
        self.failure = failure
        disconnect()
        if isReachable {
            isReachable = false
            onReachability(false)
        }
        scheduleRetry()
    }

    private func subscribe() -> Bool {
        do throws(DaemonFailure) {
            let watch = try DaemonWatch(path: client.path)
            self.watch = watch
            source = MainLoop.watch(watch.descriptor) { [unowned self] _ in self.readEvents() }
            failure = nil
            if !isReachable {
                isReachable = true
                onReachability(true)
            }
            return true
        } catch {
            failure = error
            if isReachable {
                isReachable = false
                onReachability(false)
            } else if retry == 0 {
                onReachability(false)
            }
            return false
        }
    }

    private func readEvents() -> Bool {
        guard let watch else { return false }
        do throws(DaemonFailure) {
            let events = try watch.receiveEvents()
            if !events.isEmpty { onEvents(events) }
            return true
        } catch {
            // The source ends by returning false; the retry sets up a new one.
            source = 0
            lost(error)
            return false
        }
    }

    private func scheduleRetry() {
        guard retry == 0 else { return }
        retry = MainLoop.every(milliseconds: 1000) { [unowned self] in
            if self.subscribe() {
                self.retry = 0
                return false
            }
            return true
        }
    }

    private func disconnect() {
        MainLoop.remove(source)
        source = 0
        watch = nil
        client.disconnect()
    }
}
