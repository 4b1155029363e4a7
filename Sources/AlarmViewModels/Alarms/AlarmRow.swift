// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import FoundationEssentials

/// What one row of the alarm list shows, in the reader's language: the
/// time large, the repeat in words, the label, when it rings next, and its
/// switch.
public struct AlarmRow: Equatable, Sendable, Identifiable {
    public let id: String
    /// `07:30`, `上午7:30`, `7:30 AM`: the locale's clock.
    public let timeText: String
    /// The zone of an alarm pinned to one (`Europe/Berlin`); `nil` when it
    /// follows the system's.
    public let zoneText: String?
    /// 永不 / 每天 / 平日 / 假日, `Mon, Wed`, or the rule's own words.
    public let repeatText: String
    public let label: String
    /// The label, with the zone of an alarm pinned to one: `Pay day
    /// (Europe/Berlin)`, as its time is that zone's.
    public let labelText: String
    /// ``NextRingPhrase``: `in 8 h 5 min`, `paused until Dec 14`, …
    public let nextText: String
    /// `Work, Weekdays · in 8 h 5 min`-like line under the time: the label,
    /// the repeat (left out for a one-shot alarm) and the next-ring phrase.
    public let subtitle: String
    /// The switch's state.
    public let enabled: Bool
    public let isRinging: Bool
    public let isSnoozed: Bool
    /// The accessible name of the row's switch: the alarm's label.
    public let switchName: String

    public init(_ item: AlarmItem, now: Date, zone: Zone, language l: some Localization) {
        id = item.id
        timeText = l.time(item.time)
        zoneText = item.timeZone
        repeatText = item.repeatText(in: l)
        label = item.label
        labelText = item.timeZone.map { l.Lf("%1$s (%2$s)", item.label, $0) } ?? item.label
        nextText = NextRingPhrase.text(for: item, now: now, zone: zone, in: l)
        let described = item.isOneShot ? labelText : l.Lf("%1$s, %2$s", labelText, repeatText)
        subtitle = l.Lf("%1$s · %2$s", described, nextText)
        enabled = item.enabled
        isRinging = item.phase == .ringing
        isSnoozed = item.phase == .snoozed
        switchName = item.label
    }
}
