// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmProtocol

/// A subcommand: what it accepts and what it does.
struct Command: Sendable {
    let spec: CommandSpec
    let run: @Sendable (ParsedArguments, CommandContext) throws(CLIError) -> Void
}

extension CommandContext {
    /// Writes `text` to standard output, ending it with a newline if it lacks one.
    func emit(_ text: String) {
        standardOutput(text.hasSuffix("\n") ? text : text + "\n")
    }

    /// Writes a reply's parameters as one line of JSON (`--json`).
    func emitJSON(_ parameters: JSONObject) {
        standardOutput(JSONValue.object(parameters).jsonText + "\n")
    }
}

/// Runs `body` for each id of a command that takes several (`rm A B C`),
/// reporting each failure as it happens and going on with the rest; fails at
/// the end if any did. A daemon that cannot be reached stops at once.
/// Words that are not all ids are one name (`remind done buy milk`); when
/// no item has that name, each word is one (`rm tea eggs`).
func forEachID(_ words: [String], noun: String, verb: String, context: CommandContext, _ body: (String) throws(CLIError) -> Result<Void, CLIError>) throws(CLIError) {
    let ids = words
    if words.count > 1 && !words.allSatisfy(looksLikeID) {
        let name = words.spaced
        switch try body(name) {
        case .success: return
        case .failure(.notFound): break
        case .failure(let error): throw error
        }
    }
    var failures = 0
    for id in ids {
        if case .failure(let error) = try body(id) {
            guard ids.count > 1 else { throw error }
            failures += 1
            context.standardError("alarmctl: \(error.description)\n")
        }
    }
    if failures > 0 {
        // Each failure was said above; the count is what is left to say.
        throw .daemon(Lf("%1$d of %2$d %3$s could not be %4$s", failures, ids.count, L(noun), L(verb)))
    }
}

/// Whether the ids given are the word for `--all` (`pause all`, `dismiss 全部`).
func saysAll(_ ids: [String]) -> Bool {
    ids.count == 1 && ["all", "全部"].contains(ids[0].lowercased())
}

/// `rm` and `remind rm`: each item of the command line removed by `method`
/// and named as it goes (`said`: `Removed alarm "Work" (1a2b3c4d)`), or its
/// reply with `--json`.
func removeEach<M: VarlinkMethod>(_ method: M.Type, noun: String, subject: String, said: String, _ arguments: ParsedArguments,
                                  _ context: CommandContext) throws(CLIError) where M.Request == IDRequest, M.Reply == ItemNamed {
    let daemon = DaemonConnection(arguments, context)
    try forEachID(arguments.positionals, noun: noun, verb: N_("removed"), context: context) { id throws(CLIError) in
        try daemon.attempt(method, .init(id: id), subject: subject).flatMap { answer in
            answer.emit(context, json: arguments.flag(.json)) { reply in
                context.emit(Lf(said, inQuotes(reply.title), shortID(reply.id)))
            }
        }
    }
}

/// The item the first words name and the words after it, for a command
/// whose ID is followed by more words: `edit early train 6:30` is "early
/// train" and 6:30. The longest run of two or more words that is an alarm's
/// label (or a reminder's title), whole, wins; else the first word is the
/// name, an id or the start of one, and its error, if any, comes when it is
/// used. (Runs matched by their start could name another item: with "gym"
/// and "gym monday", `skip gym mon` is gym's Monday.)
func leadingName(_ words: [String], alarm: Bool, daemon: DaemonConnection) -> (name: String, rest: [String]) {
    guard let first = words.first else { return ("", []) }
    guard words.count > 1, !looksLikeID(first) else { return (first, Array(words.dropFirst())) }
    for count in stride(from: words.count, through: 2, by: -1) {
        let name = words[..<count].spaced
        if isWholeName(name, alarm: alarm, daemon: daemon) { return (name, Array(words[count...])) }
    }
    return (first, Array(words.dropFirst()))
}

/// Whether `name` is an alarm's label (or a reminder's title) whole, in
/// any case; `false` when the daemon cannot be reached.
func isWholeName(_ name: String, alarm: Bool, daemon: DaemonConnection) -> Bool {
    let found: String? = alarm ? (try? daemon.alarm(name))?.label : (try? daemon.reminder(name))?.title
    return found.map { Item.folded($0) == Item.folded(name) } ?? false
}

/// An id or a prefix of one, as tables show them: at least 4 hex digits,
/// dashes allowed.
func looksLikeID(_ word: String) -> Bool {
    let digits = word.filter { $0 != "-" }
    return digits.count >= 4 && digits.count <= 32 && digits.allSatisfy(\.isHexDigit)
}
