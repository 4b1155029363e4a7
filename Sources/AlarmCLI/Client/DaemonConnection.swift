// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmProtocol
import AlarmViewModels

/// alarmd as the commands see it: typed calls, each answered with what the
/// daemon sent and the method's typed reply read from it (``Answer``), every
/// failure already turned into a `CLIError` with its message and exit code.
///
/// Connects on the first call, so a command line that fails to parse never
/// touches the socket.
final class DaemonConnection {
    /// How long a call may take before alarmctl gives up on the daemon.
    static let timeout = 10.0

    let path: String
    private var client: VarlinkClient?
    /// Work of the command's own to do while the daemon works on a call.
    private let whileWaiting: () -> Void
    /// The options this command line gave for wire parameters that more than
    /// one option sets (``DaemonErrorText/names(given:)``).
    private let names: [String: String]

    init(path: String, whileWaiting: @escaping () -> Void = {}, names: [String: String] = [:]) {
        self.path = path
        self.whileWaiting = whileWaiting
        self.names = names
    }

    /// Finds the system zone, which most replies are shown in, while the
    /// daemon answers the first call (a durable commit takes about as long).
    convenience init(_ arguments: ParsedArguments, _ context: CommandContext) {
        self.init(path: SocketPath.resolve(option: arguments.value(.socket), environment: context.environment, userID: context.userID),
                  whileWaiting: { context.prepareSystemZone() }, names: DaemonErrorText.names(given: arguments))
    }

    /// Calls the method and returns its answer. `subject` names what the
    /// id refers to in a "no such item" message.
    func call<M: VarlinkMethod>(_ method: M.Type, _ request: M.Request, subject: String = N_("alarm or reminder")) throws(CLIError) -> Answer<M.Reply> {
        try attempt(method, request, subject: subject).get()
    }

    /// Calls a method that takes no parameters.
    func call<M: VarlinkMethod>(_ method: M.Type) throws(CLIError) -> Answer<M.Reply> where M.Request == NoMembers {
        try call(method, NoMembers())
    }

    /// The alarm `id` names (an id, a prefix of one, or a label), as alarmd has it now.
    func alarm(_ id: String) throws(CLIError) -> AlarmView {
        try attemptAlarm(id).get()
    }

    /// Like ``alarm(_:)``, with a refusal as a value, for a command acting on several ids.
    func attemptAlarm(_ id: String) throws(CLIError) -> Result<AlarmView, CLIError> {
        try attempt(GetAlarm.self, .init(id: id), subject: N_("alarm")).flatMap { answer in
            Result { () throws(CLIError) in AlarmView(try answer.read().alarm) }
        }
    }

    /// The reminder `id` names; `subject` is what a missing one was supposed to be.
    func reminder(_ id: String, subject: String = N_("reminder")) throws(CLIError) -> ReminderView {
        try attemptReminder(id, subject: subject).get()
    }

    /// Like ``reminder(_:subject:)``, with a refusal as a value.
    func attemptReminder(_ id: String, subject: String = N_("reminder")) throws(CLIError) -> Result<ReminderView, CLIError> {
        try attempt(GetReminder.self, .init(id: id), subject: subject).flatMap { answer in
            Result { () throws(CLIError) in ReminderView(try answer.read().reminder) }
        }
    }

    /// Like `call`, but a daemon error comes back as a value, so a command acting
    /// on several ids can report it and go on. Transport failures still throw.
    func attempt<M: VarlinkMethod>(_ method: M.Type, _ request: M.Request, subject: String = N_("alarm or reminder")) throws(CLIError) -> Result<Answer<M.Reply>, CLIError> {
        try exchange(method, request).mapError { error in
            if case .noSuchItem? = InterfaceError(error) { return .notFound(message(for: error, subject: subject)) }
            return .daemon(message(for: error, subject: subject))
        }
    }

    /// Like `attempt`, with the daemon's error as it came, for a command
    /// that says more about one of them (see ``message(for:subject:)``).
    func exchange<M: VarlinkMethod>(_ method: M.Type, _ request: M.Request) throws(CLIError) -> Result<Answer<M.Reply>, VarlinkError> {
        let client = try connected(timeout: Self.timeout)
        do throws(VarlinkClient.Failure) {
            try client.send(VarlinkCall(method: M.qualifiedName, parameters: request.json))
            whileWaiting()
            switch try client.receive() {
            case .parameters(let reply, _): return .success(Answer(reply))
            case .error(let error): return .failure(error)
            }
        } catch {
            throw failure(error)
        }
    }

    /// The daemon's error in the reader's words, its parameters named as typed.
    func message(for error: VarlinkError, subject: String = N_("alarm or reminder")) -> String {
        DaemonErrorText.message(for: error, subject: subject, names: names)
    }

    /// Calls a method with `more: true` and hands each answer to `body` as it
    /// arrives, until the daemon sends its last reply (for `Watch`, never).
    /// There is no timeout: a quiet daemon is a normal state here.
    func stream<M: VarlinkMethod>(_ method: M.Type, _ request: M.Request, _ body: (Answer<M.Reply>) throws(CLIError) -> Void) throws(CLIError) {
        let client = try connected(timeout: nil)
        do throws(VarlinkClient.Failure) {
            try client.send(VarlinkCall(method: M.qualifiedName, parameters: request.json, more: true))
        } catch {
            throw failure(error)
        }
        while true {
            let reply: VarlinkReply
            do throws(VarlinkClient.Failure) { reply = try client.receive() } catch { throw failure(error) }
            switch reply {
            case .parameters(let parameters, let continues):
                try body(Answer(parameters))
                if !continues { return }
            case .error(let error):
                throw .daemon(DaemonErrorText.message(for: error, subject: N_("alarm or reminder"), names: names))
            }
        }
    }

    private func connected(timeout: Double?) throws(CLIError) -> VarlinkClient {
        if let client { return client }
        do throws(VarlinkClient.Failure) {
            let client = try VarlinkClient(path: path, timeout: timeout)
            self.client = client
            return client
        } catch {
            throw failure(error)
        }
    }

    private func failure(_ error: VarlinkClient.Failure) -> CLIError {
        switch error {
        case .cannotConnect(let cause):
            return .unreachable(Lf("cannot reach alarmd at %1$s: %2$s\nis alarmd running? try: systemctl --user start alarmd.socket", path, cause.text(in: userLanguage)))
        case .connectionLost(let cause):
            return .unreachable(Lf("lost the connection to alarmd at %1$s: %2$s", path, cause.text(in: userLanguage)))
        case .badReply(let cause):
            return Self.unreadable(cause)
        }
    }

    /// A reply that is not Varlink, or not its method's.
    static func unreadable(_ cause: VarlinkClient.Cause) -> CLIError {
        .daemon(Lf("alarmd sent a reply alarmctl cannot read: %s", cause.text(in: userLanguage)))
    }
}

/// One reply as the daemon sent it, which `--json` prints as it is, and read
/// as its method's typed reply (``read()``) for everything else: a reply that
/// does not read is the daemon's error, like one that is not JSON.
struct Answer<Reply: WireReply> {
    let object: JSONObject

    init(_ object: JSONObject) { self.object = object }

    func read() throws(CLIError) -> Reply {
        do throws(VarlinkError) { return try Reply(Parameters(object)) } catch {
            throw DaemonConnection.unreadable(.malformed(error))
        }
    }

    /// With `json`, prints the answer as sent; else hands the typed reply
    /// to `body`. A reply that does not read comes back as a failure, for a
    /// command acting on several ids to report and go on.
    func emit(_ context: CommandContext, json: Bool, _ body: (Reply) -> Void) -> Result<Void, CLIError> {
        if json {
            context.emitJSON(object)
            return .success(())
        }
        do throws(CLIError) {
            body(try read())
            return .success(())
        } catch {
            return .failure(error)
        }
    }
}

extension Answer where Reply == AlarmReply {
    /// An alarm read before, as a change's answer: what a command that had
    /// nothing to change reports, and `--json` prints.
    init(_ alarm: AlarmView) { self.init(AlarmReply(alarm: alarm.reply.object).json) }
}

extension Answer where Reply == ReminderReply {
    /// A reminder read before, as a change's answer.
    init(_ reminder: ReminderView) { self.init(ReminderReply(reminder: reminder.reply.object).json) }
}
