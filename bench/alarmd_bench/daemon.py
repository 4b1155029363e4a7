# SPDX-License-Identifier: Apache-2.0
"""alarmd under test, and `alarmd-bench watch` subscribed to its `Watch`."""

import json
import os
import signal
import socket
import subprocess
import threading
import time

from .processes import SERVICE, kib, log, proc_status, stop_process


class Daemon:
    """One alarmd process with its own state directory, socket and a
    NOTIFY_SOCKET listener standing in for systemd (no WATCHDOG_USEC)."""

    counter = 0

    def __init__(self, bench, state_dir, name, config=None, environment=None):
        """`config` (a path) replaces the run's alarmd.conf; `environment` is
        added to the daemon's."""
        Daemon.counter += 1
        self.bench = bench
        self.config = config or bench.config
        self.environment = environment or {}
        self.state_dir = state_dir
        self.name = name
        self.socket = os.path.join(bench.work, f"s{Daemon.counter}.sock")
        self.notify_path = os.path.join(bench.work, f"n{Daemon.counter}.notify")
        self.log_path = os.path.join(bench.work, f"{name}-{Daemon.counter}.log")
        self.process = None
        self.notify = None
        self.drain = None
        self.messages = []
        self.token = None
        self.ready_at = None

    def start(self, timeout=120, wrapper=()):
        """Starts alarmd; returns seconds from just before fork/exec to READY=1.
        With a `wrapper` (perf record … --), the wrapper is the child and alarmd its child."""
        self.notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.notify.bind(self.notify_path)
        self.notify.settimeout(timeout)
        env = self.bench.daemon_environment()
        env.update(self.environment)
        env["NOTIFY_SOCKET"] = self.notify_path
        argv = [*wrapper, self.bench.binary("alarmd"), "--config", self.config, "--state-dir", self.state_dir, "--socket", self.socket]
        log_handle = open(self.log_path, "ab")
        start = time.monotonic_ns()
        self.process = subprocess.Popen(argv, env=env, stdin=subprocess.DEVNULL, stdout=log_handle, stderr=log_handle, **SERVICE)
        log_handle.close()
        self.token = self.bench.cleanup.add(f"alarmd pid {self.process.pid}", self.stop)
        ready_ns = None
        deadline = time.monotonic() + timeout
        while ready_ns is None:
            if self.process.poll() is not None:
                raise RuntimeError(f"alarmd exited with {self.process.returncode} before READY=1; see {self.log_path}: {self.tail_log()}")
            self.notify.settimeout(max(0.01, min(0.5, deadline - time.monotonic())))
            try:
                datagram = self.notify.recv(65536)
            except socket.timeout:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"alarmd sent no READY=1 within {timeout} s")
                continue
            now = time.monotonic_ns()
            text = datagram.decode(errors="replace")
            self.messages.append(text)
            if "READY=1" in text.split("\n"):
                ready_ns = now
        self.ready_at = time.monotonic()
        # Keep reading, as systemd would, so sd_notify never meets a full queue.
        self.notify.settimeout(0.5)
        self.drain = threading.Thread(target=self._drain, daemon=True)
        self.drain.start()
        return (ready_ns - start) / 1e9

    def _drain(self):
        while self.notify is not None:
            try:
                self.messages.append(self.notify.recv(65536).decode(errors="replace"))
            except (socket.timeout, OSError, AttributeError):
                if self.process is None or self.process.poll() is not None:
                    return

    def tail_log(self):
        try:
            with open(self.log_path, errors="replace") as handle:
                return handle.read()[-1500:]
        except OSError:
            return ""

    @property
    def pid(self):
        """alarmd's process id (the wrapper's child when there is a wrapper)."""
        try:
            with open(f"/proc/{self.process.pid}/comm") as handle:
                if handle.read().strip() == "alarmd":
                    return self.process.pid
            with open(f"/proc/{self.process.pid}/task/{self.process.pid}/children") as handle:
                return int(handle.read().split()[0])
        except (OSError, IndexError, ValueError):
            return self.process.pid

    def memory(self):
        status = proc_status(self.pid)
        return {"rss_mib": kib(status.get("VmRSS")) / 1024, "hwm_mib": kib(status.get("VmHWM")) / 1024, "threads": int(status.get("Threads", 0))}

    def stop(self):
        if self.process is not None:
            # A SIGTERM in the first moments after READY=1 can be lost (see
            # BENCHMARKS.md); wait that moment out, and note it if it happens.
            if self.ready_at is not None:
                time.sleep(max(0.0, self.ready_at + 0.5 - time.monotonic()))
            if self.pid != self.process.pid:
                os.kill(self.pid, signal.SIGTERM)  # alarmd under a wrapper; the wrapper ends with it
                try:
                    self.process.wait(30)
                except subprocess.TimeoutExpired:
                    pass
            code = stop_process(self.process, "alarmd", timeout=10)
            if code == -signal.SIGKILL:
                self.bench.notes.append(f"an alarmd (pid {self.process.pid}) did not stop within 10 s of SIGTERM and was killed")
            elif code != 0:
                log(f"alarmd exited with {code}; log: {self.tail_log()}")
        notify, self.notify = self.notify, None
        if notify is not None:
            notify.close()
        if self.drain is not None:
            self.drain.join(2)
        try:
            os.unlink(self.notify_path)
        except OSError:
            pass

    def stop_now(self):
        if self.token is not None:
            self.bench.cleanup.run_now(self.token)
            self.token = None



class Watcher:
    """`alarmd-bench watch` subscribed to `io.alarmd.Watch` of `daemon`: it stamps
    every reply on receipt and, once `expect` fired events came (or `timeout`
    seconds passed), writes them to `out` and prints a summary."""

    def __init__(self, bench, daemon, expect, timeout, out):
        self.bench = bench
        self.out = out
        self.process = subprocess.Popen(bench.bench_tool("watch", "--socket", daemon.socket, "--expect", expect, "--timeout", timeout, "--out", out),
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.token = bench.cleanup.add(f"watch client pid {self.process.pid}", lambda w=self.process: stop_process(w, "watch client"))
        # The client prints WATCHING once its subscription is sent.
        self.first_line = self.process.stdout.readline().strip()

    @property
    def watching(self):
        return self.first_line == "WATCHING"

    def stop(self):
        if self.token is not None:
            self.bench.cleanup.run_now(self.token)
            self.token = None

    def finish(self, check=True):
        """Waits for the client to end; its summary (None if it failed and not `check`)."""
        stdout, stderr = self.process.communicate()
        self.stop()
        if self.process.returncode != 0:
            if check:
                raise RuntimeError(f"watch client failed: {stderr}")
            return None
        return json.loads(stdout.strip().splitlines()[-1])

    def fired(self):
        """(scheduled, actual, received) of every fired event, microseconds since the epoch."""
        events = []
        with open(self.out) as handle:
            next(handle)
            for row in handle:
                _, scheduled, actual, received = row.split("\t")
                events.append((int(scheduled), int(actual), int(received)))
        return events


def fire_and_watch(bench, name, count, window, during=None, extra_timeout=60):
    """Writes a store of `count` reminders due at distinct instants evenly spread over
    `window` seconds from t0, a few seconds ahead (all at t0 when `window` is 0),
    starts alarmd on it and subscribes a Watch client before t0 (with a longer lead
    if the client was not ready in time), calls `during(daemon, t0)` if given, and
    waits for every firing. Returns the client's summary, the fired events
    (scheduled, actual, received), the lead, READY=1's time and what `during` returned."""
    for attempt in range(3):
        lead = 4.0 + 3 * attempt
        t0 = time.time() + lead
        state, _ = bench.make_store(f"{name}-{attempt}", reminders=count, due_start=int(t0 * 1e6), due_end=int((t0 + window) * 1e6))
        daemon = Daemon(bench, state, name.split("-")[0])
        ready = daemon.start()
        watcher = Watcher(bench, daemon, count, lead + window + extra_timeout, os.path.join(bench.work, f"fired-{name}-{attempt}.tsv"))
        margin = t0 - time.time()
        if not watcher.watching or margin < 0.5:
            log(f"{name}: watcher not ready {margin:.2f} s before the first reminder ({watcher.first_line!r}); retrying with a longer lead")
            watcher.stop()
            daemon.stop_now()
            continue
        extra = during(daemon, t0) if during else None
        summary = watcher.finish()
        daemon.stop_now()
        return {"lead": lead, "ready": ready, "summary": summary, "fired": watcher.fired(), "during": extra}
    raise RuntimeError("the watch client never got ready in time")
