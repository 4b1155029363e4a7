// SPDX-License-Identifier: Apache-2.0
// The io.alarmd.Wake interface is in AlarmWake, with no Foundation in it, for
// the alarmd-wake helper; re-exported here for alarmd, which deals in
// Foundation's `Date` and converts at the edge with this.
@_exported import AlarmWake
import FoundationEssentials

extension WakeInstant {
    /// `date` to the nearest microsecond (the finest the wire form carries);
    /// one outside the years 0001–9999 (or not a number) as the nearer end of them.
    public init(_ date: Date) {
        let microseconds = (date.timeIntervalSince1970 * 1_000_000).rounded()
        let bounds = Double(WakeInstant.earliest.microseconds)...Double(WakeInstant.latest.microseconds)
        self.init(microseconds: microseconds.isNaN ? 0 : Int64(min(max(microseconds, bounds.lowerBound), bounds.upperBound)))
    }
}
