#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The independent recurrence engine the tests compare alarmd's against:
python-dateutil's rrule. Reads one JSON case per line on stdin —
{"rule": {...}, "after": ["YYYY-MM-DD", ...], "n": K} — and prints, per case,
one JSON line: for each "after" day, the next K days the rule gives strictly
after it (fewer when it ends).

A case that also names a zone — {"rule": {...}, "zoneFile": path, "seconds": S,
"after": [epoch seconds, ...], "n": K} — asks for firing instants instead: the
rule's days (from dateutil, as above) at S seconds into the local day, turned
into instants with Python's zoneinfo reading that TZif file (the very file
alarmd reads, not the `tzdata` package's copy). The local time is taken with
fold=0, which is alarmd's time rule: a repeated time fires at its first
occurrence, and a time in a gap is read with the offset in force before the
transition, i.e. fires as far past the gap as it lay into it (02:15 in Lord
Howe's 02:00→02:30 gap is 02:45). For each "after" instant the answer is the
next K firing instants strictly after it."""

import bisect
import datetime
import json
import sys
import zoneinfo

from dateutil.rrule import DAILY, FR, MO, MONTHLY, SA, SU, TH, TU, WE, WEEKLY, YEARLY, rrule, rruleset

FREQUENCIES = {"daily": DAILY, "weekly": WEEKLY, "monthly": MONTHLY, "yearly": YEARLY}
WEEKDAYS = {"mon": MO, "tue": TU, "wed": WE, "thu": TH, "fri": FR, "sat": SA, "sun": SU}


def day(text):
    return datetime.datetime.strptime(text, "%Y-%m-%d")


def build(rule):
    options = {"freq": FREQUENCIES[rule["frequency"]], "dtstart": day(rule["start"]), "interval": rule["interval"], "wkst": MO}
    if rule["byDay"]:
        options["byweekday"] = [WEEKDAYS[entry["weekday"]](entry["ordinal"]) if entry.get("ordinal") else WEEKDAYS[entry["weekday"]]
                                for entry in rule["byDay"]]
    if rule["byMonthDay"]:
        options["bymonthday"] = rule["byMonthDay"]
    if rule["byMonth"]:
        options["bymonth"] = rule["byMonth"]
    if "until" in rule:
        options["until"] = day(rule["until"])
    if "count" in rule:
        options["count"] = rule["count"]
    if not rule["exceptions"]:
        return rrule(**options)  # the same days as a set of it alone, a fifth sooner
    recurrence = rruleset()
    recurrence.rrule(rrule(**options))
    for exception in rule["exceptions"]:
        recurrence.exdate(day(exception))
    return recurrence


def answer(recurrence, afters, count):
    """One pass over the occurrences (dateutil's `after` starts from the
    beginning at every call), until the latest `after` has `count` beyond it."""
    latest = max(afters)
    occurrences, beyond = [], 0
    for occurrence in recurrence:
        occurrences.append(occurrence)
        if occurrence > latest:
            beyond += 1
            if beyond >= count:
                break
    result = []
    for after in afters:
        index = bisect.bisect_right(occurrences, after)
        result.append([x.strftime("%Y-%m-%d") for x in occurrences[index:index + count]])
    return result


EPOCH = datetime.datetime(1970, 1, 1)
ZONES = {}


def zone(path):
    if path not in ZONES:
        with open(path, "rb") as file:
            ZONES[path] = zoneinfo.ZoneInfo.from_file(file, key=path)
    return ZONES[path]


def firing(occurrence, seconds, tz):
    """The instant at which a clock in `tz` shows `seconds` into the day of
    `occurrence` (a naive midnight), fold=0."""
    wall = datetime.datetime.combine(occurrence.date(), datetime.time(seconds // 3600, seconds // 60 % 60, seconds % 60), tzinfo=tz)
    local = (occurrence - EPOCH).days * 86400 + seconds
    return local - wall.utcoffset() // datetime.timedelta(seconds=1)


def instant_answer(recurrence, tz, seconds, afters, count):
    """Like `answer`, on instants. The days are gathered until `count` of them
    lie two days past the UTC day of the latest `after`, which puts their
    firing instants past it whatever the offset (under a day); only the
    instants the answer needs are worked out, by bisecting the days on their
    firing instant (which grows with the day: no zone changes its offset by a
    day)."""
    stop = EPOCH + datetime.timedelta(days=max(afters) // 86400 + 2)
    occurrences, beyond = [], 0
    for occurrence in recurrence:
        occurrences.append(occurrence)
        if occurrence >= stop:
            beyond += 1
            if beyond >= count:
                break
    def key(occurrence):
        return firing(occurrence, seconds, tz)
    result = []
    for after in afters:
        index = bisect.bisect_right(occurrences, after, key=key)
        instants = [key(x) for x in occurrences[index:index + count]]
        assert instants == sorted(set(instants)), f"firing instants out of order: {instants}"
        result.append(instants)
    return result


for line in sys.stdin:
    case = json.loads(line)
    if "zoneFile" in case:
        result = instant_answer(build(case["rule"]), zone(case["zoneFile"]), case["seconds"], case["after"], case["n"])
    else:
        result = answer(build(case["rule"]), [day(text) for text in case["after"]], case["n"])
    print(json.dumps(result), flush=True)
