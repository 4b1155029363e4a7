// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmStore
import Dispatch
import FoundationEssentials
import Glibc

/// Reloading: the configuration and holiday calendars re-read on `SIGHUP`,
/// the system zone and the session's locale and `TZ` asked for again, each
/// change handed to the scheduler on the owner.
extension Daemon {
    /// Reads the holiday calendars of `config` on a worker (a large file
    /// takes a while to read, and the owner must go on ringing), then hands
    /// them to the scheduler; a later reload's calendars win.
    func reloadHolidays(_ config: DaemonConfig) {
        owner.assertCurrent()
        owned.holidayLoads += 1
        let load = owned.holidayLoads
        let (owner, environment, journal) = (owner, environment, journal)
        DispatchQueue.global(qos: .utility).async { [weak self] in
            let loaded = Daemon.loadHolidays(config, environment: environment, journal: journal)
            owner.post { [weak self] in
                guard let self, load == owned.holidayLoads else { return }
                owned.holidays = loaded
                scheduler.setPolicy(owned.config.ringPolicy(holidays: loaded))
            }
        }
    }

    /// SIGHUP: re-read the configuration and the system zone (`TZ` included,
    /// from the service manager), re-plan. The file is chosen again as at
    /// start-up, so a user's file made since then is read. Runs on the
    /// owner; asking the service manager may take a second, so that goes to
    /// the output worker and the reload finishes when its answer comes back.
    public func reload() {
        owner.assertCurrent()
        notifier.reloading()
        let file = options.configFile(environment: environment)
        var configKept = false
        do {
            let config = try Daemon.loadConfig(file, journal: journal)
            owned.config = config
            owned.configFile = file
            configuration.value = config
            scheduler.setPolicy(config.ringPolicy(holidays: owned.holidays))
            reloadHolidays(config)
        } catch {
            journal.send("Reload: keeping the previous configuration: \(error)", priority: .error)
            configKept = true
        }
        // Only a service started by systemd (`INVOCATION_ID` set) asks: a
        // daemon started by hand keeps the `TZ` it was given.
        guard environment["INVOCATION_ID"] != nil else { return finishReload(configKept: configKept) }
        let (owner, kept) = (owner, configKept)
        owner.output.async { [self] in
            let lookups = ServiceManager.lookUp(["TZ"] + Self.localeVariables, on: owner.output)
            // The language lives on the output worker, where notifications are written.
            let label = takeLocale(lookups)
            owner.post { [self] in
                takeTZ(lookups["TZ"] ?? .unset)
                if let label { defaultLabel.value = label }
                finishReload(configKept: kept)
            }
        }
    }

    func finishReload(configKept: Bool) {
        scheduler.zoneChanged(systemZone())
        updateWake()
        owned.forewarnings?.planChanged()
        let status = scheduler.status
        let source = owned.configFile.map { " from \($0)" } ?? " (built-in defaults)"
        journal.send((configKept ? "Reloaded, keeping the configuration read before" : "Reloaded configuration") + "\(source): \(status)",
                     priority: .info, messageID: MessageID.reloaded)
        notifier.ready(status: status)
    }


    /// The system zone now; a `TZ` passed over is logged the first time.
    func systemZone() -> Zone {
        let lookup = owned.zoneSource.lookUp()
        warnOnce(lookup)
        return lookup.zone
    }

    func warnOnce(_ lookup: ZoneDatabase.SystemZoneLookup) {
        guard lookup.refusedTZ != owned.refusedTZ else { return }
        owned.refusedTZ = lookup.refusedTZ
        if let message = SystemZone.refusal(lookup) { journal.send(message, priority: .warning) }
    }

    /// Takes `TZ` from the environment systemd would start alarmd with now, so
    /// `systemctl --user set-environment TZ=…` plus a reload moves floating
    /// alarms.
    /// What the session's language is read from (gettext's order).
    static let localeVariables = ["LANGUAGE", "LC_ALL", "LC_MESSAGES", "LC_TIME", "LC_CTYPE", "LANG"]

    /// A reload on the output worker: the locale variables as the service
    /// manager now has them (`systemctl --user set-environment LANG=…`, or
    /// `import-environment` from a new login), into this process's
    /// environment and the ringer's language. Returns the new default label;
    /// `nil` when the manager could not be asked (the language stays).
    func takeLocale(_ lookups: [String: ServiceManager.Lookup]) -> String? {
        var changed: [String] = []
        for name in Self.localeVariables {
            let now = getenv(name).map { String(cString: $0) }
            switch lookups[name] ?? .unset {
            case .unavailable: return nil
            case .value(let value) where value != now:
                setenv(name, value, 1)
                changed.append("\(name)=\(value)")
            case .unset where now != nil:
                unsetenv(name)
                changed.append("\(name) unset")
            default: break
            }
        }
        guard !changed.isEmpty else { return nil }
        journal.send("Reload: notifications now follow " + changed.joined(separator: ", "), priority: .info)
        return ringer.setLanguage()
    }

    func takeTZ(_ lookup: ServiceManager.Lookup) {
        let tz: String?
        switch lookup {
        case .value(let value): tz = value
        case .unset: tz = nil
        case .unavailable(let reason):
            journal.send("Reload: cannot ask the service manager for TZ (\(reason)); keeping TZ=\(owned.zoneSource.environmentTZ ?? "(unset)")", priority: .warning)
            return
        }
        guard tz != owned.zoneSource.environmentTZ else { return }
        journal.send("Reload: TZ is now \(tz ?? "unset") in the service manager's environment (was \(owned.zoneSource.environmentTZ ?? "unset"))", priority: .info)
        owned.zoneSource = SystemZone(environmentTZ: tz, etcDirectory: owned.zoneSource.etcDirectory)
    }
}
