# SPDX-License-Identifier: Apache-2.0
"""4. Control: Status round trips and throughput, alarmctl add against at, Import."""

import json
import os
import subprocess
import time

from .. import peers
from ..daemon import Daemon
from ..processes import SERVICE, log, run_json, spawn_and_time, stop_process
from ..stats import median_min_max

LABEL = "4 control"


def small_store(bench, name):
    """The control sections' store: 100 alarms and 20 reminders, none due within 4 hours."""
    now = int(time.time())
    return bench.make_store(name, alarms=100, reminders=20, due_start=(now + 86400) * 10**6, due_end=(now + 2 * 86400) * 10**6,
                            avoid_start=now, avoid_end=now + 4 * 3600)


def status_round_trips(bench, socket_path):
    """`Status` calls one after another on one connection, timed by `alarmd-bench rtt`."""
    s = bench.settings
    return run_json(bench.bench_tool("rtt", "--socket", socket_path, "--method", "io.alarmd.Status", "--count", s.status_calls, "--warmup", 100))


def floor_round_trips(bench, reply_bytes):
    """The same client's round trips against `alarmd-bench floor`, a server
    that answers at once with a reply as long as Status's: the machine's part
    of the Status figure, measured right after it."""
    path = os.path.join(bench.work, "floor.socket")
    server = subprocess.Popen(bench.bench_tool("floor", "--socket", path, "--reply-bytes", reply_bytes),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **SERVICE)
    token = bench.cleanup.add(f"floor server pid {server.pid}", lambda: stop_process(server, "floor server"))
    try:
        if server.stdout.readline().strip() != "LISTENING":
            raise RuntimeError(f"alarmd-bench floor did not start: {server.stderr.read()[-300:]}")
        return status_round_trips(bench, path)
    finally:
        bench.cleanup.run_now(token)


def run(bench):
    s = bench.settings
    state, made = small_store(bench, "control")
    daemon = Daemon(bench, state, "control")
    daemon.start()
    result = {"store": {"alarms": 100, "reminders": 20}}
    result["status"] = status_round_trips(bench, daemon.socket)
    result["floor"] = floor_round_trips(bench, result["status"]["reply_bytes"])
    throughput = []
    for _ in range(s.throughput_runs):
        throughput.append(run_json(bench.bench_tool("throughput", "--socket", daemon.socket, "--method", "io.alarmd.Status",
                                                    "--connections", 8, "--seconds", s.throughput_seconds)))
    result["throughput_runs"] = throughput
    result["throughput_rps"] = median_min_max([t["requests_per_second"] for t in throughput])
    if any(t["errors"] or t["failures"] for t in throughput):
        raise RuntimeError(f"throughput: errors {[(t['errors'], t['failures']) for t in throughput]}")
    log(f"control: Status p50 {result['status']['round_trip']['p50']:.1f} µs (a server that does nothing: "
        f"{result['floor']['round_trip']['p50']:.1f} µs); 8 connections {result['throughput_rps']['median']:.0f} req/s")

    # alarmctl add and at, each as a whole process, alternating.
    # A label of its own each time: the daemon refuses an alarm's twin.
    alarmctl = [bench.binary("alarmctl"), "--socket", daemon.socket, "add", "7:30", "--days", "weekdays", "--label"]
    env = dict(bench.daemon_environment(), NO_COLOR="1")
    ctl_times, at_times = [], []
    have_at = peers.atd_running(bench)
    for run in range(s.process_runs):
        seconds, code = spawn_and_time(alarmctl + [f"bench {run}"], env=env)
        if code != 0:
            raise RuntimeError(f"alarmctl add exited with {code}")
        ctl_times.append(seconds)
        if have_at:
            seconds, _ = peers.submit_at(bench, ["/usr/bin/at", "now", "+", "30", "minutes"], "true\n")
            at_times.append(seconds)
    result["alarmctl_add_ms"] = median_min_max([t * 1000 for t in ctl_times])
    result["ordered"], result["order_listed"] = bench.ordered_present("alarmctl")
    if at_times:
        result["at_submit_ms"] = median_min_max([t * 1000 for t in at_times])
        result["alarmctl_over_at"] = result["alarmctl_add_ms"]["median"] / result["at_submit_ms"]["median"]
        log(f"control: alarmctl add {result['alarmctl_add_ms']['median']:.2f} ms, at {result['at_submit_ms']['median']:.2f} ms "
            f"(ratio {result['alarmctl_over_at']:.2f})")

    # Import: the whole 100,000 in one call (each run replaces everything with
    # the same document). If the daemon refuses the message, also time the
    # largest document under the old 1 MiB limit, to have a figure at all.
    result["import_full"] = run_json(bench.bench_tool("import", "--socket", daemon.socket, "--alarms", s.import_alarms, "--repeat", s.import_full_runs))
    full = result["import_full"]
    first = full["runs"][0]
    log(f"control: Import of {s.import_alarms} alarms ({full['bytes']} bytes): {first.get('outcome')} "
        + (f"median {full['seconds']['p50']:.3f} s over {full['seconds']['count']}" if "seconds" in full else first.get("reply", first.get("receive_failure", ""))[:160]))
    if any(r.get("outcome") != "ok" for r in full["runs"]):
        result["import_fit"] = run_json(bench.bench_tool("import", "--socket", daemon.socket, "--alarms", s.import_alarms,
                                                         "--fit", 1 << 20, "--repeat", s.import_fit_runs))
        fit = result["import_fit"]
        if "seconds" in fit:
            log(f"control: Import of {fit['alarms']} alarms ({fit['bytes']} bytes, the most under 1 MiB): {fit['seconds']['p50']:.3f} s")
    daemon.stop_now()
    bench.results["control"] = result


def rows(results, table):
    control = results.get("control")
    if not control:
        return
    st = control["status"]["round_trip"]
    table.row(LABEL, "Status round trip, one connection p50 (µs)", f"{st['p50']:.1f}", "control-status-p50")
    table.row(LABEL, "Status round trip, one connection p99 (µs)", f"{st['p99']:.1f}")
    if "floor" in control:
        fl = control["floor"]["round_trip"]
        table.row(LABEL, "the same client against a server that does nothing, p50 / p99 (µs)", f"{fl['p50']:.1f} / {fl['p99']:.1f}")
    table.row(LABEL, "Status, 8 connections (req/s)", table.mmm(control["throughput_rps"], "{:.0f}"), "control-throughput")
    table.row(LABEL, "alarmctl add, whole process (ms)", table.mmm(control["alarmctl_add_ms"], "{:.2f}"))
    if "at_submit_ms" in control:
        table.row(LABEL, "at now + 30 minutes, whole process (ms)", table.mmm(control["at_submit_ms"], "{:.2f}"))
        table.row(LABEL, "alarmctl add / at (ratio of medians)", f"{control['alarmctl_over_at']:.2f}", "control-alarmctl-over-at")
    if "ordered" in control:
        table.row(LABEL, "alarmctl: functions of alarmctl.order it defines", f"{control['ordered']} of {control['order_listed']}")
    full = control["import_full"]
    run_entry = next((r for r in full["runs"] if r.get("outcome") != "ok"), full["runs"][0])
    if run_entry.get("outcome") == "ok":
        t = full["seconds"]
        table.row(LABEL, f"Import {full['alarms']:,} alarms, {full['bytes'] / 2**20:.1f} MiB in one call (s)",
                  f"{t['p50']:.3f} [{t['min']:.3f}–{t['max']:.3f}]", "control-import")
    else:
        reason = run_entry.get("receive_failure") or run_entry.get("send_failure") or ""
        try:
            reply = json.loads(run_entry["reply"])
            reason = f"{reply['error']}: {reply['parameters'].get('message', '')}"
        except (KeyError, ValueError, TypeError):
            reason = run_entry.get("reply") or reason
        table.row(LABEL, f"Import {full['alarms']:,} alarms ({full['bytes'] / 2**20:.1f} MiB in one call)", f"refused: {reason[:110]}",
                  "control-import", met=False)
    fit = control.get("import_fit", {})
    if "seconds" in fit:
        s = fit["seconds"]
        table.row(LABEL, f"Import {fit['alarms']:,} alarms (largest under 1 MiB) (s)", f"{s['p50']:.3f} [{s['min']:.3f}–{s['max']:.3f}]")
