// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
@testable import AlarmCLI
import AlarmCore
import AlarmProtocol

/// alarmctl(1)'s VALUES against the parsers: every form the page shows in
/// bold under TIME, WHEN, DURATION and SPEC is taken by the parser that
/// reads that value, so the page never promises what alarmctl refuses; and
/// every kind of form the parsers take (each rule of their grammar, one
/// example each) is on the page, so it never hides one.
@Suite struct ManPageFormsTests {
    static let page = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../docs/man/alarmctl.1").standardized

    /// The bold text of each entry of the VALUES section, by its name.
    static func values() throws -> [String: [String]] {
        let text = try String(contentsOf: page, encoding: .utf8)
        guard let start = text.range(of: "\n.SH VALUES\n"), let end = text.range(of: "\n.SH ", range: start.upperBound..<text.endIndex) else { return [:] }
        var entries: [String: [String]] = [:]
        var current: String?
        var afterTP = false
        for line in text[start.upperBound..<end.lowerBound].split(separator: "\n").map(String.init) {
            if line == ".TP" { afterTP = true; continue }
            if afterTP, line.hasPrefix(".I ") { current = String(line.dropFirst(3)); afterTP = false; continue }
            afterTP = false
            guard let current else { continue }
            let tokens = Self.tokens(line)
            guard let macro = tokens.first else { continue }
            let bold: [String] = switch macro {
            case ".B": [tokens.dropFirst().joined(separator: " ")]
            case ".BR", ".BI": tokens.count > 1 ? [tokens[1]] : []
            case ".RB": stride(from: 2, to: tokens.count, by: 2).map { tokens[$0] }
            default: []
            }
            entries[current, default: []] += bold.map(Self.unescaped).filter { !$0.isEmpty }
        }
        return entries
    }

    /// A request line's words, a double-quoted one as one word.
    static func tokens(_ line: String) -> [String] {
        var tokens: [String] = [], word = "", quoted = false
        for character in line {
            if character == "\"" { quoted.toggle(); continue }
            if character == " ", !quoted {
                if !word.isEmpty { tokens.append(word) }
                word = ""
            } else {
                word.append(character)
            }
        }
        if !word.isEmpty { tokens.append(word) }
        return tokens
    }

    static func unescaped(_ text: String) -> String {
        var result = text.replacing("\\-", with: "-")
        while let match = result.firstMatch(of: /\\\[u([0-9A-F]{4})\]/) {
            let scalar = Unicode.Scalar(UInt32(match.output.1, radix: 16)!)!
            result.replaceSubrange(match.range, with: String(Character(scalar)))
        }
        return result
    }

    static let zone = Zone(identifier: "Asia/Taipei")!
    static let now = WhenParserTests.date("2026-12-02T02:00:40Z")

    /// `add`'s TIME, alone or, for a day, with a time after it (one still ahead today).
    static func takesTime(_ form: String) -> Bool {
        func parses(_ text: String) -> Bool {
            guard let arguments = try? ParsedArguments(["x"], spec: AlarmCommands.add.spec) else { return false }
            var fields = AlarmFields()
            return (try? AlarmFieldOptions.readTime(text, field: "TIME", into: &fields, arguments, zone: zone, now: now)) != nil
        }
        return parses(form) || parses(form + " 23:59")
    }

    static func takesWhen(_ form: String) -> Bool {
        [false, true].contains { back in (try? WhenParser.instant(form, option: "--at", now: now, zone: zone, lookingBack: back)) != nil }
    }

    /// Words on the page that join or name forms rather than being one.
    static let notForms: [String: Set<String>] = [
        "TIME": ["at", "on", "the", "YYYY-MM-DD"],
        "WHEN": ["YYYY-MM-DD HH:MM", "history --since"],
        "SPEC": [],
        "DURATION": [],
    ]

    @Test func everyFormThePageShowsIsTaken() throws {
        let values = try Self.values()
        for name in ["TIME", "WHEN", "DURATION", "SPEC"] {
            let forms = (values[name] ?? []).filter { !Self.notForms[name]!.contains($0) }
            #expect(forms.count >= 4, "\(name): \(forms)")
            for form in forms {
                let taken = switch name {
                case "TIME": Self.takesTime(form)
                case "WHEN": Self.takesWhen(form)
                case "DURATION": (try? DurationParser.parse(form)) != nil
                default: (try? RepeatDays.parse(form)) != nil
                }
                #expect(taken, "alarmctl(1) shows \(name) \"\(form)\", which alarmctl refuses")
            }
        }
    }

    /// One example of each rule of the parsers' grammar, with the value it
    /// is for: each parses, and the page shows it (or, for the rules whose
    /// example the page words differently, the form it shows).
    static let kinds: [(value: String, form: String)] = [
        ("TIME", "7"), ("TIME", "0730"), ("TIME", "7:30"), ("TIME", "7.30"), ("TIME", "7am"), ("TIME", "7:30 pm"), ("TIME", "noon"), ("TIME", "midnight"),
        ("TIME", "7點"), ("TIME", "7點半"), ("TIME", "下午2點"), ("TIME", "晚上9:30"),
        ("TIME", "today"), ("TIME", "tomorrow"), ("TIME", "fri"), ("TIME", "friday"), ("TIME", "next tue"), ("TIME", "dec 24"), ("TIME", "24 dec"),
        ("TIME", "december 24th"), ("TIME", "1st"), ("TIME", "1st of month"), ("TIME", "15th"), ("TIME", "今天"), ("TIME", "明天"), ("TIME", "後天"),
        ("TIME", "週五"), ("TIME", "星期五"), ("TIME", "禮拜五"), ("TIME", "下週二"), ("TIME", "in 25 min"), ("TIME", "25分鐘後"),
        ("WHEN", "2026-03-09T14:00:00+01:00"), ("WHEN", "2026-03-09T13:00:00Z"), ("WHEN", "14:00"), ("WHEN", "2pm"), ("WHEN", "2h ago"), ("WHEN", "2小時前"),
        ("DURATION", "90s"), ("DURATION", "25m"), ("DURATION", "20min"), ("DURATION", "20 minutes"), ("DURATION", "2h"), ("DURATION", "1.5h"),
        ("DURATION", "1d"), ("DURATION", "1w"), ("DURATION", "25分鐘"), ("DURATION", "2小時"), ("DURATION", "1h30m"), ("DURATION", "1h 30m"),
        ("DURATION", "1小時30分"),
        ("SPEC", "mon,wed,fri"), ("SPEC", "mon-fri"), ("SPEC", "fri-mon"), ("SPEC", "weekdays"), ("SPEC", "weekends"), ("SPEC", "daily"), ("SPEC", "never"),
    ]

    @Test func everyKindOfFormIsOnThePage() throws {
        let values = try Self.values()
        for (value, form) in Self.kinds {
            #expect(values[value]?.contains(form) == true, "alarmctl(1) does not show \(value) \"\(form)\"")
        }
    }
}
