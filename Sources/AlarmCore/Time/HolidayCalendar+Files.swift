// SPDX-License-Identifier: Apache-2.0
extension HolidayCalendar {
    /// The calendars `[Alarms] Holidays=` names, merged. A file that cannot
    /// be read or parsed is reported (with its line) and left out; the
    /// others still count, so one bad download does not bring every alarm
    /// back on holidays. `read` does the I/O (the daemon's, or alarmctl
    /// preview's), so this stays pure; `home` expands `~/`.
    public static func load(_ paths: [String], home: String?, read: (String) -> [UInt8]?) -> (calendar: HolidayCalendar, problems: [String]) {
        var calendar = HolidayCalendar.empty
        var problems: [String] = []
        for written in paths {
            let path = written.hasPrefix("~/") ? (home ?? "") + written.dropFirst(1) : written
            guard let bytes = read(path) else {
                problems.append("\(path): cannot read the holidays file")
                continue
            }
            guard bytes.count <= maxBytes else {
                problems.append("\(path): the holidays file is \(bytes.count) bytes, more than \(maxBytes)")
                continue
            }
            do throws(ICalendarError) {
                calendar = calendar.merging(try HolidayCalendar(icalendar: String(decoding: bytes, as: UTF8.self)))
            } catch {
                problems.append("\(path): \(error)")
            }
        }
        return (calendar, problems)
    }
}
