// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmWake
import FoundationEssentials
import Testing

/// The helper's own RFC 3339 reading and writing, checked against AlarmCore's
/// (`InstantParser`, which alarmd uses for the same texts): the two must
/// agree on every instant the helper is sent.
@Suite struct WakeInstantTests {
    static let utc = Zone.utc.rules

    @Test(arguments: [
        "2026-12-24T06:59:00Z", "2026-12-24t06:59:00z", "2026-12-24T06:59Z", "2026-12-24T07:59:00+01:00",
        "2026-12-24T01:29:00-0530", "2028-02-29T23:59:59.999999+00:00", "2026-03-08T07:30:00.25-04:00",
        "0001-01-01T00:00:00Z", "9999-12-31T23:59:59Z", "1969-12-31T23:59:59.5Z", "2026-01-01T00:00:00.123456789Z",
    ])
    func readsWhatInstantParserReads(_ text: String) throws {
        let expected = try InstantParser.parse(text, rules: Self.utc, field: "at")
        let instant = try WakeInstant(rfc3339: text)
        // InstantParser keeps a fraction past the microsecond (in a Double); the helper cuts it.
        #expect(instant.microseconds == Int64((expected.timeIntervalSince1970 * 1_000_000).rounded(.down)), "\(text)")
        #expect(try WakeInstant(rfc3339: instant.rfc3339) == instant, "\(instant.rfc3339) reads back")
    }

    @Test(arguments: [
        ("tomorrow", "must be an RFC 3339 instant with an offset, such as 2026-12-24T06:59:00Z"),
        ("2026-12-24 07:00", "must be an RFC 3339 instant with an offset, such as 2026-12-24T06:59:00Z"),
        ("2026-12-24T07:00:00", "must be an RFC 3339 instant with an offset, such as 2026-12-24T06:59:00Z"),
        ("2026-12-24", "must be an RFC 3339 instant with an offset, such as 2026-12-24T06:59:00Z"),
        ("2026-13-01T07:00:00Z", "must have a month of 01–12"),
        ("2027-02-29T07:00:00Z", "must have a day that exists in that month"),
        ("2026-12-24T24:00:00Z", "must have a time of day within 00:00:00–23:59:59"),
        ("2026-12-24T07:00:60Z", "must have a time of day within 00:00:00–23:59:59"),
        ("0001-01-01T00:00:00+01:00", "must lie between the years 0001 and 9999 in UTC"),
        ("2026-12-24T07:00:00.Z", "must be an RFC 3339 instant with an offset, such as 2026-12-24T06:59:00Z"),
        ("2026-12-24T07:00:00+24:00", "must be an RFC 3339 instant with an offset, such as 2026-12-24T06:59:00Z"),
        ("2026-12-24T07:00:00Z ", "must be an RFC 3339 instant with an offset, such as 2026-12-24T06:59:00Z"),
    ])
    func refusesWhatIsNotAnInstantWithAnOffsetSayingWhy(_ text: String, _ requirement: String) {
        #expect(throws: WakeInstant.Invalid(requirement: requirement)) { try WakeInstant(rfc3339: text) }
    }

    @Test func writesUTCWithMicrosecondsOnlyWhenThereAreAny() {
        #expect(WakeInstant(seconds: 1_798_095_540).rfc3339 == "2026-12-24T06:59:00+00:00")
        #expect(WakeInstant(microseconds: 1_798_095_540_000_250).rfc3339 == "2026-12-24T06:59:00.000250+00:00")
        #expect(WakeInstant(microseconds: -1).rfc3339 == "1969-12-31T23:59:59.999999+00:00")
        #expect(WakeInstant(seconds: Int64.max / 2_000_000).rfc3339 == "9999-12-31T23:59:59.999999+00:00", "the nearer end")
        // Every day of a leap year and the years around it, as AlarmCore writes them.
        for day in stride(from: Int64(19_000), to: 21_000, by: 1) {
            let instant = WakeInstant(seconds: day * 86_400 + 45_296)
            #expect(instant.rfc3339 == LocalDateTime(localSeconds: day * 86_400 + 45_296, utcOffset: 0).description)
        }
    }

    @Test func theHelperReportsThePackagesVersion() {
        #expect(WakeInterface.version == AlarmdVersion.string)
    }
}
