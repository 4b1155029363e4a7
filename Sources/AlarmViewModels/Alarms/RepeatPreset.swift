// SPDX-License-Identifier: Apache-2.0
import AlarmCore

/// The repeat choices of the alarm form, as a phone offers them: Never,
/// Every day, Weekdays, Weekends, or a custom set of weekdays.
public enum RepeatPreset: Equatable, Sendable, CaseIterable {
    case never, everyDay, weekdays, weekends, custom

    /// The preset a set of days is: Mon–Fri is weekdays, Sat+Sun weekends,
    /// none never, all seven every day; any other set is custom.
    public init(days: RepeatDays) {
        switch days {
        case .never: self = .never
        case .everyDay: self = .everyDay
        case .weekdays: self = .weekdays
        case .weekends: self = .weekends
        default: self = .custom
        }
    }

    /// The choices a form lists, in order (custom is reached by toggling days).
    public static let choices: [RepeatPreset] = [.never, .everyDay, .weekdays, .weekends]

    /// The preset's days; `nil` for custom, whose days are the form's own.
    public var days: RepeatDays? {
        switch self {
        case .never: return .never
        case .everyDay: return .everyDay
        case .weekdays: return .weekdays
        case .weekends: return .weekends
        case .custom: return nil
        }
    }

    /// Never / Every day / Weekdays / Weekends (永不 / 每天 / 平日 / 假日): the
    /// words lists use for those days (``RepeatDays/text(in:)``); Custom.
    public func name(in l: some Localization) -> String {
        days?.text(in: l) ?? l.L("Custom")
    }
}
