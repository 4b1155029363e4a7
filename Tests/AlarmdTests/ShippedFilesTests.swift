// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmDaemon
import Foundation
import Testing

/// The files `make install` ships besides the binaries, checked against the
/// code they describe: a catalog entry missing for a new MESSAGE_ID, or a
/// default changed in the code but not in alarmd.conf, would otherwise go
/// unnoticed until a user reads the wrong text.
@Suite struct ShippedFilesTests {
    static let root = InstallTests.root

    static func text(_ path: String) throws -> String {
        try String(contentsOfFile: root + "/" + path, encoding: .utf8)
    }

    /// Every id `MessageID.swift` defines, read from the source so that a new
    /// one is caught without this test having to be told about it.
    static func definedMessageIDs() throws -> Set<String> {
        let source = try text("Sources/AlarmDaemon/Daemon/MessageID.swift")
        return Set(source.matches(of: #/static let \w+ = "([0-9a-f]{32})"/#).map { String($0.output.1) })
    }

    static func catalogMessageIDs() throws -> Set<String> {
        let catalog = try text("systemd/alarmd.catalog")
        return Set(catalog.split(separator: "\n").compactMap { line in
            line.wholeMatch(of: #/-- ([0-9a-f]{32})/#).map { String($0.output.1) }
        })
    }

    /// alarmctl's, alarmd's and alarmd-sync's layers use FoundationEssentials
    /// at most: one `import Foundation` there would link Foundation's own ICU
    /// into them again (alarmctl a 70 MB binary that takes twice as long to
    /// run a command, alarmd 80 MB and 30 MB more mapped all day, alarmd-sync
    /// 60 MB of the package; BENCHMARKS.md). The compiler would not notice, so
    /// this does.
    @Test func alarmctlsAndAlarmdsLayersDoNotImportFoundation() throws {
        var offenders: [String] = []
        for target in ["AlarmCore", "CivilCalendar", "AlarmProtocol", "AlarmCLI", "alarmctl", "VarlinkCore", "AlarmLocale", "AlarmStore", "SystemCalls", "BusWire", "AlarmDaemon", "alarmd",
                       "AlarmSync", "alarmd-sync"] {
            let directory = Self.root + "/Sources/" + target
            let files = try FileManager.default.subpathsOfDirectory(atPath: directory).filter { $0.hasSuffix(".swift") }
            #expect(!files.isEmpty, "\(target) has no sources")
            for file in files {
                let source = try String(contentsOfFile: directory + "/" + file, encoding: .utf8)
                if source.contains(#/(?m)^\s*(@testable\s+)?import\s+(Foundation|FoundationInternationalization)\s*$/#) {
                    offenders.append(target + "/" + file)
                }
            }
        }
        #expect(offenders.isEmpty, "import FoundationEssentials instead in \(offenders)")
    }

    @Test func theCatalogHasAnEntryForEveryMessageIDAndNoOther() throws {
        let defined = try Self.definedMessageIDs()
        // The reading of the source finds at least the ids the code names.
        let named = [MessageID.fired, MessageID.snoozed, MessageID.dismissed, MessageID.timedOut, MessageID.skipped,
                     MessageID.missed, MessageID.completed, MessageID.changed, MessageID.started, MessageID.stopping,
                     MessageID.reloaded, MessageID.clockChanged, MessageID.peerRefused, MessageID.storeCorrupt,
                     MessageID.wakeArmed, MessageID.wakeUnavailable, MessageID.suspending, MessageID.resumed]
        #expect(defined.isSuperset(of: named), "found \(defined.sorted())")
        #expect(try Self.catalogMessageIDs() == defined)
    }

    /// The manual and the user's guide list the ids for `journalctl MESSAGE_ID=…`.
    @Test func theManualAndTheGuideListEveryMessageID() throws {
        let defined = try Self.definedMessageIDs()
        for document in ["docs/man/alarmd.8", "docs/GUIDE.md"] {
            let text = try Self.text(document)
            let missing = defined.filter { !text.contains($0) }
            #expect(missing.isEmpty, "\(document) does not list \(missing.sorted())")
        }
    }

    /// systemd's own parser, on a private root, so that a syntax error (which
    /// makes journalctl drop the whole file) fails here rather than on a
    /// user's machine.
    @Test func journalctlReadsTheCatalog() throws {
        let root = TemporaryDirectory()
        let directory = root.path + "/usr/lib/systemd/catalog"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for file in ["alarmd.catalog", "alarmd.zh_TW.catalog"] {
            try FileManager.default.copyItem(atPath: Self.root + "/systemd/" + file, toPath: directory + "/" + file)
        }
        let update = try InstallTests.run(["journalctl", "--root=\(root.path)", "--update-catalog"])
        #expect(update.status == 0 && update.output.isEmpty, "journalctl --update-catalog:\n\(update.output)")
        let list = try InstallTests.run(["journalctl", "--root=\(root.path)", "--list-catalog"])
        #expect(list.status == 0, "journalctl --list-catalog:\n\(list.output)")
        let listed = Set(list.output.split(separator: "\n").compactMap { line in
            line.prefixMatch(of: #/([0-9a-f]{32}) alarmd: /#).map { String($0.output.1) }
        })
        #expect(listed == (try Self.definedMessageIDs()), "listed:\n\(list.output)")

        // `journalctl -x` for a reader in Taiwan: the Chinese entry.
        if Locales.installed("zh_TW.utf8") {
            let chinese = try InstallTests.run(["journalctl", "--root=\(root.path)", "--dump-catalog", MessageID.fired],
                                               environment: ["LANG": "zh_TW.UTF-8", "LC_ALL": "", "LANGUAGE": ""])
            #expect(chinese.output.contains("Subject: @ALARMD_KIND@「@ALARMD_LABEL@」響了"), "\(chinese.output)")
        }
    }

    /// Every entry of the English catalog has its Traditional Chinese one, and
    /// no other: `journalctl -x` explains in the reader's language. The
    /// language is the file name's (`NAME.LANG.catalog`, as systemd's own
    /// translated catalogs are named; journalctl calls a language in the
    /// header of such a file unnecessary, and the update above would say so).
    @Test func theChineseCatalogHasAnEntryForEveryMessageID() throws {
        let chinese = try Self.text("systemd/alarmd.zh_TW.catalog")
        let ids = Set(chinese.split(separator: "\n").compactMap { line in
            line.wholeMatch(of: #/-- ([0-9a-f]{32})/#).map { String($0.output.1) }
        })
        #expect(ids == (try Self.definedMessageIDs()))
        // Translated: every subject has Chinese in it.
        let subjects = chinese.split(separator: "\n").filter { $0.hasPrefix("Subject: ") }
        #expect(subjects.count == ids.count)
        #expect(subjects.allSatisfy { $0.unicodeScalars.contains { (0x4E00...0x9FFF).contains($0.value) } }, "\(subjects)")
    }

    /// Every shipped translation is complete and its placeholders match the
    /// messages' (`msgfmt --check --statistics`), and the template is the
    /// one the sources give (`make po-update` was run after the last change
    /// to a message): a message added or changed in the code and left
    /// untranslated fails here, not in front of a user.
    @Test func everyTranslationIsCompleteAndMatchesTheSources() throws {
        let directory = TemporaryDirectory()
        let template = directory.path + "/alarmd.pot"
        let extract = try InstallTests.run(["python3", "po/extract.py", template, "Sources"])
        #expect(extract.status == 0, "\(extract.output)")
        let committed = try Self.text("po/alarmd.pot")
        let fresh = try String(contentsOfFile: template, encoding: .utf8)
        func messages(_ pot: String) -> [String] { pot.split(separator: "\n").filter { $0.hasPrefix("msgid") || $0.hasPrefix("\"") }.map(String.init) }
        #expect(messages(committed) == messages(fresh), "po/alarmd.pot is out of date: run make po-update")
        let languages = try FileManager.default.contentsOfDirectory(atPath: Self.root + "/po").filter { $0.hasSuffix(".po") }
        #expect(languages.contains("zh_TW.po"))
        for language in languages {
            let check = try InstallTests.run(["msgfmt", "--check", "--statistics", "-o", "/dev/null", "po/" + language], environment: ["LC_ALL": "C"])
            #expect(check.status == 0, "\(language): \(check.output)")
            #expect(check.output.hasSuffix(" translated messages.\n") && !check.output.contains(","), "\(language): \(check.output)")
            // msgcmp: every message of the sources has an entry in the language.
            let compare = try InstallTests.run(["msgcmp", "po/" + language, template], environment: ["LC_ALL": "C"])
            #expect(compare.status == 0, "\(language): \(compare.output)")
        }
    }

    @Test func theShippedConfigurationParsesWithoutWarnings() throws {
        let (config, warnings) = try DaemonConfig.parse(try Self.text("config/alarmd.conf"), name: "alarmd.conf")
        #expect(warnings.isEmpty, "\(warnings)")
        #expect(config == DaemonConfig())
    }

    /// The file shows every key commented out with its default: uncommented,
    /// it must set every key the code knows, each to the built-in value.
    @Test func theShippedConfigurationDocumentsEveryKeyWithItsTrueDefault() throws {
        let lines = try Self.text("config/alarmd.conf").split(separator: "\n", omittingEmptySubsequences: false)
        var section = ""
        var documented: Set<String> = []
        let uncommented = lines.map { line -> String in
            if let header = line.wholeMatch(of: #/\[(\w+)\]/#) { section = String(header.output.1) }
            guard let setting = line.wholeMatch(of: #/#(\w+)=(.*)/#) else { return String(line) }
            documented.insert("[\(section)] \(setting.output.1)=")
            return String(line.dropFirst())
        }.joined(separator: "\n")
        let (config, warnings) = try DaemonConfig.parse(uncommented, name: "alarmd.conf")
        #expect(warnings.isEmpty, "\(warnings)")
        #expect(config == DaemonConfig())
        // The keys the parser accepts.
        let known = Set(DaemonConfig.keys.map(\.description))
        #expect(known.isSuperset(of: ["[Alarms] SnoozeMinutes=", "[Control] MaxImportSize="]), "found \(known.sorted())")
        #expect(documented == known)
    }

    /// A plain `swift build -c release` must build every product, so the
    /// manifest asks for no flag that needs another one on the command line
    /// (`-static-executable` there failed to link alarmctl without
    /// `--static-swift-stdlib`). Its unsafe flags are the metadata-accessor
    /// one for alarmctl's start, a section per function, and the link of
    /// alarmd and alarmctl (lld, packed relocations, the order of each one's
    /// functions), none of which needs another flag: a plain release build
    /// links them so too (and they run where glibc is 2.36 or later, as
    /// Debian 12's is). The fully
    /// static alarmctl is the Makefile's STATIC_ALARMCTL, and bench/run
    /// (bench/alarmd_bench/context.py) measures that same build.
    @Test func theManifestsFlagsNeedNoOtherAndTheStaticAlarmctlIsBuiltAlike() throws {
        let manifest = try Self.text("Package.swift")
        let unsafe = manifest.matches(of: #/\.unsafeFlags\(\[([^\]]*)\]/#).map {
            $0.output.1.matches(of: #/"([^"]*)"/#).map { String($0.output.1) }
        }
        #expect(unsafe == [
            ["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"],
            ["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
             "-Xlinker", #"--symbol-ordering-file=\(packageDirectory)Sources/\(program)/\(program).order"#,
             "-Xlinker", "--no-warn-symbol-ordering"],
            ["-Xfrontend", "-function-sections"],
        ], "\(unsafe)")
        #expect(!manifest.contains("-static-executable"))
        for program in ["alarmd", "alarmctl"] {
            #expect(manifest.contains(#"linkerSettings: orderedLink("\#(program)")"#), "\(program) is not linked in order")
            let order = try Self.text("Sources/\(program)/\(program).order")
            #expect(order.split(separator: "\n").count > 1_000, "Sources/\(program)/\(program).order is nearly empty: tools/hot-functions.py writes it")
        }
        let makefile = try Self.text("Makefile")
        let line = try #require(makefile.firstMatch(of: #/\nSTATIC_ALARMCTL := (.*) --scratch-path /#), "no STATIC_ALARMCTL in the Makefile")
        let flags = line.output.1.split(separator: " ").map(String.init)
        #expect(flags.contains("-static-executable") && flags.contains("--static-swift-stdlib"), "\(flags)")
        let bench = try Self.text("bench/alarmd_bench/context.py")
        let list = try #require(bench.firstMatch(of: #/static = \[swift, "build", ([^\]]*?), "--scratch-path"/#), "no static build in bench/alarmd_bench/context.py")
        let benchFlags = list.output.1.matches(of: #/"([^"]*)"/#).map { String($0.output.1) }
        #expect(benchFlags == flags)
    }
}
