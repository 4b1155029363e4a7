// SPDX-License-Identifier: Apache-2.0
/// The database schema and its forward migrations.
///
/// `PRAGMA user_version` holds the schema version. A migration is applied in its own
/// `BEGIN IMMEDIATE` transaction together with the bump of `user_version`, so a crash
/// leaves the file at one version or the next, never in between. Migrations are
/// frozen once released: a new schema is a new entry at the end, never an edit.
///
/// Instants are integer microseconds since the Unix epoch; ids are 16-byte blobs.
/// Tables are STRICT (SQLite 3.37 or later), so a value of the wrong type is refused
/// by SQLite instead of being stored and misread later.
enum Schema {
    /// `migrations[i]` takes the schema from version `i` to version `i + 1`.
    static let migrations: [String] = [version1, version2, version3, version4, version5, version6, version7, version8, version9, version10]

    /// The version this build writes.
    static var currentVersion: Int { migrations.count }

    /// The first release's schema. Tests/AlarmStoreTests/Fixtures/schema-v1.sql is a
    /// copy of it, and a test keeps the two identical.
    static let version1 = """
        CREATE TABLE alarms (
            id             BLOB    NOT NULL PRIMARY KEY CHECK (length(id) = 16),
            hour           INTEGER NOT NULL CHECK (hour BETWEEN 0 AND 23),
            minute         INTEGER NOT NULL CHECK (minute BETWEEN 0 AND 59),
            days           INTEGER NOT NULL CHECK (days BETWEEN 0 AND 127),
            label          TEXT    NOT NULL,
            sound          TEXT    NOT NULL,
            snooze_enabled INTEGER NOT NULL CHECK (snooze_enabled IN (0, 1)),
            snooze_minutes INTEGER NOT NULL,
            enabled        INTEGER NOT NULL CHECK (enabled IN (0, 1)),
            created_usec   INTEGER NOT NULL,
            updated_usec   INTEGER NOT NULL
        ) STRICT, WITHOUT ROWID;
        CREATE TABLE reminders (
            id           BLOB    NOT NULL PRIMARY KEY CHECK (length(id) = 16),
            title        TEXT    NOT NULL,
            notes        TEXT    NOT NULL DEFAULT '',
            due_usec     INTEGER,
            done         INTEGER NOT NULL CHECK (done IN (0, 1)),
            position     INTEGER NOT NULL CHECK (position >= 0),
            created_usec INTEGER NOT NULL,
            updated_usec INTEGER NOT NULL
        ) STRICT;
        """

    /// Snooze limits, auto-silence, skip-next, pinned zones, reminder images and the
    /// event history. The defaults give rows from version 1 the behaviour they had:
    /// unlimited snoozes, five minutes of ringing, nothing skipped, a floating zone.
    static let version2 = """
        ALTER TABLE alarms ADD COLUMN snooze_max INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE alarms ADD COLUMN ring_seconds INTEGER NOT NULL DEFAULT 300;
        ALTER TABLE alarms ADD COLUMN skip_next INTEGER NOT NULL DEFAULT 0 CHECK (skip_next IN (0, 1));
        ALTER TABLE alarms ADD COLUMN time_zone TEXT;
        ALTER TABLE reminders ADD COLUMN image_path TEXT;
        CREATE INDEX reminders_position ON reminders (position);
        CREATE TABLE events (
            seq            INTEGER PRIMARY KEY AUTOINCREMENT,
            item_id        BLOB    NOT NULL CHECK (length(item_id) = 16),
            item_kind      TEXT    NOT NULL CHECK (item_kind IN ('alarm', 'reminder')),
            event          TEXT    NOT NULL,
            scheduled_usec INTEGER,
            actual_usec    INTEGER NOT NULL,
            detail         TEXT    NOT NULL DEFAULT ''
        ) STRICT;
        CREATE INDEX events_item ON events (item_id);
        """

    /// Where each item stands in its ringing lifecycle, saved before the daemon
    /// acknowledges a change, so a restart neither loses a snooze nor rings an
    /// occurrence twice. Deleting an item deletes its state.
    static let version3 = """
        CREATE TABLE ring_states (
            item_id         BLOB    NOT NULL PRIMARY KEY CHECK (length(item_id) = 16),
            item_kind       TEXT    NOT NULL CHECK (item_kind IN ('alarm', 'reminder')),
            anchor_usec     INTEGER NOT NULL,
            phase           TEXT    NOT NULL CHECK (phase IN ('waiting', 'ringing', 'snoozed')),
            phase_usec      INTEGER,
            occurrence_usec INTEGER,
            snooze_count    INTEGER NOT NULL DEFAULT 0 CHECK (snooze_count >= 0)
        ) STRICT, WITHOUT ROWID;
        CREATE TRIGGER alarms_drop_ring_state AFTER DELETE ON alarms
            BEGIN DELETE FROM ring_states WHERE item_id = old.id; END;
        CREATE TRIGGER reminders_drop_ring_state AFTER DELETE ON reminders
            BEGIN DELETE FROM ring_states WHERE item_id = old.id; END;
        """

    /// A command per item, run when it fires (see ``CommandColumn``); empty for none.
    static let version4 = """
        ALTER TABLE alarms ADD COLUMN command TEXT NOT NULL DEFAULT '';
        ALTER TABLE reminders ADD COLUMN command TEXT NOT NULL DEFAULT '';
        """

    /// An alarm's own stream volume (percent) and fade (seconds); NULL follows
    /// `[Sound] Volume=` and `Fade=`, which is what every older alarm does.
    static let version5 = """
        ALTER TABLE alarms ADD COLUMN volume INTEGER CHECK (volume BETWEEN 1 AND 100);
        ALTER TABLE alarms ADD COLUMN fade_seconds INTEGER CHECK (fade_seconds BETWEEN 0 AND 300);
        """

    /// An alarm's escalation command (see ``CommandColumn``), and whether the
    /// ringing in progress has escalated, so a restart does not escalate it twice.
    static let version6 = """
        ALTER TABLE alarms ADD COLUMN escalate_command TEXT NOT NULL DEFAULT '';
        ALTER TABLE ring_states ADD COLUMN escalated INTEGER NOT NULL DEFAULT 0 CHECK (escalated IN (0, 1));
        """

    /// Calendar rules (see ``RuleColumn``), pauses and holiday skipping for
    /// alarms; rules, all-day due dates and advance notices (seconds before
    /// the due time, comma-separated) for reminders. NULL and the defaults
    /// are what every older item is: weekday repeats, no pause, one due time.
    static let version7 = """
        ALTER TABLE alarms ADD COLUMN rule TEXT;
        ALTER TABLE alarms ADD COLUMN paused_until TEXT CHECK (paused_until IS NULL OR length(paused_until) = 10);
        ALTER TABLE alarms ADD COLUMN skip_holidays INTEGER NOT NULL DEFAULT 0 CHECK (skip_holidays IN (0, 1));
        ALTER TABLE reminders ADD COLUMN rule TEXT;
        ALTER TABLE reminders ADD COLUMN all_day INTEGER NOT NULL DEFAULT 0 CHECK (all_day IN (0, 1));
        ALTER TABLE reminders ADD COLUMN before TEXT NOT NULL DEFAULT '';
        """

    /// A reminder's own sound (NULL: the configuration's) and timers
    /// (`alarmctl timer`), which ring like alarms and are done once over.
    static let version8 = """
        ALTER TABLE reminders ADD COLUMN sound TEXT;
        ALTER TABLE reminders ADD COLUMN timer INTEGER NOT NULL DEFAULT 0 CHECK (timer IN (0, 1));
        """

    /// Which history rows are known to be in the journal: every row up to
    /// `through` (a `seq`). A row after it was committed but may not have been
    /// journaled (the daemon died between the two); the daemon looks for its
    /// entry at the next start and writes the ones missing. Rows from before
    /// this version count as journaled.
    static let version9 = """
        CREATE TABLE journal_checkpoint (
            id      INTEGER PRIMARY KEY CHECK (id = 1),
            through INTEGER NOT NULL
        ) STRICT;
        INSERT INTO journal_checkpoint (id, through) SELECT 1, ifnull(max(seq), 0) FROM events;
        """

    /// The seconds left on a paused timer (`alarmctl timer pause`); NULL for
    /// a timer that runs and every other reminder, which is what every older
    /// row is.
    static let version10 = """
        ALTER TABLE reminders ADD COLUMN timer_left INTEGER CHECK (timer_left IS NULL OR timer_left > 0);
        """

    /// Applies every migration newer than the file's version and returns the version
    /// the file ends at.
    ///
    /// The version is re-read inside each write transaction, so two processes opening
    /// the same old file at once cannot both apply a step.
    static func migrate(_ database: SQLiteDatabase) throws(SQLiteError) -> Int {
        for (index, script) in migrations.enumerated() {
            let target = index + 1
            try database.execute("BEGIN IMMEDIATE")
            do {
                guard try userVersion(database) < target else {
                    try database.execute("ROLLBACK")
                    continue
                }
                try database.execute(script)
                try database.execute("PRAGMA user_version = \(target)")
                try database.execute("COMMIT")
            } catch {
                if !database.isAutocommit { try? database.execute("ROLLBACK") }
                throw error
            }
        }
        return try userVersion(database)
    }

    /// The file's `PRAGMA user_version`; reading it is the first access to the file.
    static func userVersion(_ database: SQLiteDatabase) throws(SQLiteError) -> Int {
        Int(try database.integer("PRAGMA user_version") ?? 0)
    }
}
