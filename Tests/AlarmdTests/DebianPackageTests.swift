// SPDX-License-Identifier: Apache-2.0
import AlarmDaemon
import Foundation
import Glibc
import Testing

/// The Debian package `make deb` built, installed with apt on this machine,
/// used, and purged. `make test` builds it first and names it in
/// `ALARMD_DEB` (a package build cannot run in here: `swift test` holds the
/// build directory); run by hand without it, the suite says why it is off.
enum BuiltPackage {
    static let path: String? = ProcessInfo.processInfo.environment["ALARMD_DEB"].flatMap { $0.isEmpty ? nil : $0 }
    /// The desktop app's package, which make deb builds beside alarmd's
    /// (alarms_VERSION_ARCH.deb for alarmd_VERSION_ARCH.deb).
    static var app: String? {
        path.map { path in
            let url = URL(fileURLWithPath: path)
            let name = url.lastPathComponent
            guard name.hasPrefix("alarmd_") else { return path + ".alarms" }
            return url.deletingLastPathComponent().appendingPathComponent("alarms_" + name.dropFirst("alarmd_".count)).path
        }
    }
}

@Suite(.serialized, .enabled(if: BuiltPackage.path != nil && getuid() == 0,
                             "set ALARMD_DEB to a .deb from make deb, and run as root (apt-get installs it)"))
struct DebianPackageTests {
    static let package = BuiltPackage.path

    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> InstallTests.Run {
        try InstallTests.run(arguments, environment: ["DEBIAN_FRONTEND": "noninteractive", "LC_ALL": "C.UTF-8"].merging(environment) { $1 })
    }

    /// What a package depends on, from its control file.
    static func depends(_ deb: String) throws -> String {
        try Self.run(["dpkg-deb", "-f", deb, "Depends"]).output
    }

    @Test func installsWithAptRunsAndPurgesWithoutATrace() throws {
        let deb = try #require(Self.package)
        let app = try #require(BuiltPackage.app)
        #expect(FileManager.default.fileExists(atPath: deb), "no package at \(deb): run make deb")
        #expect(FileManager.default.fileExists(atPath: app), "no package at \(app): run make deb")
        // The daemon's package stays free of GTK: a server or a minimal
        // session installs alarmd alone; the desktop app is a package of its
        // own that needs this very alarmd.
        let daemonDepends = try Self.depends(deb)
        #expect(!daemonDepends.contains("libgtk") && !daemonDepends.contains("libadwaita"), "alarmd depends on \(daemonDepends)")
        let appDepends = try Self.depends(app)
        #expect(appDepends.contains("libadwaita-1-0") && appDepends.contains("libgtk-4-1"), "alarms depends on \(appDepends)")
        #expect(appDepends.contains(#/alarmd \(= [^)]+\)/#), "alarms depends on \(appDepends)")
        // lintian's verdict is part of make deb; here the packages as apt sees them.
        let installed = try Self.run(["apt-get", "install", "-y", "-q", "--no-install-recommends"]
                                     + [deb, app].map { $0.hasPrefix("/") ? $0 : "./" + $0 })
        try #require(installed.status == 0, "apt-get install:\n\(installed.output)")
        var purged = false
        defer { if !purged { _ = try? Self.run(["apt-get", "purge", "-y", "-q", "alarms", "alarmd"]) } }

        let listed = try Self.run(["dpkg", "-L", "alarmd"])
        var paths = listed.output.split(separator: "\n").map(String.init)
        for expected in [
            "/usr/bin/alarmd", "/usr/bin/alarmctl", "/usr/libexec/alarmctl-ui", "/usr/libexec/alarmd-sound", "/usr/libexec/alarmd-sync", "/usr/libexec/alarmd-wake",
            "/usr/lib/systemd/user/alarmd.service", "/usr/lib/systemd/user/alarmd.socket",
            "/usr/lib/systemd/system/alarmd-wake.service", "/usr/lib/systemd/system/alarmd-wake.socket",
            "/etc/xdg/alarmd/alarmd.conf",
            "/usr/lib/systemd/catalog/alarmd.catalog", "/usr/lib/systemd/catalog/alarmd.zh_TW.catalog",
            "/usr/share/man/man1/alarmctl.1.gz", "/usr/share/man/man1/alarmctl-ui.1.gz", "/usr/share/man/man5/alarmd.conf.5.gz", "/usr/share/man/man8/alarmd.8.gz",
            "/usr/share/man/man8/alarmd-sound.8.gz", "/usr/share/man/man8/alarmd-sync.8.gz", "/usr/share/man/man8/alarmd-wake.8.gz",
            "/usr/share/bash-completion/completions/alarmctl", "/usr/share/zsh/site-functions/_alarmctl",
            "/usr/share/fish/vendor_completions.d/alarmctl.fish",
            "/usr/share/locale/zh_TW/LC_MESSAGES/alarmd.mo", "/usr/share/locale/zh_TW/LC_TIME/alarmd.mo",
            "/usr/share/doc/alarmd/copyright", "/usr/share/doc/alarmd/changelog.gz",
        ] {
            #expect(paths.contains(expected), "dpkg -L alarmd lacks \(expected)")
            #expect(FileManager.default.fileExists(atPath: expected), "\(expected) is not installed")
        }
        // alarmctl finds its terminal interface in /usr/libexec: run without
        // a terminal, `ui` gets as far as saying it needs one (exit 64).
        let ui = try Self.run(["/usr/bin/alarmctl", "ui"])
        #expect(ui.status == 64 && ui.output.contains("needs a terminal"), "\(ui.status): \(ui.output)")
        let uiLibraries = try Self.run(["ldd", "/usr/libexec/alarmctl-ui"])
        #expect(uiLibraries.output.contains("libncursesw.so") && !uiLibraries.output.contains("not found"), "\(uiLibraries.output)")
        // Nothing of the desktop app's is in alarmd's package.
        #expect(!paths.contains { $0.contains("alarms") || $0.contains("io.alarmd.Alarms") }, "\(paths)")
        let appPaths = try Self.run(["dpkg", "-L", "alarms"]).output.split(separator: "\n").map(String.init)
        for expected in [
            "/usr/bin/alarms", "/usr/share/man/man1/alarms.1.gz",
            "/usr/share/applications/io.alarmd.Alarms.desktop", "/usr/share/metainfo/io.alarmd.Alarms.metainfo.xml",
            "/usr/share/icons/hicolor/scalable/apps/io.alarmd.Alarms.svg",
            "/usr/share/icons/hicolor/symbolic/apps/io.alarmd.Alarms-symbolic.svg",
            "/usr/share/doc/alarms/copyright", "/usr/share/doc/alarms/changelog.gz",
        ] {
            #expect(appPaths.contains(expected), "dpkg -L alarms lacks \(expected)")
            #expect(FileManager.default.fileExists(atPath: expected), "\(expected) is not installed")
        }
        // The desktop app needs no Swift runtime either; its GTK and
        // libadwaita are found.
        let appLibraries = try Self.run(["ldd", "/usr/bin/alarms"])
        #expect(!appLibraries.output.contains("libswift") && !appLibraries.output.contains("not found"), "\(appLibraries.output)")
        #expect(appLibraries.output.contains("libadwaita-1.so"), "\(appLibraries.output)")
        paths += appPaths

        let conffiles = try Self.run(["dpkg-query", "-W", "-f=${Conffiles}", "alarmd"])
        #expect(conffiles.output.contains("/etc/xdg/alarmd/alarmd.conf"), "\(conffiles.output)")

        // The journal's catalog database was updated (systemd's dpkg trigger on
        // /usr/lib/systemd/catalog runs journalctl --update-catalog).
        let catalog = try Self.run(["journalctl", "--dump-catalog", MessageID.fired])
        #expect(catalog.output.contains("Defined-By: alarmd"), "\(catalog.output)")

        // Enabled for every user by the maintainer scripts.
        let enabled = try Self.run(["systemctl", "--global", "is-enabled", "alarmd.socket"])
        #expect(enabled.output.trimmingCharacters(in: .whitespacesAndNewlines) == "enabled", "\(enabled.output)")
        #expect(try Self.run(["systemctl", "--global", "is-enabled", "alarmd.service"]).output.contains("enabled"))

        // The installed programs run, with no Swift runtime on the library path.
        let preview = try Self.run(["/usr/bin/alarmctl", "preview", "7:30", "--tz", "UTC", "--from", "2026-03-07T00:00:00Z", "--count", "1"])
        #expect(preview.status == 0 && preview.output == "2026-03-07 Sat 07:30 +00:00\n", "\(preview.output)")
        let libraries = try Self.run(["ldd", "/usr/bin/alarmd"])
        #expect(!libraries.output.contains("libswift") && !libraries.output.contains("not found"), "\(libraries.output)")
        #expect(try Self.run(["/usr/bin/alarmd", "--version"]).output.hasPrefix("alarmd "))
        if Locales.installed("zh_TW.utf8") {
            let chinese = try Self.run(["/usr/bin/alarmctl", "preview", "7:30", "--tz", "UTC", "--from", "2026-03-07T00:00:00Z", "--count", "1"],
                                       environment: ["LC_ALL": "", "LANG": "zh_TW.UTF-8"])
            #expect(chinese.output == "2026年3月7日 週六 上午7:30 +00:00\n", "\(chinese.output)")
        }

        let purge = try Self.run(["apt-get", "purge", "-y", "-q", "alarms", "alarmd"])
        purged = true
        #expect(purge.status == 0, "apt-get purge:\n\(purge.output)")
        #expect(try Self.run(["dpkg-query", "-W", "alarmd"]).status != 0, "dpkg still knows alarmd")
        #expect(try Self.run(["dpkg-query", "-W", "alarms"]).status != 0, "dpkg still knows alarms")
        // Nothing of it is left: no file, no directory it alone made, no
        // enablement link, no conffile.
        var left: [String] = []
        for path in paths where FileManager.default.fileExists(atPath: path) {
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
            let owned = try Self.run(["dpkg", "-S", path]).status == 0
            if !isDirectory.boolValue || (!owned && ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).isEmpty) { left.append(path) }
        }
        for path in ["/etc/xdg/alarmd", "/etc/systemd/user/sockets.target.wants/alarmd.socket", "/etc/systemd/user/default.target.wants/alarmd.service"] {
            if FileManager.default.fileExists(atPath: path) { left.append(path) }
        }
        #expect(left.isEmpty, "left after purge: \(left)")
        #expect(!(try Self.run(["journalctl", "--dump-catalog", MessageID.fired])).output.contains("Defined-By: alarmd"), "the catalog still has alarmd's entries")
    }
}
