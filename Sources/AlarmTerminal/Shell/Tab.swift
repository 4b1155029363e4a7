// SPDX-License-Identifier: Apache-2.0
import AlarmCore

/// The interface's three lists, in the order of their keys (1, 2, 3).
enum Tab: Int, CaseIterable, Sendable {
    case alarms, todos, timers

    func name(in l: some Localization) -> String {
        switch self {
        case .alarms: return l.L("Alarms")
        case .todos: return l.L("To-dos")
        case .timers: return l.L("Timers")
        }
    }

    var next: Tab { Tab(rawValue: (rawValue + 1) % Tab.allCases.count)! }
    var previous: Tab { Tab(rawValue: (rawValue + Tab.allCases.count - 1) % Tab.allCases.count)! }
}
