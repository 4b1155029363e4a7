// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import CSoundLibraries
import FoundationEssentials
import Glibc

/// The sound process's work: one ``SoundCommand``, its answers as
/// ``SoundMessage`` lines on stdout. alarmd gives it a socket as stdout,
/// stderr and descriptor 3, writes its requests (``SoundMessage/escalate``)
/// to it, and closes it (or sends SIGTERM) to stop the sound; run by hand,
/// requests come on stdin.
public enum SoundProcess {
    /// Runs `command`; the process's exit status.
    public static func run(_ command: SoundCommand) -> Int32 {
        confine()
        return switch command {
        case .check(let files): check(files)
        case .play(let file, let name, let role, let volume, let fade, let once):
            play(file: file, name: name, role: role, volume: volume, fade: fade, once: once)
        }
    }

    /// How much of a file a check decodes: enough to know the codec reads it.
    static let checkedSeconds = 0.1

    private static func check(_ files: [String]) -> Int32 {
        let output = PulseOutput()
        do throws(PulseOutput.Failure) { say(.output(try output.defaultOutput())) } catch { say(.noServer(error.description)) }
        for (index, file) in files.enumerated() {
            do throws(DecodedSound.Failure) {
                _ = try DecodedSound.decode(path: file, seconds: checkedSeconds)
                say(.file(index: index, problem: nil))
            } catch {
                say(.file(index: index, problem: error.description))
            }
        }
        return 0
    }

    private static func play(file: String, name: String, role: String, volume: Int, fade: Double, once: Bool) -> Int32 {
        let sound: DecodedSound
        do throws(DecodedSound.Failure) { sound = try DecodedSound.decode(path: file) } catch {
            say(.cannotDecode(error.description))
            return 1
        }
        let output = PulseOutput()
        do throws(PulseOutput.Failure) {
            try output.play(sound, name: name, role: role, volume: volume, fade: fade, once: once) { reason in
                // On the sound server's thread: the stream is gone, and so is the process.
                say(.failed(reason))
                _exit(3)
            }
        } catch {
            say(.noServer(error.description))
            return 2
        }
        say(.playing(seconds: sound.seconds))
        // Played once, it ends with the sound and the server's buffer.
        let end = once ? monotonicSeconds() + sound.seconds + Double(PulseOutput.bufferMilliseconds) / 1000 + 0.2 : nil
        let input = fcntl(3, F_GETFD) >= 0 ? Int32(3) : STDIN_FILENO
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 256)
        while true {
            var wait: Int32 = -1
            if let end {
                let left = end - monotonicSeconds()
                guard left > 0 else { break }
                wait = Int32(min(left * 1000 + 1, 60_000))
            }
            var poller = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, wait)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { continue }
            let count = read(input, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            // Closed: alarmd stopped the sound.
            guard count > 0 else { break }
            pending += buffer[..<count]
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                if SoundMessage(line: Substring(line)) == .escalate { output.escalate() }
            }
            // Requests are a word long; anything longer is not alarmd's.
            if pending.count > 1024 { pending.removeAll() }
        }
        output.stop()
        return 0
    }

    /// Limits on what a sound file, which may come from anywhere, can make
    /// this process do: no privileges gained through a program it might
    /// run, no core file, 1 GiB of address space (libpulse's shared memory
    /// pool and a minute of decoded sound are far less), 64 descriptors.
    private static func confine() {
        _ = alarmd_sound_no_new_privs()
        for (resource, limit) in [(RLIMIT_CORE, rlim_t(0)), (RLIMIT_AS, rlim_t(1) << 30), (RLIMIT_NOFILE, rlim_t(64))] {
            var value = rlimit(rlim_cur: limit, rlim_max: limit)
            _ = setrlimit(__rlimit_resource_t(resource.rawValue), &value)
        }
    }

    private static func say(_ message: SoundMessage) {
        let bytes = Array((message.line + "\n").utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return }
            sent += count
        }
    }

    private static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
