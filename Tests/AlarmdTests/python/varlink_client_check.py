#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Drives alarmd's control socket with the independent Python `varlink` package.

Usage: varlink_client_check.py SOCKET_PATH

Prints one line per check ("ok ..." or "FAIL ...") and exits non-zero when any
check fails. Only public API of the varlink package is used.
"""

import datetime
import signal
import sys
import traceback

import varlink

INTERFACE = "io.alarmd"
UNKNOWN_ID = "00000000-0000-4000-8000-000000000000"

failures = 0


def check(name, condition, detail=""):
    global failures
    if condition:
        print(f"ok   {name}")
    else:
        failures += 1
        print(f"FAIL {name}" + (f": {detail}" if detail else ""))
    sys.stdout.flush()
    return condition


def run(name, body):
    """Runs one group of checks; an unexpected exception fails it with its traceback."""
    global failures
    try:
        body()
    except Exception as error:  # noqa: BLE001 - any exception is a failed check here
        failures += 1
        print(f"FAIL {name}: {type(error).__name__}: {error}")
        for line in traceback.format_exc().rstrip().splitlines():
            print(f"     {line}")
        sys.stdout.flush()


class Timeout(Exception):
    pass


def on_alarm(signum, frame):
    raise Timeout("timed out")


def main(socket_path):
    address = "unix:" + socket_path
    signal.signal(signal.SIGALRM, on_alarm)
    # Every blocking call below is bounded: a hung daemon fails the run instead of hanging it.
    signal.alarm(60)

    with varlink.Client(address=address) as client:

        def interface_description():
            with client.open("org.varlink.service") as service:
                info = service.GetInfo()
                check("GetInfo lists io.alarmd", INTERFACE in info.get("interfaces", []), repr(info))
                reply = service.GetInterfaceDescription(interface=INTERFACE)
                description = reply["description"]
                parsed = varlink.Interface(description)
                check("GetInterfaceDescription parses with varlink.Interface", parsed.name == INTERFACE, parsed.name)
                methods = [name for name, member in parsed.members.items() if type(member).__name__ == "_Method"]
                check("the description declares ListAlarms ... Import",
                      {"ListAlarms", "AddAlarm", "UpdateAlarm", "RemoveAlarm", "GetAlarm", "Watch", "Import"} <= set(methods),
                      repr(sorted(methods)))
                try:
                    service.GetInterfaceDescription(interface="com.example.nothing")
                    check("GetInterfaceDescription of an unknown interface fails", False, "it succeeded")
                except varlink.VarlinkError as error:
                    check("GetInterfaceDescription of an unknown interface is InterfaceNotFound",
                          error.error() == "org.varlink.service.InterfaceNotFound", repr(error.as_dict()))

        run("interface description", interface_description)

        def alarms_round_trip():
            with client.open(INTERFACE) as alarmd:
                before = alarmd.ListAlarms()["alarms"]
                check("ListAlarms starts empty", before == [], repr(before))

                added = alarmd.AddAlarm(fields={"time": "7:30", "days": ["mon", "fri"], "label": "Python"})["alarm"]
                alarm_id = added["id"]
                check("AddAlarm returns the alarm",
                      added["time"] == "07:30" and added["days"] == ["mon", "fri"] and added["label"] == "Python"
                      and added["repeat"] == "Mon, Fri" and added["enabled"] is True,
                      repr(added))
                check("AddAlarm gives a UUID", len(alarm_id) == 36 and alarm_id.count("-") == 4, alarm_id)

                fetched = alarmd.GetAlarm(id=alarm_id)["alarm"]
                check("GetAlarm returns the same alarm", fetched["id"] == alarm_id and fetched["label"] == "Python"
                      and fetched["time"] == "07:30", repr(fetched))
                by_prefix = alarmd.GetAlarm(id=alarm_id[:8])["alarm"]
                check("GetAlarm accepts an id prefix", by_prefix["id"] == alarm_id, repr(by_prefix))

                updated = alarmd.UpdateAlarm(id=alarm_id, fields={"label": "Python 2", "enabled": False, "time": "08:15"})["alarm"]
                check("UpdateAlarm changes the given fields",
                      updated["label"] == "Python 2" and updated["enabled"] is False and updated["time"] == "08:15"
                      and updated["days"] == ["mon", "fri"],
                      repr(updated))

                listed = alarmd.ListAlarms()["alarms"]
                check("ListAlarms shows the update",
                      [(a["id"], a["label"]) for a in listed] == [(alarm_id, "Python 2")], repr(listed))

                removed = alarmd.RemoveAlarm(id=alarm_id)
                check("RemoveAlarm names what it removed", removed == {"id": alarm_id, "title": "Python 2"}, repr(removed))
                check("ListAlarms is empty again", alarmd.ListAlarms()["alarms"] == [])

                try:
                    alarmd.GetAlarm(id=alarm_id)
                    check("GetAlarm of the removed alarm fails", False, "it succeeded")
                except varlink.VarlinkError as error:
                    check("GetAlarm of the removed alarm is io.alarmd.NoSuchItem",
                          error.error() == "io.alarmd.NoSuchItem", repr(error.as_dict()))

        run("alarms round trip", alarms_round_trip)

        def errors():
            with client.open(INTERFACE) as alarmd:
                try:
                    alarmd.GetAlarm(id=UNKNOWN_ID)
                    check("GetAlarm of an unknown id fails", False, "it succeeded")
                except varlink.VarlinkError as error:
                    check("GetAlarm of an unknown id raises io.alarmd.NoSuchItem",
                          error.error() == "io.alarmd.NoSuchItem", repr(error.as_dict()))
                    check("NoSuchItem names the id", (error.parameters() or {}).get("id") == UNKNOWN_ID, repr(error.as_dict()))
                try:
                    alarmd.AddAlarm(fields={"time": "25:00"})
                    check("AddAlarm with 25:00 fails", False, "it succeeded")
                except varlink.VarlinkError as error:
                    check("AddAlarm with 25:00 raises io.alarmd.InvalidParameter for fields.time",
                          error.error() == "io.alarmd.InvalidParameter"
                          and (error.parameters() or {}).get("parameter") == "fields.time",
                          repr(error.as_dict()))
                # The connection is still usable after errors.
                check("the connection works after errors", "alarms" in alarmd.ListAlarms())

        run("errors", errors)

        def calendar_rules():
            with client.open(INTERFACE) as alarmd:
                rule = {"frequency": "monthly", "interval": 2, "byDay": [{"weekday": "fri", "ordinal": -1}],
                        "starting": "2026-01-01", "until": "2030-12-31", "exceptions": ["2026-03-27"]}
                added = alarmd.AddAlarm(fields={"time": "19:00", "label": "Pay day", "rule": rule,
                                                "pausedUntil": "2030-01-05", "skipHolidays": True})["alarm"]
                sent = dict(rule, byMonthDay=[], byMonth=[])
                check("AddAlarm keeps a structured rule",
                      added["rule"] == sent and added["days"] == [] and added["pausedUntil"] == "2030-01-05"
                      and added["skipHolidays"] is True, repr(added))
                check("the rule is described in words",
                      added["repeat"] == "Every 2 months on the last Fri, until Dec 31, 2030, except Mar 27", repr(added["repeat"]))
                check("it next rings on the first rule day after the pause",
                      added["next"].startswith("2030-01-25T19:00:00"), repr(added["next"]))
                cleared = alarmd.UpdateAlarm(id=added["id"], fields={"days": ["sat"], "pausedUntil": ""})["alarm"]
                check("days replace the rule and an empty pausedUntil ends the pause",
                      "rule" not in cleared and "pausedUntil" not in cleared and cleared["days"] == ["sat"], repr(cleared))
                try:
                    alarmd.UpdateAlarm(id=added["id"], fields={"rule": {"frequency": "weekly", "starting": "2026-01-01",
                                                                          "byDay": [{"weekday": "mon", "ordinal": 2}]}})
                    check("an ordinal in a weekly rule is refused", False, "it succeeded")
                except varlink.VarlinkError as error:
                    check("an ordinal in a weekly rule is InvalidParameter fields.rule.byDay",
                          error.error() == "io.alarmd.InvalidParameter"
                          and (error.parameters() or {}).get("parameter") == "fields.rule.byDay", repr(error.as_dict()))
                alarmd.RemoveAlarm(id=added["id"])

                reminder = alarmd.AddReminder(title="Bins", on="2030-03-04", before=[3600, 900],
                                              rule={"frequency": "weekly", "starting": "2030-03-04",
                                                    "byDay": [{"weekday": "mon"}]})["reminder"]
                check("AddReminder takes a day, a rule and notices",
                      reminder["allDay"] is True and reminder["before"] == [900, 3600] and reminder["repeat"] == "Mon"
                      and reminder["due"].startswith("2030-03-04T09:00:00"), repr(reminder))
                done = alarmd.CompleteReminder(id=reminder["id"])["reminder"]
                check("done makes the next occurrence due", done["done"] is False and done["due"].startswith("2030-03-11T09:00:00"),
                      repr(done))
                alarmd.RemoveReminder(id=reminder["id"])

        run("calendar rules", calendar_rules)

        def watch_fires():
            # Subscribe first, on its own connection, so the event cannot be missed.
            with client.open(INTERFACE) as watcher, client.open(INTERFACE) as alarmd:
                stream = watcher.Watch(_more=True)
                zone = datetime.timezone(datetime.timedelta(hours=5, minutes=30))
                due = (datetime.datetime.now(zone) + datetime.timedelta(seconds=1)).isoformat(timespec="milliseconds")
                reminder = alarmd.AddReminder(title="Python watch", due=due)["reminder"]
                check("AddReminder accepts an RFC 3339 due with an offset", reminder.get("due") is not None, repr(reminder))
                signal.alarm(10)
                seen = []
                fired = None
                try:
                    for reply in stream:
                        event = (reply or {}).get("event") or {}
                        seen.append(event.get("kind"))
                        if event.get("kind") == "fired" and event.get("id") == reminder["id"]:
                            fired = event
                            break
                except Timeout:
                    pass
                finally:
                    signal.alarm(60)
                check("Watch delivers a fired event within 10 s", fired is not None, f"events seen: {seen}")
                if fired:
                    check("the fired event describes the reminder",
                          fired.get("itemKind") == "reminder" and fired.get("title") == "Python watch",
                          repr(fired))

        run("watch", watch_fires)

    signal.alarm(0)
    print(f"{'FAILED' if failures else 'PASSED'}: {failures} check(s) failed")
    return 1 if failures else 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print("usage: varlink_client_check.py SOCKET_PATH", file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1]))
