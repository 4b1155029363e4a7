import AlarmCore
import AlarmStore
import Foundation

// Until the scheduler lands, alarmd opens (creating or migrating) the store and
// shows what it holds and when each enabled item fires next.
let environment = ProcessInfo.processInfo.environment
let path = Store.defaultPath(environment: environment)
do {
    let store = try Store(path: path)
    defer { store.close() }
    let zone = TimeZone.current
    let now = Date()
    let alarms = try store.alarms().sorted { $0.time < $1.time }
    let reminders = try store.reminders()
    print("alarmd: \(path): \(alarms.count) alarms, \(reminders.count) reminders (schema \(Store.currentSchemaVersion))")
    for alarm in alarms {
        let next = alarm.enabled ? alarm.nextFire(after: now, in: zone).map { "next \($0)" } ?? "" : "off"
        print("  \(alarm.time)  \(alarm.listLine)  \(next)")
    }
    for reminder in reminders {
        print("  [\(reminder.done ? "x" : " ")] \(reminder.title)\(reminder.due.map { "  due \($0)" } ?? "")")
    }
} catch {
    FileHandle.standardError.write(Data("alarmd: \(error)\n".utf8))
    exit(78)
}
