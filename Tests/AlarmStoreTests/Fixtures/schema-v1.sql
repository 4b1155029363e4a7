-- The version 1 schema of alarmd's store, as the first release created it.
-- A frozen copy of Schema.version1 (a test keeps them identical); the migration
-- test builds a version 1 file from it.
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
PRAGMA user_version = 1;
