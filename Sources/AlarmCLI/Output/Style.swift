// SPDX-License-Identifier: Apache-2.0
/// Terminal emphasis, used only when standard output is a terminal and
/// `NO_COLOR` is unset or empty (https://no-color.org, as `alarmctl ui`
/// reads it), so pipes, files and tests always get plain text.
struct Style {
    let enabled: Bool

    init(enabled: Bool) { self.enabled = enabled }

    init(_ context: CommandContext) {
        let noColor = !(context.environment["NO_COLOR"] ?? "").isEmpty
        self.init(enabled: context.isTerminal && !noColor)
    }

    /// For things switched off (disabled alarms, done reminders).
    func dim(_ text: String) -> String { wrap(text, "2") }
    /// For things that need attention now (ringing items) and headers.
    func bold(_ text: String) -> String { wrap(text, "1") }

    private func wrap(_ text: String, _ code: String) -> String {
        enabled ? "\u{1B}[\(code)m" + text + "\u{1B}[0m" : text
    }
}
