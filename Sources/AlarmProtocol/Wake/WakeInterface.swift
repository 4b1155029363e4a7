// The io.alarmd.Wake interface is in AlarmWake, with no Foundation in it, for
// the alarmd-wake helper; alarmd calls it with Foundation's `Date`.
@_exported import AlarmWake
import FoundationEssentials

extension WakeInterface {
    /// `SetWake` for `at`, to the nearest microsecond (the finest the wire
    /// form carries), or clearing the wake-up.
    public static func setWake(_ at: Date?) -> VarlinkCall {
        setWake(at: at.map(WakeInstant.init))
    }
}

extension WakeInstant {
    /// `date` to the nearest microsecond; one outside the years 0001–9999
    /// (or not a number) as the nearer end of them.
    public init(_ date: Date) {
        let microseconds = (date.timeIntervalSince1970 * 1_000_000).rounded()
        let bounds = Double(WakeInstant.earliest.microseconds)...Double(WakeInstant.latest.microseconds)
        self.init(microseconds: microseconds.isNaN ? 0 : Int64(min(max(microseconds, bounds.lowerBound), bounds.upperBound)))
    }

    /// The instant as Foundation's `Date`.
    public var date: Date { Date(timeIntervalSince1970: Double(microseconds) / 1_000_000) }
}
