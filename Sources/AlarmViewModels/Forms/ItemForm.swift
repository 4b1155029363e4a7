// SPDX-License-Identifier: Apache-2.0
import AlarmProtocol

/// A form that adds an item or changes one: what Save sends, which of its
/// fields a refusal is about; either call replies with the item.
public protocol ItemForm {
    associatedtype Add: VarlinkMethod
    associatedtype Update: VarlinkMethod where Update.Reply == Add.Reply
    /// The call that adds a new item, or the form's own problems.
    func addRequest() throws(FormInvalid) -> Add.Request
    /// The call that changes the item being edited; `nil` for a new one.
    func updateRequest() throws(FormInvalid) -> Update.Request?
    /// The field a daemon's refusal names, with the message to show there.
    func fieldError(for refusal: DaemonRefusal) -> FieldError?
}

extension AlarmForm: ItemForm {
    public typealias Add = AddAlarm
    public typealias Update = UpdateAlarm
}

extension ReminderForm: ItemForm {
    public typealias Add = AddReminder
    public typealias Update = UpdateReminder
}
