# SPDX-License-Identifier: Apache-2.0
"""8. A burst (issue #13): 100 reminders due at the same instant, one `Watch`
client; how long until each reaches it."""

from ..daemon import fire_and_watch
from ..processes import log
from ..stats import distribution, over_runs

LABEL = "8 burst"


def run(bench):
    s = bench.settings
    runs = []
    for run_index in range(s.burst_runs):
        watched = fire_and_watch(bench, f"burst-{run_index}", s.burst_items, 0)
        fired = watched["fired"]
        runs.append({
            "items": s.burst_items, "events_received": watched["summary"]["fired"], "lead_s": watched["lead"],
            "client_ms": distribution([(received - scheduled) / 1000 for scheduled, _, received in fired]),
            "daemon_ms": distribution([(actual - scheduled) / 1000 for scheduled, actual, _ in fired]),
        })
        last = runs[-1]["client_ms"]
        log(f"burst run {run_index}: {len(fired)}/{s.burst_items} reached the Watch client"
            + (f"; p99 {last['p99']:.3f} ms, last {last['max']:.3f} ms after their instant" if last else ""))
    result = {"runs": runs, "client_ms": over_runs(runs, "client_ms"), "daemon_ms": over_runs(runs, "daemon_ms"),
              "missing_events": sum(r["items"] - r["events_received"] for r in runs)}
    bench.results["burst"] = result


def rows(results, table):
    burst = results.get("burst")
    if not burst:
        return
    n = burst["runs"][0]["items"]
    table.row(LABEL, f"{n} reminders due at once: Watch receipt − scheduled, p50 (ms)", table.mmm(burst["client_ms"]["p50"], "{:.3f}"))
    table.row(LABEL, f"{n} reminders due at once: Watch receipt − scheduled, p99 (ms)", table.mmm(burst["client_ms"]["p99"], "{:.3f}"), "burst-client-p99")
    table.row(LABEL, f"{n} reminders due at once: Watch receipt − scheduled, max (ms)", table.mmm(burst["client_ms"]["max"], "{:.3f}"))
    table.row(LABEL, f"{n} reminders due at once: daemon-side p99 (ms)", table.mmm(burst["daemon_ms"]["p99"], "{:.3f}"))
    if burst["missing_events"]:
        table.row(LABEL, "fired events not received", str(burst["missing_events"]))
