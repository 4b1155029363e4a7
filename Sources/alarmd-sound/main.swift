// SPDX-License-Identifier: Apache-2.0
import AlarmSound
import Glibc

// The session's language for libpulse's messages (pa_strerror), which
// alarmd passes on to alarmctl as they are.
_ = setlocale(LC_ALL, "")
// A write to a socket alarmd has closed fails instead of ending the process
// before it can stop its stream.
signal(SIGPIPE, SIG_IGN)
do throws(SoundCommand.UsageError) {
    exit(SoundProcess.run(try SoundCommand.parse(Array(CommandLine.arguments.dropFirst()))))
} catch {
    let text = "alarmd-sound: \(error)\n\(SoundCommand.usage)\n"
    _ = write(STDERR_FILENO, text, text.utf8.count)
    exit(64)
}
