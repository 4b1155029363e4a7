// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmProtocol
import Foundation
import Glibc
import Testing

/// The control socket of the real alarmd binary, driven with raw bytes: broken
/// messages get typed errors and never hurt the daemon, framing works however
/// the bytes are split, and only the daemon's own user gets answers.
@Suite struct ControlSocketTests {
    static let status = #"{"method":"io.alarmd.Status"}"#

    /// A daemon that has announced READY (and so listens).
    static func startDaemon() throws -> DaemonProcess {
        let daemon = DaemonProcess()
        try daemon.startAndWaitReady()
        return daemon
    }

    /// `Status` on a new connection must succeed: the daemon survived whatever came before.
    static func expectStillServes(_ daemon: DaemonProcess, after what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            let reply = try RawSocket.call(daemon.socketPath, status)
            let parameters = reply.parameters
            #expect(parameters?["version"]?.stringValue != nil && parameters?["alarms"]?.intValue != nil,
                    "after \(what), Status answered \(reply.text)", sourceLocation: sourceLocation)
        } catch {
            Issue.record("after \(what), Status failed: \(error); daemon running: \(daemon.process.isRunning); stderr: \(daemon.standardError)",
                         sourceLocation: sourceLocation)
        }
    }

    struct Malformed: CustomStringConvertible {
        let description: String
        let bytes: [UInt8]
        let error: String
        /// The `parameter` an `InvalidParameter` must name.
        var parameter: String?
        /// Other parameters the error must carry.
        var errorParameters: JSONObject = [:]

        init(_ description: String, _ text: String, _ error: String, parameter: String? = nil, errorParameters: JSONObject = [:]) {
            self.init(description, Array(text.utf8), error, parameter: parameter, errorParameters: errorParameters)
        }

        init(_ description: String, _ bytes: [UInt8], _ error: String, parameter: String? = nil, errorParameters: JSONObject = [:]) {
            self.description = description
            self.bytes = bytes
            self.error = error
            self.parameter = parameter
            self.errorParameters = errorParameters
        }
    }

    static let invalidRequest = "io.alarmd.InvalidRequest"
    static let invalidParameter = "io.alarmd.InvalidParameter"

    static let malformed: [Malformed] = [
        Malformed("not JSON", "hello", invalidRequest),
        Malformed("a JSON array", "[1,2,3]", invalidRequest),
        Malformed("a JSON string", #""io.alarmd.Status""#, invalidRequest),
        Malformed("an empty message", "", invalidRequest),
        Malformed("no method", #"{"parameters":{}}"#, invalidRequest),
        Malformed("method not a string", #"{"method":42}"#, invalidRequest),
        Malformed("method without a dot", #"{"method":"Status"}"#, invalidRequest),
        Malformed("more not a boolean", #"{"method":"io.alarmd.Status","more":"yes"}"#, invalidRequest),
        Malformed("trailing comma", #"{"method":"io.alarmd.Status",}"#, invalidRequest),
        Malformed("parameters not an object", #"{"method":"io.alarmd.Status","parameters":[1]}"#, invalidParameter, parameter: "parameters"),
        Malformed("unknown method", #"{"method":"io.alarmd.Nope"}"#, "org.varlink.service.MethodNotFound",
                  errorParameters: ["method": "io.alarmd.Nope"]),
        Malformed("unknown service method", #"{"method":"org.varlink.service.Nope"}"#, "org.varlink.service.MethodNotFound"),
        Malformed("unknown interface", #"{"method":"com.example.X"}"#, "org.varlink.service.InterfaceNotFound",
                  errorParameters: ["interface": "com.example"]),
        Malformed("time of the wrong type", #"{"method":"io.alarmd.AddAlarm","parameters":{"fields":{"time":730}}}"#,
                  invalidParameter, parameter: "fields.time"),
        Malformed("fields of the wrong type", #"{"method":"io.alarmd.AddAlarm","parameters":{"fields":"07:30"}}"#,
                  invalidParameter, parameter: "fields"),
        Malformed("missing required time", #"{"method":"io.alarmd.AddAlarm","parameters":{"fields":{}}}"#,
                  invalidParameter, parameter: "fields.time"),
        Malformed("invalid time 25:00", #"{"method":"io.alarmd.AddAlarm","parameters":{"fields":{"time":"25:00"}}}"#,
                  invalidParameter, parameter: "fields.time"),
        Malformed("unknown weekday", #"{"method":"io.alarmd.AddAlarm","parameters":{"fields":{"time":"07:00","days":["mon","xyz"]}}}"#,
                  invalidParameter, parameter: "fields.days"),
        Malformed("an 8th weekday", #"{"method":"io.alarmd.AddAlarm","parameters":{"fields":{"time":"07:00","days":["mon","tue","wed","thu","fri","sat","sun","mon"]}}}"#,
                  invalidParameter, parameter: "fields.days"),
        Malformed("control character in a label", #"{"method":"io.alarmd.AddAlarm","parameters":{"fields":{"time":"07:00","label":"a\u0007b"}}}"#,
                  invalidParameter, parameter: "fields.label"),
        Malformed("snooze minutes out of range", #"{"method":"io.alarmd.AddAlarm","parameters":{"fields":{"time":"07:00","snoozeMinutes":61}}}"#,
                  invalidParameter, parameter: "fields.snoozeMinutes"),
        Malformed("unknown field", #"{"method":"io.alarmd.AddAlarm","parameters":{"fields":{"time":"07:00","tyme":"08:00"}}}"#,
                  invalidParameter, parameter: "fields.tyme"),
        Malformed("invalid UTF-8 in a JSON string",
                  Array(#"{"method":"io.alarmd.AddAlarm","parameters":{"fields":{"time":"07:00","label":"a"#.utf8) + [0xFF] + Array(#"b"}}}"#.utf8),
                  invalidRequest),
        Malformed("overlong UTF-8 in a JSON string",
                  Array(#"{"method":"io.alarmd.AddReminder","parameters":{"title":"x"#.utf8) + [0xC0, 0x80] + Array(#""}}"#.utf8),
                  invalidRequest),
        Malformed("GetAlarm without id", #"{"method":"io.alarmd.GetAlarm"}"#, invalidParameter, parameter: "id"),
        Malformed("Watch without more", #"{"method":"io.alarmd.Watch"}"#, "org.varlink.service.ExpectedMore"),
    ]

    @Test func malformedCallsGetTypedErrorsAndTheDaemonCarriesOn() throws {
        let daemon = try Self.startDaemon()
        defer { daemon.stop() }
        for test in Self.malformed {
            let socket = try RawSocket(path: daemon.socketPath)
            socket.send(test.bytes + [0])
            do {
                let reply = try socket.reply()
                guard let error = reply.error else {
                    Issue.record("\(test): expected \(test.error), got \(reply.text)")
                    continue
                }
                #expect(error.name == test.error, "\(test): \(reply.text)")
                if let parameter = test.parameter {
                    #expect(error.parameters["parameter"]?.stringValue == parameter, "\(test): \(reply.text)")
                    #expect(error.parameters["message"]?.stringValue?.isEmpty == false, "\(test): \(reply.text)")
                }
                for (key, value) in test.errorParameters {
                    #expect(error.parameters[key] == value, "\(test): \(key) in \(reply.text)")
                }
            } catch {
                Issue.record("\(test): \(error)")
            }
            Self.expectStillServes(daemon, after: test.description)
        }
        // None of the refused AddAlarm calls created anything.
        let list = try RawSocket.call(daemon.socketPath, #"{"method":"io.alarmd.ListAlarms"}"#)
        #expect(list.parameters?["alarms"] == .array([]), "\(list.text)")
        #expect(daemon.process.isRunning)
    }

    /// Labels and titles that pass the character limit but not the byte limit,
    /// or carry a separator or bidirectional control, are refused by the real
    /// daemon with the field and the reason, and nothing is stored.
    @Test func oversizeOrReorderingLabelsAreRefusedOnTheWire() throws {
        let daemon = try Self.startDaemon()
        defer { daemon.stop() }
        // One character, 600,001 bytes: within the 1 MiB message limit.
        let heavy = "a" + String(repeating: "\u{301}", count: 300_000)
        let cases: [(call: String, parameter: String, message: String)] = [
            (#"{"method":"io.alarmd.AddAlarm","parameters":{"fields":{"time":"07:00","label":"\#(heavy)"}}}"#,
             "fields.label", "fields.label must be at most 1024 bytes in UTF-8, got 600001 bytes"),
            (#"{"method":"io.alarmd.AddAlarm","parameters":{"fields":{"time":"07:00","label":"evil\u202etxt.exe"}}}"#,
             "fields.label", #"fields.label must not contain line or paragraph separators or bidirectional controls, got "evil\u{202e}txt.exe""#),
            (#"{"method":"io.alarmd.AddReminder","parameters":{"title":"one\u2028two"}}"#,
             "title", #"title must not contain line or paragraph separators or bidirectional controls, got "one\u{2028}two""#),
        ]
        for test in cases {
            let reply = try RawSocket.call(daemon.socketPath, test.call)
            let error = try #require(reply.error, "\(test.parameter): \(reply.text.prefix(300))")
            #expect(error.name == "io.alarmd.InvalidParameter")
            #expect(error.parameters["parameter"]?.stringValue == test.parameter, "\(reply.text.prefix(300))")
            #expect(error.parameters["message"]?.stringValue == test.message, "\(reply.text.prefix(300))")
        }
        let alarms = try RawSocket.call(daemon.socketPath, #"{"method":"io.alarmd.ListAlarms"}"#)
        #expect(alarms.parameters?["alarms"] == .array([]), "\(alarms.text)")
        let reminders = try RawSocket.call(daemon.socketPath, #"{"method":"io.alarmd.ListReminders"}"#)
        #expect(reminders.parameters?["reminders"] == .array([]), "\(reminders.text.prefix(300))")
    }

    /// The default limits: 1 MiB for any request, more for an `Import`.
    @Test func aMessageOverTheLimitIsRefused() throws {
        let daemon = DaemonProcess()
        try daemon.startAndWaitReady()
        defer { daemon.stop() }
        let socket = try RawSocket(path: daemon.socketPath)
        // A string that never ends: 1 MiB + 1 bytes, no NUL.
        var bytes = Array(#"{"method":"io.alarmd.AddReminder","parameters":{"title":""#.utf8)
        bytes += [UInt8](repeating: UInt8(ascii: "a"), count: (1 << 20) + 1 - bytes.count)
        #expect(bytes.count == (1 << 20) + 1)
        let started = Date()
        socket.send(bytes)  // may fail part way if the server closes early: fine
        switch socket.receive(timeout: 15) {
        case .message(let reply):
            let decoded = try VarlinkReply(message: reply)
            #expect(decoded.error != nil, "an over-long message got a real answer: \(decoded.text)")
            // And then the connection is closed.
            let next = socket.receive(timeout: 10)
            #expect(next == .closed(pending: []), "after the error reply: \(next)")
        case .closed:
            break
        case .timedOut:
            Issue.record("the daemon neither answered nor closed within \(Date().timeIntervalSince(started)) s after an over-long message")
        }
        Self.expectStillServes(daemon, after: "an over-long message")
        // A message just under the limit is still a normal message (JSON may carry that much whitespace).
        let padded = #"{"method":"io.alarmd.Status""# + String(repeating: " ", count: (1 << 20) - 100) + "}"
        let reply = try RawSocket.call(daemon.socketPath, padded)
        #expect(reply.parameters?["version"] != nil, "a \(padded.utf8.count)-byte message: \(reply.text)")
        // An import document over 1 MiB is one request, and welcome.
        let labels = (0..<4096).map { _ in #"{"time":"07:00","label":"\#(String(repeating: "x", count: 250))","days":[],"id":"\#(UUID().uuidString.lowercased())"}"# }
        let document = #"{"method":"io.alarmd.Import","parameters":{"document":{"format":"alarmd","version":1,"alarms":["# + labels.joined(separator: ",") + "],\"reminders\":[]}}}"
        #expect(document.utf8.count > 1 << 20)
        let imported = try RawSocket.call(daemon.socketPath, document)
        #expect(imported.parameters?["alarms"] == 4096, "\(imported.text.prefix(300))")
    }

    @Test func severalMessagesInOneWriteGetRepliesInOrder() throws {
        let daemon = try Self.startDaemon()
        defer { daemon.stop() }
        let socket = try RawSocket(path: daemon.socketPath)
        let calls = [
            #"{"method":"io.alarmd.Status"}"#,
            #"{"method":"io.alarmd.ListAlarms"}"#,
            #"{"method":"io.alarmd.Nope"}"#,
            #"{"method":"org.varlink.service.GetInfo"}"#,
            #"{"method":"io.alarmd.AddAlarm","parameters":{"fields":{"time":"06:45","label":"Batch"}}}"#,
            #"{"method":"io.alarmd.ListAlarms"}"#,
        ]
        #expect(socket.send(calls.map { Array($0.utf8) + [0] }.joined().map { $0 }))
        let replies = try (0..<calls.count).map { _ in try socket.reply() }
        #expect(replies[0].parameters?["version"] != nil, "\(replies[0].text)")
        #expect(replies[1].parameters?["alarms"] == .array([]), "\(replies[1].text)")
        #expect(replies[2].error?.name == "org.varlink.service.MethodNotFound", "\(replies[2].text)")
        #expect(replies[3].parameters?["vendor"] != nil, "\(replies[3].text)")
        #expect(replies[4].parameters?["alarm"]?.objectValue?["label"] == "Batch", "\(replies[4].text)")
        #expect(replies[5].parameters?["alarms"]?.arrayValue?.count == 1, "\(replies[5].text)")
        #expect(socket.receive(timeout: 0.3) == .timedOut(pending: []), "no extra replies")
    }

    @Test func aMessageSplitAcrossWritesGetsItsReply() throws {
        let daemon = try Self.startDaemon()
        defer { daemon.stop() }
        let socket = try RawSocket(path: daemon.socketPath)
        for piece in [#"{"meth"#, #"od":"io.al"#, #"armd.Sta"#, #"tus"}"#] {
            #expect(socket.send(piece))
            usleep(150_000)
            #expect(socket.receive(timeout: 0.05) == .timedOut(pending: []), "a reply before the NUL")
        }
        #expect(socket.send([0]))
        let reply = try socket.reply()
        #expect(reply.parameters?["version"] != nil, "\(reply.text)")

        // Byte by byte, the NUL of one message in the same write as the start of the next.
        let message = Array(#"{"method":"io.alarmd.ListAlarms"}"#.utf8)
        for byte in message { socket.send([byte]); usleep(2_000) }
        socket.send([0] + Array(#"{"method":"org.varlink.service.Get"#.utf8))
        let list = try socket.reply()
        #expect(list.parameters?["alarms"] == .array([]), "\(list.text)")
        usleep(100_000)
        socket.send(Array(#"Info"}"#.utf8) + [0])
        let info = try socket.reply()
        #expect(info.parameters?["vendor"] != nil, "\(info.text)")
    }

    @Test func onewayCallsGetNoReply() throws {
        let daemon = try Self.startDaemon()
        defer { daemon.stop() }
        let socket = try RawSocket(path: daemon.socketPath)
        socket.sendMessage(#"{"method":"io.alarmd.AddAlarm","parameters":{"fields":{"time":"05:55","label":"Oneway"}},"oneway":true}"#)
        socket.sendMessage(#"{"method":"io.alarmd.Status","oneway":true}"#)
        socket.sendMessage(#"{"method":"io.alarmd.Nope","oneway":true}"#)
        // The next call's reply is the first thing that arrives, and it sees the oneway call's effect.
        let reply = try socket.call(#"{"method":"io.alarmd.ListAlarms"}"#)
        let alarms = reply.parameters?["alarms"]?.arrayValue ?? []
        #expect(alarms.count == 1 && alarms.first?.objectValue?["label"] == "Oneway", "first reply: \(reply.text)")
        #expect(socket.receive(timeout: 0.5) == .timedOut(pending: []), "no reply to the oneway calls")
    }

    @Test func getInfo() throws {
        let daemon = try Self.startDaemon()
        defer { daemon.stop() }
        let reply = try RawSocket.call(daemon.socketPath, #"{"method":"org.varlink.service.GetInfo"}"#)
        let info = try #require(reply.parameters, "\(reply.text)")
        for key in ["vendor", "product", "version", "url"] {
            #expect(info[key]?.stringValue?.isEmpty == false, "\(key) in \(reply.text)")
        }
        let interfaces = info["interfaces"]?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(interfaces.contains("io.alarmd"), "\(reply.text)")
        #expect(interfaces.contains("org.varlink.service"), "\(reply.text)")
        // The version agrees with Status.
        let status = try RawSocket.call(daemon.socketPath, Self.status)
        #expect(status.parameters?["version"] == info["version"], "\(status.text)")
    }

    @Test func getInterfaceDescription() throws {
        let daemon = try Self.startDaemon()
        defer { daemon.stop() }
        let reply = try RawSocket.call(daemon.socketPath, #"{"method":"org.varlink.service.GetInterfaceDescription","parameters":{"interface":"io.alarmd"}}"#)
        let description = reply.parameters?["description"]?.stringValue
        #expect(description == InterfaceDefinition.text, "\(reply.text.prefix(300))")

        let unknown = try RawSocket.call(daemon.socketPath, #"{"method":"org.varlink.service.GetInterfaceDescription","parameters":{"interface":"com.example.nothing"}}"#)
        #expect(unknown.error?.name == "org.varlink.service.InterfaceNotFound", "\(unknown.text)")
        #expect(unknown.error?.parameters["interface"] == "com.example.nothing", "\(unknown.text)")
    }

    @Test func watchStreamsAFiredEvent() throws {
        let daemon = try Self.startDaemon()
        defer { daemon.stop() }
        let watcher = try RawSocket(path: daemon.socketPath)
        watcher.sendMessage(#"{"method":"io.alarmd.Watch","more":true}"#)
        #expect(watcher.receive(timeout: 0.3) == .timedOut(pending: []), "Watch answered before any event")
        let due = WireTime.string(Date().addingTimeInterval(1), in: Zone(identifier: "Asia/Kolkata")!)
        let added = try RawSocket.call(daemon.socketPath, #"{"method":"io.alarmd.AddReminder","parameters":{"title":"Raw watch","due":"\#(due)"}}"#)
        let id = try #require(added.parameters?["reminder"]?.objectValue?["id"]?.stringValue, "\(added.text)")
        let deadline = Date().addingTimeInterval(10)
        var seen: [String] = []
        var fired: JSONObject?
        while fired == nil, Date() < deadline {
            let reply = try watcher.reply(timeout: deadline.timeIntervalSinceNow)
            seen.append(reply.text)
            guard case .parameters(let parameters, let continues) = reply else {
                Issue.record("Watch sent an error: \(reply.text)")
                return
            }
            #expect(continues, "a Watch reply without continues: \(reply.text)")
            if let event = parameters["event"]?.objectValue, event["kind"] == "fired", event["id"] == .string(id) { fired = event }
        }
        let event = try #require(fired, "no fired event within 10 s; saw \(seen)")
        #expect(event["itemKind"] == "reminder")
        #expect(event["title"] == "Raw watch")
        #expect(event["actual"]?.stringValue != nil)
    }

    @Test func socketAndDirectoryArePrivate() throws {
        let daemon = try Self.startDaemon()
        defer { daemon.stop() }
        var info = stat()
        let directory = (daemon.socketPath as NSString).deletingLastPathComponent
        #expect(stat(directory, &info) == 0)
        #expect(info.st_mode & S_IFMT == S_IFDIR)
        #expect(info.st_mode & 0o7777 == 0o700, "directory mode \(String(info.st_mode & 0o7777, radix: 8))")
        #expect(info.st_uid == getuid())
        #expect(lstat(daemon.socketPath, &info) == 0)
        #expect(info.st_mode & S_IFMT == S_IFSOCK)
        #expect(info.st_mode & 0o7777 == 0o600, "socket mode \(String(info.st_mode & 0o7777, radix: 8))")
        #expect(info.st_uid == getuid())
    }

    static let runsAsRoot = getuid() == 0
    static let nobody: uid_t = 65534

    /// A Python client run as `nobody`: prints `REPLY <json>`, `CLOSED`, `RESET`,
    /// `TIMEOUT` or `CONNECT <errno name>`.
    /// Connects, sends nothing (the refusal comes on accept, and unread
    /// bytes would turn the daemon's close into a reset), reads to the end.
    static let nobodyClient = #"""
    import errno, socket, sys
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        s.connect(sys.argv[1])
    except OSError as e:
        print("CONNECT", errno.errorcode.get(e.errno, e.errno)); sys.exit(0)
    s.settimeout(5)
    data = b""
    try:
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
    except socket.timeout:
        print("TIMEOUT", data.decode("utf-8", "replace")); sys.exit(0)
    except ConnectionResetError:
        print("RESET", data.decode("utf-8", "replace")); sys.exit(0)
    print("CLOSED " + data.decode("utf-8", "replace"))
    """#

    @Test(.enabled(if: runsAsRoot, "refusing another uid needs root to run a client as nobody"))
    func anotherUserIsRefused() throws {
        let daemon = try Self.startDaemon()
        defer { daemon.stop() }
        // Simulate a misconfiguration: open the path up so that only the
        // daemon's SO_PEERCRED check stands between nobody and the socket.
        for directory in [daemon.directory.path, daemon.directory.path + "/runtime", daemon.directory.path + "/runtime/alarmd"] {
            #expect(chmod(directory, 0o711) == 0, "chmod \(directory)")
        }
        #expect(chmod(daemon.socketPath, 0o666) == 0)

        let python = ["/usr/bin/python3", "/usr/local/bin/python3"].first { FileManager.default.isExecutableFile(atPath: $0) }
        let interpreter = try #require(python, "no system python3 that nobody can run (apt-get install python3)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = ["--reuid=\(Self.nobody)", "--regid=\(Self.nobody)", "--clear-groups", interpreter, "-I", "-c", Self.nobodyClient, daemon.socketPath]
        process.currentDirectoryURL = URL(fileURLWithPath: "/")
        let output = PipeCollector()
        let errors = PipeCollector()
        process.standardOutput = output.pipe
        process.standardError = errors.pipe
        try process.run()
        let finished = waitUntil(timeout: 20) { !process.isRunning }
        if !finished { process.terminate() }
        process.waitUntilExit()
        _ = waitUntil(timeout: 1) { !output.text.isEmpty }
        let result = output.text.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(process.terminationStatus == 0, "client as nobody failed: \(result) \(errors.text)")

        // An error reply, then the daemon hangs up.
        #expect(result.hasPrefix("CLOSED "), "nobody's client: \(result) \(errors.text) (CONNECT means the file permissions stopped it before SO_PEERCRED could)")
        let messages = result.dropFirst(7).split(separator: "\0", omittingEmptySubsequences: true)
        #expect(messages.count == 1, "\(result)")
        if let first = messages.first {
            let reply = try VarlinkReply(message: Array(first.utf8))
            #expect(reply.error?.name == "org.varlink.service.PermissionDenied", "nobody got: \(reply.text)")
        }

        // The daemon's own user still gets answers.
        Self.expectStillServes(daemon, after: "a refused connection from uid \(Self.nobody)")

        if JournalFixture.isAvailable {
            var warnings: [[String: String]] = []
            let logged = waitUntil(timeout: 10) {
                warnings = JournalFixture.query(["SYSLOG_IDENTIFIER=alarmd"], of: daemon)
                    .filter { ($0["MESSAGE"] ?? "").contains(String(Self.nobody)) }
                return !warnings.isEmpty
            }
            #expect(logged, "no alarmd journal entry mentions uid \(Self.nobody); stderr: \(daemon.standardError)")
            if let warning = warnings.first {
                #expect(Int(warning["PRIORITY"] ?? "") ?? 7 <= 4, "not logged as a warning: \(warning)")
            }
        } else {
            print("ControlSocketTests: journal check skipped: \(JournalFixture.unavailableReason ?? "")")
        }
    }
}
