// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials

/// When alarmd starts its sync process, asks it for a round, gives up on a
/// round, and starts it again after it died: a pure value that takes each
/// event with the time it happened and returns what to do. The daemon's
/// ``SyncSupervisor`` carries the effects out on the owner.
///
/// - One round at a time: every `[Sync] Interval=`, soon after a local
///   change (``nudge(now:)``), at once when asked (``syncNow(_:now:)``), and
///   after a failed round with back-off (5 s doubling up to the interval; a
///   refused password waits for the interval).
/// - A round that runs past ``Limits/roundTimeout`` has its process killed.
/// - A process that dies (a crash, a limit, a kill) is started again with
///   back-off from 5 s doubling up to ``Limits/maxRestartDelay``, and the
///   report says what it was reading: a server whose data crashes it every
///   round is seen in `status`, and costs one process start per back-off.
/// - A process that leaves on its own between rounds (exit status 0) is
///   started again when the next round is due, without back-off.
public struct SyncSupervision: Sendable {
    public struct Limits: Sendable, Hashable {
        public var interval: TimeInterval
        public var roundTimeout: TimeInterval = 300
        public var firstRetry: TimeInterval = 5
        public var maxRestartDelay: TimeInterval = 3600
        /// The next round after one that held back removals.
        public var confirmAfter: TimeInterval = 30
        /// Local changes made in a burst share one round.
        public var nudgeDelay: TimeInterval = 0.3

        public init(interval: TimeInterval) { self.interval = interval }
    }

    public enum Effect: Hashable, Sendable {
        /// Start the process and send it its settings.
        case spawn
        /// Send round `id` with a snapshot of the items.
        case sendRound(id: Int)
        /// Kill the process (it exceeded the round's time).
        case kill
        /// Run ``timer(now:)`` at this instant (replaces any earlier one).
        case armTimer(Date)
        /// Answer these `alarmctl sync` requests with the report.
        case answer([Int], SyncReport)
        /// A line for the journal; `warning` or info.
        case journal(String, warning: Bool)
    }

    enum Process: Hashable, Sendable {
        case stopped(restartAt: Date)
        case idle
        case inRound(id: Int, since: Date, killed: Bool)
    }

    public let limits: Limits
    var process: Process
    var nextRound: Date
    var roundFailures = 0
    var crashes = 0
    /// `alarmctl sync` requests the round in flight (or the next one to
    /// start) answers.
    var waiters: [Int] = []
    /// Requests made while a round was in flight: that round's snapshot
    /// predates them, so the round after it answers them, and starts at once.
    var laterWaiters: [Int] = []
    var nextRoundID = 1
    /// What the process said it was reading last, in the round in flight.
    var reading: String?
    /// Why the process last died (without the back-off), said once per outage.
    var lastDeath: String?
    public private(set) var report: SyncReport

    public init(limits: Limits, server: String, now: Date) {
        self.limits = limits
        process = .stopped(restartAt: now)
        nextRound = now
        report = SyncReport(server: server)
    }

    public var isInRound: Bool { if case .inRound = process { true } else { false } }

    /// The daemon started: the process and a first round.
    public mutating func start(now: Date) -> [Effect] { advance(now) }

    public mutating func timer(now: Date) -> [Effect] {
        var effects: [Effect] = []
        if case .inRound(let id, let since, false) = process, now >= since + limits.roundTimeout {
            process = .inRound(id: id, since: since, killed: true)
            effects.append(.kill)
            effects.append(.journal("Sync: a round with \(report.server) took longer than \(Int(limits.roundTimeout)) s; the sync process is stopped", warning: true))
        }
        return effects + advance(now)
    }

    public mutating func nudge(now: Date) -> [Effect] {
        nextRound = min(nextRound, now + limits.nudgeDelay)
        return advance(now)
    }

    public mutating func syncNow(_ waiter: Int, now: Date) -> [Effect] {
        if isInRound { laterWaiters.append(waiter) } else { waiters.append(waiter) }
        nextRound = now
        // A process waiting out its back-off is started for a request.
        if case .stopped = process { process = .stopped(restartAt: now) }
        return advance(now)
    }

    public mutating func reading(_ what: String) {
        if isInRound { reading = what }
    }

    public mutating func roundDone(id: Int, report new: SyncReport, now: Date) -> [Effect] {
        guard case .inRound(id, _, _) = process else { return [] }
        process = .idle
        reading = nil
        crashes = 0
        lastDeath = nil
        let previous = report
        report = new
        report.server = previous.server
        var effects: [Effect] = []
        if let error = new.error {
            roundFailures += 1
            // Said once per outage, not every retry.
            if previous.error != error {
                effects.append(.journal("Sync with \(report.server) failed: \(error); changes stay here and are sent once it works", warning: true))
            }
            nextRound = now + (new.unauthorized ? limits.interval : backoff(roundFailures, limit: limits.interval))
        } else {
            if previous.error != nil { effects.append(.journal("Sync with \(report.server) works again", warning: false)) }
            roundFailures = 0
            if new.changedAnything {
                effects.append(.journal("Sync: \(new.pulled) received, \(new.pushed) sent, \(new.deletedHere) removed here, \(new.deletedThere) removed there, \(new.conflicts) conflicts",
                                        warning: false))
            }
            nextRound = now + (new.deletionsHeld > 0 ? min(limits.interval, limits.confirmAfter) : limits.interval)
        }
        if !waiters.isEmpty {
            effects.append(.answer(waiters, report))
            waiters = []
        }
        if !laterWaiters.isEmpty { nextRound = now }
        return effects + advance(now)
    }

    /// The process ended; `clean` when it left on its own with status 0.
    public mutating func exited(_ how: String, clean: Bool, now: Date) -> [Effect] {
        var effects: [Effect] = []
        let wasInRound = isInRound
        if clean && !wasInRound {
            process = .stopped(restartAt: nextRound)
            return advance(now)
        }
        crashes += 1
        let delay = backoff(crashes, limit: limits.maxRestartDelay)
        process = .stopped(restartAt: now + delay)
        var death = "the sync process \(how)"
        if wasInRound, let reading { death += " while reading \(reading)" }
        let problem = death + "; it is started again in \(Int(delay)) s"
        reading = nil
        report.error = problem
        report.lastRound = now
        if lastDeath != death { effects.append(.journal("Sync with \(report.server): \(problem)", warning: true)) }
        lastDeath = death
        // Every request waiting is told: the process that was to answer it
        // is gone, and the next one starts only after the back-off.
        if !waiters.isEmpty || !laterWaiters.isEmpty {
            effects.append(.answer(waiters + laterWaiters, report))
            waiters = []
            laterWaiters = []
        }
        nextRound = max(nextRound, now + delay)
        return effects + advance(now)
    }

    private func backoff(_ count: Int, limit: TimeInterval) -> TimeInterval {
        min(limit, limits.firstRetry * Double(1 << min(count - 1, 20)))
    }

    /// Starts what is due, and arms the timer for what comes next.
    private mutating func advance(_ now: Date) -> [Effect] {
        var effects: [Effect] = []
        if case .stopped(let restartAt) = process, max(restartAt, nextRound) <= now {
            process = .idle
            effects.append(.spawn)
        }
        if case .idle = process, nextRound <= now {
            let id = nextRoundID
            nextRoundID += 1
            process = .inRound(id: id, since: now, killed: false)
            reading = nil
            waiters += laterWaiters
            laterWaiters = []
            effects.append(.sendRound(id: id))
        }
        switch process {
        case .stopped(let restartAt): effects.append(.armTimer(max(restartAt, nextRound)))
        case .idle: effects.append(.armTimer(nextRound))
        case .inRound(_, let since, let killed):
            // A killed round waits for the exit, which the daemon reports.
            if !killed { effects.append(.armTimer(since + limits.roundTimeout)) }
        }
        return effects
    }
}
