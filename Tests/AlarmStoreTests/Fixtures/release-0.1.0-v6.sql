-- The database alarmd 0.1.0 (schema 6, commit 5a71697) wrote through alarmctl, as sqlite3's .dump
-- prints it, plus the schema version, which .dump leaves out. Never edit: it is that release's file.
PRAGMA user_version=6;
PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
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
, snooze_max INTEGER NOT NULL DEFAULT 0, ring_seconds INTEGER NOT NULL DEFAULT 300, skip_next INTEGER NOT NULL DEFAULT 0 CHECK (skip_next IN (0, 1)), time_zone TEXT, command TEXT NOT NULL DEFAULT '', volume INTEGER CHECK (volume BETWEEN 1 AND 100), fade_seconds INTEGER CHECK (fade_seconds BETWEEN 0 AND 300), escalate_command TEXT NOT NULL DEFAULT '') STRICT, WITHOUT ROWID;
INSERT INTO alarms VALUES(X'7def8017a1d1447db61cf355ffef776a',6,15,0,'One-shot','alarm-clock-elapsed',1,9,1,1796179767921477,1796179767921477,0,300,0,NULL,'',NULL,NULL,'');
INSERT INTO alarms VALUES(X'835d1cfbfa844c8b81a286cd6f2c3b33',5,0,42,'Off','alarm-clock-elapsed',1,9,0,1796179767937240,1796179767937240,0,300,0,NULL,'echohi',NULL,NULL,'');
INSERT INTO alarms VALUES(X'c8017df938c047b8b5cc80c37711719e',9,0,65,'Weekend','alarm-clock-elapsed',1,10,1,1796179767915667,1796179767915667,0,300,0,NULL,'',NULL,NULL,'');
INSERT INTO alarms VALUES(X'd5b6d17fae80453a84eb61e1293ac73f',7,30,62,'Work','alarm-clock-elapsed',1,9,1,1796179767907124,1796179767907124,0,300,0,NULL,'',40,30,'');
INSERT INTO alarms VALUES(X'f5857d4993b040279467c49ad117cddd',22,0,127,'鬧鐘','alarm-clock-elapsed',1,9,1,1796179767927876,1796179767927876,0,300,0,'Asia/Taipei','',NULL,NULL,'');
CREATE TABLE reminders (
    id           BLOB    NOT NULL PRIMARY KEY CHECK (length(id) = 16),
    title        TEXT    NOT NULL,
    notes        TEXT    NOT NULL DEFAULT '',
    due_usec     INTEGER,
    done         INTEGER NOT NULL CHECK (done IN (0, 1)),
    position     INTEGER NOT NULL CHECK (position >= 0),
    created_usec INTEGER NOT NULL,
    updated_usec INTEGER NOT NULL
, image_path TEXT, command TEXT NOT NULL DEFAULT '') STRICT;
INSERT INTO reminders VALUES(X'35575576b7a740f2845e7c51ebc6fa96','Buy milk','',1796186968000000,0,0,1796179767947937,1796179767947937,NULL,'');
INSERT INTO reminders VALUES(X'8e4774e4e3e844f19f8cbee454649b92','Call mum','Sunday',NULL,0,1,1796179767954047,1796179767954047,NULL,'');
CREATE TABLE events (
    seq            INTEGER PRIMARY KEY AUTOINCREMENT,
    item_id        BLOB    NOT NULL CHECK (length(item_id) = 16),
    item_kind      TEXT    NOT NULL CHECK (item_kind IN ('alarm', 'reminder')),
    event          TEXT    NOT NULL,
    scheduled_usec INTEGER,
    actual_usec    INTEGER NOT NULL,
    detail         TEXT    NOT NULL DEFAULT ''
) STRICT;
CREATE TABLE ring_states (
    item_id         BLOB    NOT NULL PRIMARY KEY CHECK (length(item_id) = 16),
    item_kind       TEXT    NOT NULL CHECK (item_kind IN ('alarm', 'reminder')),
    anchor_usec     INTEGER NOT NULL,
    phase           TEXT    NOT NULL CHECK (phase IN ('waiting', 'ringing', 'snoozed')),
    phase_usec      INTEGER,
    occurrence_usec INTEGER,
    snooze_count    INTEGER NOT NULL DEFAULT 0 CHECK (snooze_count >= 0)
, escalated INTEGER NOT NULL DEFAULT 0 CHECK (escalated IN (0, 1))) STRICT, WITHOUT ROWID;
INSERT INTO ring_states VALUES(X'35575576b7a740f2845e7c51ebc6fa96','reminder',1796179767947962,'waiting',NULL,NULL,0,0);
INSERT INTO ring_states VALUES(X'7def8017a1d1447db61cf355ffef776a','alarm',1796179767921507,'waiting',NULL,NULL,0,0);
INSERT INTO ring_states VALUES(X'835d1cfbfa844c8b81a286cd6f2c3b33','alarm',1796179767937270,'waiting',NULL,NULL,0,0);
INSERT INTO ring_states VALUES(X'8e4774e4e3e844f19f8cbee454649b92','reminder',1796179767954079,'waiting',NULL,NULL,0,0);
INSERT INTO ring_states VALUES(X'c8017df938c047b8b5cc80c37711719e','alarm',1796179767915698,'waiting',NULL,NULL,0,0);
INSERT INTO ring_states VALUES(X'd5b6d17fae80453a84eb61e1293ac73f','alarm',1796179767907164,'waiting',NULL,NULL,0,0);
INSERT INTO ring_states VALUES(X'f5857d4993b040279467c49ad117cddd','alarm',1796179767927915,'waiting',NULL,NULL,0,0);
DELETE FROM sqlite_sequence;
CREATE INDEX reminders_position ON reminders (position);
CREATE INDEX events_item ON events (item_id);
CREATE TRIGGER alarms_drop_ring_state AFTER DELETE ON alarms
    BEGIN DELETE FROM ring_states WHERE item_id = old.id; END;
CREATE TRIGGER reminders_drop_ring_state AFTER DELETE ON reminders
    BEGIN DELETE FROM ring_states WHERE item_id = old.id; END;
COMMIT;
