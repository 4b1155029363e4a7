// SPDX-License-Identifier: Apache-2.0
import AlarmCore

/// A control of a form, that a message can be shown next to.
public enum FormField: String, Equatable, Hashable, Sendable, CaseIterable {
    case hour, minute, days, rule, label, sound, snoozeMinutes, volume, fade
    case title, notes, due, image, duration

    /// The control's name as its label (and accessible name) says it:
    /// Hour, Minute, Repeat, Label, …
    public func name(in l: some Localization) -> String {
        switch self {
        case .hour: return l.L("Hour")
        case .minute: return l.L("Minute")
        case .days, .rule: return l.L("Repeat")
        case .label: return l.L("Label")
        case .sound: return l.L("Sound")
        case .snoozeMinutes: return l.L("Snooze length")
        case .volume: return l.L("Volume")
        case .fade: return l.L("Fade in")
        case .title: return l.L("Title")
        case .notes: return l.L("Notes")
        case .due: return l.L("Due")
        case .image: return l.L("Image")
        case .duration: return l.L("Duration")
        }
    }
}
