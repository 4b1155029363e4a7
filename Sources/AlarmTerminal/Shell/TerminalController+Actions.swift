// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmProtocol
import AlarmViewModels
import FoundationEssentials
import Terminal

/// What the keys do to the daemon's items. Each change is one call; the
/// lists follow from its reply at once and from the `Watch` event after.
extension TerminalController {
    func toggle() {
        switch tab {
        case .alarms:
            guard let item = selectedAlarm,
                  let reply = perform(SetAlarmEnabled.self, SetAlarmEnabled.Request(id: item.id, enabled: !item.enabled)),
                  let updated = AlarmItem.one(reply.alarm) else { return }
            alarms.update(updated)
            say(ToastText.alarmSwitched(updated, now: now, language: language))
        case .todos:
            guard let item = selectedTodo,
                  let reply = perform(CompleteReminder.self, CompleteReminder.Request(id: item.id, done: !item.done)),
                  let updated = ReminderItem.one(reply.reminder) else { return }
            todos.update(updated)
            remember(.completedTodo(item, movedOn: !item.done && !updated.done))
            say(ToastText.completed(updated, now: now, zone: zone, language: language))
        case .timers:
            if let item = selectedTimer { change(item, .pauseOrResume(item)) }
        }
        clampSelection()
    }

    /// Gives the chosen timer one more minute.
    func moreTime() {
        if tab == .timers, let item = selectedTimer { change(item, TimerRow.moreTime) }
    }

    /// Pauses, resumes or gives more time to `timer`.
    private func change(_ timer: ReminderItem, _ change: TimerChange) {
        switch change.request(for: timer, now: now, zone: zone) {
        case .success(let request):
            guard let reply = perform(UpdateReminder.self, request), let updated = ReminderItem.one(reply.reminder) else { return }
            timers.update(updated)
            say(ToastText.timerChanged(change, TimerRow(updated, now: now, language: language), language: language))
        case .failure(let refusal):
            say(ToastText.timerRefused(refusal, title: timer.title, language: language).title, error: true)
        }
    }

    func add() {
        switch tab {
        case .alarms: editor = .alarm(nil, today: today, language: language)
        case .todos: editor = .todo(nil, zone: zone, language: language)
        case .timers: editor = .timer()
        }
    }

    func edit() {
        switch tab {
        case .alarms: if let item = selectedAlarm { editor = .alarm(item, today: today, language: language) }
        case .todos: if let item = selectedTodo { editor = .todo(item, zone: zone, language: language) }
        case .timers: add()
        }
    }

    private var today: Int64 { zone.rules.localDay(at: now.epochSecondsFloor) }

    /// Deletes the selected item, kept whole first (the daemon's own
    /// description of it) so that `u` can put it back as it was.
    func delete() {
        switch tab {
        case .alarms:
            guard let item = selectedAlarm, let kept = perform(GetAlarm.self, IDRequest(id: item.id)),
                  perform(RemoveAlarm.self, IDRequest(id: item.id)) != nil else { return }
            alarms.remove(id: item.id)
            remember(DeletedItem(alarm: kept.alarm).map(Undo.deleted))
            say(ToastText.deleted(title: item.label, language: language))
        case .todos:
            guard let item = selectedTodo, let kept = perform(GetReminder.self, IDRequest(id: item.id)),
                  perform(RemoveReminder.self, IDRequest(id: item.id)) != nil else { return }
            todos.remove(id: item.id)
            remember(DeletedItem(reminder: kept.reminder).map(Undo.deleted))
            say(ToastText.deleted(title: item.title, language: language))
        case .timers:
            guard let item = selectedTimer, perform(RemoveReminder.self, TimerRow(item, now: now, language: language).cancelRequest) != nil else { return }
            timers.remove(id: item.id)
            // A cancelled timer does not come back, and `u` must not reach past it to an older change.
            forgetUndo()
            say(language.Lf("“%s” cancelled", item.title))
        }
        clampSelection()
    }

    /// Puts back the latest change kept for `u`: a deleted item as it was
    /// (its id, settings and, for a to-do, its place), a done to-do not
    /// done, a skip switched back.
    func undoLast() {
        guard let last = takeUndo() else { return say(language.L("Nothing to undo")) }
        switch last {
        case .deleted(let deleted):
            guard perform(Import.self, deleted.restoreRequest) != nil else { return }
            switch deleted.kind {
            case .alarm:
                guard let reply = perform(GetAlarm.self, IDRequest(id: deleted.id)), let restored = AlarmItem.one(reply.alarm) else { return }
                alarms.update(restored)
                select(id: restored.id, in: .alarms)
            case .reminder:
                // An import puts it last; it goes back to its place, or the last one if fewer are left.
                let place = perform(Status.self, NoMembers()).flatMap(deleted.place(in:))
                let reply = place.flatMap { perform(MoveReminder.self, MoveReminder.Request(id: deleted.id, position: $0)) }
                if let reply { todos = ReminderList(ReminderItem.list(reply.reminders), content: .todos) }
                else if let one = perform(GetReminder.self, IDRequest(id: deleted.id)), let restored = ReminderItem.one(one.reminder) { todos.update(restored) }
                select(id: deleted.id, in: .todos)
            }
            say(language.Lf("“%s” restored", deleted.title))
        case .skipped(let id, let skipNext):
            if let reply = perform(SkipNext.self, SkipNext.Request(id: id, skip: skipNext)), let item = AlarmItem.one(reply.alarm) {
                alarms.update(item)
                say(ToastText.skipped(item, now: now, zone: zone, language: language))
            }
        case .completedTodo(let before, let movedOn):
            // A repeating to-do marked done moved on to its next due time
            // and stayed not done: undo puts its due time back. (Its last
            // occurrence was marked done instead, as any other to-do.)
            let reply: ReminderReply?
            if movedOn, let due = before.due {
                reply = perform(UpdateReminder.self, UpdateReminder.Request(id: before.id, ReminderChanges(due: WireTime.string(due, in: zone))))
            } else {
                reply = perform(CompleteReminder.self, CompleteReminder.Request(id: before.id, done: before.done))
            }
            if let reply, let item = ReminderItem.one(reply.reminder) {
                todos.update(item)
                select(id: item.id, in: .todos)
                say(item.done ? language.Lf("“%s” done", item.title) : language.Lf("“%s” is not done", item.title))
            }
        }
        clampSelection()
    }

    func skip() {
        guard let item = selectedAlarm,
              let reply = perform(SkipNext.self, SkipNext.Request(id: item.id, skip: !item.skipNext)),
              let updated = AlarmItem.one(reply.alarm) else { return }
        alarms.update(updated)
        remember(.skipped(id: item.id, skipNext: item.skipNext))
        say(ToastText.skipped(updated, now: now, zone: zone, language: language))
    }

    func pause() {
        guard let item = selectedAlarm else { return }
        editor = .pause(id: item.id, label: item.label, until: item.pausedUntil)
    }

    func snooze() {
        guard let ringing, let reply = perform(Snooze.self, ringing.snoozeRequest()) else { return }
        if let text = reply.until, let until = try? InstantParser.parse(text, rules: zone.rules) {
            say(ToastText.snoozed(until: until, now: now, zone: zone, language: language))
        }
        reload()
    }

    /// x: stops what rings, or else the chosen item if it is snoozed (its
    /// snooze ends and it does not ring again for this occurrence).
    func stop() {
        if let ringing {
            guard perform(Dismiss.self, ringing.stopRequest) != nil else { return }
            say(language.Lf("“%s” stopped", ringing.title))
        } else if let snoozed = selectedSnoozed {
            guard perform(Dismiss.self, Dismiss.Request(id: snoozed.id)) != nil else { return }
            say(language.Lf("“%s” stopped", snoozed.title))
        }
        reload()
    }

    /// The chosen row's item when it is snoozed.
    var selectedSnoozed: (id: String, title: String)? {
        if let alarm = selectedAlarm, alarm.phase == .snoozed { return (alarm.id, alarm.label) }
        if let todo = selectedTodo ?? selectedTimer, todo.phase == .snoozed { return (todo.id, todo.title) }
        return nil
    }

    /// J/K: the chosen to-do one place down or up; the selection follows it.
    func move(by step: Int) {
        guard tab == .todos, let request = todos.moveRequest(at: selected, by: step) else { return }
        guard let reply = perform(MoveReminder.self, request.request) else { return }
        todos = ReminderList(ReminderItem.list(reply.reminders), content: .todos)
        select(id: request.id, in: .todos)
    }

    // MARK: Forms

    func handleEditor(_ key: Key) {
        guard var form = editor else { return }
        let outcome = form.handle(key)
        editor = form
        switch outcome {
        case .none: break
        case .cancel: editor = nil
        case .save: save()
        case .playSound: playSound()
        }
    }

    private func save() {
        guard var form = editor else { return }
        guard let request = form.request(now: now, zone: zone, language: language) else {
            editor = form
            return
        }
        do throws(DaemonFailure) {
            switch request {
            case .addAlarm(let request): took(alarm: try client.call(AddAlarm.self, request).alarm, saved: true)
            case .updateAlarm(let request):
                took(alarm: try client.call(UpdateAlarm.self, request).alarm, saved: true)
                forgetUndo(of: request.id)
            case .addReminder(let request): took(reminder: try client.call(AddReminder.self, request).reminder)
            case .updateReminder(let request):
                took(reminder: try client.call(UpdateReminder.self, request).reminder)
                forgetUndo(of: request.id)
            case .startTimer(let request, let seconds):
                if let item = ReminderItem.one(try client.call(AddReminder.self, request).reminder) { timers.update(item) }
                say(ToastText.timerStarted(seconds: seconds, language: language))
            case .pause(let id, let until):
                var fields = AlarmFields()
                fields.pausedUntil = .some(until)
                took(alarm: try client.call(UpdateAlarm.self, UpdateAlarm.Request(id: id, fields: fields)).alarm, saved: false)
            }
            editor = nil
        } catch {
            if case .refused(let refusal) = error {
                form.refused(refusal, language: language)
                editor = form
            } else {
                // Nothing typed is lost: the form stays, saying why, and
                // Enter saves it again once alarmd is back.
                form.formError = error.text(in: language)
                editor = form
                lost(error)
            }
        }
        clampSelection()
    }

    private func took(alarm object: JSONObject, saved: Bool) {
        guard let item = AlarmItem.one(object) else { return }
        alarms.update(item)
        select(id: item.id, in: .alarms)
        if saved {
            say(ToastText.alarmSaved(item, now: now, language: language))
        } else {
            // A pause set or ended: which alarm, and when it rings now.
            say(language.Lf("“%1$s”: %2$s", item.label, NextRingPhrase.text(for: item, now: now, zone: zone, in: language)))
        }
    }

    private func took(reminder object: JSONObject) {
        guard let item = ReminderItem.one(object) else { return }
        todos.update(item)
        select(id: item.id, in: .todos)
        say(language.Lf("“%s” saved", item.title))
    }

    /// Ctrl+P in the alarm form: plays the sound at the alarm's volume, and
    /// says when it is not heard and why.
    private func playSound() {
        guard let form = editor else { return }
        let sound: Sound
        do throws(ValidationError) { sound = try Sound.parse(form.soundToPlay) } catch {
            editor?.errors[.sound] = FieldError(.sound, error, in: language).message
            return
        }
        guard let reply = perform(PlaySound.self, PlaySound.Request(sound: sound, volume: form.volumeToPlay)) else { return }
        if let notHeard = reply.notHeard {
            editor?.errors[.sound] = language.Lf("Not heard: %s", notHeard)
        } else {
            editor?.errors[.sound] = nil
            say(language.Lf("Playing %1$s at %2$d %%", reply.path, reply.volume))
        }
    }
}
