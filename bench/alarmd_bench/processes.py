# SPDX-License-Identifier: Apache-2.0
"""Processes: spawning and timing them, reading /proc, and the cleanup registry
through which everything started is stopped again (also on error or Ctrl-C)."""

import json
import os
import signal
import subprocess
import sys
import time


def log(message):
    print(f"[bench {time.strftime('%H:%M:%S')}] {message}", flush=True)


def drop_page_cache():
    """Writes dirty pages out and drops every clean cached page (as root); False where not allowed."""
    try:
        os.sync()
        with open("/proc/sys/vm/drop_caches", "w") as handle:
            handle.write("3\n")
        return True
    except OSError:
        return False


# How every daemon here is started, alarmd and its peers alike: in a session
# of its own, as systemd starts every service (it calls setsid(), and puts
# each service in a cgroup of its own). With the kernel's autogroups, which
# Debian turns on, a session is also a scheduling group, so a storm of client
# processes shares the CPU with the daemon as a group, not one process against
# 64. Started from the harness's own session, the daemon was one task among
# its clients, a placement no installed daemon has. The storm's p99 was lower
# so in 7 of 10 alternating rounds; the commit ratio and Status did not move
# (BENCHMARKS.md, "The write storm, the CPU, and the floor under Status").
SERVICE = {"start_new_session": True}


def run_json(argv, **kwargs):
    """Runs a command that prints one JSON object on its last line."""
    completed = subprocess.run(argv, capture_output=True, text=True, **kwargs)
    if completed.returncode != 0:
        raise RuntimeError(f"{' '.join(argv[:3])} … failed ({completed.returncode}): {completed.stderr.strip()[-2000:]}")
    return json.loads(completed.stdout.strip().splitlines()[-1])


def process_alive(pid):
    try:
        os.kill(pid, 0)
        return True
    except ProcessLookupError:
        return False
    except PermissionError:
        return True


def pids_named(name):
    """Process ids whose command name is exactly `name` (read from /proc)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/comm") as handle:
                    if handle.read().strip() == name:
                        found.append(int(entry))
            except OSError:
                pass
    return set(found)


def pid_from_file(path):
    try:
        with open(path) as handle:
            pid = int(handle.read().split()[0])
        return pid if process_alive(pid) else None
    except (OSError, ValueError, IndexError):
        return None


def spawn_and_time(argv, stdin_path="/dev/null", stderr_path="/dev/null", env=None):
    """Runs argv as one process (posix_spawn, no shell) and returns (seconds, exit status)."""
    stdin_fd = os.open(stdin_path, os.O_RDONLY)
    stdout_fd = os.open("/dev/null", os.O_WRONLY)
    stderr_fd = os.open(stderr_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        actions = [(os.POSIX_SPAWN_DUP2, stdin_fd, 0), (os.POSIX_SPAWN_DUP2, stdout_fd, 1), (os.POSIX_SPAWN_DUP2, stderr_fd, 2)]
        start = time.perf_counter_ns()
        pid = os.posix_spawn(argv[0], argv, env if env is not None else os.environ, file_actions=actions)
        _, status = os.waitpid(pid, 0)
        elapsed = (time.perf_counter_ns() - start) / 1e9
    finally:
        for fd in (stdin_fd, stdout_fd, stderr_fd):
            os.close(fd)
    return elapsed, os.waitstatus_to_exitcode(status)


class Cleanup:
    """Everything started is registered here and undone in reverse order."""

    def __init__(self):
        self.actions = []

    def add(self, description, action):
        self.actions.append((description, action))
        return len(self.actions) - 1

    def run_now(self, token):
        description, action = self.actions[token]
        self.actions[token] = (description, None)
        if action:
            action()

    def run_all(self):
        while self.actions:
            description, action = self.actions.pop()
            if action is None:
                continue
            try:
                action()
            except Exception as error:  # keep cleaning up
                print(f"[bench] cleanup of {description} failed: {error}", file=sys.stderr)


def stop_process(process, name, timeout=30):
    """SIGTERM, then SIGKILL after `timeout` seconds; only this process id."""
    if process.poll() is not None:
        return process.returncode
    process.send_signal(signal.SIGTERM)
    try:
        return process.wait(timeout)
    except subprocess.TimeoutExpired:
        log(f"{name} (pid {process.pid}) ignored SIGTERM; killing it")
        process.kill()
        return process.wait()


# /proc readings


def proc_status(pid):
    fields = {}
    with open(f"/proc/{pid}/status") as handle:
        for line in handle:
            key, _, value = line.partition(":")
            fields[key] = value.strip()
    return fields


def kib(value):
    return int(value.split()[0]) if value else None


def activity(pid):
    """Context switches and CPU time of every thread of `pid`, now."""
    ticks = os.sysconf("SC_CLK_TCK")
    threads = {}
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            status = proc_status(f"{pid}/task/{tid}")
            with open(f"/proc/{pid}/task/{tid}/schedstat") as handle:
                on_cpu_ns = int(handle.read().split()[0])
            threads[tid] = {
                "name": status.get("Name", ""),
                "voluntary": int(status["voluntary_ctxt_switches"]),
                "involuntary": int(status["nonvoluntary_ctxt_switches"]),
                "cpu_ns": on_cpu_ns,
            }
        except (OSError, KeyError):
            pass  # the thread ended while we looked
    with open(f"/proc/{pid}/stat") as handle:
        # The command name may hold spaces; fields after ')' are fixed.
        after = handle.read().rsplit(")", 1)[1].split()
    utime, stime = int(after[11]), int(after[12])
    return {"threads": threads, "cpu_ticks_s": (utime + stime) / ticks, "monotonic": time.monotonic()}


def activity_delta(before, after):
    """Sums over the threads seen at both ends; reports threads that came or went."""
    common = set(before["threads"]) & set(after["threads"])
    voluntary = sum(after["threads"][t]["voluntary"] - before["threads"][t]["voluntary"] for t in common)
    involuntary = sum(after["threads"][t]["involuntary"] - before["threads"][t]["involuntary"] for t in common)
    cpu_ns = sum(after["threads"][t]["cpu_ns"] - before["threads"][t]["cpu_ns"] for t in common)
    # A thread that appears during the window counts in full.
    for t in set(after["threads"]) - set(before["threads"]):
        voluntary += after["threads"][t]["voluntary"]
        involuntary += after["threads"][t]["involuntary"]
        cpu_ns += after["threads"][t]["cpu_ns"]
    per_thread = {
        t: {
            "name": after["threads"][t]["name"],
            "switches": after["threads"][t]["voluntary"] + after["threads"][t]["involuntary"]
            - (before["threads"][t]["voluntary"] + before["threads"][t]["involuntary"] if t in before["threads"] else 0),
        }
        for t in after["threads"]
    }
    return {
        "seconds": after["monotonic"] - before["monotonic"],
        "context_switches": voluntary + involuntary,
        "voluntary": voluntary,
        "involuntary": involuntary,
        "cpu_ms_schedstat": cpu_ns / 1e6,
        "cpu_ms_utime_stime": (after["cpu_ticks_s"] - before["cpu_ticks_s"]) * 1000,
        "threads_before": len(before["threads"]),
        "threads_after": len(after["threads"]),
        "threads_ended": sorted(set(before["threads"]) - set(after["threads"])),
        "threads_started": sorted(set(after["threads"]) - set(before["threads"])),
        "per_thread": per_thread,
    }

