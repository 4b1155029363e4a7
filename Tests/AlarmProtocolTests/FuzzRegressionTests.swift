// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmProtocol
import Foundation
import Testing

/// Inputs the libFuzzer targets in Fuzz/ found (Fuzz/regressions/): instants
/// the daemon accepts but whose wire form it cannot read back, so an Export
/// holding one is refused by Import, and an import is all or nothing. Each
/// test fails until its bug is fixed; refusing such an instant in the first
/// place would fix it too, so only an accepted one must read back.
@Suite("Fuzz regressions (wire)")
struct FuzzRegressionTests {
    static let newYork = Zone(identifier: "America/New_York")!

    /// Fuzz/regressions/{varlink,dispatch,export}/offset-seconds-lmt*: before
    /// 1883-11-18 New York kept local mean time, UTC-04:56:02 (Africa/Monrovia
    /// did until 1972). WireTime.string prints such an offset with seconds,
    /// "1799-12-31T19:03:58-04:56:02", which WireTime.parse (InstantParser)
    /// refuses.
    @Test(arguments: ["1800-01-01T00:00:00Z", "1883-11-18T16:59:59Z", "1013-11-01 01:30"])
    func instantInLocalMeanTimeReadsBackFromItsWireForm(text: String) throws {
        guard let date = try? WireTime.parse(text, parameter: "due", zone: Self.newYork) else { return }
        let printed = WireTime.string(date, in: Self.newYork)
        let again = try WireTime.parse(printed, parameter: "due", zone: Self.newYork)
        #expect(again == date)
    }

    /// Fuzz/regressions/{time,export,dispatch}/year-range-*: an instant inside
    /// years 0000-9999 where it was written can fall outside them in the zone
    /// it is shown in, and printed as "10000-01-01T06:00:00-05:00" or
    /// "-0001-12-31T23:00:00+00:00", which did not parse. Now an instant
    /// outside years 0001-9999 in UTC is refused with a typed error naming the
    /// field, and one inside them reads back from its wire form in any zone.
    @Test(arguments: [("9999-12-31T23:00:00-12:00", "America/New_York"), ("0000-01-01T00:00:00+01:00", "UTC"),
                      ("9999-12-31T12:00:00Z", "Pacific/Kiritimati"), ("0001-01-01T00:00:00Z", "America/New_York")])
    func instantNearTheEndsOfTheYearRangeIsRefusedOrReadsBack(text: String, zoneName: String) throws {
        let zone = try #require(Zone(identifier: zoneName))
        let date: Date
        do throws(VarlinkError) {
            date = try WireTime.parse(text, parameter: "due", zone: zone)
        } catch {
            #expect(error.name == "io.alarmd.InvalidParameter" && error.parameters["parameter"] == "due", "\(error)")
            return
        }
        let printed = WireTime.string(date, in: zone)
        let again = try WireTime.parse(printed, parameter: "due", zone: zone)
        #expect(again == date, "\(printed)")
    }

    /// Fuzz/regressions/export/*.json: the document imports, but an export of
    /// what it imported does not.
    @Test(arguments: ["1800-01-01T00:00:00Z", "9999-12-31T23:00:00-12:00"])
    func anExportOfAnImportImports(due: String) throws {
        let document: JSONObject = [
            "format": "alarmd", "version": 1,
            "reminders": [.object(["id": "33333333-3333-4333-8333-333333333333", "title": "Due far away", "due": .string(due)])],
        ]
        guard let imported = try? ExportDocument.parse(Parameters(document, path: "document."), zone: Self.newYork) else { return }
        let exported = ExportDocument.json(alarms: imported.alarms, reminders: imported.reminders, zone: Self.newYork)
        let object = try #require(exported.objectValue)
        let again = try ExportDocument.parse(Parameters(object, path: "document."), zone: Self.newYork)
        #expect(again.reminders.map(\.due) == imported.reminders.map(\.due))
    }
}
