# SPDX-License-Identifier: Apache-2.0
"""7. Firings during a write storm (issue #13): the load test's 64 clients × 1,000
changes (here `AddAlarm`, each acknowledged after its durable commit), each client
an `alarmd-bench rtt` process on its own connection, while reminders fire every
10 ms and a `Watch` client stamps them. Judged: the firings due between the
storm's first spawn and its last client's exit."""

import json
import subprocess
import time

from ..daemon import fire_and_watch
from ..processes import log, stop_process
from ..stats import distribution
from .scale import add_alarm_parameters

LABEL = "7 storm"


def storm(bench, daemon, t0):
    """Starts the clients just before the first reminder is due; waits for them all."""
    s = bench.settings
    time.sleep(max(0.0, t0 - 0.3 - time.time()))
    begin = time.time()
    clients = []
    for index in range(s.storm_clients):
        process = subprocess.Popen(bench.bench_tool("rtt", "--socket", daemon.socket, "--method", "io.alarmd.AddAlarm",
                                                    "--params", add_alarm_parameters(f"storm {index}"), "--count", s.storm_changes, "--warmup", 0),
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        token = bench.cleanup.add(f"storm client pid {process.pid}", lambda p=process: stop_process(p, "storm client"))
        clients.append((process, token))
    replies, failures = [], []
    for process, token in clients:
        stdout, stderr = process.communicate()
        bench.cleanup.run_now(token)
        if process.returncode != 0:
            failures.append(stderr.strip()[-300:])
        else:
            replies.append(json.loads(stdout.strip().splitlines()[-1]))
    end = time.time()
    return {"begin": begin, "end": end, "replies": replies, "failures": failures}


def run(bench):
    s = bench.settings
    count = int(round(s.storm_window / s.storm_interval))
    watched = fire_and_watch(bench, "storm", count, s.storm_window, during=lambda daemon, t0: storm(bench, daemon, t0))
    load = watched["during"]
    begin_us, end_us = int(load["begin"] * 1e6), int(load["end"] * 1e6)
    during = [(scheduled, actual, received) for scheduled, actual, received in watched["fired"] if begin_us <= scheduled <= end_us]
    acknowledged = sum(r["round_trip"]["count"] - r["errors"] for r in load["replies"])
    errors = sum(r["errors"] for r in load["replies"])
    seconds = load["end"] - load["begin"]
    result = {
        "clients": s.storm_clients, "changes_per_client": s.storm_changes, "method": "io.alarmd.AddAlarm",
        "seconds": seconds, "acknowledged": acknowledged, "errors": errors, "client_failures": load["failures"],
        "changes_per_second": acknowledged / seconds if seconds > 0 else None,
        "round_trip_p99_us": distribution([r["round_trip"]["p99"] for r in load["replies"]]),
        "reminders": count, "interval_s": s.storm_interval, "events_received": watched["summary"]["fired"],
        "firings_during": len(during),
        "daemon_ms": distribution([(actual - scheduled) / 1000 for scheduled, actual, _ in during]),
        "client_ms": distribution([(received - scheduled) / 1000 for scheduled, _, received in during]),
        "all_daemon_ms": distribution([(actual - scheduled) / 1000 for scheduled, actual, _ in watched["fired"]]),
    }
    bench.results["storm"] = result
    if load["failures"] or errors:
        raise RuntimeError(f"storm: {errors} error replies, client failures: {load['failures'][:3]}")
    late = result["daemon_ms"]
    log(f"storm: {acknowledged} changes in {seconds:.1f} s ({result['changes_per_second']:.0f}/s); {len(during)} firings during it"
        + (f", daemon-side p99 {late['p99']:.3f} ms, max {late['max']:.3f} ms" if late else ""))


def rows(results, table):
    storm_result = results.get("storm")
    if not storm_result:
        return
    r = storm_result
    table.row(LABEL, f"{r['clients']} clients × {r['changes_per_client']:,} AddAlarm: seconds, changes/s",
              f"{r['seconds']:.1f}, {r['changes_per_second']:,.0f}")
    table.row(LABEL, "firings due during the storm (every 10 ms)", str(r["firings_during"]))
    for side, label in (("daemon_ms", "daemon-side"), ("client_ms", "client-side")):
        d = r[side]
        short = side.split("_")[0]
        for q in ("p50", "p99", "max"):
            target = f"storm-{short}-{q}" if f"storm-{short}-{q}" in table.targets else None
            table.row(LABEL, f"firings during the storm, {label} {q} (ms)", f"{d[q]:.3f}" if d else "n/a", target)
