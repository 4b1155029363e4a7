// SPDX-License-Identifier: Apache-2.0
import Adwaita
import AlarmCore
import AlarmProtocol
import AlarmViewModels
import CAdwaita

/// The window: Alarms, To-dos and Timers under a view switcher, as GNOME
/// Clocks lays them out; a banner when alarmd is out of reach or warns; the
/// ringing view over everything while something rings.
final class MainWindow {
    let window: ApplicationWindow
    private let session: AppSession
    private let link: DaemonLink
    private let pages = ViewStack()
    private let top = Stack()
    private let banner = InfoBar()
    private let alarms: AlarmsPage
    private let reminders: RemindersPage
    private let timers: TimersPage
    private let ringing: RingingView
    private let addAlarm = Button(icon: "list-add-symbolic", accessibleName: L("Add Alarm"))
    private let addTodo = Button(icon: "list-add-symbolic", accessibleName: L("Add To-do"))
    private let statePath: String?
    private var lastDelete: Page = .alarms

    private enum Page: String { case alarms, todos, timers }

    init(application: Application, socketPath: String) {
        window = ApplicationWindow(application)
        window.setTitle(L("Alarms"))
        link = DaemonLink(path: socketPath)
        let layout = Box(vertical: true)
        let toasts = ToastOverlay(top)
        session = AppSession(link: link, window: window, toasts: toasts)
        alarms = AlarmsPage(session: session)
        reminders = RemindersPage(session: session)
        timers = TimersPage(session: session)
        ringing = RingingView(session: session)

        let header = HeaderBar()
        let switchers = pages.makeSwitchers(title: L("Alarms"))
        header.setTitle(switchers.title)
        addAlarm.setAction("win.new")
        addTodo.setAction("win.new")
        header.packStart(addAlarm)
        header.packStart(addTodo)
        let menu = MenuButton(icon: "open-menu-symbolic", accessibleName: L("Main Menu"))
        menu.setItems([(L("_Keyboard Shortcuts"), "app.shortcuts"), (L("_About Alarms"), "app.about")])
        header.packEnd(menu)

        pages.add(alarms, name: Page.alarms.rawValue, title: L("Alarms"), icon: "alarm-symbolic")
        pages.add(reminders, name: Page.todos.rawValue, title: L("To-dos"), icon: "checkbox-checked-symbolic")
        pages.add(timers, name: Page.timers.rawValue, title: L("Timers"), icon: "task-due-symbolic")
        pages.widget.expand(vertically: true)
        layout.append(header).append(banner).append(pages).append(switchers.bar)
        top.add(layout, name: "main")
        top.add(ringing, name: "ringing")
        top.visibleName = "main"
        window.setContent(toasts)

        statePath = WindowState.path(environment: AppSession.environment)
        let state = statePath.map(WindowState.load(from:)) ?? WindowState()
        window.setDefaultSize(width: state.width, height: state.height)
        if state.maximized { window.maximize() }
        window.widget.setSizeRequest(width: 360, height: 360)

        FrameLog.attach(to: window.widget, environment: AppSession.environment)
        installActions()
        pages.onVisibleChanged { [unowned self] in self.pageChanged() }
        pageChanged()
        window.onCloseRequest { [unowned self] in
            self.saveState()
            return false
        }

        link.onReachability = { [unowned self] reachable in self.reachabilityChanged(reachable) }
        link.onEvents = { [unowned self] events in self.apply(events) }
        ringing.onChange = { [unowned self] in self.top.visibleName = self.ringing.isShowing ? "ringing" : "main" }
        link.start()
        // The phrases ("in 8 h 5 min", a timer's countdown) follow the clock.
        MainLoop.every(milliseconds: 1000) { [weak self] in
            self?.tick()
            return self != nil
        }
    }

    private var page: Page { Page(rawValue: pages.visibleName) ?? .alarms }

    private func pageChanged() {
        addAlarm.widget.isVisible = page == .alarms
        addTodo.widget.isVisible = page == .todos
    }

    private func installActions() {
        let actions = ActionGroup()
        actions.add("new") { [unowned self] in
            switch self.page {
            case .alarms: self.alarms.addNew()
            case .todos: self.reminders.addNew()
            case .timers: self.timers.focusCustom()
            }
        }
        actions.add("delete") { [unowned self] in
            switch self.page {
            case .alarms: if let id = self.alarms.focusedID() { self.lastDelete = .alarms; self.alarms.delete(id) }
            case .todos: if let id = self.reminders.focusedID() { self.lastDelete = .todos; self.reminders.delete(id) }
            case .timers: break
            }
        }
        actions.add("undo") { [unowned self] in
            _ = self.lastDelete == .todos ? self.reminders.undoDelete() : self.alarms.undoDelete()
        }
        window.widget.insertActionGroup("win", actions.reference)
    }

    /// Shortcuts of the window's actions (the application sets them). Delete
    /// belongs to the lists (``AlarmsPage``, ``RemindersPage``), so that it
    /// still deletes text in a text field.
    static let shortcuts: [(String, [String])] = [("win.new", ["<Control>n"]), ("win.undo", ["<Control>z"])]

    // MARK: The daemon

    private func reachabilityChanged(_ reachable: Bool) {
        if reachable {
            alarms.reload()
            reminders.reload()
            timers.reload()
            showRinging()
            refreshStatus()
        } else {
            let path = link.client.path
            guard let shown = StatusBanner(reachability: .unreachable(path: path), status: nil, language: appLanguage) else { return }
            banner.show(title: shown.title, detail: shown.advice, error: true)
        }
    }

    private func apply(_ events: [WatchEvent]) {
        alarms.apply(events)
        reminders.apply(events)
        timers.apply(events)
        showRinging()
    }

    /// The daemon's warnings (muted output, no wake-up, no sound server).
    private func refreshStatus() {
        guard let reply = try? session.call(Status.self, NoMembers()) else { return }
        if let shown = StatusBanner(reachability: .connected, status: reply, language: appLanguage) {
            banner.show(title: shown.title, detail: shown.advice, error: false)
        } else {
            banner.hide()
        }
    }

    /// The ringing view follows the lists: alarms, to-dos and timers.
    private func showRinging() {
        ringing.update(alarms: alarms.list.items, reminders: reminders.list.all)
    }

    private var seconds = 0

    private func tick() {
        seconds += 1
        timers.tick()
        if seconds % 30 == 0 {
            session.refreshZone()
            alarms.tick()
            reminders.tick()
            if link.isReachable { refreshStatus() }
        }
    }

    private func saveState() {
        guard let statePath else { return }
        let size = window.defaultSize
        WindowState(width: size.width, height: size.height, maximized: window.isMaximized).save(to: statePath)
    }
}
