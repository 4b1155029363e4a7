# SPDX-License-Identifier: Apache-2.0
"""12. Footprint: alarmd idle with 10 alarms and no sync, after a ring (with a
sound, played by its own alarmd-sound process) has ended and the daemon has
been idle a while (and has given back the clean pages it mapped), next to atd, cron
and the floor, a Swift program built with the same flags that waits on one
Dispatch timer and one read source (alarmd-floor); and alarmd's stripped size
its start to READY=1, and how late a firing is that wakes it after a quiet
spell."""

import glob
import json
import os
import shutil
import subprocess
import time

from .. import REPO, peers
from ..daemon import Daemon, Watcher
from ..processes import kib, log, proc_status
from .lateness import call_all, due_text

LABEL = "12 footprint"
# After the ring: long enough for libdispatch's idle workers to leave (a few
# seconds) and for anything kept after a ring to have gone.
GRACE_S = 30 + 10
# alarmd's quiet spell (Daemon.quietSpell): after it, the daemon gives its
# clean pages back.
QUIET_S = 30


def figures(pid):
    """VmRSS, PSS (smaps_rollup), threads and the shared objects mapped, of `pid`."""
    status = proc_status(pid)
    pss = 0
    with open(f"/proc/{pid}/smaps_rollup") as handle:
        for line in handle:
            if line.startswith("Pss:"):
                pss = int(line.split()[1])
    libraries = set()
    with open(f"/proc/{pid}/maps") as handle:
        for line in handle:
            parts = line.split()
            if len(parts) >= 6 and ".so" in parts[5]:
                libraries.add(os.path.basename(parts[5]))
    return {"rss_mib": kib(status.get("VmRSS")) / 1024, "pss_mib": pss / 1024, "threads": int(status.get("Threads", 0)),
            "libraries": len(libraries), "library_names": sorted(libraries)}


def run(bench):
    result = {"alarmd": measure_alarmd(bench), "floor": measure_floor(bench)}
    if peers.atd_running(bench):
        result["atd"] = figures(bench.peers["atd"]["pid"])
    process, token = peers.start_cron(bench)
    if process is not None:
        time.sleep(2)
        result["cron"] = figures(process.pid)
        bench.cleanup.run_now(token)
    # The package is make deb's, not built here (a release build of its own
    # takes minutes): measured when there is one, with when it was built.
    debs = sorted(glob.glob(os.path.join(REPO, ".build", "deb", "alarmd_*.deb")))
    if debs:
        result["deb_mib"] = os.path.getsize(debs[-1]) / (1 << 20)
        result["deb_built"] = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(os.path.getmtime(debs[-1])))
    else:
        log("footprint: no .build/deb/alarmd_*.deb; run make deb to have the package measured")
    floor = result["floor"]
    result["rss_over_floor"] = result["alarmd"]["rss_mib"] / floor["rss_mib"]
    result["pss_over_floor"] = result["alarmd"]["pss_mib"] / floor["pss_mib"]
    bench.results["footprint"] = result
    a = result["alarmd"]
    log(f"footprint: alarmd RSS {a['rss_mib']:.1f} MiB, PSS {a['pss_mib']:.1f} MiB, {a['threads']} threads, {a['libraries']} libraries, "
        f"{a['binary_mib']:.1f} MiB stripped; floor RSS {floor['rss_mib']:.1f} MiB, PSS {floor['pss_mib']:.1f} MiB")


def measure_alarmd(bench):
    state, _ = bench.make_store("footprint", alarms=10, avoid_start=int(time.time()), avoid_end=int(time.time()) + 7200)
    daemon = Daemon(bench, state, "footprint")
    ready = daemon.start(timeout=60)
    alarmctl = [bench.binary("alarmctl"), "--socket", daemon.socket]
    env = bench.daemon_environment()
    # One ring with a sound, dismissed: the sound stack is opened, then let go of.
    subprocess.run(alarmctl + ["remind", "add", "Footprint", "--in", "1s", "--sound", "bell"], env=env, check=True, capture_output=True)
    time.sleep(3)
    subprocess.run(alarmctl + ["dismiss"], env=env, capture_output=True)
    time.sleep(GRACE_S)
    result = figures(daemon.pid)
    result["ready_s"] = ready
    result["quiet"] = quiet_firings(bench, daemon, bench.settings.quiet_firings)
    daemon.stop_now()
    shutil.rmtree(state, ignore_errors=True)
    result["ordered"], result["order_listed"] = bench.ordered_present("alarmd")
    stripped = os.path.join(bench.work, "alarmd.stripped")
    shutil.copyfile(bench.binary("alarmd"), stripped)
    subprocess.run(["strip", stripped], check=True)
    result["binary_mib"] = os.path.getsize(stripped) / (1 << 20)
    return result


def quiet_firings(bench, daemon, count):
    """`count` reminders, each due after a quiet spell of alarmd's, so that it
    runs its firing from pages it gave back: each firing's lateness, daemon
    side (its own time of firing) and client side (a Watch client's receipt),
    and alarmd's VmRSS two seconds before the first."""
    spacing = QUIET_S + 5
    watcher = Watcher(bench, daemon, count, spacing * count + 60, os.path.join(bench.work, "fired-quiet.tsv"))
    if not watcher.watching:
        watcher.stop()
        raise RuntimeError(f"footprint: the watch client did not start ({watcher.first_line!r})")
    first = time.time() + spacing
    call_all(daemon.socket, [("io.alarmd.AddReminder", {"title": f"quiet {index}", "due": due_text(first + index * spacing)})
                             for index in range(count)])
    time.sleep(max(0, first - 2 - time.time()))
    before = figures(daemon.pid)["rss_mib"]
    watcher.finish()
    fired = watcher.fired()
    if len(fired) < count:
        raise RuntimeError(f"footprint: {len(fired)} of {count} reminders fired after a quiet spell")
    return {"rss_before_mib": before, "daemon_ms": [(actual - scheduled) / 1000 for scheduled, actual, _ in fired],
            "client_ms": [(received - scheduled) / 1000 for scheduled, _, received in fired]}


def measure_floor(bench):
    process = subprocess.Popen([bench.binary("alarmd-floor")], stdin=subprocess.PIPE)
    try:
        time.sleep(2)
        return figures(process.pid)
    finally:
        process.stdin.close()
        process.wait(10)


def rows(results, table):
    f = results.get("footprint")
    if not f:
        return
    a, floor = f["alarmd"], f["floor"]
    table.row(LABEL, "alarmd, 10 alarms, after a ring: VmRSS (MiB)", f"{a['rss_mib']:.1f}", "footprint-rss")
    table.row(LABEL, "alarmd: PSS (MiB)", f"{a['pss_mib']:.1f}", "footprint-pss")
    table.row(LABEL, "alarmd: threads", str(a["threads"]), "footprint-threads")
    table.row(LABEL, "alarmd: shared libraries mapped", str(a["libraries"]), "footprint-libraries")
    table.row(LABEL, "alarmd: stripped binary (MiB)", f"{a['binary_mib']:.1f}", "footprint-binary")
    table.row(LABEL, "alarmd: start to READY=1, 10 alarms (s)", f"{a['ready_s']:.3f}")
    if "quiet" in a:
        quiet = a["quiet"]
        table.row(LABEL, f"a firing after a quiet spell (VmRSS {quiet['rss_before_mib']:.1f} MiB before): daemon, client lateness, worst of "
                  f"{len(quiet['daemon_ms'])} (ms)", f"{max(quiet['daemon_ms']):.3f}, {max(quiet['client_ms']):.3f}")
    if "ordered" in a:
        table.row(LABEL, "alarmd: functions of alarmd.order it defines", f"{a['ordered']} of {a['order_listed']}")
    if "deb_mib" in f:
        table.row(LABEL, f"the alarmd .deb (make deb, built {f['deb_built']}) (MiB)", f"{f['deb_mib']:.1f}", "footprint-deb")
    table.row(LABEL, "the floor (alarmd-floor): VmRSS / PSS (MiB), threads, libraries",
              f"{floor['rss_mib']:.1f} / {floor['pss_mib']:.1f}, {floor['threads']}, {floor['libraries']}")
    table.row(LABEL, "alarmd over the floor: RSS / PSS (×)", f"{f['rss_over_floor']:.2f} / {f['pss_over_floor']:.2f}")
    for peer in ("atd", "cron"):
        p = f.get(peer)
        if p:
            table.row(LABEL, f"{peer}: VmRSS / PSS (MiB), threads, libraries", f"{p['rss_mib']:.1f} / {p['pss_mib']:.1f}, {p['threads']}, {p['libraries']}")
