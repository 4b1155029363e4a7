// SPDX-License-Identifier: Apache-2.0
import AlarmProtocol

/// What an item is doing now, as the daemon says (`Phase`).
public enum ItemPhase: String, Equatable, Sendable, CaseIterable {
    case waiting, ringing, snoozed
}
