# SPDX-License-Identifier: Apache-2.0
"""1. Firing lateness: 10,000 reminders 1 ms apart, one `Watch` client."""

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
    bench.results["lateness"] = result


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
