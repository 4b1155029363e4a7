// SPDX-License-Identifier: Apache-2.0
import Foundation
import Glibc
import Testing

/// `make install` / `make uninstall`, the installed units under systemd's own
/// checker, socket activation for real, and the man pages and completions.
@Suite(.serialized) struct InstallTests {
    /// The package root (this file is Tests/AlarmdTests/InstallTests.swift).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    struct Run {
        let status: Int32
        let output: String
    }

    /// Runs a command with output captured; `environment` adds to the test's own.
    @discardableResult
    static func run(_ arguments: [String], environment: [String: String] = [:], directory: String = root) throws -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        var env = ProcessInfo.processInfo.environment
        env.merge(environment) { $1 }
        process.environment = env
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self))
    }

    /// Installs the binaries this test run was built with: building again from
    /// here would wait forever for the build directory `swift test` holds.
    static func install(_ variables: [String]) throws -> Run {
        try run(["make", "--no-print-directory", "install", "PRODUCTS=\(productsDirectory)"] + variables)
    }

    static func files(under directory: String) -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: directory) else { return [] }
        return enumerator.compactMap { $0 as? String }.filter { path in
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: directory + "/" + path, isDirectory: &isDirectory)
            return !isDirectory.boolValue
        }.sorted()
    }

    /// The processes `pid` started, from the kernel's own list, so that no other
    /// process on the machine can be mistaken for one of them.
    static func children(of pid: pid_t) -> [pid_t] {
        let list = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? ""
        return list.split(separator: " ").compactMap { pid_t($0) }
    }

    @Test func installIntoDestdirThenUninstallLeavesNothing() throws {
        let stage = TemporaryDirectory()
        let installed = try Self.install(["DESTDIR=\(stage.path)", "PREFIX=/usr"])
        try #require(installed.status == 0, "make install failed:\n\(installed.output)")
        #expect(Self.files(under: stage.path) == [
            "etc/xdg/alarmd/alarmd.conf",
            "usr/bin/alarmctl", "usr/bin/alarmd", "usr/bin/alarms",
            "usr/lib/systemd/catalog/alarmd.catalog", "usr/lib/systemd/catalog/alarmd.zh_TW.catalog",
            "usr/lib/systemd/system/alarmd-wake.service", "usr/lib/systemd/system/alarmd-wake.socket",
            "usr/lib/systemd/user/alarmd.service", "usr/lib/systemd/user/alarmd.socket",
            "usr/libexec/alarmctl-ui", "usr/libexec/alarmd-sound", "usr/libexec/alarmd-sync", "usr/libexec/alarmd-wake",
            "usr/share/applications/io.alarmd.Alarms.desktop",
            "usr/share/bash-completion/completions/alarmctl",
            "usr/share/fish/vendor_completions.d/alarmctl.fish",
            "usr/share/icons/hicolor/scalable/apps/io.alarmd.Alarms.svg",
            "usr/share/icons/hicolor/symbolic/apps/io.alarmd.Alarms-symbolic.svg",
            "usr/share/locale/zh_TW/LC_MESSAGES/alarmd.mo", "usr/share/locale/zh_TW/LC_TIME/alarmd.mo",
            "usr/share/man/man1/alarmctl-ui.1", "usr/share/man/man1/alarmctl.1", "usr/share/man/man1/alarms.1", "usr/share/man/man5/alarmd.conf.5", "usr/share/man/man8/alarmd-sound.8", "usr/share/man/man8/alarmd-sync.8", "usr/share/man/man8/alarmd-wake.8", "usr/share/man/man8/alarmd.8",
            "usr/share/metainfo/io.alarmd.Alarms.metainfo.xml",
            "usr/share/zsh/site-functions/_alarmctl",
        ])
        // The desktop app's files are data/'s, unchanged: the entry's Exec
        // (alarms) is found on PATH in /usr/bin, its Icon in hicolor.
        for (installed, shipped) in [
            ("usr/share/applications/io.alarmd.Alarms.desktop", "data/io.alarmd.Alarms.desktop"),
            ("usr/share/metainfo/io.alarmd.Alarms.metainfo.xml", "data/io.alarmd.Alarms.metainfo.xml"),
            ("usr/share/icons/hicolor/scalable/apps/io.alarmd.Alarms.svg", "data/icons/hicolor/scalable/apps/io.alarmd.Alarms.svg"),
            ("usr/share/icons/hicolor/symbolic/apps/io.alarmd.Alarms-symbolic.svg", "data/icons/hicolor/symbolic/apps/io.alarmd.Alarms-symbolic.svg"),
            ("usr/share/man/man1/alarms.1", "docs/man/alarms.1"),
        ] {
            #expect(FileManager.default.contentsEqual(atPath: stage.path + "/" + installed, andPath: Self.root + "/" + shipped), "\(installed) is not \(shipped)")
        }
        #expect(FileManager.default.isExecutableFile(atPath: stage.path + "/usr/bin/alarms"))
        let helperUnit = try String(contentsOfFile: stage.path + "/usr/lib/systemd/system/alarmd-wake.service", encoding: .utf8)
        #expect(helperUnit.contains("ExecStart=/usr/libexec/alarmd-wake\n"))
        #expect(try Self.run([stage.path + "/usr/libexec/alarmd-wake", "--version"]).output.hasPrefix("alarmd-wake "))
        let unit = try String(contentsOfFile: stage.path + "/usr/lib/systemd/user/alarmd.service", encoding: .utf8)
        #expect(unit.contains("ExecStart=/usr/bin/alarmd\n"))
        #expect(unit.contains("Environment=XDG_CONFIG_DIRS=/etc/xdg\n"))
        // The installed programs run from there.
        let version = try Self.run([stage.path + "/usr/bin/alarmd", "--version"])
        #expect(version.output.hasPrefix("alarmd "))
        let preview = try Self.run([stage.path + "/usr/bin/alarmctl", "preview", "7:30", "--tz", "UTC", "--from", "2026-03-07T00:00:00Z", "--count", "1"])
        #expect(preview.output == "2026-03-07 Sat 07:30 +00:00\n")
        // It finds its translations beside it, in ../share/locale.
        if Locales.installed("zh_TW.utf8") {
            let chinese = try Self.run([stage.path + "/usr/bin/alarmctl", "preview", "7:30", "--tz", "UTC", "--from", "2026-03-07T00:00:00Z", "--count", "1"],
                                       environment: ["LANG": "zh_TW.UTF-8", "LC_ALL": "", "LANGUAGE": "", "ALARMD_LOCALEDIR": ""])
            #expect(chinese.output == "2026年3月7日 週六 上午7:30 +00:00\n")
        }

        let removed = try Self.run(["make", "--no-print-directory", "uninstall", "DESTDIR=\(stage.path)", "PREFIX=/usr"])
        #expect(removed.status == 0, "\(removed.output)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: stage.path) == [])
    }

    /// The default install, as a user runs it: no PREFIX, no DESTDIR, units
    /// where `systemctl --user` looks in the home directory.
    @Test func aHomeInstallPutsTheUnitsInTheUsersConfigThenUninstallRemovesThem() throws {
        let home = TemporaryDirectory()
        let installed = try Self.run(["make", "--no-print-directory", "install", "PRODUCTS=\(productsDirectory)"], environment: ["HOME": home.path])
        try #require(installed.status == 0, "make install failed:\n\(installed.output)")
        #expect(Self.files(under: home.path) == [
            ".config/systemd/user/alarmd.service", ".config/systemd/user/alarmd.socket",
            ".local/bin/alarmctl", ".local/bin/alarmd", ".local/bin/alarms",
            ".local/etc/xdg/alarmd/alarmd.conf",
            ".local/lib/systemd/catalog/alarmd.catalog", ".local/lib/systemd/catalog/alarmd.zh_TW.catalog",
            ".local/libexec/alarmctl-ui", ".local/libexec/alarmd-sound", ".local/libexec/alarmd-sync",
            ".local/share/applications/io.alarmd.Alarms.desktop",
            ".local/share/bash-completion/completions/alarmctl",
            ".local/share/fish/vendor_completions.d/alarmctl.fish",
            ".local/share/icons/hicolor/scalable/apps/io.alarmd.Alarms.svg",
            ".local/share/icons/hicolor/symbolic/apps/io.alarmd.Alarms-symbolic.svg",
            ".local/share/locale/zh_TW/LC_MESSAGES/alarmd.mo", ".local/share/locale/zh_TW/LC_TIME/alarmd.mo",
            ".local/share/man/man1/alarmctl-ui.1", ".local/share/man/man1/alarmctl.1", ".local/share/man/man1/alarms.1", ".local/share/man/man5/alarmd.conf.5", ".local/share/man/man8/alarmd-sound.8", ".local/share/man/man8/alarmd-sync.8", ".local/share/man/man8/alarmd.8",
            ".local/share/metainfo/io.alarmd.Alarms.metainfo.xml",
            ".local/share/zsh/site-functions/_alarmctl",
        ])
        let unit = try String(contentsOfFile: home.path + "/.config/systemd/user/alarmd.service", encoding: .utf8)
        #expect(unit.contains("ExecStart=\(home.path)/.local/bin/alarmd\n"))
        #expect(unit.contains("Environment=XDG_CONFIG_DIRS=\(home.path)/.local/etc/xdg:/etc/xdg\n"))

        let removed = try Self.run(["make", "--no-print-directory", "uninstall"], environment: ["HOME": home.path])
        #expect(removed.status == 0, "\(removed.output)")
        // Shared directories such as ~/.local/bin stay; every file goes.
        #expect(Self.files(under: home.path) == [])
    }

    @Test func systemdAnalyzeVerifiesTheInstalledUnits() throws {
        let prefix = TemporaryDirectory()
        let installed = try Self.install(["PREFIX=\(prefix.path)"])
        try #require(installed.status == 0, "make install failed:\n\(installed.output)")
        let units = prefix.path + "/lib/systemd/user"
        let unit = try String(contentsOfFile: units + "/alarmd.service", encoding: .utf8)
        #expect(unit.contains("ExecStart=\(prefix.path)/bin/alarmd\n"))
        #expect(unit.contains("Environment=XDG_CONFIG_DIRS=\(prefix.path)/etc/xdg:/etc/xdg\n"))
        // A user-mode check needs a runtime directory; MANPATH lets it find the
        // man pages the units name in Documentation=.
        let runtime = TemporaryDirectory()
        let verify = try Self.run(["systemd-analyze", "verify", "--user", units + "/alarmd.service", units + "/alarmd.socket"],
                                  environment: ["XDG_RUNTIME_DIR": runtime.path, "MANPATH": prefix.path + "/share/man"])
        #expect(verify.status == 0, "systemd-analyze verify:\n\(verify.output)")
        #expect(verify.output.isEmpty, "systemd-analyze verify printed:\n\(verify.output)")

        // The helper's system units, in system mode.
        let system = prefix.path + "/lib/systemd/system"
        let helper = try String(contentsOfFile: system + "/alarmd-wake.service", encoding: .utf8)
        #expect(helper.contains("ExecStart=\(prefix.path)/libexec/alarmd-wake\n"))
        let verifySystem = try Self.run(["systemd-analyze", "verify", system + "/alarmd-wake.socket", system + "/alarmd-wake.service"],
                                        environment: ["MANPATH": prefix.path + "/share/man"])
        #expect(verifySystem.status == 0, "systemd-analyze verify (system):\n\(verifySystem.output)")
        #expect(verifySystem.output.isEmpty, "systemd-analyze verify (system) printed:\n\(verifySystem.output)")
    }

    /// `systemd-socket-activate` binds the socket and starts alarmd on the first
    /// connection, passing the fd the way systemd's socket unit does.
    @Test func socketActivationStartsTheDaemonOnTheFirstConnection() throws {
        let directory = TemporaryDirectory()
        let socket = directory.path + "/io.alarmd"
        let activator = Process()
        // `timeout` bounds the daemon's life even if this test is interrupted.
        activator.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        activator.arguments = ["-s", "KILL", "60", "/usr/bin/systemd-socket-activate", "-l", socket, productsDirectory + "/alarmd", "--state-dir", directory.path + "/state"]
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_RUNTIME_DIR"] = directory.path
        environment["HOME"] = directory.path
        activator.environment = environment
        let errors = PipeCollector()
        activator.standardError = errors.pipe
        activator.standardOutput = FileHandle.nullDevice
        try activator.run()
        defer {
            // systemd-socket-activate execs alarmd in its own process, the child
            // of `timeout`, so that child is exactly our alarmd (or the activator
            // still waiting); SIGKILL because children of the test runner inherit
            // a blocked SIGTERM.
            for child in Self.children(of: activator.processIdentifier) { kill(child, SIGKILL) }
            kill(activator.processIdentifier, SIGKILL)
            activator.waitUntilExit()
        }
        #expect(waitUntil(timeout: 10) { FileManager.default.fileExists(atPath: socket) })
        // Nothing runs alarmd yet: only the activator listens.
        #expect(!errors.text.contains("alarmd 0."))
        let ctl = try Self.run([productsDirectory + "/alarmctl", "--socket", socket, "status", "--json"])
        #expect(ctl.status == 0, "alarmctl: \(ctl.output)")
        #expect(ctl.output.contains("\"version\""))
        let added = try Self.run([productsDirectory + "/alarmctl", "--socket", socket, "add", "7:30", "--label", "Activated"])
        #expect(added.status == 0, "\(added.output)")
        // alarmd says where it listens: in the journal, or on stderr without one.
        let passed = "database \(directory.path)/state/alarmd.sqlite3, listening on the socket passed by systemd"
        #expect(waitUntil(timeout: 10) {
            errors.text.contains(passed)
                || JournalFixture.query(["SYSLOG_IDENTIFIER=alarmd", "MESSAGE_ID=17d501f7af2a457e9ddde6ca23260f05"]).contains { $0["MESSAGE"]?.contains(passed) == true }
        }, "stderr: \(errors.text)")
    }

    /// mandoc lint on every man page, `bash -n` and a scripted completion check,
    /// `zsh -n` / `fish -n` where those shells exist. (That the completions and
    /// the manual's synopses match alarmctl's command table is CommandTableTests'.)
    @Test func manPagesAndCompletionsPassTheirCheckers() throws {
        let completions = TemporaryDirectory()
        for (shell, file) in [("bash", "alarmctl.bash"), ("zsh", "_alarmctl"), ("fish", "alarmctl.fish")] {
            let printed = try Self.run([productsDirectory + "/alarmctl", "completions", shell])
            #expect(printed.status == 0, "\(printed.output)")
            try printed.output.write(toFile: completions.path + "/" + file, atomically: true, encoding: .utf8)
        }
        let check = try Self.run(["bash", Self.root + "/Tests/AlarmdTests/python/check_docs.sh", Self.root, completions.path])
        #expect(check.status == 0, "\(check.output)")
    }
}
