// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmProtocol
import AlarmStore
import Dispatch
import FoundationEssentials
import Glibc
import SystemCalls

/// Wires the adapters around the scheduler and runs the process: signals,
/// sd_notify, the watchdog, clock and time-zone watching, reloads. Every one
/// of them delivers to the one owner queue (``Owner``), where this object's
/// own state (the configuration, the zone source) lives too.
public final class Daemon: Sendable {
    /// Exit codes, from BSD `sysexits.h` as systemd documents them.
    public enum ExitCode {
        public static let success: Int32 = 0
        public static let usage: Int32 = 64
        public static let software: Int32 = 70
        /// The control socket could not be set up.
        public static let osError: Int32 = 71
        public static let config: Int32 = 78
    }

    public let options: DaemonOptions
    public let scheduler: Scheduler
    public let journal: Journal
    let environment: [String: String]
    let notifier = ServiceNotifier()
    /// The queue that owns the daemon's state, and the output worker.
    public let owner: Owner
    /// What the daemon keeps, the owner's (asserted on every access in debug
    /// builds). ``start()`` and ``stop()`` do their work there.
    struct State {
        /// The owner's connection to the store, closed last.
        let store: Store
        /// Where the system zone comes from; `TZ` may change on reload.
        var zoneSource: SystemZone
        /// The last `TZ` said to be unusable, so that each is logged once, not
        /// at every reload or zone change.
        var refusedTZ: String?
        var config: DaemonConfig
        /// The days of `[Alarms] Holidays=`, read with the configuration.
        var holidays: HolidayCalendar
        /// Holiday loads started, so that only the latest one's result is used.
        var holidayLoads = 0
        var configFile: String?
        var watchers: [AnyObject] = []
        var watchdog: LoopTimer?
        var server: ControlServer?
        /// The wake-up from suspend for the next alarm; made by ``start()``.
        var wake: WakeKeeper?
        /// Inhibitors and `PrepareForSleep` (used on the output worker).
        var logind: Logind?
        /// The upcoming notice and the audibility checks; made by ``start()``.
        var forewarnings: Forewarnings?
        /// CalDAV sync, when `[Sync] URL=` is set; made by ``start()``.
        var sync: SyncSupervisor?
        /// Set at a resume that alarmd's wake-up caused, until someone acts.
        var wokenByAlarmd = false
        /// The wake-up set when the machine last went to sleep.
        var wakeBeforeSuspend: Date?
    }
    let owned: QueueBound<State>
    let storePath: String
    /// The background check of a large store (``Store/needsQuickCheck``),
    /// stopped by ``stop()``. Made with the store, before any signal can stop
    /// the daemon, so a stop always finds it.
    private let storeCheck: (check: StoreCheck, finished: DispatchGroup)?
    let configuration: Published<DaemonConfig>
    /// A new alarm's label in the session's language; set by the output
    /// worker (where the language lives), read by `AddAlarm`.
    let defaultLabel: Published<String>
    /// Notifications and sound; called on the output worker only.
    let ringer: DesktopRinger
    private let ringerBox: RingerBox
    private let clock: any WallClock

    /// Opens the store and reads the configuration; throws a message for the
    /// person and the exit code to end with.
    public init(options: DaemonOptions, environment: [String: String], clock: any WallClock = SystemClock(), journal: Journal = Journal()) throws(StartupError) {
        self.options = options
        self.clock = clock
        self.environment = environment
        self.journal = journal
        let zoneSource = SystemZone(environmentTZ: environment["TZ"])
        let zone = zoneSource.lookUp()
        let configFile = options.configFile(environment: environment)
        let config = try Daemon.loadConfig(configFile, journal: journal)
        configuration = Published(config)
        do {
            // The main thread serves the event loop (``Owner/serveEvents()``): an idle
            // alarmd is that thread and Dispatch's manager, no more. After a quiet
            // spell it gives back what a start or a ring left mapped.
            owner = try Owner(eventsOnCallingThread: true, idle: EventLoop.Idle(after: Daemon.quietSpell, action: Daemon.settle))
        } catch {
            throw StartupError(message: "cannot make the event loop: \(error)", exitCode: ExitCode.osError)
        }
        let store: Store
        do {
            store = try Store(path: options.stateDirectory + "/alarmd.sqlite3", quickCheckLimit: Daemon.quickCheckLimit)
        } catch {
            throw StartupError(message: "cannot open the database: \(error)", exitCode: ExitCode.config)
        }
        storeCheck = store.needsQuickCheck ? (StoreCheck(path: store.path), DispatchGroup()) : nil
        // The desktop ringer hands choices made in a notification back to the
        // scheduler; the scheduler exists only after the ringer, hence the box.
        let box = RingerBox()
        let configuration = configuration
        let owner = owner
        let ringer = DesktopRinger(queue: owner.output, journal: journal, environment: environment, settings: { configuration.value },
                                   zone: { box.scheduler?.systemZone ?? .utc },
                                   onSkip: { id, occurrence in owner.post { box.forewarnings?.skip(id, occurrence: occurrence) } }) { id, command in
            owner.post {
                box.scheduler?.command(command, id: id.uuidString) { result in
                    if case .failure(let error) = result {
                        journal.send("Notification action on \(id.lowercasedText) refused: \(error)", priority: .info)
                    }
                }
            }
        }
        self.ringer = ringer
        // The ringer took the language from the environment when it was made.
        defaultLabel = Published(owner.output.sync { ringer.defaultLabel() })
        let holidays = Daemon.loadHolidays(config, environment: environment, journal: journal)
        scheduler = Scheduler(store: store, clock: clock, journal: journal, ringer: ringer, policy: config.ringPolicy(holidays: holidays), zone: zone.zone, owner: owner)
        box.scheduler = scheduler
        ringerBox = box
        storePath = store.path
        owned = QueueBound(State(store: store, zoneSource: zoneSource, config: config, holidays: holidays, configFile: configFile), queue: owner.queue)
        owner.sync { warnOnce(zone) }
        let hooks = HookRunner(queue: owner.output, journal: journal, path: environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin") { configuration.value.hookTimeout }
        _ = scheduler.events.subscribe { hooks.handle($0) }
    }

    /// Databases up to this size are quick-checked before start-up goes on
    /// (a tenth of a second or so); larger ones after READY=1, in the background,
    /// so a million alarms still start in about a second. Loading reads every
    /// page of the item tables either way, so damage there stops start-up.
    static let quickCheckLimit: Int64 = 32 << 20

    /// How long the owner's loop waits with nothing to serve before
    /// ``settle()``: past a ring's end and its sound process's exit, and past
    /// the few seconds in which a client's next request usually comes.
    static let quietSpell: Duration = .seconds(30)

    /// What an idle daemon gives back: the clean pages of code and read-only
    /// data, its own and its libraries', that the start or the last ring
    /// mapped (``CleanPages``). The next event maps what it runs again, from
    /// the page cache: a firing after a quiet spell pays those minor faults
    /// (BENCHMARKS.md measures them). The heap is left as it is: trimming it
    /// gave back some 30 KiB at the cost of a walk over all of it.
    @Sendable static func settle() {
        CleanPages.release()
    }

    public struct StartupError: Error, CustomStringConvertible {
        public let message: String
        public let exitCode: Int32
        public var description: String { message }
    }

    /// The holiday calendars, each problem in the journal (never fatal).
    static func loadHolidays(_ config: DaemonConfig, environment: [String: String], journal: Journal) -> HolidayCalendar {
        let (calendar, problems) = HolidayCalendar.load(config.holidayFiles, home: environment["HOME"]) { path in
            FileManager.default.contents(atPath: path).map { [UInt8]($0) }
        }
        for problem in problems { journal.send("Holidays: \(problem); its days do not count as holidays", priority: .error) }
        if !config.holidayFiles.isEmpty {
            journal.send("Holidays: \(calendar.eventCount) events from \(config.holidayFiles.count - problems.count) of \(config.holidayFiles.count) files", priority: .info)
        }
        return calendar
    }

    static func loadConfig(_ path: String?, journal: Journal) throws(StartupError) -> DaemonConfig {
        guard let path else { return DaemonConfig() }
        let text: String
        do { text = try String(contentsOfFile: path, encoding: .utf8) } catch {
            throw StartupError(message: "\(path): cannot read the configuration: \(error)", exitCode: ExitCode.config)
        }
        do {
            let (config, warnings) = try DaemonConfig.parse(text, name: path)
            for warning in warnings { journal.send(warning, priority: .warning) }
            return config
        } catch {
            throw StartupError(message: error.description, exitCode: ExitCode.config)
        }
    }

    /// Loads and arms the plan and starts watching clock, zone and signals.
    /// `READY=1` follows once everything is in place.
    public func start() throws(StartupError) {
        do { try scheduler.start() } catch {
            throw StartupError(message: "cannot load \(storePath): \(error)", exitCode: ExitCode.config)
        }
        try owner.sync { () throws(StartupError) in try startOnOwner() }
    }

    private func startOnOwner() throws(StartupError) {
        let config = owned.config
        let notifier = notifier
        let wake = WakeKeeper(owner: owner, journal: journal, helperSocket: environment["ALARMD_WAKE_HELPER"] ?? WakeInterface.defaultSocket) { [weak self] in
            self?.updateWake()
        }
        owned.wake = wake
        let wakeBoard = wake.board
        let logind = Logind(queue: owner.output, journal: journal)
        owned.logind = logind
        let output = owner.output
        let linger = LingerReader(logind: logind, queue: output)
        owner.sync {
            scheduler.observe(status: { notifier.status($0) }, plan: { [unowned self] in
                updateWake()
                self.owned.forewarnings?.planChanged()
            }, ringing: { ringing in output.async { logind.setRinging(ringing) } })
            updateWake()
        }
        let probe = AudibilityProbe(environment: environment, settings: { [configuration] in configuration.value })
        let forewarnings = Forewarnings(owner: owner, clock: clock, scheduler: scheduler, ringer: ringer, journal: journal, configuration: configuration,
                                        probe: probe, wakeStatus: { wakeBoard.value })
        owned.forewarnings = forewarnings
        ringerBox.forewarnings = forewarnings
        owner.sync {
            forewarnings.planChanged()
            // A first look, so that `status` can tell from the start.
            forewarnings.check(sounds: [config.alarmSound])
        }
        _ = scheduler.events.subscribe { [unowned self] event in afterEvent(event) }
        logind.onPrepareForSleep = { [unowned self] sleeping in
            owner.post { [self] in prepareForSleep(sleeping) }
        }
        owner.output.async { logind.start() }
        // Read once now, so the first Status already knows.
        _ = linger.value()
        let environment = environment
        let configuration = configuration
        let (sync, syncOff) = makeSyncSupervisor()
        owned.sync = sync
        let service = ControlService(scheduler: scheduler, defaults: { configuration.value },
                                     sounds: { SoundTheme(theme: configuration.value.soundTheme, environment: environment).available() },
                                     wake: { wakeBoard.value },
                                     linger: { linger.value() },
                                     play: { [ringer] path, volume, heard in output.async { ringer.playOnce(path, volume: volume, heard: heard) } },
                                     audibility: { [forewarnings] in forewarnings.current }, sync: sync,
                                     syncOff: syncOff.map { (config.sync.url, $0) }, defaultLabel: { [defaultLabel] in defaultLabel.value })
        do {
            var limits = ControlServer.Limits()
            limits.idleTimeout = config.idleTimeout
            limits.requestTimeout = config.requestTimeout
            limits.maxClients = config.maxClients
            limits.maxWatchBacklog = config.watchBacklog
            limits.maxMessageSize = config.maxMessageSize
            limits.maxImportSize = config.maxImportSize
            let server = try ControlServer(path: options.socketPath, owner: owner, service: service, journal: journal, limits: limits)
            owned.server = server
            try server.start()
        } catch {
            owned.server?.stop()
            scheduler.stop()
            throw StartupError(message: "cannot listen on the control socket: \(error)", exitCode: ExitCode.osError)
        }
        do {
            let scheduler = scheduler
            owned.watchers.append(try ClockWatcher(owner: owner) { scheduler.clockChanged($0) })
            let etc = URL(fileURLWithPath: "/etc/localtime").deletingLastPathComponent().path
            owned.watchers.append(try TimeZoneWatcher(directory: etc, owner: owner) { [unowned self] in scheduler.zoneChanged(systemZone()) })
        } catch {
            journal.send("Cannot watch for clock or time-zone changes (\(error)); alarms still fire, but a clock change is noticed only at the next firing", priority: .warning)
        }
        do {
            owned.watchers.append(try SignalWatcher([SIGTERM, SIGINT, SIGHUP], owner: owner) { [unowned self] number in
                if number == SIGHUP { reload() } else { shutDown() }
            })
        } catch {
            scheduler.stop()
            throw StartupError(message: "cannot handle signals: \(error)", exitCode: ExitCode.osError)
        }
        startWatchdog()
        if let sync {
            // Edits, completions and removals made here go out soon after.
            _ = scheduler.events.subscribe { event in
                if [.changed, .completed, .dismissed].contains(event.kind) { sync.nudge() }
            }
            sync.begin()
        }
        let status = scheduler.status
        journal.send("alarmd \(AlarmdVersion.string) started: \(status); database \(storePath), listening on \(owned.server?.description ?? "nothing")", priority: .info, messageID: MessageID.started)
        notifier.ready(status: status)
        checkStoreInBackground()
    }

    private func checkStoreInBackground() {
        guard let (check, finished) = storeCheck else { return }
        let journal = journal
        // Handed over on the owner, where a signal stops the daemon: a stop
        // there either comes first, and the check then never opens the file,
        // or finds the check in `finished` and waits for it. The check reads
        // the file only, touches no daemon state and may take seconds, so it
        // runs on Dispatch's pool, not on the output worker it would stall.
        owner.post {
            DispatchQueue.global(qos: .utility).async(group: finished) {
                do throws(StoreError) {
                    _ = try check.run()
                } catch {
                    journal.send("The database failed its integrity check: \(error); alarms keep firing from memory, but export them (alarmctl export) and recreate the database",
                                 priority: .error, messageID: MessageID.storeCorrupt, fields: [("ALARMD_DETAIL", error.description)])
                }
            }
        }
    }

    /// Pings the watchdog at half its interval, from the owner, so a wedged
    /// owner stops the pings and systemd restarts the daemon.
    private func startWatchdog() {
        guard let interval = notifier.watchdogPingInterval() else { return }
        let notifier = notifier
        let nanoseconds = UInt64(interval * 1_000_000_000)
        owned.watchdog = owner.timer(.monotonic) { [weak self] in
            notifier.watchdog()
            self?.owned.watchdog?.schedule(after: nanoseconds)
        }
        owned.watchdog?.schedule(after: nanoseconds)
    }

    /// Sets the machine to wake for the next occurrence that should (on the
    /// owner, after every change of plan and at a reload).
    func updateWake() {
        guard let wake = owned.wake else { return }
        let settings = owned.config.wake
        // Only alarms wake unless reminders do: with none, there is nothing to
        // walk every reminder for.
        let next = settings.reminders || scheduler.table.alarmCount > 0 ? scheduler.nextFiring { WakePlan.wakes($0, settings: settings) } : nil
        wake.update(firing: next?.at, now: scheduler.now(), settings: settings)
    }

    /// logind's `PrepareForSleep`, on the owner. Before suspend: make sure
    /// the wake-up is set for what is due now, say so, and let the suspend go
    /// ahead (logind waits for the delay lock). After resume: take the lock
    /// again; the clock watcher sees the resume and re-plans.
    private func prepareForSleep(_ sleeping: Bool) {
        guard let logind = owned.logind, let wake = owned.wake else { return }
        if sleeping {
            updateWake()
            let next = wake.board.value.next
            journal.send("Suspending; " + (next.map { "the machine is set to wake at \($0.rfc3339UTC)" } ?? "no wake-up is set (\(wake.board.value.reason ?? "none"))"),
                         priority: .info, messageID: MessageID.suspending, fields: [("ALARMD_WAKE_AT", next?.rfc3339UTC ?? "")])
            owned.wakeBeforeSuspend = next
            owned.wokenByAlarmd = false
            owner.output.async { logind.releaseDelayLock() }
        } else {
            owner.output.async { logind.takeDelayLock() }
            let now = scheduler.now()
            // Woken by alarmd's own wake-up: resumed within a minute after it.
            let ours = owned.wakeBeforeSuspend.map { now >= $0 && now.timeIntervalSince($0) < 60 } ?? false
            journal.send("Resumed from suspend" + (ours ? ", woken by alarmd's wake-up" : ""), priority: .info, messageID: MessageID.resumed,
                         fields: [("ALARMD_WOKEN_BY_ALARMD", ours ? "1" : "0")])
            owned.wakeBeforeSuspend = nil
            owned.wokenByAlarmd = ours
            updateWake()
        }
    }

    /// `[Wake] SuspendAgain=`, on the owner: after a wake alarmd caused, the
    /// first time something rings out untouched while nothing else rings,
    /// ask logind to suspend again. Anyone snoozing, dismissing or completing
    /// anything first means someone is there: then it does not.
    private func afterEvent(_ event: DaemonEvent) {
        if event.kind == .changed { owned.forewarnings?.changed(event.item) }
        guard owned.wokenByAlarmd else { return }
        switch event.kind {
        case .snoozed, .dismissed, .completed:
            owned.wokenByAlarmd = false
        case .timedOut:
            guard owned.config.wake.suspendAgain, scheduler.ringing.isEmpty, let logind = owned.logind else { return }
            owned.wokenByAlarmd = false
            let journal = journal
            owner.output.async {
                let outcome = logind.suspendIfAllowed()
                journal.send("\(EventText.subject(event.item)) rang out after alarmd woke the machine: \(outcome)", priority: .info)
            }
        default:
            break
        }
    }

    /// Stops firing, silences everything and closes the store.
    public func stop() {
        owner.sync {
            let (sync, watchdog, server, logind, wake) = (owned.sync, owned.watchdog, owned.server, owned.logind, owned.wake)
            owned.watchers.removeAll()
            // The process is told to leave, not waited for: its state file is
            // written in transactions.
            sync?.stop()
            watchdog?.disarm()
            server?.stop()
            scheduler.stop()
            if let logind { owner.output.sync { logind.stop() } }
            wake?.stop()
            scheduler.drainOutputs()
            // The store's own connection must close last: SQLite then checkpoints
            // the write-ahead log and removes it, so the next start need not read it.
            if let (check, finished) = storeCheck {
                check.stop()
                finished.wait()
            }
            owned.store.close()
        }
        // Nothing is left to watch: the loop returns, and the process ends.
        owner.stopEvents()
    }

    private func shutDown() {
        notifier.stopping()
        journal.send("alarmd stopping", priority: .info, messageID: MessageID.stopping)
        stop()
        exit(ExitCode.success)
    }

    /// The executable's whole life: parse, start, serve until a signal ends it.
    public static func main(arguments: [String], environment: [String: String]) -> Int32 {
        let options: DaemonOptions
        do { options = try DaemonOptions(arguments: arguments, environment: environment) } catch {
            writeStandardError("alarmd: \(error)\n")
            return ExitCode.usage
        }
        if options.showHelp { print(DaemonOptions.usage, terminator: ""); return ExitCode.success }
        if options.showVersion { print("alarmd \(AlarmdVersion.string)"); return ExitCode.success }
        do {
            let daemon = try Daemon(options: options, environment: environment)
            try daemon.start()
            withExtendedLifetime(daemon) { () -> Never in
                daemon.owner.serveEvents()
                // Stopped: shutDown ends the process next.
                dispatchMain()
            }
        } catch {
            // Both places: the journal for a service start, stderr for a person at a terminal.
            let journal = Journal()
            if journal.isAvailable { journal.send("alarmd cannot start: \(error.message)", priority: .error) }
            writeStandardError("alarmd: \(error.message)\n")
            return error.exitCode
        }
    }
}
