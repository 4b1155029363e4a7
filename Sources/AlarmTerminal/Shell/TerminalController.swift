// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmProtocol
import AlarmViewModels
import FoundationEssentials
import Terminal

/// Everything the terminal interface knows and does, on its one thread: the
/// daemon's lists (the desktop app's view models, kept up to date by
/// `Watch`), the tab and row chosen, the open form, the last message. Keys
/// come in through ``handle(_:)``; what the screen shows is
/// ``ScreenRenderer``'s, computed from this with no terminal.
final class TerminalController {
    let language: any Localization
    let client: DaemonClient
    /// The `Watch` subscription; `nil` while the daemon is out of reach.
    private(set) var watch: DaemonWatch?
    /// Whether alarmd is reached: subscribed to its events.
    var reachable: Bool { watch != nil }
    /// Seconds (monotonic) at which to try the daemon again.
    private var retryAt: Double = 0
    private(set) var status: Status.Reply?

    var alarms = AlarmList()
    var todos = ReminderList(content: .todos)
    var timers = ReminderList(content: .timers)

    var tab: Tab = .alarms
    /// The chosen row and the first row shown, per tab, and the id of the
    /// chosen item: a list that changes (an alarm added elsewhere sorts in
    /// above it) keeps the item chosen, not the row number.
    private(set) var selection: [Tab: Int] = [:]
    private var selectedIDs: [Tab: String] = [:]
    var scroll: [Tab: Int] = [:]
    /// Monotonic seconds of the last read of the daemon's warnings and the zone.
    private var refreshedAt: Double = 0
    var editor: Editor?
    /// The ringing item the banner shows, kept while it rings.
    private var ringingShown: String?
    var showsHelp = false
    /// The first line of the help shown.
    var helpScroll = 0
    /// The note under the list after an action, and whether it tells of a failure.
    var message: (text: String, isError: Bool)?
    /// How long a note (not an error) stays under the list, as a desktop
    /// toast does; an error stays until the next key.
    static let noteSeconds = 8.0
    /// The note shown and since when (monotonic seconds), for ``expireNote(monotonic:)``.
    private var shownNote: (text: String, since: Double)?
    /// What `u` puts back, the latest last: deletes, dones and skips, up to
    /// ``undoDepth`` of them.
    private(set) var undoStack: [Undo] = []
    static let undoDepth = 20
    private(set) var running = true
    /// Rows the list shows, set by each render; paging moves by it.
    var pageRows = 10
    /// The last render had no room to show anything: keys that act on what
    /// cannot be seen are ignored until it has.
    var isTooSmall = false
    var zone: Zone

    /// Keeps `change` for `u`; the oldest goes past ``undoDepth``.
    func remember(_ change: Undo?) {
        guard let change else { return }
        undoStack.append(change)
        if undoStack.count > Self.undoDepth { undoStack.removeFirst() }
    }

    /// After a change `u` cannot put back (a timer cancelled): `u` must
    /// not reach past it to older ones.
    func forgetUndo() { undoStack.removeAll() }

    /// After an item is edited in its form: what `u` kept of it is older
    /// than the edit (a done to-do's due time, a skip), and would undo the edit.
    func forgetUndo(of id: String) {
        undoStack.removeAll { change in
            switch change {
            case .deleted: false
            case .completedTodo(let item, _): item.id == id
            case .skipped(let skipped, _): skipped == id
            }
        }
    }

    /// The next change `u` puts back, taken off the list.
    func takeUndo() -> Undo? { undoStack.popLast() }

    enum Undo {
        /// An alarm or to-do as the daemon held it before `d`: put back whole.
        case deleted(DeletedItem)
        /// The to-do as it was before Space, and whether Space moved a
        /// repeating one on to its next due time (else it was marked done).
        case completedTodo(ReminderItem, movedOn: Bool)
        /// An alarm whose skip-next was switched: switch it back.
        case skipped(id: String, skipNext: Bool)
    }

    /// Seconds between reads of the daemon's warnings (a muted output) and
    /// of the system zone, as the desktop app does.
    static let refreshInterval = 30.0

    init(client: DaemonClient, zone: Zone, language: some Localization) {
        self.client = client
        self.zone = zone
        self.language = language
    }

    /// Reads the clock: the one place the interface does.
    var now: Date { Date() }

    // MARK: The daemon

    /// Subscribes and reads every list, unless subscribed already or the
    /// last try was under a second ago.
    func connectIfNeeded(monotonic: Double) {
        guard watch == nil, monotonic >= retryAt else { return }
        retryAt = monotonic + 1
        do throws(DaemonFailure) {
            watch = try DaemonWatch(path: client.path)
        } catch {
            lost(error)
            return
        }
        // A call's failure said while alarmd was away is no longer so.
        if message?.isError == true { message = nil }
        reload()
        refreshedAt = monotonic
    }

    /// Clears a note shown for ``noteSeconds``; called before each frame.
    func expireNote(monotonic: Double) {
        guard let message, !message.isError else { return shownNote = nil }
        guard let shown = shownNote, shown.text == message.text else { return shownNote = (message.text, monotonic) }
        if monotonic - shown.since >= Self.noteSeconds {
            self.message = nil
            shownNote = nil
        }
    }

    /// Reads the warnings and the zone again when ``refreshInterval`` has passed.
    func refreshIfDue(monotonic: Double, zone lookUp: () -> Zone) {
        guard monotonic - refreshedAt >= Self.refreshInterval else { return }
        refreshedAt = monotonic
        zone = lookUp()
        guard watch != nil else { return }
        do throws(DaemonFailure) { status = try client.call(Status.self) } catch { lost(error) }
    }

    /// Reads the three lists and the daemon's warnings again.
    func reload() {
        do throws(DaemonFailure) {
            alarms = AlarmList(AlarmItem.list(try client.call(ListAlarms.self).alarms))
            let reminders = ReminderItem.list(try client.call(ListReminders.self, ListReminders.Request(all: false)).reminders)
            todos = ReminderList(reminders, content: .todos)
            timers = ReminderList(reminders, content: .timers)
            status = try client.call(Status.self)
        } catch {
            lost(error)
        }
        clampSelection()
    }

    /// The subscription's socket has input: takes in its events.
    func readEvents() {
        guard let watch else { return }
        do throws(DaemonFailure) {
            let events = try watch.receiveEvents()
            guard !events.isEmpty else { return }
            let complete = alarms.apply(events) && todos.apply(events) && timers.apply(events)
            if complete {
                fetchLiveState()
                fetchReminderState(events)
            } else {
                reload()
            }
            clampSelection()
        } catch {
            lost(error)
        }
    }

    /// Events carry alarms without their next ring: asks for those. One
    /// gone meanwhile is taken out; a lost daemon ends the asking.
    private func fetchLiveState() {
        for id in alarms.needsState.prefix(50) {
            do throws(DaemonFailure) {
                if let item = AlarmItem.one(try client.call(GetAlarm.self, IDRequest(id: id)).alarm) { alarms.update(item) }
            } catch {
                if case .refused = error {
                    alarms.remove(id: id)
                    continue
                }
                lost(error)
                return
            }
        }
    }

    /// A reminder's event carries no live state: a snoozed one's end is
    /// asked for, so that a timer counts down to it.
    private func fetchReminderState(_ events: [WatchEvent]) {
        let ids = Set(events.filter { $0.itemKind == .reminder && $0.kind == .snoozed }.map(\.id))
        for id in ids.prefix(50) {
            do throws(DaemonFailure) {
                guard let item = ReminderItem.one(try client.call(GetReminder.self, IDRequest(id: id)).reminder) else { continue }
                if item.isTimer { timers.update(item) } else { todos.update(item) }
            } catch {
                if case .refused = error { continue }
                lost(error)
                return
            }
        }
    }

    /// A call failed: a refusal is said; a lost daemon ends the subscription
    /// and the status line says so until it is back.
    func lost(_ failure: DaemonFailure) {
        if failure.isConnectionProblem {
            watch = nil
            client.disconnect()
        } else {
            say(failure.text(in: language), error: true)
        }
    }

    /// Calls the daemon; a failure is said on the message line. `nil` then.
    @discardableResult
    func perform<M: VarlinkMethod>(_ method: M.Type, _ request: M.Request) -> M.Reply? {
        do throws(DaemonFailure) {
            return try client.call(method, request)
        } catch {
            if error.isConnectionProblem { say(error.text(in: language), error: true) }
            lost(error)
            return nil
        }
    }

    /// Says `text` on the message line, its lines joined (a daemon's message
    /// may have a hint on a second line).
    func say(_ text: String, error: Bool = false) {
        message = (text.split(separator: "\n").joined(separator: "; "), error)
        // Said again, it stays its full time again.
        shownNote = nil
    }

    func say(_ toast: ToastText) { say(toast.title + (toast.buttonLabel == nil ? "" : " — " + language.L("u to undo"))) }

    /// Ends the loop (the terminal is gone).
    func quit() { running = false }

    // MARK: Ringing

    /// What is ringing, as the app's ringing view shows it (the one shown
    /// stays while it rings, so z and x act on what the banner says);
    /// `nil` when nothing is.
    var ringing: RingingModel? {
        let model = RingingModel.first(alarms: alarms.items, reminders: todos.visible + timers.visible, keeping: ringingShown,
                                       now: now, zone: zone, language: language)
        ringingShown = model?.id
        return model
    }

    // MARK: Selection

    /// How many rows `tab` lists.
    func count(_ tab: Tab) -> Int {
        switch tab {
        case .alarms: return alarms.items.count
        case .todos: return todos.visible.count
        case .timers: return timers.visible.count
        }
    }

    var rowCount: Int { count(tab) }

    var selected: Int { selection[tab] ?? 0 }

    /// Chooses row `row` of the tab shown (kept within the list).
    func select(_ row: Int) { select(row, in: tab) }

    func select(_ row: Int, in tab: Tab) {
        let index = max(0, min(row, count(tab) - 1))
        selection[tab] = index
        selectedIDs[tab] = id(at: index, in: tab)
    }

    /// Chooses the item with `id` on `tab`, if it is listed.
    func select(id: String, in tab: Tab) {
        if let index = index(of: id, in: tab) { select(index, in: tab) }
    }

    private func id(at index: Int, in tab: Tab) -> String? {
        guard (0..<count(tab)).contains(index) else { return nil }
        switch tab {
        case .alarms: return alarms.items[index].id
        case .todos: return todos.visible[index].id
        case .timers: return timers.visible[index].id
        }
    }

    private func index(of id: String, in tab: Tab) -> Int? {
        switch tab {
        case .alarms: return alarms.index(of: id)
        case .todos: return todos.visibleIndex(of: id)
        case .timers: return timers.visibleIndex(of: id)
        }
    }

    /// After the lists changed: each tab's chosen item where it now is, or
    /// the row it was on when it is gone.
    func clampSelection() {
        for tab in Tab.allCases {
            if let id = selectedIDs[tab], let index = index(of: id, in: tab) {
                selection[tab] = index
            } else {
                select(selection[tab] ?? 0, in: tab)
            }
        }
    }

    var selectedAlarm: AlarmItem? { tab == .alarms && alarms.items.indices.contains(selected) ? alarms.items[selected] : nil }
    var selectedTodo: ReminderItem? { tab == .todos && todos.visible.indices.contains(selected) ? todos.visible[selected] : nil }
    var selectedTimer: ReminderItem? { tab == .timers && timers.visible.indices.contains(selected) ? timers.visible[selected] : nil }

    // MARK: Keys

    /// Takes one key: the help screen closes on any, an open form takes
    /// the rest, else the key table says what to do.
    func handle(_ key: Key) {
        if key == .resize { return }
        // Nothing shows but "Make the window larger": only quitting acts.
        if isTooSmall {
            if editor == nil, KeyBinding.action(for: key, on: tab, ringing: false) == .quit { running = false }
            return
        }
        if showsHelp {
            // The keys scroll a help longer than the screen; any other closes it.
            switch key {
            case .down, .character("j"): helpScroll += 1
            case .up, .character("k"): helpScroll = max(0, helpScroll - 1)
            case .pageDown, .character(" "): helpScroll += max(1, pageRows)
            case .pageUp: helpScroll = max(0, helpScroll - max(1, pageRows))
            default:
                showsHelp = false
                helpScroll = 0
            }
            return
        }
        if editor != nil { return handleEditor(key) }
        if case .mouse(let mouse) = key { return handleMouse(mouse) }
        // The keys for what rings answer a snoozed row too (x stops it).
        guard let action = KeyBinding.action(for: key, on: tab, ringing: ringing != nil || selectedSnoozed != nil) else { return }
        message = nil
        perform(action)
    }

    private func perform(_ action: Action) {
        switch action {
        case .quit: running = false
        case .help: showsHelp = true
        case .nextTab: tab = tab.next
        case .previousTab: tab = tab.previous
        case .showTab(let chosen): tab = chosen
        case .up: select(selected - 1)
        case .down: select(selected + 1)
        case .pageUp: select(selected - max(1, pageRows))
        case .pageDown: select(selected + max(1, pageRows))
        case .top: select(0)
        case .bottom: select(rowCount - 1)
        case .toggle: toggle()
        case .edit: edit()
        case .add: add()
        case .delete: delete()
        case .moreTime: moreTime()
        case .undo: undoLast()
        case .skip: skip()
        case .pause: pause()
        case .snooze: snooze()
        case .stop: stop()
        case .moveUp: move(by: -1)
        case .moveDown: move(by: 1)
        }
    }

    /// A click on the tab bar switches tabs; on a row selects it, and on
    /// its switch or check box toggles it; the wheel scrolls.
    func handleMouse(_ mouse: Key.Mouse) {
        switch mouse.action {
        case .wheelUp: select(selected - 3)
        case .wheelDown: select(selected + 3)
        case .click:
            if mouse.row == 0, let hit = ScreenRenderer.tab(atColumn: mouse.column, of: self) {
                tab = hit
                return
            }
            // Only the rows the list shows: not the detail pane, the ringing
            // bar or the key line under them.
            let row = mouse.row - ScreenRenderer.listTop + (scroll[tab] ?? 0)
            guard mouse.row >= ScreenRenderer.listTop, mouse.row < ScreenRenderer.listTop + pageRows, (0..<rowCount).contains(row) else { return }
            select(row)
            if mouse.column < ScreenRenderer.switchColumns, tab != .timers { toggle() }
        }
    }
}
