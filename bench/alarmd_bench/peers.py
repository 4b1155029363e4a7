# SPDX-License-Identifier: Apache-2.0
"""The programs alarmd is compared with: Debian's packages (installed as root
when missing), atd and its jobs, cron with a crontab of the harness's own."""

import os
import re
import signal
import subprocess
import time

from .processes import SERVICE, log, pid_from_file, pids_named, spawn_and_time, stop_process

PEER_PACKAGES = ["at", "cron", "gnuplot-nox", "pulseaudio", "pulseaudio-utils", "sox", "sound-theme-freedesktop"]
CRONTAB = "/etc/cron.d/alarmd-bench"
CRONTAB_LINES = 4


def ensure_packages(bench):
    missing = [p for p in PEER_PACKAGES if subprocess.run(["dpkg-query", "-W", "-f=${Status}", p], capture_output=True, text=True).stdout.find("ok installed") < 0]
    if not missing:
        return
    if os.geteuid() != 0:
        bench.notes.append(f"not root: cannot install {' '.join(missing)}; the benchmarks that need them are skipped")
        log(bench.notes[-1])
        return
    log(f"installing {' '.join(missing)} with apt-get")
    before = {name: pids_named(name) for name in ("atd", "cron")}
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    subprocess.run(["apt-get", "update", "-qq"], check=True, env=env)
    subprocess.run(["apt-get", "install", "-y", "-qq", "--no-install-recommends", *missing], check=True, env=env)
    # A package's maintainer scripts may start its daemon; the harness started
    # those processes (through apt-get), so it stops them and runs its own.
    for name in ("atd", "cron"):
        for pid in pids_named(name) - before[name]:
            log(f"stopping {name} pid {pid}, started by the package installation")
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                pass


def stop_peer(process, name, pidfile):
    stop_process(process, name, timeout=10)
    if pid_from_file(pidfile) is None:
        try:
            with open(pidfile) as handle:
                if int(handle.read().split()[0]) == process.pid:
                    os.unlink(pidfile)
        except (OSError, ValueError, IndexError):
            pass


# ---- atd


def atd_running(bench):
    """Our atd, or an atd that was already running (recorded as such)."""
    if "atd" in bench.peers:
        return True
    if not os.path.exists("/usr/sbin/atd"):
        return False
    existing = pid_from_file("/run/atd.pid")
    if existing:
        bench.peers["atd"] = {"pid": existing, "started_by_harness": False}
        bench.notes.append(f"atd was already running (pid {existing}); it was used, not restarted")
        return True
    if os.geteuid() != 0:
        bench.notes.append("not root and no atd running: the at comparisons are skipped")
        return False
    process = subprocess.Popen(["/usr/sbin/atd", "-f"], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, **SERVICE)
    bench.cleanup.add(f"atd pid {process.pid}", lambda: stop_peer(process, "atd", "/run/atd.pid"))
    for _ in range(100):
        if pid_from_file("/run/atd.pid") == process.pid:
            break
        time.sleep(0.05)
    bench.peers["atd"] = {"pid": process.pid, "started_by_harness": True}
    return True


def submit_at(bench, argv, stdin_text):
    """Runs `at` once; returns (seconds, job number). The job is removed with atrm at the end."""
    script = os.path.join(bench.work, "at-stdin")
    with open(script, "w") as handle:
        handle.write(stdin_text)
    errors = os.path.join(bench.work, "at-stderr")
    seconds, code = spawn_and_time(argv, stdin_path=script, stderr_path=errors, env={"PATH": "/usr/bin:/bin", "SHELL": "/bin/sh", "LANG": "C.UTF-8", "HOME": "/root"})
    with open(errors) as handle:
        message = handle.read()
    match = re.search(r"job (\d+) at", message)
    if code != 0 or not match:
        raise RuntimeError(f"{' '.join(argv)} failed ({code}): {message.strip()}")
    job = match.group(1)
    bench.cleanup.add(f"at job {job}", lambda: subprocess.run(["atrm", job], capture_output=True))
    return seconds, job


# ---- cron


def start_cron(bench):
    """Writes the harness's crontab and starts `cron -f`; (process, cleanup token),
    or (None, reason) where cron cannot be used."""
    if not os.path.exists("/usr/sbin/cron"):
        return None, "cron not installed"
    if os.geteuid() != 0:
        return None, "not root (cron needs root and a file in /etc/cron.d)"
    existing = pid_from_file("/run/crond.pid")
    if existing:
        return None, f"a cron the harness did not start is running (pid {existing})"
    # An ordinary crontab: a few jobs, none due during the measurement.
    hour = (time.localtime().tm_hour + 6) % 24
    with open(CRONTAB, "w") as handle:
        handle.write(
            "# Written by alarmd's bench/run for the idle comparison; removed when it ends.\n"
            "SHELL=/bin/sh\nPATH=/usr/local/sbin:/usr/local/bin:/sbin:/bin:/usr/sbin:/usr/bin\n"
            f"30 {hour} * * 1-5 root true\n"
            f"0 {(hour + 2) % 24} * * * root true\n"
            f"15 {(hour + 4) % 24} 1 * * root true\n"
            f"45 {(hour + 1) % 24} * * 6,0 root true\n")
    os.chmod(CRONTAB, 0o644)
    bench.cleanup.add(f"{CRONTAB}", lambda: os.path.exists(CRONTAB) and os.unlink(CRONTAB))
    process = subprocess.Popen(["/usr/sbin/cron", "-f"], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, **SERVICE)
    token = bench.cleanup.add(f"cron pid {process.pid}", lambda: stop_peer(process, "cron", "/run/crond.pid"))
    return process, token
