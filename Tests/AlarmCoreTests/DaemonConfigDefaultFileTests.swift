// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import Foundation
import Testing

/// `DaemonConfig.keys` against the files that describe it: the shipped
/// default alarmd.conf is the text rendered from the table, that text parses
/// to the built-in defaults, and alarmd.conf(5) lists the same keys with the
/// same defaults.
@Suite("Daemon configuration default file and man page")
struct DaemonConfigDefaultFileTests {
    /// The source tree, three levels above this file.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// `config/alarmd.conf` is `DaemonConfig.defaultFileText`. After a change
    /// to the table, run this test with ALARMD_WRITE_DEFAULT_CONFIG=1 in the
    /// environment to write the file anew, and review the difference.
    @Test func theShippedDefaultFileIsTheRenderedTable() throws {
        let rendered = DaemonConfig.defaultFileText
        if ProcessInfo.processInfo.environment["ALARMD_WRITE_DEFAULT_CONFIG"] == "1" {
            try rendered.write(to: Self.root.appendingPathComponent("config/alarmd.conf"), atomically: true, encoding: .utf8)
        }
        let shipped = try Self.text("config/alarmd.conf")
        let difference = zip(shipped.split(separator: "\n", omittingEmptySubsequences: false), rendered.split(separator: "\n", omittingEmptySubsequences: false))
            .enumerated().first { $0.element.0 != $0.element.1 }
        #expect(shipped == rendered, """
            config/alarmd.conf differs from DaemonConfig.defaultFileText\
            \(difference.map { " at line \($0.offset + 1): \($0.element.0)" } ?? " in length"); \
            ALARMD_WRITE_DEFAULT_CONFIG=1 writes it anew
            """)
    }

    @Test func theRenderedFileParsesToTheDefaults() throws {
        let (config, warnings) = try DaemonConfig.parse(DaemonConfig.defaultFileText, name: "alarmd.conf")
        #expect(warnings.isEmpty, "\(warnings)")
        #expect(config == DaemonConfig())
    }

    /// Uncommented, every key line sets its key to the value the code holds.
    @Test func theRenderedFileUncommentedSetsEveryKeyToItsDefault() throws {
        let lines = DaemonConfig.defaultFileText.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.wholeMatch(of: #/#\w+=.*/#) != nil ? String(line.dropFirst()) : String(line)
        }
        let settings = lines.filter { $0.wholeMatch(of: #/\w+=.*/#) != nil }
        #expect(settings.count == DaemonConfig.keys.count, "\(settings)")
        let (config, warnings) = try DaemonConfig.parse(lines.joined(separator: "\n"), name: "alarmd.conf")
        #expect(warnings.isEmpty, "\(warnings)")
        #expect(config == DaemonConfig())
    }

    /// Key by key, so that a default the table and the code disagree on is named.
    @Test(arguments: DaemonConfig.keys.map(\.description))
    func eachDefaultIsTheBuiltInValue(id: String) throws {
        let key = try #require(DaemonConfig.keys.first { $0.description == id })
        #expect(!key.doc.isEmpty)
        #expect(try DaemonConfig.parse("[\(key.section)]\n\(key.name)=\(key.defaultValue)\n", name: "a.conf").config == DaemonConfig())
    }

    @Test func commentLinesFitTheWidth() {
        for line in DaemonConfig.defaultFileText.split(separator: "\n") where line.hasPrefix("# ") {
            #expect(line.count <= 78 || !line.dropFirst(2).contains(" "), "\(line)")
        }
    }

    /// One `.TP` entry of the man page's OPTIONS: its section, key, and the
    /// default its text states (`Default:` then `.BR value .`; empty for
    /// `Default: none.` or `Default: empty.`), if it states one.
    struct ManEntry {
        let id: String
        let stated: String?
    }

    static func manEntries() throws -> [ManEntry] {
        let page = try text("docs/man/alarmd.conf.5")
        let lines = page.split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex(of: ".SH OPTIONS"))
        let end = lines[(start + 1)...].firstIndex { $0.hasPrefix(".SH ") } ?? lines.endIndex
        var entries: [ManEntry] = []
        var section = ""
        var index = start + 1
        while index < end {
            let line = lines[index]
            index += 1
            if let header = line.wholeMatch(of: #/\.SS \[(\w+)\]/#) {
                section = String(header.output.1)
                continue
            }
            guard let key = line.firstMatch(of: #/^\.BI (\w+)= /#) else { continue }
            let body = lines[index..<end].prefix { !$0.hasPrefix(".TP") && !$0.hasPrefix(".SS ") }
            var stated: String?
            if let at = body.firstIndex(where: { $0.hasSuffix("Default:") }), at + 1 < body.endIndex,
               let value = body[at + 1].wholeMatch(of: #/\.BR (\S+) \./#) {
                stated = String(value.output.1).replacingOccurrences(of: "\\-", with: "-")
            } else if body.contains(where: { $0.contains("Default: none.") || $0.contains("Default: empty.") }) {
                stated = ""
            }
            entries.append(ManEntry(id: "[\(section)] \(key.output.1)=", stated: stated))
        }
        return entries
    }

    @Test func theManPageListsExactlyTheKeysOfTheTable() throws {
        let listed = try Self.manEntries().map(\.id)
        #expect(Set(listed).count == listed.count, "a key is described twice: \(listed)")
        #expect(listed.count >= 30, "the man page's OPTIONS were not found: \(listed)")
        let table = Set(DaemonConfig.keys.map(\.description))
        #expect(Set(listed).subtracting(table).isEmpty, "in alarmd.conf(5) but not in DaemonConfig.keys")
        #expect(table.subtracting(listed).isEmpty, "in DaemonConfig.keys but not in alarmd.conf(5)")
    }

    /// A key with a default other than empty states it in the man page, and
    /// every default the man page states is the table's.
    @Test func theManPageStatesTheTablesDefaults() throws {
        let stated = Dictionary(uniqueKeysWithValues: try Self.manEntries().map { ($0.id, $0.stated) })
        for key in DaemonConfig.keys {
            guard let entry = stated[key.description] else { continue }
            if key.defaultValue.isEmpty {
                #expect(entry == nil || entry == "", "\(key): alarmd.conf(5) says \(entry ?? "")")
            } else {
                #expect(entry == key.defaultValue, "\(key): alarmd.conf(5) says \(entry ?? "nothing"), the table \(key.defaultValue)")
            }
        }
    }
}
