// SPDX-License-Identifier: Apache-2.0
import Adwaita
import AlarmCore
import AlarmProtocol
import AlarmViewModels
import CAdwaita

/// The to-do list (seed 000), in the daemon's order: done ones stay, ticked
/// and dimmed, until deleted. Reorder by dragging a row onto another, or by
/// a row's Move Up / Move Down.
final class RemindersPage: WidgetWrapper {
    var widget: Widget { page.widget }
    private let session: AppSession
    private var page: ListPage<ReminderRowView>!
    private(set) var list = ReminderList(content: .todos, showsDone: true)
    private var deleted: DeletedItem?

    init(session: AppSession) {
        self.session = session
        let handlers = ReminderRowView.Handlers(
            setDone: { [unowned self] id, done in self.setDone(id, done) },
            edit: { [unowned self] id in self.edit(id) },
            move: { [unowned self] id, step in self.move(id, by: step) },
            drop: { [unowned self] dragged, onto in self.drop(dragged, onto: onto) },
            delete: { [unowned self] id in self.delete(id) }
        )
        let empty = StatusPage(icon: "checkbox-checked-symbolic", title: L("No To-dos"),
                               description: L("Press + or Ctrl+N to add one. A to-do with a due time rings like an alarm."))
        page = ListPage(empty: empty, makeRow: { ReminderRowView(handlers) }, bind: { [unowned self] row, id in self.bind(row, id) })
    }

    private func bind(_ row: ReminderRowView, _ id: String) {
        guard let item = list[id: id], let index = list.visibleIndex(of: id) else { return }
        row.show(ReminderRow(item, now: session.now, zone: session.zone, language: appLanguage),
                 canMoveUp: index > 0, canMoveDown: index < list.visible.count - 1)
    }

    func reload() {
        guard let reply = try? session.call(ListReminders.self, ListReminders.Request(all: true)) else { return }
        let items = ReminderItem.list(reply.reminders)
        list = ReminderList(items, content: .todos, showsDone: true)
        show()
    }

    func apply(_ events: [WatchEvent]) {
        guard list.apply(events) else { return reload() }
        show()
    }

    func take(_ reply: ReminderReply?) {
        guard let reply, let item = ReminderItem.one(reply.reminder) else { return }
        list.update(item)
        show()
    }

    private func show() {
        page.show(list.visible.map(\.id))
    }

    func tick() { page.refill() }

    // MARK: Actions

    private func setDone(_ id: String, _ done: Bool) {
        guard let reply = session.perform(CompleteReminder.self, CompleteReminder.Request(id: id, done: done)) else { return tick() }
        take(reply)
    }

    func addNew() {
        ReminderEditor.present(session: session, editing: nil) { [unowned self] reply in
            self.take(reply)
            if let index = self.list.visible.indices.last { self.page.scroll(to: index) }
        }
    }

    private func edit(_ id: String) {
        guard let item = list[id: id] else { return }
        ReminderEditor.present(session: session, editing: item) { [unowned self] reply in self.take(reply) }
    }

    private func move(_ id: String, by step: Int) {
        guard let index = list.visibleIndex(of: id), let request = list.moveRequest(at: index, by: step) else { return }
        send(request)
    }

    private func drop(_ dragged: String, onto target: String) -> Bool {
        guard list[id: dragged] != nil, let position = list[id: target]?.position else { return false }
        send(MoveReminderRequest(id: dragged, position: position))
        return true
    }

    private func send(_ move: MoveReminderRequest) {
        guard let reply = session.perform(MoveReminder.self, move.request) else { return }
        let items = ReminderItem.list(reply.reminders)
        // The reply lists the to-dos not done; the done ones keep their place.
        for item in items { list.update(item) }
        show()
    }

    /// Deletes the to-do, kept whole first (the daemon's own description of
    /// it) so that Undo can put it back as it was.
    func delete(_ id: String) {
        guard let item = list[id: id], let kept = session.perform(GetReminder.self, IDRequest(id: id)),
              session.perform(RemoveReminder.self, IDRequest(id: id)) != nil else { return }
        list.remove(id: id)
        show()
        deleted = DeletedItem(reminder: kept.reminder)
        session.toast(ToastText.deleted(title: item.title, language: appLanguage))
    }

    /// Puts back the to-do deleted last, as it was: its id, every setting,
    /// done or not, and its place (an import puts it last).
    func undoDelete() -> Bool {
        guard let item = deleted else { return false }
        deleted = nil
        guard session.perform(Import.self, item.restoreRequest) != nil else { return false }
        take(session.perform(GetReminder.self, IDRequest(id: item.id)))
        // An import puts it last; it goes back to its place, or the last one if fewer are left.
        if let place = session.perform(Status.self, NoMembers()).flatMap(item.place(in:)) { send(MoveReminderRequest(id: item.id, position: place)) }
        return true
    }

    func focusedID() -> String? {
        page.focusedRow()?.id
    }
}
