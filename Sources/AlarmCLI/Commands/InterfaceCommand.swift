// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import Glibc

/// `alarmctl ui`: the full-screen terminal interface. It is a program of
/// its own, `alarmctl-ui` (beside alarmctl in a build tree, in ../libexec
/// once installed), so that alarmctl itself links no curses and starts as
/// fast as before; alarmctl replaces itself with it.
enum InterfaceCommand {
    static let command = Command(
        spec: CommandSpec(
            name: "ui",
            summary: N_("Open the alarms, to-dos and timers in a full-screen terminal interface."),
            details: N_("Tabs for alarms, to-dos and timers, kept up to date as they change; Space switches an alarm on or off, marks a to-do done or pauses a timer, + gives a timer a minute more, a adds, e edits, d deletes, u undoes, z and x snooze and stop what rings, ? lists every key, q quits. Needs a terminal."),
            options: [Option.socket],
            examples: ["alarmctl ui"]
        ),
        run: { arguments, context throws(CLIError) in
            let socket = SocketPath.resolve(option: arguments.value(.socket), environment: context.environment, userID: context.userID)
            guard let program = findProgram() else {
                throw .file(L("alarmctl ui needs its program alarmctl-ui, which is installed neither beside alarmctl nor in ../libexec"))
            }
            guard isatty(STDIN_FILENO) != 0, isatty(STDOUT_FILENO) != 0 else {
                throw .usage(L("ui needs a terminal; scripts use the other commands (alarmctl --help)"))
            }
            let argv = ["alarmctl-ui", "--socket", socket]
            var pointers = argv.map { strdup($0) }
            pointers.append(nil)
            execv(program, pointers)
            let reason = String(cString: strerror(errno))
            throw .file(Lf("Could not run %1$s: %2$s", program, reason))
        }
    )

    /// `alarmctl-ui` beside this program, else in `../libexec` from it.
    static func findProgram() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        let executable = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return PathText.helperCandidates("alarmctl-ui", besideExecutable: executable).first { access($0, X_OK) == 0 }
    }
}
