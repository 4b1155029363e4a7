// SPDX-License-Identifier: Apache-2.0
import CAdwaita

/// A widget's "value changed" signal, told apart from the program's own
/// changes: the user's change calls `handler`, a change made through
/// ``quietly(_:)`` does not. Every input wrapper (``Switch``,
/// ``CheckButton``, ``ToggleButton``, ``SpinButton``, ``Scale``,
/// ``DropDown``) keeps one, so filling a form from the daemon's values never
/// looks like the user's typing.
final class ChangeSignal {
    private let instance: gpointer
    private var id: gulong = 0
    /// What the user's change calls; set by the wrapper's `on…` method.
    var handler: () -> Void = {}

    /// Connects to `name` (`notify::active`, `toggled`, `value-changed`).
    init(_ instance: gpointer, _ name: String) {
        self.instance = instance
        if name.hasPrefix("notify::") {
            id = Signal.connect(instance, name) { [unowned self] (_: gpointer?) in self.handler() }
        } else {
            id = Signal.connect(instance, name) { [unowned self] in self.handler() }
        }
    }

    /// Runs `change` with the signal blocked.
    func quietly(_ change: () -> Void) {
        Signal.block(instance, id)
        change()
        Signal.unblock(instance, id)
    }
}
