// SPDX-License-Identifier: Apache-2.0
/// A word that only leads to subcommands (`remind`), named in the table so that
/// the command list and the completions can offer it with a summary.
struct CommandGroup: Sendable {
    let name: String
    let summary: String
}
