# SPDX-License-Identifier: Apache-2.0
"""13. The terminal interface: `alarmctl ui` next to calcurse, both in the same
tmux terminal (120×40, TERM=xterm-256color). Starts two alarmd (20 and
10,000 alarms, none due for hours) and measures:

  start     alarmctl-ui (what `alarmctl ui` runs) on 20 alarms and calcurse on
            20 appointments, alternately, each started in a new tmux session
            from a monotonic timestamp taken just before: until its screen is
            seen in `capture-pane` (both, the same poll), and alarmctl-ui's
            first frame on the terminal (ALARMCTL_UI_FRAME_LOG, CLOCK_MONOTONIC)
  live      on 20 alarms: `alarmctl add`, from just before its spawn until the
            interface's next frame (the frame log), and until the alarm's label
            is seen in capture-pane; each alarm removed again
  scroll    on 10,000 alarms: Down and PageDown keys sent in bursts; how long
            each frame took to lay out and draw (the frame log)

Skipped, with the reason, where tmux or calcurse is missing."""

import os
import shutil
import subprocess
import time

from ..daemon import Daemon
from ..processes import log
from ..stats import distribution, median_min_max

LABEL = "13 tui"
COLUMNS, ROWS = 120, 40


def missing(bench):
    for tool in ("tmux", "calcurse"):
        if shutil.which(tool) is None:
            return f"{tool} is not installed (the Makefile's test dependencies install it)"
    if not os.path.exists(bench.binary("alarmctl-ui")):
        return f"{bench.binary('alarmctl-ui')} was not built"
    return None


class Terminal:
    """A tmux server of its own, one session running `argv`."""

    def __init__(self, bench, name, argv, environment):
        self.socket = os.path.join(bench.work, f"tmux-{name}.sock")
        self.started = time.monotonic()
        assignments = [f"{k}={v}" for k, v in sorted(environment.items())]
        subprocess.run(["tmux", "-u", "-S", self.socket, "-f", "/dev/null", "new-session", "-d", "-s", "b",
                        "-x", str(COLUMNS), "-y", str(ROWS), "--", "/usr/bin/env", "-i", *assignments, *argv],
                       check=True, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.token = bench.cleanup.add(f"tmux {self.socket}", self.stop)

    def screen(self):
        result = subprocess.run(["tmux", "-S", self.socket, "capture-pane", "-p", "-t", "b"], capture_output=True, text=True)
        return result.stdout

    def wait(self, test, timeout=10.0, poll=0.001):
        """Seconds (monotonic) at which `test(screen)` first held, or None."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if test(self.screen()):
                return time.monotonic()
            time.sleep(poll)
        return None

    def keys(self, *keys):
        subprocess.run(["tmux", "-S", self.socket, "send-keys", "-t", "b", *keys], check=True)

    def stop(self):
        subprocess.run(["tmux", "-S", self.socket, "kill-server"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def frames(path):
    """(end, duration) of each frame logged, in seconds."""
    result = []
    if os.path.exists(path):
        with open(path) as handle:
            for line in handle:
                parts = line.split()
                if len(parts) == 4 and parts[0] == "frame":
                    result.append((int(parts[2]) / 1e6, int(parts[3]) / 1e6))
    return result


def calcurse_data(directory, count):
    """calcurse's own data directory with `count` appointments, one a day."""
    os.makedirs(directory, exist_ok=True)
    today = time.localtime()
    lines = []
    for n in range(count):
        day = time.localtime(time.mktime((today.tm_year, today.tm_mon, today.tm_mday + n % 7, 12, 0, 0, 0, 0, -1)))
        date = time.strftime("%m/%d/%Y", day)
        lines.append(f"{date} @ {7 + n % 12:02d}:{n % 60:02d} -> {date} @ {8 + n % 12:02d}:00 |Alarm {n}\n")
    with open(os.path.join(directory, "apts"), "w") as handle:
        handle.writelines(lines)
    open(os.path.join(directory, "todo"), "w").close()


def run(bench):
    reason = missing(bench)
    if reason:
        return bench.skip("tui", reason)
    s = bench.settings
    now = int(time.time())
    none = os.path.join(bench.work, "tui-nothing")
    os.makedirs(os.path.join(bench.work, "tui-config-dirs"), exist_ok=True)
    environment = {"TZ": "UTC", "XDG_CONFIG_DIRS": os.path.join(bench.work, "tui-config-dirs"),
                   "ALARMD_WAKE_HELPER": none + "-wake-helper", "PULSE_SERVER": "unix:" + none + "-sound-server"}
    daemons = {}
    result = {"terminal": f"tmux {COLUMNS}×{ROWS}, TERM=xterm-256color"}
    try:
        for count in (20, 10_000):
            state, _ = bench.make_store(f"tui-{count}", alarms=count, zone="UTC", avoid_start=now, avoid_end=now + 6 * 3600)
            daemons[count] = Daemon(bench, state, f"tui{count}", environment=environment)
            daemons[count].start()
        result["start"] = start(bench, daemons[20], s.tui_start_runs)
        result["live"] = live(bench, daemons[20], s.tui_adds)
        result["scroll_10k"] = scroll(bench, daemons[10_000], s.tui_scroll_keys)
    finally:
        for daemon in daemons.values():
            daemon.stop_now()
    bench.results["tui"] = result
    st, sc = result["start"], result["scroll_10k"]
    log(f"tui: start, screen seen: alarmctl-ui {st['ui']['seen_ms']['median']:.1f} ms, calcurse {st['calcurse']['seen_ms']['median']:.1f} ms; "
        f"10,000 alarms: longest frame {sc['frame_ms']['max']:.2f} ms")


def ui_environment(frame_log):
    return {"TERM": "xterm-256color", "LANG": "C.UTF-8", "TZ": "UTC", "PATH": "/usr/bin:/bin", "ALARMCTL_UI_FRAME_LOG": frame_log}


def start(bench, daemon, runs):
    ui_runs, calcurse_runs = [], []
    for n in range(runs):
        frame_log = os.path.join(bench.work, f"tui-start-{n}.frames")
        t = Terminal(bench, f"ui{n}", [bench.binary("alarmctl-ui"), "--socket", daemon.socket], ui_environment(frame_log))
        seen = t.wait(lambda screen: "Alarms (20)" in screen and "q Quit" in screen)
        logged = frames(frame_log)
        ui_runs.append({"seen_ms": (seen - t.started) * 1000 if seen else None,
                        "first_frame_ms": (logged[0][0] - t.started) * 1000 if logged else None})
        bench.cleanup.run_now(t.token)
        # A data directory for each run: calcurse keeps a lock file there,
        # which the one killed before may leave behind.
        home = os.path.join(bench.work, f"tui-calcurse-home{n}")
        os.makedirs(home, exist_ok=True)
        data = os.path.join(bench.work, f"tui-calcurse-{n}")
        calcurse_data(data, 20)
        t = Terminal(bench, f"cc{n}", ["/usr/bin/calcurse", "-D", data],
                     {"TERM": "xterm-256color", "LANG": "C.UTF-8", "TZ": "UTC", "HOME": home, "PATH": "/usr/bin:/bin"})
        seen = t.wait(lambda screen: "Appointments" in screen and "Quit" in screen and "Alarm " in screen)
        calcurse_runs.append({"seen_ms": (seen - t.started) * 1000 if seen else None})
        bench.cleanup.run_now(t.token)
    ui = {"seen_ms": median_min_max([r["seen_ms"] for r in ui_runs]), "first_frame_ms": median_min_max([r["first_frame_ms"] for r in ui_runs]),
          "missing": sum(r["seen_ms"] is None for r in ui_runs)}
    cc = {"seen_ms": median_min_max([r["seen_ms"] for r in calcurse_runs]), "missing": sum(r["seen_ms"] is None for r in calcurse_runs)}
    return {"runs": runs, "ui": ui, "calcurse": cc, "ui_over_calcurse": ui["seen_ms"]["median"] / cc["seen_ms"]["median"],
            "samples": {"ui": ui_runs, "calcurse": calcurse_runs}}


def live(bench, daemon, adds):
    frame_log = os.path.join(bench.work, "tui-live.frames")
    t = Terminal(bench, "live", [bench.binary("alarmctl-ui"), "--socket", daemon.socket], ui_environment(frame_log))
    try:
        t.wait(lambda screen: "Alarms (20)" in screen)
        frame_ms, seen_ms = [], []
        for n in range(adds):
            label = f"Live {n}"
            before = time.monotonic()
            added = subprocess.run([bench.binary("alarmctl"), "--socket", daemon.socket, "add", "0:30", label, "--json"],
                                   capture_output=True, text=True, check=True)
            seen = t.wait(lambda screen: label in screen, timeout=5)
            seen_ms.append((seen - before) * 1000 if seen else None)
            after = [end for end, _ in frames(frame_log) if end > before]
            frame_ms.append((after[0] - before) * 1000 if after else None)
            alarm_id = added.stdout.split('"id":"')[1].split('"')[0]
            subprocess.run([bench.binary("alarmctl"), "--socket", daemon.socket, "rm", alarm_id], capture_output=True, check=True)
            t.wait(lambda screen: label not in screen, timeout=5)
        present = [v for v in frame_ms if v is not None]
        seen_present = [v for v in seen_ms if v is not None]
        return {"adds": adds, "next_frame_ms": distribution(present) if present else None,
                "seen_ms": distribution(seen_present) if seen_present else None, "missing": adds - len(seen_present)}
    finally:
        bench.cleanup.run_now(t.token)


def scroll(bench, daemon, keys):
    frame_log = os.path.join(bench.work, "tui-scroll.frames")
    t = Terminal(bench, "scroll", [bench.binary("alarmctl-ui"), "--socket", daemon.socket], ui_environment(frame_log))
    try:
        first = t.wait(lambda screen: "Alarms (10000)" in screen, timeout=30)
        first_ms = (first - t.started) * 1000 if first else None
        skip = len(frames(frame_log))
        sent = 0
        while sent < keys:
            burst = ["Down"] * 9 + ["NPage"]
            t.keys(*burst)
            sent += len(burst)
            time.sleep(0.02)
        t.keys("G")
        t.wait(lambda screen: "[x] 23:59" in screen or "[ ] 23:59" in screen, timeout=10)
        time.sleep(0.2)
        durations = [d * 1000 for _, d in frames(frame_log)[skip:]]
        return {"alarms": 10_000, "keys": keys, "first_screen_ms": first_ms, "frames": len(durations),
                "frame_ms": distribution(durations) if durations else None}
    finally:
        bench.cleanup.run_now(t.token)


def rows(results, table):
    tui = results.get("tui")
    if not tui:
        return
    if "skipped" in tui:
        table.row(LABEL, "terminal interface", "skipped: " + tui["skipped"])
        return
    st = tui["start"]
    table.row(LABEL, f"start, 20 items: screen seen in tmux, alarmctl-ui / calcurse, median [min–max] of {st['runs']} (ms)",
              table.mmm(st["ui"]["seen_ms"], "{:.1f}") + " / " + table.mmm(st["calcurse"]["seen_ms"], "{:.1f}"))
    missing = st["ui"].get("missing", 0) + st["calcurse"].get("missing", 0)
    table.row(LABEL, "start: alarmctl-ui / calcurse, ratio of the medians", f"{st['ui_over_calcurse']:.2f}"
              + (f" ({missing} starts never seen)" if missing else ""), "tui-start-vs-calcurse", met=False if missing else None)
    table.row(LABEL, "start: alarmctl-ui's first frame on the terminal (frame log), median (ms)", f"{st['ui']['first_frame_ms']['median']:.1f}")
    lv = tui["live"]
    if lv["next_frame_ms"]:
        table.row(LABEL, f"alarmctl add → the interface's next frame, p50 / p99 of {lv['adds']} (ms)",
                  f"{lv['next_frame_ms']['p50']:.1f} / {lv['next_frame_ms']['p99']:.1f}", "tui-live-frame-p99")
    if lv["seen_ms"]:
        table.row(LABEL, "alarmctl add → its label seen in tmux, p50 / p99 (ms)",
                  f"{lv['seen_ms']['p50']:.1f} / {lv['seen_ms']['p99']:.1f}" + (f"; {lv['missing']} never seen" if lv["missing"] else ""))
    sc = tui["scroll_10k"]
    if sc["frame_ms"]:
        f = sc["frame_ms"]
        table.row(LABEL, f"10,000 alarms, {sc['keys']} keys: frames laid out and drawn, p50 / p99 (ms)", f"{f['p50']:.2f} / {f['p99']:.2f}")
        table.row(LABEL, "10,000 alarms: the longest frame (ms)", f"{f['max']:.2f}", "tui-10k-max-frame")
    else:
        table.row(LABEL, "10,000 alarms: frames", "none logged", "tui-10k-max-frame", met=False)
