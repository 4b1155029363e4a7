# SPDX-License-Identifier: Apache-2.0
"""5. Core: next-fire computations in process, and against systemd-analyze calendar."""

import json
import os
import shutil
import subprocess
import time

from ..processes import log, run_json
from ..stats import median_min_max

LABEL = "5 core"
DST_ZONES = ["America/New_York", "Europe/Berlin", "Australia/Lord_Howe"]
CALENDAR_SPEC = "Mon..Fri *-*-* 07:30:00"


def run(bench):
    s = bench.settings
    taskset = ["taskset", "-c", str(os.cpu_count() - 1)] if shutil.which("taskset") else []
    result = {"in_process": run_json(taskset + bench.bench_tool("core", "--iterations", s.core_iterations, "--repeat", s.core_repeat)),
              "pinned_cpu": taskset[-1] if taskset else None, "calendar": {}}
    for zone in DST_ZONES:
        env = dict(os.environ, TZ=zone)
        analyze, chain = [], []
        last_analyze = last_chain = None
        for _ in range(s.calendar_runs):
            argv = taskset + ["systemd-analyze", "calendar", f"--iterations={s.calendar_iterations}", CALENDAR_SPEC]
            start = time.perf_counter_ns()
            completed = subprocess.run(argv, env=env, capture_output=True, text=True, check=True)
            analyze.append((time.perf_counter_ns() - start) / 1e9)
            last_analyze = [l for l in completed.stdout.splitlines() if "Iter. #" in l][-1].split(": ", 1)[1]
            argv = taskset + bench.bench_tool("core-chain", "--zone", zone, "--iterations", s.calendar_iterations)
            start = time.perf_counter_ns()
            completed = subprocess.run(argv, env=env, capture_output=True, text=True, check=True)
            chain.append((time.perf_counter_ns() - start) / 1e9)
            last_chain = json.loads(completed.stdout)["last"]
        entry = {"iterations": s.calendar_iterations, "systemd_analyze_s": median_min_max(analyze), "alarmd_core_s": median_min_max(chain),
                 "last_systemd": last_analyze, "last_alarmd": last_chain}
        entry["ratio_systemd_over_alarmd"] = entry["systemd_analyze_s"]["median"] / entry["alarmd_core_s"]["median"]
        # Same final date (the offsets are printed differently: EDT vs -04:00).
        entry["agree"] = last_chain[:10] in last_analyze and last_chain[11:19] in last_analyze
        result["calendar"][zone] = entry
    recurrence = result["in_process"].get("recurrence_per_second", {})
    if recurrence:
        # Issue #16's target is for every kind: the slowest one is judged.
        result["recurrence_slowest_per_second"] = min(entry["p50"] for entry in recurrence.values())
    bench.results["core"] = result
    rate = result["in_process"]["alarm_per_second"]["p50"]
    log(f"core: {rate / 1e6:.2f} M next-fire/s via Alarm.nextFire, {result['in_process']['rule_per_second']['p50'] / 1e6:.2f} M/s via DailyRule")


def rows(results, table):
    core = results.get("core")
    if not core:
        return
    ip = core["in_process"]
    a, r = ip["alarm_per_second"], ip["rule_per_second"]
    table.row(LABEL, "next-fire/s, Alarm.nextFire (scheduler's path), one core", f"{a['p50']:,.0f} [{a['min']:,.0f}–{a['max']:,.0f}]", "core-alarm-next-fire")
    table.row(LABEL, "next-fire/s, DailyRule.nextFire, one core", f"{r['p50']:,.0f} [{r['min']:,.0f}–{r['max']:,.0f}]", "core-rule-next-fire")
    for kind, rate in sorted(ip.get("recurrence_per_second", {}).items()):
        table.row(LABEL, f"next-day/s, RecurrenceRule.nextDay, {kind}, one core", f"{rate['p50']:,.0f} [{rate['min']:,.0f}–{rate['max']:,.0f}]")
    if "recurrence_slowest_per_second" in core:
        table.row(LABEL, "next-day/s, RecurrenceRule.nextDay, the slowest kind", f"{core['recurrence_slowest_per_second']:,.0f}", "core-recurrence-next-day")
    for zone, entry in core["calendar"].items():
        table.row(LABEL, f"{entry['iterations']:,} iterations of '{CALENDAR_SPEC}', {zone}: systemd-analyze / alarmd-bench (s)",
                  f"{entry['systemd_analyze_s']['median']:.3f} / {entry['alarmd_core_s']['median']:.4f} (×{entry['ratio_systemd_over_alarmd']:.0f})"
                  + ("" if entry["agree"] else " DISAGREE"))
