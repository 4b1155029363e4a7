# SPDX-License-Identifier: Apache-2.0
"""1. Firing lateness: 10,000 reminders 1 ms apart, one `Watch` client; and
reminders added by a client in a quick burst, then falling due 10 ms apart
a few seconds later (the write path and the firings meet)."""

import json
import os
import socket
import time
from datetime import datetime, timezone

from ..daemon import Daemon, Watcher
from ..daemon import fire_and_watch
from ..processes import log
from ..stats import distribution, over_runs

LABEL = "1 lateness"


def run(bench):
    s = bench.settings
    runs = []
    client_all, daemon_all = [], []
    for run_index in range(s.lateness_runs):
        watched = fire_and_watch(bench, f"lateness-{run_index}", s.lateness_reminders, s.lateness_window)
        summary = watched["summary"]
        client = [(received - scheduled) / 1000 for scheduled, _, received in watched["fired"]]
        daemon_side = [(actual - scheduled) / 1000 for scheduled, actual, _ in watched["fired"]]
        client_all += client
        daemon_all += daemon_side
        runs.append({
            "reminders": s.lateness_reminders, "window_s": s.lateness_window, "lead_s": watched["lead"], "ready_s": watched["ready"],
            "events_received": summary["fired"], "event_kinds": summary["kinds"], "closed_by_daemon": summary["closed_by_daemon"],
            "client_ms": distribution(client), "daemon_ms": distribution(daemon_side),
        })
        log(f"lateness run {run_index}: {summary['fired']}/{s.lateness_reminders} fired events; client p50 {runs[-1]['client_ms']['p50']:.3f} ms, "
            f"p99 {runs[-1]['client_ms']['p99']:.3f} ms, max {runs[-1]['client_ms']['max']:.3f} ms")
    result = {"runs": runs, "samples": {"client_ms": client_all, "daemon_ms": daemon_all}}
    for side in ("client_ms", "daemon_ms"):
        result[side] = over_runs(runs, side)
    result["missing_events"] = sum(r["reminders"] - r["events_received"] for r in runs)
    result["added"] = added_runs(bench)
    bench.results["lateness"] = result


def call_all(path, calls):
    """Sends `calls` (method, parameters) back to back on one connection,
    each after the last reply; returns the replies."""
    replies = []
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection:
        connection.connect(path)
        buffer = b""
        for method, parameters in calls:
            connection.sendall(json.dumps({"method": method, "parameters": parameters}).encode() + b"\0")
            while b"\0" not in buffer:
                chunk = connection.recv(65536)
                if not chunk:
                    raise RuntimeError("alarmd closed the connection")
                buffer += chunk
            reply, buffer = buffer.split(b"\0", 1)
            replies.append(json.loads(reply))
    return replies


def due_text(seconds):
    """`seconds` since the epoch as a due time the wire takes (UTC, milliseconds)."""
    return datetime.fromtimestamp(seconds, timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def added_then_fired(bench, name, count, spacing, lead):
    """alarmd with no items and a Watch client; a second client adds `count`
    reminders as fast as it can, due `spacing` seconds apart from `lead`
    seconds on; returns the fired events (scheduled, actual, received)."""
    state = os.path.join(bench.work, name)
    os.makedirs(state, mode=0o700, exist_ok=True)
    daemon = Daemon(bench, state, name.split("-")[0])
    daemon.start()
    watcher = Watcher(bench, daemon, count, lead + count * spacing + 60, os.path.join(bench.work, f"fired-{name}.tsv"))
    if not watcher.watching:
        watcher.stop()
        daemon.stop_now()
        raise RuntimeError(f"{name}: the watch client did not start ({watcher.first_line!r})")
    t0 = time.time() + lead
    calls = []
    for index in range(count):
        calls.append(("io.alarmd.AddReminder", {"title": f"burst {index}", "due": due_text(t0 + index * spacing)}))
    added = time.time()
    replies = call_all(daemon.socket, calls)
    adding = time.time() - added
    errors = [reply for reply in replies if "error" in reply]
    summary = watcher.finish()
    daemon.stop_now()
    if errors:
        raise RuntimeError(f"{name}: {len(errors)} adds refused, the first: {errors[0]}")
    return {"summary": summary, "fired": watcher.fired(), "adding_s": adding, "margin_s": t0 - time.time()}


def added_runs(bench):
    s = bench.settings
    runs = []
    for run_index in range(s.added_runs):
        watched = added_then_fired(bench, f"added-{run_index}", s.added_reminders, 0.010, 3.0)
        fired = watched["fired"]
        runs.append({
            "reminders": s.added_reminders, "events_received": watched["summary"]["fired"], "adding_s": watched["adding_s"],
            "client_ms": distribution([(received - scheduled) / 1000 for scheduled, _, received in fired]),
            "daemon_ms": distribution([(actual - scheduled) / 1000 for scheduled, actual, _ in fired]),
        })
        log(f"added-then-fired run {run_index}: {len(fired)}/{s.added_reminders} fired events after adding them in {watched['adding_s']:.2f} s; "
            f"client p50 {runs[-1]['client_ms']['p50']:.3f} ms, p99 {runs[-1]['client_ms']['p99']:.3f} ms; daemon p99 {runs[-1]['daemon_ms']['p99']:.3f} ms")
    return {"runs": runs, "client_ms": over_runs(runs, "client_ms"), "daemon_ms": over_runs(runs, "daemon_ms"),
            "missing_events": sum(r["reminders"] - r["events_received"] for r in runs)}


def rows(results, table):
    late = results.get("lateness")
    if not late:
        return
    n = late["runs"][0]["reminders"]
    for side, label, short in (("client_ms", "client-side", "client"), ("daemon_ms", "daemon-side", "daemon")):
        table.row(LABEL, f"alarmd {n} reminders, {label} p50 (ms)", table.mmm(late[side]["p50"], "{:.3f}"), f"lateness-{short}-p50")
        table.row(LABEL, f"alarmd {n} reminders, {label} p99 (ms)", table.mmm(late[side]["p99"], "{:.3f}"), f"lateness-{short}-p99")
        table.row(LABEL, f"alarmd {n} reminders, {label} max (ms)", table.mmm(late[side]["max"], "{:.3f}"))
    if late["missing_events"]:
        table.row(LABEL, "fired events not received", str(late["missing_events"]))
    added = late.get("added")
    if added:
        n = added["runs"][0]["reminders"]
        for side, label, short in (("client_ms", "client-side", "client"), ("daemon_ms", "daemon-side", "daemon")):
            table.row(LABEL, f"{n} added in a burst, due 10 ms apart: {label} p50 (ms)", table.mmm(added[side]["p50"], "{:.3f}"))
            table.row(LABEL, f"{n} added in a burst, due 10 ms apart: {label} p99 (ms)", table.mmm(added[side]["p99"], "{:.3f}"), f"added-{short}-p99")
        if added["missing_events"]:
            table.row(LABEL, "fired events not received (added in a burst)", str(added["missing_events"]))
