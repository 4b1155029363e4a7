import FoundationEssentials

/// Something that fires at computable instants: an alarm or a reminder.
public protocol Schedulable: Sendable {
    /// The first firing instant strictly after `instant`, or `nil` when it will not
    /// fire again. `systemZone` is the zone floating items follow; pinned alarms
    /// use their own and reminders, being absolute, use none.
    func nextFire(after instant: Date, in systemZone: Zone) -> Date?
}

extension Schedulable {
    /// The next `count` firing instants after `instant` (fewer if it stops firing).
    public func preview(count: Int, after instant: Date, in systemZone: Zone) -> [Date] {
        var result: [Date] = []
        var cursor = instant
        while result.count < count, let next = nextFire(after: cursor, in: systemZone) {
            result.append(next)
            cursor = next
        }
        return result
    }
}

extension Alarm: Schedulable {
    public var rule: DailyRule { DailyRule(time: time, days: days) }

    /// The zone this alarm's wall times are read in.
    public func effectiveZone(system: Zone) -> Zone { timeZone ?? system }

    /// Next occurrence of the alarm's time after `instant`, ignoring `enabled` and
    /// `skipNext` (those are the scheduler's business).
    public func nextFire(after instant: Date, in systemZone: Zone) -> Date? {
        nextFire(after: instant, rules: effectiveZone(system: systemZone).rules)
    }

    /// The same, with the system zone's rules already at hand.
    public func nextFire(after instant: Date, systemRules: ZoneRules) -> Date? {
        nextFire(after: instant, rules: timeZone?.rules ?? systemRules)
    }

    private func nextFire(after instant: Date, rules: ZoneRules) -> Date? {
        Date(epochSeconds: rule.nextFire(after: instant.epochSecondsFloor, rules: rules))
    }
}

extension Reminder: Schedulable {
    /// The due instant while it is still ahead and the reminder is not done.
    public func nextFire(after instant: Date, in systemZone: Zone) -> Date? {
        guard !done, let due, due > instant else { return nil }
        return due
    }
}

extension Date {
    /// Whole seconds since the epoch, rounded toward the past.
    public var epochSecondsFloor: Int64 { Int64(timeIntervalSince1970.rounded(.down)) }

    public init(epochSeconds: Int64) { self.init(timeIntervalSince1970: TimeInterval(epochSeconds)) }
}
