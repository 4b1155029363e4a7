// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmLocale
import AlarmViewModels
import FoundationEssentials
import Glibc
import Terminal

/// `alarmctl ui`: the full-screen terminal interface. One thread, one
/// loop: it waits on the keyboard and the daemon's `Watch` socket, with a
/// timeout that brings the next second's countdown, and draws after each
/// turn (curses sends only what changed).
public enum TerminalUI {
    /// Runs until `q`; the exit status.
    public static func main(arguments: [String], environment: [String: String]) -> Int32 {
        var socket = DaemonSocket.path(environment: environment, userID: getuid())
        var rest = arguments.makeIterator()
        while let argument = rest.next() {
            switch argument {
            case "--socket":
                guard let path = rest.next() else { return usage("--socket needs a path") }
                socket = path
            case "-h", "--help":
                print("Usage: alarmctl ui [--socket PATH]\n\nThe alarms, to-dos and timers in a full-screen terminal interface; ? lists the keys.")
                return 0
            default:
                return usage("unknown argument \(argument)")
            }
        }
        guard isatty(STDIN_FILENO) != 0, isatty(STDOUT_FILENO) != 0 else {
            printError("alarmctl ui: needs a terminal; for scripts, use the other commands (alarmctl --help)\n")
            return 1
        }
        let language = GettextLocalization()
        let zone = ZoneDatabase.lookUpSystemZone(environmentTZ: environment["TZ"]).zone
        // Calls wait 2 s at most: the one loop also reads the keys, q included.
        let controller = TerminalController(client: DaemonClient(path: socket, timeout: 2), zone: zone, language: language)
        unblockSignals()
        let screen = TerminalScreen(environment: environment)
        defer { screen.close() }
        run(controller, screen, frameLog: environment["ALARMCTL_UI_FRAME_LOG"]) {
            ZoneDatabase.lookUpSystemZone(environmentTZ: environment["TZ"]).zone
        }
        return 0
    }

    /// The signals curses and the terminal need, delivered whatever mask
    /// the parent left: a resize (SIGWINCH), a closed terminal (SIGHUP),
    /// Ctrl+Z and its end, a request to stop.
    private static func unblockSignals() {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in [SIGWINCH, SIGHUP, SIGTERM, SIGINT, SIGTSTP, SIGCONT] { sigaddset(&set, signal) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    private static func usage(_ problem: String) -> Int32 {
        printError("alarmctl ui: \(problem)\nUsage: alarmctl ui [--socket PATH]\n")
        return 64
    }

    private static func printError(_ text: String) {
        var text = text
        text.withUTF8 { bytes in _ = write(STDERR_FILENO, bytes.baseAddress, bytes.count) }
    }

    static func monotonic() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    private static func run(_ controller: TerminalController, _ screen: TerminalScreen, frameLog: String?, zone: () -> Zone) {
        let log = frameLog.flatMap { fopen($0, "a") }
        defer { if let log { fclose(log) } }
        var frames = 0
        while controller.running {
            controller.connectIfNeeded(monotonic: monotonic())
            controller.refreshIfDue(monotonic: monotonic(), zone: zone)
            controller.expireNote(monotonic: monotonic())
            let start = monotonic()
            let size = screen.size
            let frame = ScreenRenderer.render(controller, rows: size.rows, columns: size.columns, now: controller.now)
            screen.draw(frame.canvas, cursor: frame.cursor)
            frames += 1
            if let log {
                // One line per frame: its number, CLOCK_MONOTONIC when it was
                // on the terminal and how long laying it out and drawing it
                // took, both in microseconds (bench/ reads these).
                let end = monotonic()
                fputs("frame \(frames) \(Int((end * 1_000_000).rounded())) \(Int(((end - start) * 1_000_000).rounded()))\n", log)
                fflush(log)
            }
            wait(controller, screen)
        }
    }

    /// Waits for a key, an event or the next whole second, then takes in
    /// every key and event that is there.
    private static func wait(_ controller: TerminalController, _ screen: TerminalScreen) {
        var descriptors = [pollfd(fd: screen.inputDescriptor, events: Int16(POLLIN), revents: 0)]
        if let watch = controller.watch { descriptors.append(pollfd(fd: watch.descriptor, events: Int16(POLLIN), revents: 0)) }
        let now = controller.now.timeIntervalSince1970
        let untilSecond = Int32(((1 - (now - now.rounded(.down))) * 1000).rounded(.up)) + 5
        // About a second at most: also the pace of reconnecting while alarmd is away.
        let ready = poll(&descriptors, nfds_t(descriptors.count), untilSecond)
        if ready > 0, descriptors.count > 1, descriptors[1].revents != 0 { controller.readEvents() }
        // The terminal went away (its window closed, ssh dropped): nothing
        // is left to show or read.
        if descriptors[0].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 {
            controller.quit()
            return
        }
        // A resize arrives as a key (curses' SIGWINCH handler), after poll
        // was interrupted; keys are read whatever woke the loop.
        var keys = 0
        while keys < 256, let key = screen.readKey() {
            controller.handle(key)
            keys += 1
            if !controller.running { return }
        }
    }
}
