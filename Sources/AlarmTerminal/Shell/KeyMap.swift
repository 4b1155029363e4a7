// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import Terminal

/// What a key does while a list is shown.
enum Action: Equatable, Sendable {
    case quit, help, nextTab, previousTab, showTab(Tab)
    case up, down, pageUp, pageDown, top, bottom
    case toggle, edit, add, delete, undo, skip, pause, snooze, stop, moveUp, moveDown, moreTime
}

/// Every key of the list screens in one table: the key handling, the hint
/// line and the `?` screen are all read from it, so they cannot disagree.
struct KeyBinding: Sendable {
    /// Where a binding applies.
    enum Scope: Equatable, Sendable {
        case everywhere
        case tab(Tab)
        /// Only while something rings.
        case ringing
    }

    let keys: [Key]
    /// The keys as the hint line and the help screen write them.
    let keyText: String
    let action: Action
    let scope: Scope
    /// What it does (a catalog message).
    let meaning: String
    /// Whether the hint line names it.
    let hinted: Bool

    static let table: [KeyBinding] = [
        KeyBinding(keys: [.character("a")], keyText: "a", action: .add, scope: .tab(.alarms), meaning: N_("Add"), hinted: true),
        KeyBinding(keys: [.character(" ")], keyText: "Space", action: .toggle, scope: .tab(.alarms), meaning: N_("On/off"), hinted: true),
        KeyBinding(keys: [.enter, .character("e")], keyText: "e", action: .edit, scope: .tab(.alarms), meaning: N_("Edit"), hinted: true),
        KeyBinding(keys: [.character("d"), .delete], keyText: "d", action: .delete, scope: .tab(.alarms), meaning: N_("Delete"), hinted: true),
        KeyBinding(keys: [.character("s")], keyText: "s", action: .skip, scope: .tab(.alarms), meaning: N_("Skip next"), hinted: true),
        KeyBinding(keys: [.character("p")], keyText: "p", action: .pause, scope: .tab(.alarms), meaning: N_("Pause until"), hinted: true),
        KeyBinding(keys: [.character("a")], keyText: "a", action: .add, scope: .tab(.todos), meaning: N_("Add"), hinted: true),
        KeyBinding(keys: [.character(" ")], keyText: "Space", action: .toggle, scope: .tab(.todos), meaning: N_("Done"), hinted: true),
        KeyBinding(keys: [.enter, .character("e")], keyText: "e", action: .edit, scope: .tab(.todos), meaning: N_("Edit"), hinted: true),
        KeyBinding(keys: [.character("d"), .delete], keyText: "d", action: .delete, scope: .tab(.todos), meaning: N_("Delete"), hinted: true),
        KeyBinding(keys: [.character("J")], keyText: "J", action: .moveDown, scope: .tab(.todos), meaning: N_("Move down"), hinted: true),
        KeyBinding(keys: [.character("K")], keyText: "K", action: .moveUp, scope: .tab(.todos), meaning: N_("Move up"), hinted: true),
        KeyBinding(keys: [.character("a"), .enter, .character("e")], keyText: "a", action: .add, scope: .tab(.timers), meaning: N_("Start a timer"), hinted: true),
        KeyBinding(keys: [.character(" ")], keyText: "Space", action: .toggle, scope: .tab(.timers), meaning: N_("Pause/resume"), hinted: true),
        KeyBinding(keys: [.character("+")], keyText: "+", action: .moreTime, scope: .tab(.timers), meaning: N_("Add 1 min"), hinted: true),
        KeyBinding(keys: [.character("d"), .delete], keyText: "d", action: .delete, scope: .tab(.timers), meaning: N_("Cancel"), hinted: true),
        KeyBinding(keys: [.character("z")], keyText: "z", action: .snooze, scope: .ringing, meaning: N_("Snooze"), hinted: true),
        KeyBinding(keys: [.character("x")], keyText: "x", action: .stop, scope: .ringing, meaning: N_("Stop"), hinted: true),
        KeyBinding(keys: [.character("u")], keyText: "u", action: .undo, scope: .everywhere, meaning: N_("Undo deletes, dones and skips, latest first"), hinted: false),
        KeyBinding(keys: [.up, .character("k")], keyText: "↑ k", action: .up, scope: .everywhere, meaning: N_("Previous row"), hinted: false),
        KeyBinding(keys: [.down, .character("j")], keyText: "↓ j", action: .down, scope: .everywhere, meaning: N_("Next row"), hinted: false),
        KeyBinding(keys: [.pageUp], keyText: "PgUp", action: .pageUp, scope: .everywhere, meaning: N_("Page up"), hinted: false),
        KeyBinding(keys: [.pageDown], keyText: "PgDn", action: .pageDown, scope: .everywhere, meaning: N_("Page down"), hinted: false),
        KeyBinding(keys: [.home, .character("g")], keyText: "Home g", action: .top, scope: .everywhere, meaning: N_("First row"), hinted: false),
        KeyBinding(keys: [.end, .character("G")], keyText: "End G", action: .bottom, scope: .everywhere, meaning: N_("Last row"), hinted: false),
        KeyBinding(keys: [.tab, .right, .character("l")], keyText: "Tab", action: .nextTab, scope: .everywhere, meaning: N_("Next tab"), hinted: false),
        KeyBinding(keys: [.backTab, .left, .character("h")], keyText: "S-Tab", action: .previousTab, scope: .everywhere, meaning: N_("Previous tab"), hinted: false),
        KeyBinding(keys: [.character("1")], keyText: "1", action: .showTab(.alarms), scope: .everywhere, meaning: N_("Alarms"), hinted: false),
        KeyBinding(keys: [.character("2")], keyText: "2", action: .showTab(.todos), scope: .everywhere, meaning: N_("To-dos"), hinted: false),
        KeyBinding(keys: [.character("3")], keyText: "3", action: .showTab(.timers), scope: .everywhere, meaning: N_("Timers"), hinted: false),
        KeyBinding(keys: [.character("?"), .function(1)], keyText: "?", action: .help, scope: .everywhere, meaning: N_("All keys"), hinted: true),
        KeyBinding(keys: [.character("q")], keyText: "q", action: .quit, scope: .everywhere, meaning: N_("Quit"), hinted: true),
    ]

    /// Whether the binding is live on `tab`, with or without something ringing.
    func applies(on tab: Tab, ringing: Bool) -> Bool {
        switch scope {
        case .everywhere: return true
        case .tab(let own): return own == tab
        case .ringing: return ringing
        }
    }

    /// The action of `key` on `tab`: the ringing keys first, then the tab's,
    /// then the ones that work everywhere.
    static func action(for key: Key, on tab: Tab, ringing: Bool) -> Action? {
        table.first { $0.keys.contains(key) && $0.applies(on: tab, ringing: ringing) }?.action
    }

    /// The hint line's bindings on `tab`, the ringing ones first.
    static func hints(on tab: Tab, ringing: Bool) -> [KeyBinding] {
        let live = table.filter { $0.hinted && $0.applies(on: tab, ringing: ringing) }
        return live.filter { $0.scope == .ringing } + live.filter { $0.scope != .ringing }
    }
}
