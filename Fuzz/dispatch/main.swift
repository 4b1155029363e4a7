// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: request dispatch. Varlink messages are decoded and handled
// by the daemon's ControlService against a real Scheduler on a real SQLite
// store (in a temporary directory), the way ControlServer routes them.
//
// The input is a byte stream of up to 8 NUL-ended calls, handled in order.
// Before each input the items are reset to a fixed set (two alarms, three
// reminders, one of them ringing) whenever the previous input may have changed
// them, so every input starts from the same state and ids in the seeds resolve.
//
// Invariants:
//   - nothing traps; every failure is a Varlink error, io.alarmd ones declared
//     in the interface, never StoreFailure (the disk is fine);
//   - a successful reply carries exactly the fields the interface declares for
//     that method; every reply re-encodes and reads back equal, and reads as
//     its method's typed reply (as alarmctl and the app read it), which writes
//     it again byte for byte;
//   - after the calls, Status, ListAlarms and ListReminders agree on counts, and
//     what Export returns is a document Import accepts, with the same items.
@testable import AlarmDaemon
import AlarmCore
import AlarmProtocol
import AlarmStore
import Foundation
import SystemCalls

struct SilentRinger: Ringer {
    func startRinging(_ item: Item, occurrence: Date, snoozeCount: Int, resumed: Bool) {}
    func stopRinging(_ id: UUID) {}
    func escalate(_ id: UUID) {}
    func showMissed(_ item: Item, scheduled: Date, zone: Zone) {}
    func stopAll() {}
}

/// The `io.alarmd` interface, read from its definition: method -> reply fields.
let declaredReplies: [String: Set<String>] = {
    var result: [String: Set<String>] = [:]
    let lines = InterfaceDefinition.text.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("#") }
    let text = lines.joined(separator: "\n")
    var rest = Substring(text)
    while let start = rest.range(of: "\nmethod ") {
        rest = rest[start.upperBound...]
        let name = String(rest.prefix { $0 != "(" })
        guard let arrow = rest.range(of: "-> (") else { break }
        let after = rest[arrow.upperBound...]
        let body = after.prefix { $0 != ")" }
        result[name] = Set(body.split(separator: ",").compactMap { field in
            let name = field.split(separator: ":").first?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            return name.isEmpty ? nil : name
        })
        rest = after
    }
    return result
}()

let declaredErrors: Set<String> = Set(InterfaceDefinition.text.split(separator: "\n").compactMap { line in
    line.hasPrefix("error ") ? "io.alarmd." + line.dropFirst(6).prefix { $0 != " " && $0 != "(" } : nil
}).union(["org.varlink.service.MethodNotFound", "org.varlink.service.InterfaceNotFound", "org.varlink.service.InvalidParameter",
          "org.varlink.service.ExpectedMore", "org.varlink.service.PermissionDenied"])

/// What `org.varlink.service` replies carry.
let serviceReplies: [String: Set<String>] = [
    "org.varlink.service.GetInfo": ["vendor", "product", "version", "url", "interfaces"],
    "org.varlink.service.GetInterfaceDescription": ["description"],
]

/// Methods that leave the items as they were.
let readOnly: Set<String> = ["ListAlarms", "GetAlarm", "ListReminders", "GetReminder", "Upcoming", "Status", "ListSounds", "Export", "Watch"]

/// Events collected from the scheduler's queue.
final class EventBox: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [DaemonEvent] = []
    func append(_ event: DaemonEvent) { lock.lock(); events.append(event); lock.unlock() }
    func take() -> [DaemonEvent] { lock.lock(); defer { events = []; lock.unlock() }; return events }
}

/// One reply, handed from the thread that answers to the one that waits.
final class Answer: @unchecked Sendable {
    private let lock = NSLock()
    private let arrived = DispatchSemaphore(value: 0)
    private var result: Result<JSONObject, VarlinkError>?
    func put(_ result: Result<JSONObject, VarlinkError>) { lock.lock(); self.result = result; lock.unlock(); arrived.signal() }
    func take() -> Result<JSONObject, VarlinkError> { arrived.wait(); lock.lock(); defer { lock.unlock() }; return result! }
}

final class Harness {
    let directory: String
    let clock = ShiftedClock()
    let store: Store
    let scheduler: Scheduler
    let service: ControlService
    var dirty = true
    /// Whether the input subscribed with `Watch`, and the events since it began
    /// (published on the scheduler's queue while a call runs).
    var watching = false
    let events = EventBox()

    static let alarmA = UUID(uuidString: "11111111-1111-4111-8111-111111111111")!
    static let alarmB = UUID(uuidString: "22222222-2222-4222-8222-222222222222")!
    static let reminderR = UUID(uuidString: "33333333-3333-4333-8333-333333333333")!
    static let reminderD = UUID(uuidString: "33334444-4444-4444-8444-444444444444")!
    static let ringing = UUID(uuidString: "44444444-4444-4444-8444-444444444444")!

    init() {
        let base = ProcessInfo.processInfo.environment["FUZZ_TMPDIR"]
            ?? (access("/dev/shm", W_OK) == 0 ? "/dev/shm" : NSTemporaryDirectory())
        directory = "\(base)/alarmd-fuzz-\(getpid())-\(UUID().uuidString.prefix(8))"
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            store = try Store(path: directory + "/alarmd.sqlite3")
        } catch {
            fatalError("cannot open the store: \(error)")
        }
        // The journal gets nothing: no socket, so it falls back to stderr,
        // which Fuzz/run closes for this target (-close_fd_mask=2).
        let journal = Journal(identifier: "alarmd-fuzz", socketPath: directory + "/no-journal")
        scheduler = Scheduler(store: store, clock: clock, journal: journal, ringer: SilentRinger(),
                              policy: RingPolicy(missedGrace: 300, reminderSnooze: SnoozeSettings(enabled: true, minutes: 9, maxCount: 3), reminderRingSeconds: 600),
                              zone: Zone(identifier: "America/New_York")!, owner: { do { return try Owner() } catch { fatalError("owner: \(error)") } }())
        do { try scheduler.start() } catch { fatalError("scheduler start: \(error)") }
        service = ControlService(scheduler: scheduler, defaults: { DaemonConfig() }, sounds: {
            [Wire.SoundFile(name: "alarm-clock-elapsed", theme: "freedesktop", path: "/usr/share/sounds/freedesktop/stereo/alarm-clock-elapsed.oga"),
             Wire.SoundFile(name: "bell", theme: "freedesktop", path: "/usr/share/sounds/freedesktop/stereo/bell.oga")]
        })
        atexit_directories.append(directory)
        let events = events
        _ = scheduler.events.subscribe { event in events.append(event) }
    }

    /// Every event the input caused, as a `Watch` subscriber receives it.
    func checkWatched() {
        let seen = events.take()
        guard watching else { return }
        for event in seen {
            let json = ControlService.eventJSON(event, zone: service.zone())
            checkReply("Watch", .parameters(ControlService.watchReply(event, zone: service.zone()), continues: true))
            guard case .object(let object) = json else { check(false, "a Watch event is not an object: \(json.jsonText)"); continue }
            let item = event.item.kind == .alarm ? "alarm" : "reminder", other = item == "alarm" ? "reminder" : "alarm"
            check(object[item]?.objectValue?["id"] == object["id"] && object[other] == nil,
                  "a \(event.kind.rawValue) event of an \(item) does not carry it: \(json.jsonText.prefix(300))")
        }
    }

    /// Puts the fixed items back and makes one reminder ring.
    func reset() {
        let created = Date(timeIntervalSince1970: 1_772_000_000)
        let now = clock.now()
        let alarms = [
            Alarm(id: Self.alarmA, time: try! TimeOfDay(hour: 7, minute: 30), days: .weekdays, label: "Work", created: created),
            Alarm(id: Self.alarmB, time: try! TimeOfDay(hour: 23, minute: 59), label: "Flight", sound: .none, timeZone: Zone(identifier: "Asia/Tokyo")!, created: created),
        ]
        let reminders = [
            Reminder(id: Self.reminderR, title: "Stretch", notes: "stand up", due: Date(timeIntervalSince1970: 1_893_488_400), position: 0, created: created),
            Reminder(id: Self.reminderD, title: "Done one", done: true, position: 1, created: created),
            Reminder(id: Self.ringing, title: "Ring me", due: now.addingTimeInterval(0.5), position: 2, command: ["/bin/true"], created: created),
        ]
        // On the owner, as every request, answered once durable.
        let replaced = DispatchSemaphore(value: 0)
        let scheduler = scheduler
        scheduler.owner.queue.async {
            scheduler.replaceAll(alarms: alarms, reminders: reminders) { result in
                if case .failure(let error) = result { fatalError("reset: \(error)") }
                replaced.signal()
            }
        }
        replaced.wait()
        // Move the clock past the due time, as the clock watcher would report it:
        // the reminder rings, everything else is hours away.
        clock.shift(by: 1)
        scheduler.owner.queue.sync { scheduler.clockChanged(ClockChange(jump: 1, resumed: false)) }
        // The clock only moves forward (1 s per reset), so now and then it
        // passes one of the alarms too, which then rings as well.
        check(scheduler.ringing.contains(Self.ringing), "reset: the reminder does not ring: \(scheduler.ringing)")
        dirty = false
    }

    /// ControlServer.handle, minus the socket.
    func handle(_ message: [UInt8]) -> (member: String, reply: VarlinkReply)? {
        let call: VarlinkCall
        do throws(VarlinkError) { call = try VarlinkCall(message: message) } catch {
            return ("", .error(error))
        }
        switch call.interface {
        case "org.varlink.service":
            return ("org.varlink.service." + call.member, ControlServer.serviceInterface.reply(to: call))
        case InterfaceDefinition.name where call.member == "Watch":
            // A subscription lives on a connection; here it is the scheduler's
            // event stream, and every event the input causes is encoded as
            // ControlServer sends it (see `checkWatched`).
            guard call.more else { return ("Watch", .error(.expectedMore())) }
            watching = true
            return nil
        case InterfaceDefinition.name:
            if !readOnly.contains(call.member) { dirty = true }
            switch serve(call.member, Parameters(call.parameters)) {
            case .success(let parameters): return (call.member, .parameters(parameters, continues: false))
            case .failure(let error): return (call.member, .error(error))
            }
        default:
            return (call.member, .error(.interfaceNotFound(call.interface)))
        }
    }

    /// `ControlService.handle` as ControlServer calls it, on the owner, and
    /// its answer once it comes (a change answers after its durable commit).
    func serve(_ member: String, _ parameters: Parameters) -> Result<JSONObject, VarlinkError> {
        let answer = Answer()
        let service = service
        scheduler.owner.queue.async {
            service.handle(member, parameters) { answer.put($0) }
        }
        return answer.take()
    }

    /// A call and its typed reply; `nil` (after a failed check) when it fails.
    func call<M: VarlinkMethod>(_ method: M.Type, _ request: M.Request) -> M.Reply? {
        switch serve(M.name, Parameters(request.json)) {
        case .success(let parameters):
            switch typedReply(method, parameters) {
            case .success(let reply): return reply
            case .failure(let error): check(false, "\(M.name)'s reply after the input does not read: \(error)")
            }
        case .failure(let error):
            check(false, "\(M.name) after the input failed: \(error)")
        }
        return nil
    }

    /// The daemon agrees with itself after the input's calls.
    func checkConsistency() {
        guard let status = call(Status.self, NoMembers()), let alarms = call(ListAlarms.self, NoMembers())?.alarms,
              let reminders = call(ListReminders.self, ListReminders.Request(all: true))?.reminders else { return }
        check(status.alarms == alarms.count, "Status says \(status.alarms) alarms, ListAlarms lists \(alarms.count)")
        check(status.reminders == reminders.count, "Status says \(status.reminders) reminders, ListReminders lists \(reminders.count)")
        let positions = reminders.compactMap { $0[Wire.Reminder.position]?.intValue }
        check(positions == Array(0..<reminders.count), "reminder positions are not dense: \(positions)")

        guard let document = call(Export.self, Export.Request(timers: true))?.document else { return }
        do throws(VarlinkError) {
            let items = try ExportDocument.parse(Parameters(document, path: "document."), zone: scheduler.systemZone)
            check(items.alarms.count == alarms.count && items.reminders.count == reminders.count, "Export and the lists disagree")
        } catch {
            // Known findings: instants that print with a seconds offset (local
            // mean time before ~1900) or a year outside 0000-9999.
            let message = error.description
            let known = message.range(of: #"[+-]\d\d:\d\d:\d\d""#, options: .regularExpression) != nil ? "offset-seconds"
                : message.range(of: #"got "(-\d|\d{5})"#, options: .regularExpression) != nil ? "year-range" : nil
            check(false, "the daemon's own Export does not import: \(error)", known: known)
        }
    }
}

nonisolated(unsafe) var atexit_directories: [String] = []
nonisolated(unsafe) var harness: Harness?
/// FUZZ_VERBOSE=1 prints each call's reply (to check what seeds reach).
let verbose = ProcessInfo.processInfo.environment["FUZZ_VERBOSE"] == "1"

/// A reply read as `method`'s typed reply.
func typedReply<M: VarlinkMethod>(_ method: M.Type, _ parameters: JSONObject) -> Result<M.Reply, VarlinkError> {
    do throws(VarlinkError) { return .success(try M.Reply(Parameters(parameters))) } catch { return .failure(error) }
}

/// A reply read as `method`'s typed reply and written again.
func rewritten<M: VarlinkMethod>(_ method: M.Type, _ parameters: JSONObject) -> Result<JSONObject, VarlinkError> {
    typedReply(method, parameters).map(\.json)
}

func checkReply(_ member: String, _ reply: VarlinkReply) {
    let text = reply.json.jsonText
    do throws(VarlinkError) {
        let again = try VarlinkReply(message: Array(text.utf8))
        check(again == reply, "reply to \(member) changes when read back: \(quoted(text))")
    } catch {
        check(false, "reply to \(member) does not read back: \(error)")
    }
    switch reply {
    case .error(let error):
        check(declaredErrors.contains(error.name), "\(member) failed with undeclared error \(error.name): \(error)")
        check(error.name != "io.alarmd.StoreFailure", "\(member) failed with StoreFailure: \(error)", known: "store-failure")
        if error.name == "io.alarmd.InvalidParameter" {
            // (It may be "": a member named "" is refused by that name.)
            check(error.parameters["parameter"]?.stringValue != nil, "InvalidParameter without a parameter name: \(error)")
        }
    case .parameters(let parameters, _):
        guard let declared = declaredReplies[member] ?? serviceReplies[member] else {
            check(false, "\(member) succeeded but is not in the interface")
            return
        }
        check(Set(parameters.keys) == declared, "reply to \(member) has \(parameters.keys.sorted()), the interface declares \(declared.sorted())")
        guard let method = InterfaceDefinition.methodTypes.first(where: { $0.name == member }) else { return }
        switch rewritten(method, parameters) {
        case .success(let again):
            check(JSONValue.object(again).jsonText == JSONValue.object(parameters).jsonText,
                  "reply to \(member) changes when read as its typed reply: \(quoted(JSONValue.object(parameters).jsonText)) -> \(quoted(JSONValue.object(again).jsonText))")
        case .failure(let error):
            check(false, "reply to \(member) does not read as its typed reply: \(error)")
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size <= 16_384 else { return -1 }
    if harness == nil {
        harness = Harness()
        atexit {
            for directory in atexit_directories { try? FileManager.default.removeItem(atPath: directory) }
        }
    }
    let harness = harness!
    if harness.dirty { harness.reset() }

    harness.watching = false
    _ = harness.events.take()
    var framer = VarlinkFramer(maxMessageSize: 16_384)
    var messages = (try? framer.append(bytesOf(data, size))) ?? []
    if messages.isEmpty { messages = [bytesOf(data, size)] }
    var handled = false
    for message in messages.prefix(8) {
        guard let (member, reply) = harness.handle(message) else { continue }
        if verbose { report("\(member): \(reply.json.jsonText.prefix(300))\n") }
        checkReply(member, reply)
        handled = true
    }
    harness.checkWatched()
    if handled && harness.dirty { harness.checkConsistency() }
    return 0
}
