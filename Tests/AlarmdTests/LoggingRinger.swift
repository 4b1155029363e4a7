// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmDaemon
import Foundation
import SystemCalls

/// A ringer that only writes what it would do to the journal, for scheduler
/// tests that need no desktop.
struct LoggingRinger: Ringer {
    let journal: Journal

    init(journal: Journal) { self.journal = journal }

    func startRinging(_ item: Item, occurrence: Date, snoozeCount: Int, resumed: Bool) {
        journal.send("\(EventText.subject(item)) is \(resumed ? "still " : "")ringing", priority: .debug, fields: [("ALARMD_ITEM_ID", item.id.uuidString.lowercased())])
    }

    func stopRinging(_ id: UUID) {
        journal.send("Item \(id.uuidString.lowercased()) stopped ringing", priority: .debug, fields: [("ALARMD_ITEM_ID", id.uuidString.lowercased())])
    }

    func escalate(_ id: UUID) {}

    func showMissed(_ item: Item, scheduled: Date, zone: Zone) {}

    func stopAll() {}
}
