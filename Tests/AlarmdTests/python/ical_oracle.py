#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The occurrences of each alarm in an exported iCalendar file, as the Python
`icalendar` and `recurring-ical-events` libraries read it: an oracle that
shares no code with alarmd.

    ical_oracle.py FILE SYSTEM_ZONE FROM_UTC COUNT

Prints one JSON object: {UID: [UTC instants "YYYY-MM-DDTHH:MM:SSZ", ...]},
the first COUNT occurrences of each VEVENT strictly after FROM_UTC (an ISO
instant ending in Z). Floating times are read in SYSTEM_ZONE, as alarmd
reads a floating alarm in the system zone. Also checks that every VTODO and
VEVENT has what RFC 5545 requires of it (UID, DTSTAMP), and that each
VTIMEZONE, read on its own, gives the offsets Python's zoneinfo has for its
TZID over the next six years; exits 1 if not.
"""
import datetime
import json
import sys
from zoneinfo import ZoneInfo

import icalendar
import recurring_ical_events


def main():
    path, zone_name, start_text, count = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    system = ZoneInfo(zone_name)
    start = datetime.datetime.fromisoformat(start_text.replace("Z", "+00:00"))
    with open(path, "rb") as file:
        calendar = icalendar.Calendar.from_ical(file.read())
    # Each VTIMEZONE must give its zone's offsets, as Python's zoneinfo has
    # them, from now on (where alarms ring): built from the component alone.
    for component in calendar.walk("VTIMEZONE"):
        name = str(component["TZID"])
        built = component.to_tz(lookup_tzid=False)
        reference = ZoneInfo(name)
        for day in range(0, 6 * 365, 5):
            moment = (start + datetime.timedelta(days=day)).astimezone(datetime.timezone.utc)
            mine = moment.astimezone(built).utcoffset()
            theirs = moment.astimezone(reference).utcoffset()
            if mine != theirs:
                print(f"VTIMEZONE {name}: offset {mine} at {moment}, zoneinfo says {theirs}", file=sys.stderr)
                sys.exit(1)
    result = {}
    for component in calendar.walk():
        if component.name not in ("VEVENT", "VTODO"):
            continue
        for required in ("UID", "DTSTAMP"):
            if required not in component:
                print(f"{component.name} without {required}: {component.to_ical()!r}", file=sys.stderr)
                sys.exit(1)
        if component.name != "VEVENT":
            continue
        single = icalendar.Calendar()
        single.add_component(component)
        # Naive bounds: the library compares them with floating times as
        # they are and with zoned ones in the event's zone; a day's margin
        # on each side, then exact filtering on instants below.
        # Four years at a time, for up to 400 (a rule on Feb 29 or the 31st
        # gives few occurrences), until COUNT are found.
        low = (start - datetime.timedelta(days=2)).replace(tzinfo=None)
        instants = []
        for _ in range(100):
            high = low + datetime.timedelta(days=4 * 365)
            found = []
            for occurrence in recurring_ical_events.of(single).between(low, high):
                moment = occurrence["DTSTART"].dt
                if moment.tzinfo is None:
                    moment = moment.replace(tzinfo=system)
                moment = moment.astimezone(datetime.timezone.utc)
                if moment > start:
                    found.append(moment)
            # A window's end may also be the next one's start: once each.
            instants += [m for m in sorted(set(found)) if not instants or m > instants[-1]]
            if len(instants) >= count:
                break
            low = high
        result[str(component["UID"])] = [m.strftime("%Y-%m-%dT%H:%M:%SZ") for m in instants[:count]]
    print(json.dumps(result))


if __name__ == "__main__":
    main()
