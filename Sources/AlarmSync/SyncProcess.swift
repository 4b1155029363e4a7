// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmProtocol
import FoundationEssentials
import Glibc

/// The life of `alarmd-sync`: sandbox itself, take its settings from alarmd,
/// then run each round alarmd asks for until alarmd says stop or goes away.
/// It talks to servers and parses what they send; it holds no alarm and
/// rings nothing, so whatever a server makes of it, alarmd rings on.
public enum SyncProcess {
    public static func main() -> Int32 {
        let channel = ParentChannel()
        guard fcntl(ParentChannel.descriptor, F_GETFD) >= 0 else {
            let text = "alarmd-sync: alarmd starts this program (descriptor 3 is its channel); it is not run by hand\n"
            _ = text.withCString { write(STDERR_FILENO, $0, strlen($0)) }
            return 64
        }
        do throws(Sandbox.Failure) { try Sandbox.enter() } catch {
            channel.log(SyncLogLine(.warning, "Sync: the sync process cannot sandbox itself (\(error)); not syncing", error: error.description))
            return 71
        }
        let engine: SyncEngine
        do throws(ParentChannel.Closed) {
            guard case .start(let start) = try channel.receive() else { return 65 }
            do throws(SyncEngine.StartFailure) {
                engine = try SyncEngine(settings: start.settings, password: start.password, stateDirectory: start.stateDirectory, host: channel)
            } catch {
                channel.log(SyncLogLine(.warning, "Sync: \(error); not syncing", error: error.description))
                return 71
            }
        } catch {
            return 0
        }
        while true {
            let message: SyncMessage
            do throws(ParentChannel.Closed) { message = try channel.receive() } catch { return 0 }
            switch message {
            case .round(let id, let zoneName, let allDayAt, let items):
                let report = round(engine, zoneName: zoneName, allDayAt: allDayAt, items: items, channel: channel)
                do throws(ParentChannel.Closed) { try channel.send(.done(id: id, report: report)) } catch { return 0 }
                // A long life's CPU time would reach its limit: leave between
                // rounds instead, and alarmd starts a fresh process.
                if channel.stopRequested || Sandbox.cpuUsed() > Sandbox.recycleAfterCPUSeconds { return 0 }
            case .stop:
                return 0
            default:
                continue
            }
        }
    }

    private static func round(_ engine: SyncEngine, zoneName: String, allDayAt: TimeOfDay, items: JSONValue, channel: ParentChannel) -> SyncReport {
        guard case .object(let document) = items else { return failed("the items alarmd sent are not a document") }
        let local: (alarms: [Alarm], reminders: [Reminder])
        do throws(VarlinkError) { local = try ExportDocument.parse(Parameters(document), zone: .utc) } catch {
            return failed("the items alarmd sent do not read: \(error)")
        }
        let zone = ZoneName.zone(zoneName) ?? ZoneName.fromTZ(zoneName) ?? .utc
        let calendar = ICalendarItems.Settings(zone: zone, allDayAt: allDayAt, now: Date(), zoneNamed: { ZoneName.zone($0) })
        return engine.round(local: local, calendar: calendar)
    }

    private static func failed(_ error: String) -> SyncReport {
        var report = SyncReport()
        report.error = error
        report.lastRound = Date()
        return report
    }
}
