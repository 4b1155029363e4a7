// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import FoundationEssentials

/// How an ``Alarm`` maps to a row of the `alarms` table.
///
/// Statement parameter `?n` is column `n - 1` of ``columns``, so insert and update
/// share one binding function and reads go by fixed column index.
enum AlarmRow {
    static let columns = [
        "id", "hour", "minute", "days", "label", "sound", "snooze_enabled", "snooze_minutes",
        "snooze_max", "ring_seconds", "enabled", "skip_next", "time_zone", "created_usec", "updated_usec", "command",
        "volume", "fade_seconds", "escalate_command", "rule", "paused_until", "skip_holidays",
    ]

    static let selectAll = "SELECT \(columns.joined(separator: ", ")) FROM alarms"
    static let selectOne = selectAll + " WHERE id = ?1"
    static let insert = "INSERT INTO alarms (\(columns.joined(separator: ", "))) VALUES ("
        + columns.indices.map { "?\($0 + 1)" }.joined(separator: ", ") + ")"
    static let update = "UPDATE alarms SET "
        + columns.indices.dropFirst().map { "\(columns[$0]) = ?\($0 + 1)" }.joined(separator: ", ")
        + " WHERE id = ?1"
    static let delete = "DELETE FROM alarms WHERE id = ?1"

    /// Checks everything a write needs: the model's rules, a zone that can be found
    /// again by its identifier, and storable instants.
    static func validate(_ alarm: Alarm) throws(StoreError) {
        do { try alarm.validate() } catch { throw .invalid(error) }
        if let zone = alarm.timeZone, Zone(identifier: zone.identifier) == nil {
            throw .invalid(.text("timeZone", "must be a time zone with an IANA identifier", got: zone.identifier))
        }
        try Instant.validate(alarm.created, field: "created")
        try Instant.validate(alarm.updated, field: "updated")
    }

    /// Binds every column of `alarm` to parameters ?1…?22.
    static func bind(_ alarm: Alarm, to statement: SQLiteStatement) throws(SQLiteError) {
        try statement.bind(alarm.id, at: 1)
        try statement.bind(alarm.time.hour, at: 2)
        try statement.bind(alarm.time.minute, at: 3)
        try statement.bind(Int(alarm.days.rawValue), at: 4)
        try statement.bind(alarm.label, at: 5)
        try statement.bind(alarm.sound.description, at: 6)
        try statement.bind(alarm.snooze.enabled, at: 7)
        try statement.bind(alarm.snooze.minutes, at: 8)
        try statement.bind(alarm.snooze.maxCount, at: 9)
        try statement.bind(alarm.ringSeconds, at: 10)
        try statement.bind(alarm.enabled, at: 11)
        try statement.bind(alarm.skipNext, at: 12)
        try statement.bind(alarm.timeZone?.identifier, at: 13)
        try statement.bind(Instant.storable(alarm.created), at: 14)
        try statement.bind(Instant.storable(alarm.updated), at: 15)
        try statement.bind(CommandColumn.text(alarm.command), at: 16)
        try statement.bind(alarm.volume, at: 17)
        try statement.bind(alarm.fadeSeconds, at: 18)
        try statement.bind(CommandColumn.text(alarm.escalateCommand), at: 19)
        try statement.bind(RuleColumn.text(alarm.recurrence), at: 20)
        try statement.bind(alarm.pausedUntil.map(RecurrenceRule.dateText), at: 21)
        try statement.bind(alarm.skipHolidays, at: 22)
    }

    /// Inserts `alarms` with one prepared statement, for bulk imports; the caller
    /// provides the transaction and has validated every alarm.
    static func insertAll(_ alarms: [Alarm], into database: SQLiteDatabase) throws(SQLiteError) {
        try database.withStatement(insert) { statement throws(SQLiteError) in
            for alarm in alarms {
                statement.reset()
                try bind(alarm, to: statement)
                try statement.step()
            }
        }
    }

    /// Turns rows of ``selectAll`` into alarms, refusing rows that break the model's
    /// rules (`Alarm.validate()` runs on every row, so damage cannot slip into the
    /// scheduler). One decoder serves a whole query, so each zone identifier and sound
    /// name is looked up or parsed only once.
    struct Decoder {
        /// Bounds the memory spent on remembered sounds when names hardly repeat.
        private static let soundMemoryLimit = 1024

        private var zones: [String: Zone] = [:]
        private var sounds: [String: Sound] = [:]
        /// The previous row's sound, recognised by its bytes without making a
        /// String or hashing one: most alarms share a sound.
        private var lastSound: (bytes: [UInt8], sound: Sound)?
        private var lastZone: (bytes: [UInt8], zone: Zone)?
        mutating func decode(_ statement: SQLiteStatement) throws(SQLiteError) -> Alarm {
            guard let id = statement.uuid(at: 0) else {
                throw .invalidRow("alarm row", "id \(sqlLiteral(statement.blob(at: 0))) is not a 16-byte UUID")
            }
            // Named only when needed: formatting a UUID costs more than decoding the row.
            func row() -> String { "alarm \(id.uuidString)" }
            let time: TimeOfDay
            do { time = try TimeOfDay(hour: statement.int(at: 1), minute: statement.int(at: 2)) } catch {
                throw .invalidRow(row(), error.description)
            }
            let days = statement.int64(at: 3)
            guard let mask = UInt8(exactly: days), mask <= 0x7F else {
                throw .invalidRow(row(), "days \(days) is not a 7-bit weekday mask")
            }
            var alarm = Alarm(
                id: id,
                time: time,
                days: RepeatDays(rawValue: mask),
                label: statement.text(at: 4) ?? "",
                sound: try sound(statement, at: 5, row: row),
                snooze: SnoozeSettings(enabled: statement.bool(at: 6), minutes: statement.int(at: 7),
                                       maxCount: statement.int(at: 8)),
                ringSeconds: statement.int(at: 9),
                volume: statement.isNull(at: 16) ? nil : statement.int(at: 16),
                fadeSeconds: statement.isNull(at: 17) ? nil : statement.int(at: 17),
                enabled: statement.bool(at: 10),
                skipNext: statement.bool(at: 11),
                timeZone: statement.isNull(at: 12) ? nil : try zone(statement, at: 12, row: row),
                // Most alarms have no command: skip making an empty String.
                command: statement.textEquals(at: 15, []) ? [] : CommandColumn.argv(statement.text(at: 15)),
                escalateCommand: statement.textEquals(at: 18, []) ? [] : CommandColumn.argv(statement.text(at: 18)),
                created: Instant.date(microseconds: statement.int64(at: 13)),
                updated: Instant.date(microseconds: statement.int64(at: 14))
            )
            // Nearly every alarm has none of these: three NULL checks.
            if !statement.isNull(at: 19) || !statement.isNull(at: 20) || statement.bool(at: 21) {
                do throws(ValidationError) {
                    alarm.recurrence = try RuleColumn.rule(statement.text(at: 19))
                    alarm.pausedUntil = try statement.text(at: 20).map { text throws(ValidationError) in
                        guard let day = CivilTime.dayNumber(isoDate: text) else { throw .text("paused_until", "must be a date YYYY-MM-DD", got: text) }
                        return day
                    }
                } catch { throw .invalidRow(row(), error.description) }
                alarm.skipHolidays = statement.bool(at: 21)
            }
            do { try alarm.validate() } catch { throw .invalidRow(row(), error.description) }
            return alarm
        }

        private mutating func sound(_ statement: SQLiteStatement, at index: Int32, row: () -> String) throws(SQLiteError) -> Sound {
            if let lastSound, statement.textEquals(at: index, lastSound.bytes) { return lastSound.sound }
            let name = statement.text(at: index) ?? ""
            let sound = try self.sound(name, row: row)
            lastSound = (Array(name.utf8), sound)
            return sound
        }

        private mutating func sound(_ name: String, row: () -> String) throws(SQLiteError) -> Sound {
            if let known = sounds[name] { return known }
            let sound: Sound
            do { sound = try Sound.parse(name) } catch { throw .invalidRow(row(), error.description) }
            if sounds.count < Self.soundMemoryLimit { sounds[name] = sound }
            return sound
        }

        private mutating func zone(_ statement: SQLiteStatement, at index: Int32, row: () -> String) throws(SQLiteError) -> Zone? {
            if let lastZone, statement.textEquals(at: index, lastZone.bytes) { return lastZone.zone }
            let identifier = statement.text(at: index)
            let zone = try self.zone(identifier, row: row)
            if let identifier, let zone { lastZone = (Array(identifier.utf8), zone) }
            return zone
        }

        private mutating func zone(_ identifier: String?, row: () -> String) throws(SQLiteError) -> Zone? {
            guard let identifier else { return nil }
            if let known = zones[identifier] { return known }
            guard let zone = Zone(identifier: identifier) else {
                throw .invalidRow(row(), "time_zone \(ValidationError.quoted(identifier)) is not a known time zone")
            }
            // There are only a few hundred zone identifiers, so this needs no limit.
            zones[identifier] = zone
            return zone
        }
    }
}
