# SPDX-License-Identifier: Apache-2.0
"""2. Scale: stores of 10k, 100k and 1M alarms; start-up, memory, round trips."""

import json
import shutil
import time

from ..processes import drop_page_cache, log, run_json
from ..stats import median_min_max

LABEL = "2 scale"


def run(bench):
    s = bench.settings
    sizes = {}
    for size in s.scale_sizes:
        begin = int(time.time())
        # Nothing fires while we measure: no alarm is due in the next 4 hours.
        state, made = bench.make_store(f"scale-{size}", alarms=size, avoid_start=begin, avoid_end=begin + 4 * 3600)
        log(f"scale {size}: store written in {made['seconds']:.1f} s ({made['bytes'] / 2**20:.0f} MiB)")
        entry = {"store": made}
        daemon, entry["first_start_s"] = bench.start_daemon(state, f"scale-{size}", timeout=600)
        daemon.stop_now()
        # A cold start: nothing of the store, alarmd or its libraries in the page
        # cache, as after a boot (root only: it drops every clean cached page).
        if drop_page_cache():
            daemon, entry["cold_start_s"] = bench.start_daemon(state, f"scale-{size}", timeout=600)
            daemon.stop_now()
        ready = []
        for index in range(s.scale_restarts):
            daemon, seconds = bench.start_daemon(state, f"scale-{size}", timeout=600)
            ready.append(seconds)
            if index < s.scale_restarts - 1:
                daemon.stop_now()
        entry["ready_s"] = median_min_max(ready)
        entry["ready_samples_s"] = ready
        # The last one stays up: idle memory, then round trips.
        time.sleep(1 if s.quick else 5)
        entry["memory_idle"] = daemon.memory()
        entry["upcoming"] = run_json(bench.bench_tool("rtt", "--socket", daemon.socket, "--method", "io.alarmd.Upcoming",
                                                      "--params", '{"count":10}', "--count", s.upcoming_calls))
        entry["status"] = run_json(bench.bench_tool("rtt", "--socket", daemon.socket, "--method", "io.alarmd.Status",
                                                    "--count", s.status_calls_scale))
        entry["add"] = run_json(bench.bench_tool("rtt", "--socket", daemon.socket, "--method", "io.alarmd.AddAlarm",
                                                 "--params", add_alarm_parameters("bench add"), "--count", s.add_calls, "--warmup", 2))
        entry["memory_after"] = daemon.memory()
        daemon.stop_now()
        for key in ("upcoming", "status", "add"):
            if entry[key]["errors"]:
                raise RuntimeError(f"scale {size} {key}: {entry[key]['errors']} errors: {entry[key].get('first_error')}")
        log(f"scale {size}: first start {entry['first_start_s']:.3f} s, ready {entry['ready_s']['median']:.3f} s, "
            f"RSS {entry['memory_idle']['rss_mib']:.1f} MiB, Upcoming p50 {entry['upcoming']['round_trip']['p50']:.0f} µs, "
            f"AddAlarm p50 {entry['add']['round_trip']['p50']:.0f} µs")
        shutil.rmtree(state, ignore_errors=True)
        sizes[str(size)] = entry
    bench.results["scale"] = sizes


def add_alarm_parameters(label):
    """`AddAlarm`'s parameters for an alarm 8 hours ahead (nothing it adds fires while measuring).
    The bench tools number each call's label (`{n}`): every add is a new alarm, not a twin the
    daemon refuses, and each pays for the look for a twin as a person's add does."""
    far = time.gmtime(time.time() + 8 * 3600)
    return json.dumps({"fields": {"time": f"{far.tm_hour:02d}:{far.tm_min:02d}", "label": label + " {n}", "days": ["mon", "tue"]}})


def rows(results, table):
    for size, entry in (results.get("scale") or {}).items():
        n = f"{int(size):,}"
        big = size == "1000000"

        def at_1m(target_id):
            return target_id if big else None

        table.row(LABEL, f"{n} alarms: first start to READY=1 (s)", f"{entry['first_start_s']:.3f}")
        if "cold_start_s" in entry:
            table.row(LABEL, f"{n} alarms: cold start, page cache dropped, to READY=1 (s)", f"{entry['cold_start_s']:.3f}", at_1m("scale-1m-cold-start"))
        table.row(LABEL, f"{n} alarms: restart to READY=1 (s)", table.mmm(entry["ready_s"], "{:.3f}"), at_1m("scale-1m-restart"))
        table.row(LABEL, f"{n} alarms: idle VmRSS / VmHWM (MiB)", f"{entry['memory_idle']['rss_mib']:.1f} / {entry['memory_idle']['hwm_mib']:.1f}",
                  at_1m("scale-1m-rss"))
        up, add, st = entry["upcoming"]["round_trip"], entry["add"]["round_trip"], entry["status"]["round_trip"]
        table.row(LABEL, f"{n} alarms: Upcoming(10) round trip p50 [p99] (µs)", f"{up['p50']:.0f} [{up['p99']:.0f}]", at_1m("scale-1m-upcoming"))
        table.row(LABEL, f"{n} alarms: AddAlarm round trip p50 [p99] (µs)", f"{add['p50']:.0f} [{add['p99']:.0f}]", at_1m("scale-1m-add"))
        table.row(LABEL, f"{n} alarms: Status round trip p50 [p99] (µs)", f"{st['p50']:.0f} [{st['p99']:.0f}]")
