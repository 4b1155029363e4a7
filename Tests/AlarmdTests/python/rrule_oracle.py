#!/usr/bin/env python3
"""The independent recurrence engine the tests compare alarmd's against:
python-dateutil's rrule. Reads one JSON case per line on stdin —
{"rule": {...}, "after": ["YYYY-MM-DD", ...], "n": K} — and prints, per case,
one JSON line: for each "after" day, the next K days the rule gives strictly
after it (fewer when it ends)."""

import bisect
import datetime
import json
import sys

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


for line in sys.stdin:
    case = json.loads(line)
    afters = [day(text) for text in case["after"]]
    print(json.dumps(answer(build(case["rule"]), afters, case["n"])), flush=True)
