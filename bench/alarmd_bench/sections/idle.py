# SPDX-License-Identifier: Apache-2.0
"""3. Idle cost: alarmd with 100,000 alarms against cron with a four-line crontab."""

import shutil
import time

from .. import peers
from ..daemon import Daemon
from ..processes import activity, activity_delta, log

LABEL = "3 idle"


def run(bench):
    idle_alarmd(bench)
    idle_cron(bench)


def idle_alarmd(bench):
    s = bench.settings
    begin = int(time.time())
    # Nothing due in the window: no occurrence, and none whose notice before
    # it ([Alarms] UpcomingNotice=, 30 min; the audibility check, 10 min)
    # falls in the window.
    notices = 1800
    state, made = bench.make_store("idle", alarms=s.idle_alarms, avoid_start=begin,
                                   avoid_end=begin + int(s.idle_settle + s.idle_window) + 600 + notices)
    daemon = Daemon(bench, state, "idle")
    daemon.start(timeout=300)
    time.sleep(s.idle_settle)
    before = activity(daemon.pid)
    time.sleep(s.idle_window)
    after = activity(daemon.pid)
    result = activity_delta(before, after)
    result["alarms"] = s.idle_alarms
    result["memory"] = daemon.memory()
    daemon.stop_now()
    shutil.rmtree(state, ignore_errors=True)
    bench.results["idle_alarmd"] = result
    log(f"idle alarmd: {result['context_switches']} context switches, {result['cpu_ms_schedstat']:.3f} ms CPU in {result['seconds']:.1f} s")


def idle_cron(bench):
    s = bench.settings
    process, token = peers.start_cron(bench)
    if process is None:
        return bench.skip("idle_cron", token)
    time.sleep(s.idle_settle)
    if process.poll() is not None:
        bench.cleanup.run_now(token)
        return bench.skip("idle_cron", f"cron -f exited with {process.returncode}")
    before = activity(process.pid)
    window_start = time.time()
    time.sleep(s.idle_window)
    after = activity(process.pid)
    result = activity_delta(before, after)
    result["crontab_lines"] = peers.CRONTAB_LINES
    # Debian's /etc/crontab runs cron.hourly at minute 17; say so if that fell in the window.
    result["minute_boundaries_in_window"] = int((window_start + s.idle_window) // 60 - window_start // 60)
    bench.cleanup.run_now(token)
    bench.results["idle_cron"] = result
    log(f"idle cron: {result['context_switches']} context switches, {result['cpu_ms_schedstat']:.3f} ms CPU in {result['seconds']:.1f} s")


def rows(results, table):
    idle = results.get("idle_alarmd")
    if idle:
        w = f"{idle['seconds']:.0f} s"
        table.row(LABEL, f"alarmd {idle['alarms']:,} alarms: context switches in {w}", str(idle["context_switches"]), "idle-switches")
        table.row(LABEL, f"alarmd: CPU in {w} (ms; schedstat / utime+stime)", f"{idle['cpu_ms_schedstat']:.3f} / {idle['cpu_ms_utime_stime']:.0f}", "idle-cpu")
    cron = results.get("idle_cron")
    if cron and "skipped" not in cron:
        w = f"{cron['seconds']:.0f} s"
        table.row(LABEL, f"cron 4-line crontab: context switches in {w}", str(cron["context_switches"]))
        table.row(LABEL, f"cron: CPU in {w} (ms; schedstat / utime+stime)", f"{cron['cpu_ms_schedstat']:.3f} / {cron['cpu_ms_utime_stime']:.0f}")
    elif cron:
        table.row(LABEL, "cron", "skipped: " + cron["skipped"])
