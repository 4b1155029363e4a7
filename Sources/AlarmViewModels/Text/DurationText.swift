// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import FoundationEssentials

/// A span of time as a phone says it: `8 h 5 min`, `45 min`, `2 d 3 h`,
/// `less than a minute`. Minutes are whole minutes elapsed (rounded down),
/// so the span never claims more time than there is.
public enum DurationText {
    /// `seconds` in words; negative spans read as none.
    public static func text(_ seconds: TimeInterval, in l: some Localization) -> String {
        let whole = max(0, Int(seconds.rounded(.down)))
        let minutes = whole / 60
        if minutes == 0 { return l.L("less than a minute") }
        let days = minutes / 1440, hours = minutes / 60 % 24, rest = minutes % 60
        if days > 0 { return hours == 0 ? l.Lf("%d d", days) : l.Lf("%1$d d %2$d h", days, hours) }
        if hours > 0 { return rest == 0 ? l.Lf("%d h", hours) : l.Lf("%1$d h %2$d min", hours, rest) }
        return l.Lf("%d min", rest)
    }

    /// A countdown's span, to the second under an hour: `20 min 56 s`,
    /// `45 s`, `5 min`; from an hour on, as ``text(_:in:)`` says it. Seconds
    /// are rounded up, so a timer never shows 0 before it rings.
    public static func countdown(_ seconds: TimeInterval, in l: some Localization) -> String {
        let whole = max(0, Int(seconds.rounded(.up)))
        guard whole < 3600 else { return text(TimeInterval(whole), in: l) }
        let (minutes, rest) = (whole / 60, whole % 60)
        if minutes == 0 { return l.Lf("%d s", rest) }
        return rest == 0 ? l.Lf("%d min", minutes) : l.Lf("%1$d min %2$d s", minutes, rest)
    }
}
