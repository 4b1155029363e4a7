// SPDX-License-Identifier: Apache-2.0
import AlarmCore
@testable import AlarmDaemon
import AlarmProtocol
import Foundation
import Testing

/// What a refused command looks like on the wire, from a real refusal of the
/// scheduler (real store, the clock moved to the alarm's minute).
@Suite struct RefusalReplyTests {
    @Test func snoozeNotAllowedNamesTheItemsID() throws {
        let fixture = try SchedulerTests.Fixture()
        let now = fixture.clock.now()
        // The next whole minute, at least two seconds away.
        let minute = (now.timeIntervalSince1970 / 60).rounded(.down) * 60 + 120
        let fire = Date(timeIntervalSince1970: minute)
        let parts = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: fire)
        let alarm = Alarm(time: try TimeOfDay(hour: parts.hour!, minute: parts.minute!), label: "No snooze",
                          snooze: SnoozeSettings(enabled: false, minutes: 9, maxCount: 0), created: now)
        try fixture.scheduler.add(.alarm(alarm))
        let jump = fire.timeIntervalSince(fixture.clock.now()) - 0.3
        fixture.clock.shift(by: jump)
        fixture.scheduler.onOwner { fixture.scheduler.clockChanged(ClockChange(jump: jump, resumed: false)) }
        #expect(fixture.waitForEvents(1).map(\.kind) == [.fired])

        #expect(throws: SchedulerError.ring(.snoozeNotAllowed(id: alarm.id, title: "No snooze", reason: "snooze is off for it"))) {
            try fixture.scheduler.command(.snooze(minutes: nil), id: alarm.id.uuidString)
        }
        let reply = ControlService.varlinkError(.ring(.snoozeNotAllowed(id: alarm.id, title: "No snooze", reason: "snooze is off for it")))
        #expect(reply.name == "io.alarmd.SnoozeNotAllowed")
        #expect(reply.parameters["id"] == .string(alarm.id.uuidString.lowercased()))
        #expect(reply.parameters["message"] == .string("\"No snooze\" cannot be snoozed: snooze is off for it"))
    }
}
