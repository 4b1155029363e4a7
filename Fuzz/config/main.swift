// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: the configuration parser (INIFile and DaemonConfig.parse).
//
// The input is an alarmd.conf file. Parsing must never trap; a failure is a
// typed ConfigError naming the file and a line that exists. A file that parses
// gives settings inside their documented bounds, and those settings written
// back out as a canonical file parse to the same DaemonConfig.
import AlarmCore
import Foundation

/// One argument as a Player= word that ArgumentVector.split reads back
/// unchanged: every character escaped with a backslash, except blanks, which
/// are quoted (INIFile trims a trailing blank off the line, escaped or not).
func escapedWord(_ word: String) -> String {
    word.isEmpty ? "''" : word.map { $0 == " " || $0 == "\t" ? "'\($0)'" : "\\" + String($0) }.joined()
}

/// ArgumentVector.split works on Characters, so a backslash followed by a
/// combining mark is one Character, not an escape: such words have no escaped
/// form, and the round trip skips Player= for them.
func escapable(_ word: String) -> Bool {
    word.allSatisfy { ("\\" + String($0)).count == 2 }
}

func canonicalText(_ config: DaemonConfig) -> String {
    var lines = ["# canonical", "[Alarms]"]
    lines.append("SnoozeMinutes=\(config.snoozeMinutes)")
    lines.append("RingDuration=\(config.ringSeconds)s")
    lines.append("MissedGrace=" + (config.missedGrace == 0 ? "0" : "\(Int(config.missedGrace))s"))
    lines.append("[Sound]")
    lines.append("AlarmSound=\(config.alarmSound.description)")
    lines.append("ReminderSound=\(config.reminderSound.description)")
    lines.append("Theme=\(config.soundTheme)")
    lines.append("Player=" + config.player.map(escapedWord).joined(separator: " "))
    lines.append("[Hooks]")
    lines.append("Timeout=\(Int(config.hookTimeout))s")
    lines.append("[Control]")
    lines.append("IdleTimeout=\(Int(config.idleTimeout))s")
    lines.append("MaxClients=\(config.maxClients)")
    lines.append("WatchBacklog=\(config.watchBacklog / 1024)K")
    lines.append("MaxMessageSize=\(config.maxMessageSize / 1024)K")
    return lines.joined(separator: "\n") + "\n"
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size <= 16_384 else { return -1 }
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let lineCount = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).count

    // The INI layer on its own.
    do throws(ConfigError) {
        let file = try INIFile(parsing: text, name: "fuzz.conf")
        var previous = 0
        for entry in file.entries {
            check(!entry.section.isEmpty && !entry.key.isEmpty, "INI entry with an empty section or key: \(entry)")
            check(entry.line > previous && entry.line <= lineCount, "INI entry line \(entry.line) out of order or past \(lineCount) lines")
            check(entry.value == entry.value.trimmingCharacters(in: .init(charactersIn: " \t")) || entry.value.hasSuffix("\r"),
                  "INI value keeps surrounding blanks: \(quoted(entry.value))")
            previous = entry.line
        }
    } catch {
        check(error.file == "fuzz.conf" && (1...max(lineCount, 1)).contains(error.line), "INI error names \(error.file):\(error.line) of \(lineCount) lines")
        check(!error.message.isEmpty, "INI error without a message")
    }

    let config: DaemonConfig
    do throws(ConfigError) {
        let parsed = try DaemonConfig.parse(text, name: "fuzz.conf")
        config = parsed.config
        for warning in parsed.warnings { check(warning.hasPrefix("fuzz.conf:"), "warning without file name: \(warning)") }
    } catch {
        check(error.file == "fuzz.conf" && (1...max(lineCount, 1)).contains(error.line), "config error names \(error.file):\(error.line) of \(lineCount) lines")
        check(!error.description.isEmpty, "config error without a description")
        return 0
    }

    check((1...60).contains(config.snoozeMinutes), "SnoozeMinutes \(config.snoozeMinutes)")
    check(Alarm.ringSecondsRange.contains(config.ringSeconds), "RingDuration \(config.ringSeconds)")
    check((0...86_400).contains(config.missedGrace), "MissedGrace \(config.missedGrace)")
    check((1...3600).contains(config.hookTimeout), "Hooks Timeout \(config.hookTimeout)")
    check((1...86_400).contains(config.idleTimeout), "IdleTimeout \(config.idleTimeout)")
    check((1...4096).contains(config.maxClients), "MaxClients \(config.maxClients)")
    check((1024...65_536 * 1024).contains(config.watchBacklog) && config.watchBacklog % 1024 == 0, "WatchBacklog \(config.watchBacklog)")
    check(((64 << 10)...(1 << 30)).contains(config.maxMessageSize) && config.maxMessageSize % 1024 == 0, "MaxMessageSize \(config.maxMessageSize)")
    for sound in [config.alarmSound, config.reminderSound] {
        do throws(ValidationError) { try sound.validate() } catch { check(false, "configured sound fails validation: \(error)") }
    }
    if let program = config.player.first {
        check(program.hasPrefix("/") || !program.contains("/"), "Player program \(quoted(program)) is a relative path")
    }

    let canonical = canonicalText(config)
    do throws(ConfigError) {
        let again = try DaemonConfig.parse(canonical, name: "canonical.conf")
        check(again.warnings.isEmpty, "canonical file has warnings: \(again.warnings)")
        var expected = config
        if !config.player.allSatisfy(escapable) { expected.player = again.config.player }
        check(again.config == expected, "config does not survive its canonical form:\n\(canonical)")
    } catch {
        check(false, "canonical form does not parse: \(error)\n\(canonical)")
    }
    return 0
}
