# SPDX-License-Identifier: Apache-2.0
"""bench/run --profile: perf profiles (and strace's fsync figures) of the cases
behind targets that were missed once, into bench/results/profiles/."""

import json
import os
import platform
import re
import shutil
import signal
import subprocess
import time

from . import REPO
from .daemon import Daemon, Watcher
from .processes import log, proc_status, run_json, spawn_and_time, stop_process
from .stats import distribution
from .sections.control import small_store


def perf_attach(bench, pid, name):
    data = os.path.join(bench.work, f"{name}.perf")
    process = subprocess.Popen(["perf", "record", "-F", "1999", "-g", "-o", data, "-p", str(pid)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    token = bench.cleanup.add(f"perf pid {process.pid}", lambda: stop_process(process, "perf"))
    time.sleep(0.5)

    def finish():
        process.send_signal(signal.SIGINT)
        process.wait(60)
        bench.cleanup.run_now(token)
        return data
    return finish


def perf_report(bench, data, name, title, extra=""):
    def report(*options):
        completed = subprocess.run(["perf", "report", "-i", data, "--stdio", *options], capture_output=True, text=True)
        lines = [l.rstrip() for l in completed.stdout.splitlines() if l.strip() and not l.startswith("#")]
        text = "\n".join(lines)
        if shutil.which("swift"):
            text = subprocess.run(["swift", "demangle", "--simplified"], input=text, capture_output=True, text=True).stdout
        return "\n".join(l[:220] for l in text.splitlines())
    self_time = report("--no-children", "-g", "none", "--percent-limit", "0.8", "--sort", "dso,symbol")
    inclusive = report("--children", "-g", "none", "--percent-limit", "4", "--sort", "symbol")
    directory = os.path.join(bench.results_dir, "profiles")
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, f"{name}.txt")
    with open(path, "w") as handle:
        handle.write(f"# {title}\n# recorded {time.strftime('%Y-%m-%d %H:%M')} with perf record -F 1999 -g (cpu-clock), "
                     f"{os.cpu_count()} cores, kernel {platform.release()}\n")
        if extra:
            handle.write(extra.rstrip() + "\n")
        handle.write("\n## Self time: perf report --no-children --sort dso,symbol (entries >= 0.8%)\n\n")
        handle.write(self_time + "\n")
        handle.write("\n## Including callees: perf report --children --sort symbol (entries >= 4%)\n\n")
        handle.write(inclusive + "\n")
    log(f"profile: {os.path.relpath(path, REPO)}")
    return path


def fsync_durations(path):
    """fsync/fdatasync durations (ms) in an `strace -T` log, as a distribution."""
    durations = []
    with open(path) as handle:
        for line in handle:
            match = re.search(r"(fsync|fdatasync)\(.*<([0-9.]+)>", line)
            if match:
                durations.append(float(match.group(2)) * 1000)
    return distribution(durations)



def run(bench):
    s = bench.settings
    os.makedirs(os.path.join(bench.results_dir, "profiles"), exist_ok=True)
    facts = {}

    # Lateness: a Watch client and 10,000 reminders; one run with perf attached
    # to alarmd, one under strace (seccomp-filtered: only fsync and fdatasync stop).
    n, window, lead = 10_000, 10.0, 5.0
    traces = {}
    for mode in ("perf", "strace"):
        t0 = time.time() + lead
        state, _ = bench.make_store(f"profile-lateness-{mode}", reminders=n, due_start=int(t0 * 1e6), due_end=int((t0 + window) * 1e6))
        daemon = Daemon(bench, state, f"profile-lateness-{mode}")
        strace_out = os.path.join(bench.work, "strace.txt")
        wrapper = ["strace", "--seccomp-bpf", "-f", "-T", "-e", "trace=fsync,fdatasync", "-o", strace_out, "--"] if mode == "strace" else []
        daemon.start(wrapper=wrapper)
        out = os.path.join(bench.work, f"profile-fired-{mode}.tsv")
        watcher = Watcher(bench, daemon, n, lead + window + 60, out)
        perf = perf_attach(bench, daemon.pid, "lateness") if mode == "perf" else None
        watcher.finish(check=False)
        if perf:
            data = perf()
        daemon.stop_now()
        lateness = [((actual - scheduled) / 1000, (received - actual) / 1000) for scheduled, actual, received in watcher.fired()]
        traces[mode] = {"daemon_ms": distribution([a for a, _ in lateness]), "actual_to_receipt_ms": distribution([b for _, b in lateness])}
        if mode == "strace":
            traces[mode]["fsync_ms"] = fsync_durations(strace_out)
    facts["lateness"] = traces
    perf_report(bench, data, "lateness", f"alarmd while {n} reminders fire in {window:.0f} s (one Watch client)",
                "# with perf attached: daemon-side lateness (actual - scheduled, ms): " + json.dumps(traces["perf"]["daemon_ms"]) +
                "\n# with perf attached: from the daemon's 'actual' instant to the client's receipt (ms): " + json.dumps(traces["perf"]["actual_to_receipt_ms"]) +
                "\n# separate run under strace --seccomp-bpf -f -T -e trace=fsync,fdatasync: fsync/fdatasync durations (ms): " + json.dumps(traces["strace"]["fsync_ms"]) +
                "\n# that run's daemon-side lateness (ms): " + json.dumps(traces["strace"]["daemon_ms"]) +
                "\n# that run's actual-to-receipt (ms): " + json.dumps(traces["strace"]["actual_to_receipt_ms"]))

    # 1M alarms: start-up under perf, then Upcoming, AddAlarm and Status on a running daemon.
    size = s.scale_sizes[-1] if bench.args.sizes else 1_000_000
    begin = int(time.time())
    state, made = bench.make_store(f"profile-{size}", alarms=size, avoid_start=begin, avoid_end=begin + 4 * 3600)
    first = Daemon(bench, state, "profile-first")
    first.start(timeout=600)
    first.stop_now()
    data = os.path.join(bench.work, "start.perf")
    daemon = Daemon(bench, state, "profile-start")
    ready = daemon.start(timeout=600, wrapper=["perf", "record", "-F", "1999", "-g", "-o", data, "--"])
    daemon.stop_now()
    perf_report(bench, data, f"start-{size}", f"alarmd start-up to READY=1 (and its stop) with {size:,} alarms (restart: ring states exist)",
                f"# READY=1 after {ready:.3f} s under perf")
    daemon = Daemon(bench, state, "profile-running")
    daemon.start(timeout=600)
    time.sleep(2)
    status = proc_status(daemon.pid)
    with open(f"/proc/{daemon.pid}/smaps_rollup") as handle:
        rollup = handle.read()
    layout = run_json(bench.bench_tool("layout"))
    memory = os.path.join(bench.results_dir, "profiles", f"memory-{size}.txt")
    with open(memory, "w") as handle:
        handle.write(f"# alarmd idle with {size:,} alarms\n# VmRSS {status['VmRSS']}, VmHWM {status['VmHWM']}, threads {status['Threads']}\n\n")
        handle.write("## /proc/PID/smaps_rollup\n\n" + rollup + "\n")
        handle.write("## MemoryLayout strides (bytes) of what the scheduler keeps per item\n\n" + json.dumps(layout, indent=1) + "\n")
    log(f"profile: {os.path.relpath(memory, REPO)}")
    for method, params, count, name in (("io.alarmd.Upcoming", '{"count":10}', 300, "upcoming"),
                                        ("io.alarmd.Status", "{}", 100, "status"),
                                        ("io.alarmd.AddAlarm", json.dumps({"fields": {"time": "03:07", "label": "profile {n}", "days": ["mon"]}}), 40, "add")):
        perf = perf_attach(bench, daemon.pid, f"{name}-{size}")
        result = run_json(bench.bench_tool("rtt", "--socket", daemon.socket, "--method", method, "--params", params, "--count", count, "--warmup", 0))
        perf_report(bench, perf(), f"{name}-{size}", f"alarmd serving {count} {method} calls back to back with {size:,} alarms",
                "# round trip (µs): " + json.dumps(result["round_trip"]))
    daemon.stop_now()
    shutil.rmtree(state, ignore_errors=True)

    # A small store: Status over one connection and over eight, Import, alarmctl add.
    state, _ = small_store(bench, "profile-control")
    daemon = Daemon(bench, state, "profile-control")
    daemon.start()
    perf = perf_attach(bench, daemon.pid, "status-small")
    result = run_json(bench.bench_tool("rtt", "--socket", daemon.socket, "--method", "io.alarmd.Status", "--count", 20000))
    perf_report(bench, perf(), "status", "alarmd serving 20,000 Status calls on one connection (100 alarms, 20 reminders)",
                "# round trip (µs): " + json.dumps(result["round_trip"]))
    perf = perf_attach(bench, daemon.pid, "throughput")
    result = run_json(bench.bench_tool("throughput", "--socket", daemon.socket, "--connections", 8, "--seconds", 5))
    perf_report(bench, perf(), "throughput", "alarmd serving Status on 8 connections for 5 s (clients on the same 2 cores)",
                f"# {result['requests_per_second']:.0f} requests/s")
    perf = perf_attach(bench, daemon.pid, "import")
    result = run_json(bench.bench_tool("import", "--socket", daemon.socket, "--alarms", 100_000))
    perf_report(bench, perf(), "import", f"alarmd importing {result['alarms']:,} alarms ({result['bytes']:,} bytes) in one call",
                "# outcome: " + json.dumps(result["runs"][0])[:600])
    data = os.path.join(bench.work, "alarmctl.perf")
    ctl = f"{bench.binary('alarmctl')} --socket {daemon.socket}"
    subprocess.run(["perf", "record", "-F", "4999", "-g", "-o", data, "--", "sh", "-c",
                    f"for i in $(seq 20); do {ctl} add 7:30 --label \"profile $i\" >/dev/null; done"], check=True,
                   env=dict(bench.daemon_environment(), NO_COLOR="1"), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    helps = [spawn_and_time([bench.binary("alarmctl"), "--help"])[0] * 1000 for _ in range(20)]
    adds = [spawn_and_time([bench.binary("alarmctl"), "--socket", daemon.socket, "add", "7:30", "--label", f"x {run}"], env=bench.daemon_environment())[0] * 1000
            for run in range(20)]
    ats = [spawn_and_time(["/usr/bin/at", "-V"])[0] * 1000 for _ in range(20)] if os.path.exists("/usr/bin/at") else []
    rtt = run_json(bench.bench_tool("rtt", "--socket", daemon.socket, "--method", "io.alarmd.AddAlarm",
                                   "--params", json.dumps({"fields": {"time": "07:30", "label": "rtt {n}"}}), "--count", 20, "--warmup", 0))
    perf_report(bench, data, "alarmctl-add", "20 runs of `alarmctl add 7:30 --label profile` as whole processes (sh loop included)",
                f"# alarmctl --help, whole process (ms): {json.dumps(distribution(helps))}\n"
                f"# alarmctl add, whole process (ms): {json.dumps(distribution(adds))}\n"
                f"# at -V, whole process (ms): {json.dumps(distribution(ats))}\n"
                f"# AddAlarm round trip alone (µs): {json.dumps(rtt['round_trip'])}")
    daemon.stop_now()
    with open(os.path.join(bench.results_dir, "profiles", "facts.json"), "w") as handle:
        json.dump(facts, handle, indent=1)
