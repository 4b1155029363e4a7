// SPDX-License-Identifier: Apache-2.0
/// The shells `alarmctl completions` writes a script for.
enum CompletionShell: String, CaseIterable, Sendable {
    case bash, zsh, fish

    func script(for table: CommandTable) -> String {
        switch self {
        case .bash: return BashCompletion(table: table).script
        case .zsh: return ZshCompletion(table: table).script
        case .fish: return FishCompletion(table: table).script
        }
    }
}
