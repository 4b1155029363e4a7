// SPDX-License-Identifier: Apache-2.0
import Adwaita
import CAdwaita
import Glibc

/// With `ALARMS_FRAME_LOG=PATH`, the window writes one line per frame it
/// paints: the monotonic clock in microseconds when painting ended
/// (`after-paint` of its frame clock). The benchmarks read it for the time
/// to the first frame and the longest frame while a long list scrolls; it
/// costs nothing when the variable is not set.
final class FrameLog {
    private let file: UnsafeMutablePointer<FILE>

    private init?(path: String) {
        guard let file = fopen(path, "w") else { return nil }
        self.file = file
    }

    deinit { fclose(file) }

    /// Starts logging for `window` once it is realized, if the variable is set.
    static func attach(to window: Widget, environment: [String: String]) {
        guard let path = environment["ALARMS_FRAME_LOG"], !path.isEmpty, let log = FrameLog(path: path) else { return }
        Signal.connect(window.raw, "realize") {
            guard let clock = gtk_widget_get_frame_clock(window.pointer) else { return }
            Signal.connect(UnsafeMutableRawPointer(clock), "after-paint") {
                fputs("\(g_get_monotonic_time())\n", log.file)
                fflush(log.file)
            }
        }
    }
}
