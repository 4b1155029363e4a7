#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
""""The phone": a CalDAV client independent of alarmd, built on the `caldav`
library, that the tests use to change a calendar behind alarmd's back.

Usage: caldav_phone.py URL USER PASSWORD COMMAND [ARGS...]
URL is the collection, e.g. http://127.0.0.1:PORT/USER/tasks/. Commands:
  add-todo UID SUMMARY DUE_UTC   -> {"href"}   (DUE_UTC like 20261202T101500Z)
  list-todos                     -> [{"uid","summary","status","due","href","etag"}]
  set-summary UID TEXT           -> {"href"}
  delete UID                     -> {"deleted": UID}
  list-events                    -> [{"uid","summary","dtstart","rrule","tzid","href"}]
  get UID                        -> {"ical"}
Prints JSON on stdout; on failure prints a message on stderr and exits 1."""

import datetime
import json
import sys
from urllib.parse import urlsplit

import caldav


def stamp(moment=None):
    return (moment or datetime.datetime.now(datetime.timezone.utc)).strftime("%Y%m%dT%H%M%SZ")


def text(component, name):
    # Text values (vText is a str) go out unescaped; dates, times and rules as
    # their iCalendar text, so the Swift side compares strings, not whatever
    # Python type icalendar chose to decode them into.
    value = component.get(name)
    if value is None or isinstance(value, str):
        return value if value is None else str(value)
    return value.to_ical().decode()


def href(obj):
    return urlsplit(str(obj.url)).path


def add_todo(calendar, uid, summary, due):
    # Written out by hand rather than via add_todo(summary=..., alarm_trigger=...)
    # so the stored object is exactly this, including TRIGGER;RELATED=END.
    ical = "\r\n".join([
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//alarmd tests//caldav phone//EN",
        "BEGIN:VTODO", "UID:" + uid, "DTSTAMP:" + stamp(), "SUMMARY:" + summary,
        "DUE:" + due, "STATUS:NEEDS-ACTION",
        "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:" + summary,
        "TRIGGER;RELATED=END:PT0S", "END:VALARM",
        "END:VTODO", "END:VCALENDAR", ""])
    return {"href": href(calendar.add_todo(ical))}


def list_todos(calendar):
    # include_completed: without it the library asks the server to leave out
    # COMPLETED/CANCELLED tasks, and the tests want to see those too.
    return [{"uid": text(c, "UID"), "summary": text(c, "SUMMARY"),
             "status": text(c, "STATUS"), "due": text(c, "DUE"),
             "href": href(t), "etag": t.etag}
            for t in calendar.get_todos(include_completed=True)
            for c in [t.icalendar_component]]


def set_summary(calendar, uid, summary):
    todo = calendar.get_object_by_uid(uid)
    component = todo.icalendar_component
    component.pop("SUMMARY", None)
    component.add("SUMMARY", summary)
    component.pop("LAST-MODIFIED", None)
    component.add("LAST-MODIFIED", datetime.datetime.now(datetime.timezone.utc))
    # save() sends If-Match with the ETag the lookup returned, like a real
    # phone would: a concurrent edit makes it fail (412) instead of clobbering.
    todo.save()
    return {"href": href(todo)}


def delete(calendar, uid):
    calendar.get_object_by_uid(uid).delete()
    return {"deleted": uid}


def list_events(calendar):
    return [{"uid": text(c, "UID"), "summary": text(c, "SUMMARY"),
             "dtstart": text(c, "DTSTART"), "rrule": text(c, "RRULE"),
             # dtstart is the bare local time for a zoned start; say which zone
             "tzid": c["DTSTART"].params.get("TZID") if "DTSTART" in c else None,
             "href": href(e)}
            for e in calendar.get_events()
            for c in [e.icalendar_component]]


def get(calendar, uid):
    # load() re-fetches with a GET: raw_data is then the body byte for byte
    # (CRLFs and Radicale's own property order), where .data would be the
    # REPORT's copy with line ends normalised by the XML parser.
    return {"ical": calendar.get_object_by_uid(uid).load().raw_data.decode()}


COMMANDS = {"add-todo": (add_todo, 3), "list-todos": (list_todos, 0),
            "set-summary": (set_summary, 2), "delete": (delete, 1),
            "list-events": (list_events, 0), "get": (get, 1)}


def main(argv):
    if len(argv) < 5 or argv[4] not in COMMANDS or len(argv) != 5 + COMMANDS[argv[4]][1]:
        sys.exit(__doc__)
    url, user, password, command, *args = argv[1:]
    # enable_rfc6764=False: URL is the collection itself, nothing to discover.
    with caldav.DAVClient(url=url, username=user, password=password,
                          enable_rfc6764=False) as client:
        calendar = client.calendar(url=url)
        result = COMMANDS[command][0](calendar, *args)
    print(json.dumps(result))


if __name__ == "__main__":
    try:
        main(sys.argv)
    except Exception as error:  # one line the Swift test can show, not a traceback
        sys.exit("caldav_phone.py %s: %s: %s" % (sys.argv[4] if len(sys.argv) > 4 else "",
                                                 type(error).__name__, error))
