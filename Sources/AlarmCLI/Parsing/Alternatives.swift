// SPDX-License-Identifier: Apache-2.0
/// Options that exclude each other (`--snooze MINUTES | --no-snooze`), and
/// perhaps the optional positional they stand in for (`FILE | --json`): the
/// synopsis shows them as one `[A | B]`, the zsh completion stops offering the
/// others once one is given, and the command checks them with
/// `ParsedArguments.exclusive(_:)` where it reads them.
struct Alternatives: Hashable, Sendable {
    let positional: String?
    let options: [Option]

    init(positional: String? = nil, _ options: Option...) {
        self.positional = positional
        self.options = options
    }
}
