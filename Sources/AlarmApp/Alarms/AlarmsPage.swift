// SPDX-License-Identifier: Apache-2.0
import Adwaita
import AlarmCore
import AlarmProtocol
import AlarmViewModels
import CAdwaita

/// The alarm list (seed 003): every alarm by time of day, a switch on each
/// row, an empty state that says what to do. The list is a GtkListView over
/// the alarms' ids: rows exist only for what is on screen.
final class AlarmsPage: WidgetWrapper {
    var widget: Widget { page.widget }
    private let session: AppSession
    private var page: ListPage<AlarmRowView>!
    private(set) var list = AlarmList()
    /// The last alarm deleted here, for Undo.
    private var deleted: DeletedItem?
    private var liveStatePending = false

    init(session: AppSession) {
        self.session = session
        let handlers = AlarmRowView.Handlers(
            edit: { [unowned self] id in self.edit(id) },
            setEnabled: { [unowned self] id, on in self.setEnabled(id, on) },
            skipNext: { [unowned self] id, skip in
                guard let item = self.update(SkipNext.self, SkipNext.Request(id: id, skip: skip)) else { return }
                self.session.toast(ToastText.skipped(item, now: self.session.now, zone: self.session.zone, language: appLanguage))
            },
            pause: { [unowned self] id in self.pause(id) },
            resume: { [unowned self] id in self.resume(id) },
            delete: { [unowned self] id in self.delete(id) }
        )
        let empty = StatusPage(icon: "alarm-symbolic", title: L("No Alarms"),
                               description: L("Press + or Ctrl+N to set an alarm. It rings whether this window is open or not."))
        page = ListPage(empty: empty, makeRow: { AlarmRowView(handlers) }, bind: { [unowned self] row, id in self.bind(row, id) })
    }

    private func bind(_ row: AlarmRowView, _ id: String) {
        guard let item = list[id: id] else { return }
        row.show(AlarmRow(item, now: session.now, zone: session.zone, language: appLanguage), item: item)
    }

    // MARK: Keeping up with the daemon

    /// Reads every alarm again (at start and after the daemon came back).
    func reload() {
        guard let reply = try? session.call(ListAlarms.self, NoMembers()) else { return }
        let items = AlarmItem.list(reply.alarms)
        list = AlarmList(items)
        show()
    }

    /// Applies the daemon's events: the list splices only the rows that
    /// changed.
    func apply(_ events: [WatchEvent]) {
        guard list.apply(events) else { return reload() }
        show()
        scheduleLiveState()
    }

    /// Takes in one alarm from a reply (after a change made here).
    func take(_ reply: AlarmReply?) {
        guard let reply, let item = AlarmItem.one(reply.alarm) else { return }
        list.update(item)
        show()
    }

    /// Events carry an alarm without its next ring: the row shows it at
    /// once with the ring the rules give, and asks the daemon for its own
    /// once the loop is idle (after the row is drawn).
    private func scheduleLiveState() {
        guard !list.needsState.isEmpty, !liveStatePending else { return }
        liveStatePending = true
        MainLoop.idle { [weak self] in
            guard let self else { return }
            self.liveStatePending = false
            for id in self.list.needsState {
                guard let reply = try? self.session.call(GetAlarm.self, IDRequest(id: id)),
                      let item = AlarmItem.one(reply.alarm) else { break }
                self.list.update(item)
            }
            self.show()
        }
    }

    /// Brings the list view to the list: one splice, then the rows on screen
    /// filled again (an alarm changed in place keeps its row).
    private func show() {
        page.show(list.items.map(\.id))
    }

    /// The minute changed: "in 8 h 5 min" becomes "in 8 h 4 min".
    func tick() { page.refill() }

    // MARK: Actions

    @discardableResult
    private func update<M: VarlinkMethod>(_ method: M.Type, _ request: M.Request) -> AlarmItem? where M.Reply == AlarmReply {
        guard let reply = session.perform(method, request) else { return nil }
        take(reply)
        return AlarmItem.one(reply.alarm)
    }

    private func setEnabled(_ id: String, _ on: Bool) {
        guard let item = update(SetAlarmEnabled.self, SetAlarmEnabled.Request(id: id, enabled: on)) else {
            // Refused or unreachable: the switch goes back to what is true.
            tick()
            return
        }
        // Switched on: when it rings, as a phone says it.
        if item.enabled { session.toast(ToastText.alarmSwitched(item, now: session.now, language: appLanguage)) }
    }

    func addNew() {
        AlarmEditor.present(session: session, editing: nil) { [unowned self] reply in
            self.saved(reply)
        }
    }

    private func edit(_ id: String) {
        guard let item = list[id: id] else { return }
        AlarmEditor.present(session: session, editing: item) { [unowned self] reply in self.saved(reply) }
    }

    /// After Save: the row, scrolled to, and when it rings in a toast.
    private func saved(_ reply: AlarmReply) {
        take(reply)
        guard let item = AlarmItem.one(reply.alarm) else { return }
        if let index = list.index(of: item.id) { page.scroll(to: index) }
        session.toast(ToastText.alarmSaved(item, now: session.now, language: appLanguage))
    }

    private func pause(_ id: String) {
        guard let item = list[id: id] else { return }
        PauseDialog.present(session: session, label: item.label) { [unowned self] day in
            var fields = AlarmFields()
            fields.pausedUntil = .some(day)
            self.update(UpdateAlarm.self, UpdateAlarm.Request(id: id, fields: fields))
        }
    }

    private func resume(_ id: String) {
        var fields = AlarmFields()
        fields.pausedUntil = .some(nil)
        update(UpdateAlarm.self, UpdateAlarm.Request(id: id, fields: fields))
    }

    /// Deletes the alarm, kept whole first (the daemon's own description of
    /// it) so that Undo can put it back as it was.
    func delete(_ id: String) {
        guard let item = list[id: id], let kept = session.perform(GetAlarm.self, IDRequest(id: id)),
              session.perform(RemoveAlarm.self, IDRequest(id: id)) != nil else { return }
        list.remove(id: id)
        show()
        deleted = DeletedItem(alarm: kept.alarm)
        session.toast(ToastText.deleted(title: item.label, language: appLanguage))
    }

    /// Puts back the alarm deleted last, as it was: its id and every setting.
    func undoDelete() -> Bool {
        guard let item = deleted else { return false }
        deleted = nil
        guard session.perform(Import.self, item.restoreRequest) != nil else { return false }
        // Back in the daemon; the row comes with its reply here, or with the Watch event.
        if let reply = session.perform(GetAlarm.self, IDRequest(id: item.id)) { take(AlarmReply(alarm: reply.alarm)) }
        return true
    }

    /// The id of the alarm whose row has the keyboard focus.
    func focusedID() -> String? {
        page.focusedRow()?.id
    }
}
