# SPDX-License-Identifier: Apache-2.0
"""10. CalDAV sync (issue #18): alarmd's first sync of N to-dos from a real
Radicale (on 127.0.0.1, password authentication), and a sync with nothing
changed, next to Python's `caldav` library fetching the same collection (all
to-dos, then the changes since its sync token). The to-dos are written into
Radicale's storage before it starts, so only the fetch is timed."""

import json
import os
import shutil
import socket
import subprocess
import time

from .. import REPO
from ..daemon import Daemon
from ..processes import log, stop_process
from ..stats import median_min_max

LABEL = "10 caldav"
PYTHON = os.path.join(REPO, ".build", "pyvenv", "bin", "python3")
SERVER = os.path.join(REPO, "Tests", "AlarmdTests", "python", "radicale_server.py")
USER, PASSWORD = "bench", "bench-password"

PEER = r'''
import json, sys, time
import caldav
url, user, password = sys.argv[1:4]
start = time.perf_counter()
client = caldav.DAVClient(url=url, username=user, password=password)
calendar = client.calendar(url=url)
todos = calendar.todos(include_completed=True)
first = time.perf_counter() - start
token = calendar.objects_by_sync_token(load_objects=False).sync_token
start = time.perf_counter()
changed = list(calendar.objects_by_sync_token(sync_token=token, load_objects=True))
again = time.perf_counter() - start
print(json.dumps({"count": len(todos), "first_s": first, "no_change_s": again, "changed": len(changed)}))
'''


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def fill(storage, count):
    """N to-dos as Radicale keeps them: one .ics file each in the collection's folder."""
    folder = os.path.join(storage, "collections", "collection-root", USER, "tasks")
    os.makedirs(folder, exist_ok=True)
    for index in range(count):
        uid = f"bench-{index:05d}@example.org"
        with open(os.path.join(folder, f"bench-{index:05d}.ics"), "w", newline="") as handle:
            handle.write("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//bench//EN\r\nBEGIN:VTODO\r\n"
                         f"UID:{uid}\r\nDTSTAMP:20261201T100000Z\r\nSUMMARY:To-do {index}\r\n"
                         f"DUE:20270101T{index % 24:02d}0000Z\r\nSTATUS:NEEDS-ACTION\r\nEND:VTODO\r\nEND:VCALENDAR\r\n")


def start_radicale(bench, directory, port):
    process = subprocess.Popen([PYTHON, SERVER, directory, str(port), USER, PASSWORD], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    token = bench.cleanup.add(f"radicale pid {process.pid}", lambda: stop_process(process, "radicale"))
    if process.stdout.readline().strip() != "READY":
        bench.cleanup.run_now(token)
        raise RuntimeError("Radicale did not start")
    return token


def alarmctl(bench, daemon, *arguments):
    out = subprocess.run([bench.binary("alarmctl"), "--socket", daemon.socket, *arguments, "--json"], check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


def run(bench):
    if not (os.access(PYTHON, os.X_OK) and subprocess.run([PYTHON, "-c", "import radicale, caldav"], capture_output=True).returncode == 0):
        return bench.skip("caldav", "no .build/pyvenv with radicale and caldav (make test-deps makes it)")
    s = bench.settings
    firsts, no_changes, peers = [], [], []
    for run_index in range(s.caldav_runs):
        directory = os.path.join(bench.work, f"radicale-{run_index}")
        os.makedirs(directory, exist_ok=True)
        port = free_port()
        # The server makes the collections on its first start; the to-dos go in after.
        token = start_radicale(bench, directory, port)
        bench.cleanup.run_now(token)
        fill(directory, s.caldav_todos)
        token = start_radicale(bench, directory, port)
        try:
            url = f"http://127.0.0.1:{port}/{USER}/tasks/"
            # The peer first, so that Radicale has read its storage once for both.
            peer = subprocess.run([PYTHON, "-c", PEER, url, USER, PASSWORD], check=True, capture_output=True, text=True)
            peers.append(json.loads(peer.stdout))
            password = os.path.join(directory, "password")
            with open(os.open(password, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w") as handle:
                handle.write(PASSWORD + "\n")
            config = os.path.join(directory, "alarmd.conf")
            with open(config, "w") as handle:
                handle.write(f"[Sync]\nURL={url}\nUser={USER}\nPasswordFile={password}\nInterval=1d\n")
            state = os.path.join(directory, "state")
            os.makedirs(state, mode=0o700, exist_ok=True)
            daemon = Daemon(bench, state, f"caldav-{run_index}", config=config)
            # The first round starts with the daemon: timed from its start
            # (about 10 ms of it) until Status says the round ran.
            start = time.perf_counter()
            daemon.start()
            try:
                deadline = start + 300
                while True:
                    status = alarmctl(bench, daemon, "status")
                    if status.get("sync", {}).get("lastSync"):
                        break
                    if time.perf_counter() > deadline:
                        raise RuntimeError("the first sync did not finish")
                    time.sleep(0.005)
                firsts.append(time.perf_counter() - start)
                if status["reminders"] != s.caldav_todos or status["sync"].get("error"):
                    raise RuntimeError(f"first sync: {status['reminders']} reminders, error {status['sync'].get('error')}")
                times = []
                for _ in range(5):
                    start = time.perf_counter()
                    reply = alarmctl(bench, daemon, "sync")
                    times.append(time.perf_counter() - start)
                    if reply["received"] or reply["sent"]:
                        raise RuntimeError(f"a sync with nothing changed moved items: {reply}")
                no_changes.append(sorted(times)[len(times) // 2])
            finally:
                daemon.stop_now()
        finally:
            bench.cleanup.run_now(token)
    result = {"todos": s.caldav_todos, "alarmd_first_s": median_min_max(firsts), "alarmd_no_change_s": median_min_max(no_changes),
              "caldav_first_s": median_min_max([p["first_s"] for p in peers]), "caldav_no_change_s": median_min_max([p["no_change_s"] for p in peers])}
    bench.results["caldav"] = result
    log(f"caldav: alarmd first {result['alarmd_first_s']['median']:.2f} s, no change {result['alarmd_no_change_s']['median'] * 1000:.0f} ms; "
        f"caldav first {result['caldav_first_s']['median']:.2f} s, no change {result['caldav_no_change_s']['median'] * 1000:.0f} ms")


def rows(results, table):
    caldav = results.get("caldav")
    if not caldav:
        return
    if "skipped" in caldav:
        table.row(LABEL, "CalDAV sync", "skipped: " + caldav["skipped"])
        return
    n = caldav["todos"]

    def fmt(entry, scale=1, digits=2):
        return f"{entry['median'] * scale:.{digits}f} [{entry['min'] * scale:.{digits}f}–{entry['max'] * scale:.{digits}f}]"
    table.row(LABEL, f"first sync of {n:,} to-dos from Radicale (s): alarmd, from its start to Status reporting the round (items stored)", fmt(caldav["alarmd_first_s"]))
    table.row(LABEL, f"the same fetch by Python's caldav (todos(), in-process, s)", fmt(caldav["caldav_first_s"]))
    table.row(LABEL, "a sync with nothing changed (ms): alarmctl sync, whole command", fmt(caldav["alarmd_no_change_s"], 1000, 1))
    table.row(LABEL, "the same by Python's caldav (objects_by_sync_token, in-process, ms)", fmt(caldav["caldav_no_change_s"], 1000, 1))
