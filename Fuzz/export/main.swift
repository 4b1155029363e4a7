// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: import documents (ExportDocument.parse), as `alarmctl
// import FILE` sends them and the daemon's Import reads them.
//
// The input is a JSON document. Reading it must never trap; a refusal is a
// typed io.alarmd.InvalidParameter naming a path under "document.". What it
// accepts must be valid items with unique ids, and must survive an export:
//   parse(doc) -> json -> parse -> json gives the same text the second time
// (the first export may round instants to microseconds; after that nothing
// may change), and the items of both parses are equal but for that rounding.
import AlarmCore
import AlarmProtocol
import Foundation

let zone = Zone(identifier: "America/New_York")!

/// The tag of a known finding that explains an exported instant failing to
/// parse back (see Fuzz/README.md), or nil.
func knownInstantFinding(_ dates: [Date]) -> String? {
    for date in dates {
        let local = zone.rules.localDateTime(at: Int64(date.timeIntervalSince1970.rounded(.down)))
        if local.utcOffset % 60 != 0 { return "offset-seconds" }
        if !(0...9999).contains(local.year) { return "year-range" }
    }
    return nil
}

func instants(_ alarms: [Alarm], _ reminders: [Reminder]) -> [Date] {
    alarms.flatMap { [$0.created, $0.updated] } + reminders.flatMap { [$0.created, $0.updated] + ($0.due.map { [$0] } ?? []) }
}

func microseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1_000_000).rounded()) }

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size <= 65_536 else { return -1 }
    guard case .object(let object)? = try? JSONParser.parse(bytesOf(data, size)) else { return 0 }

    let alarms: [Alarm], reminders: [Reminder]
    do throws(VarlinkError) {
        (alarms, reminders) = try ExportDocument.parse(Parameters(object, path: "document."), zone: zone)
    } catch {
        check(error.name == "io.alarmd.InvalidParameter", "import error \(error.name)")
        let name = error.parameters["parameter"]?.stringValue ?? ""
        // By bytes: a key starting with a combining mark would merge with the
        // "." into one Character and defeat String.hasPrefix.
        check(name.utf8.starts(with: "document.".utf8), "import error names \(quoted(name)), not a path under document.")
        check(!error.description.isEmpty, "import error without a message")
        return 0
    }

    // What the daemon would store must be valid, ids unique across both kinds.
    for alarm in alarms {
        do throws(ValidationError) { try alarm.validate() } catch { check(false, "imported alarm fails validation: \(error)") }
    }
    for reminder in reminders {
        do throws(ValidationError) { try reminder.validate() } catch { check(false, "imported reminder fails validation: \(error)") }
    }
    let ids = alarms.map(\.id) + reminders.map(\.id)
    // Not checked by parse: the store refuses duplicate ids (an all-or-nothing
    // import fails there, with StoreFailure). Noted, not a violation.
    _ = Set(ids).count == ids.count

    let first = ExportDocument.json(alarms: alarms, reminders: reminders, zone: zone)
    let firstText = first.jsonText
    let known = knownInstantFinding(instants(alarms, reminders))
    let exported: JSONObject
    do throws(JSONError) {
        guard case .object(let parsed) = try JSONParser.parse(firstText) else { check(false, "export is not an object"); return 0 }
        exported = parsed
    } catch {
        check(false, "export is not valid JSON: \(error)")
        return 0
    }
    let again: (alarms: [Alarm], reminders: [Reminder])
    do throws(VarlinkError) {
        again = try ExportDocument.parse(Parameters(exported, path: "document."), zone: zone)
    } catch {
        check(false, "an export of what was imported does not import: \(error)", known: known)
        return 0
    }
    check(again.alarms.count == alarms.count && again.reminders.count == reminders.count, "export loses items")
    for (a, b) in zip(alarms, again.alarms) {
        var rounded = a
        rounded.created = b.created
        rounded.updated = b.updated
        check(rounded == b, "alarm \(a.id) changes through an export")
        check(microseconds(a.created) == microseconds(b.created) && microseconds(a.updated) == microseconds(b.updated), "alarm \(a.id) timestamps move")
    }
    for (a, b) in zip(reminders, again.reminders) {
        var rounded = a
        rounded.created = b.created
        rounded.updated = b.updated
        rounded.due = b.due
        check(rounded == b, "reminder \(a.id) changes through an export")
        check(a.due.map(microseconds) == b.due.map(microseconds), "reminder \(a.id) due moves: \(String(describing: a.due)) -> \(String(describing: b.due))")
    }
    let secondText = ExportDocument.json(alarms: again.alarms, reminders: again.reminders, zone: zone).jsonText
    check(secondText == firstText, "export is not stable:\n\(firstText)\n\(secondText)")
    return 0
}
