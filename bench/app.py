#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""The desktop app's benchmarks (issue #30), run by bench/run's `app` section.

    xvfb-run -a -s "-screen 0 1280x1024x24" dbus-run-session -- \\
        /usr/bin/python3 bench/app.py CONFIG.json

Runs under Debian's /usr/bin/python3 (python3-pyatspi, gir1.2-atspi-2.0),
inside the Xvfb display and private session bus that xvfb-run and
dbus-run-session give it; starts the accessibility bus
(at-spi-bus-launcher) itself. alarmd is not started here: the section
(bench/alarmd_bench/sections/app.py) starts one on 20 alarms and one on
10,000 and names their sockets in CONFIG. This script measures, side by side
on the same display and bus:

  start     `alarms` (20 alarms) and `gnome-clocks`, alternately, each
            started cold from a monotonic timestamp taken just before the
            spawn: until its window is on the AT-SPI bus (both), until the
            first frame it painted (alarms: ALARMS_FRAME_LOG, one line per
            frame with g_get_monotonic_time() when painting ended), and its
            VmRSS, threads and PSS once it settled (`settle` s later)
  scroll    `alarms` on 10,000 alarms: first frame, then the mouse wheel
            (XTest through the AT-SPI registry, as xdotool is not in the
            image) turned every `wheel_interval` s for `scroll_seconds` over
            the list; the gaps between the frames painted meanwhile
  live      `alarms` on 20 alarms: `alarmctl add 00:MM --label …`, and the
            time from just before alarmctl's spawn until the alarm's switch
            (a check box named by its label) is in the list on the AT-SPI
            bus, polled (GTK 4.8 sends no event when a list row is bound);
            each alarm is removed again before the next

It prints one JSON object (raw samples; the section makes the statistics)
as its last line on stdout and says what it does on stderr. Everything it
starts is stopped again, also on error or SIGTERM.
"""

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time

import gi

# bench/, this script's directory, is on sys.path.
from alarmd_bench.processes import kib, proc_status

gi.require_version("Atspi", "2.0")
from gi.repository import Atspi  # noqa: E402
import pyatspi  # noqa: E402

POLL = 0.002  # between two looks at the accessibility bus while waiting for a window
CHILDREN = []  # every process started here, stopped in reverse order at the end


def log(message):
    print(f"[app {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def now_ns():
    return time.monotonic_ns()


def stop(process, timeout=10):
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    if process in CHILDREN:
        CHILDREN.remove(process)


def terminated(number, _frame):
    raise SystemExit(128 + number)


# ---------------------------------------------------------------------------
# /proc


def memory(pid):
    """VmRSS, VmHWM, threads and PSS (smaps_rollup) of `pid`, in MiB."""
    fields = proc_status(pid)
    result = {"rss_mib": kib(fields["VmRSS"]) / 1024, "hwm_mib": kib(fields["VmHWM"]) / 1024, "threads": int(fields["Threads"])}
    try:
        with open(f"/proc/{pid}/smaps_rollup") as handle:
            for line in handle:
                if line.startswith("Pss:"):
                    result["pss_mib"] = int(line.split()[1]) / 1024
    except OSError:
        pass
    return result


def renderer(pid):
    """The GL driver the process has mapped (GDK opens GL on X11 even when
    GSK_RENDERER=cairo draws; without GSK_RENDERER, GTK 4.8 draws with GL)."""
    with open(f"/proc/{pid}/maps") as handle:
        maps = handle.read()
    if "swrast_dri" in maps or "libLLVM" in maps:
        return "Mesa llvmpipe (software GL) mapped"
    if "_dri.so" in maps:
        return "a hardware GL driver mapped"
    return "no GL driver mapped"


# ---------------------------------------------------------------------------
# The accessibility bus


def app_of(pid):
    """The application node of process `pid` on the AT-SPI bus, or None."""
    desktop = pyatspi.Registry.getDesktop(0)
    for index in range(desktop.childCount):
        try:
            node = desktop.getChildAtIndex(index)
            if node is not None and node.get_process_id() == pid:
                # Every read goes to the app: libatspi would otherwise keep
                # what it read once, and GTK 4.8 sends no event that would
                # refresh a list's rows.
                node.set_cache_mask(Atspi.Cache.NONE)
                return node
        except Exception:
            continue
    return None


def window_of(app, name):
    """A frame of `app` (named `name`, when given), or None."""
    try:
        for index in range(app.childCount):
            node = app.getChildAtIndex(index)
            if node is not None and node.getRoleName() == "frame" and (name is None or node.name == name):
                return node
    except Exception:
        return None
    return None


def wait_window(process, name, timeout):
    """(monotonic ns when the window was first seen, its node)."""
    deadline = time.monotonic() + timeout
    app = None
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{process.args[0]} exited with {process.returncode} before its window appeared")
        if app is None:
            app = app_of(process.pid)
        if app is not None:
            window = window_of(app, name)
            if window is not None:
                return now_ns(), window
        time.sleep(POLL)
    raise RuntimeError(f"no window of {process.args[0]} on the accessibility bus within {timeout} s")


def role(node):
    try:
        return node.getRoleName()
    except Exception:
        return ""


def kids(node):
    try:
        return [node.getChildAtIndex(i) for i in range(node.childCount)]
    except Exception:
        return []


def find(node, predicate, depth=0):
    if predicate(node):
        return node
    if depth > 40:
        return None
    for child in kids(node):
        if child is not None:
            found = find(child, predicate, depth + 1)
            if found is not None:
                return found
    return None


def row_switch(item):
    """The switch (role "check box" in GTK 4.8) in one list item: a child of
    the row's box, looked for there first (few calls), else anywhere."""
    for box in kids(item):
        if box is None:
            continue
        if role(box) == "check box":
            return box
        for child in kids(box):
            if child is not None and role(child) == "check box":
                return child
    return find(item, lambda n: role(n) == "check box")


def alarm_list(window):
    """The alarms' GtkListView: the list whose rows hold switches."""
    return find(window, lambda n: role(n) == "list" and n.childCount > 0 and row_switch(n.getChildAtIndex(0)) is not None)


def scroll_pane_of(node):
    while node is not None and role(node) != "scroll pane":
        node = node.parent
    return node


def x_window(name):
    """(x, y, width, height) of the largest X window titled `name` (GTK also
    makes a 1×1 leader window of the same name, off screen)."""
    tree = subprocess.run(["xwininfo", "-root", "-tree"], capture_output=True, text=True, check=True).stdout
    best = None
    for line in tree.splitlines():
        match = re.match(r'\s*0x[0-9a-f]+ "(.*)": \(.*\)\s+(\d+)x(\d+)\+(-?\d+)\+(-?\d+)\s+\+(-?\d+)\+(-?\d+)', line)
        if match and match.group(1) == name:
            width, height = int(match.group(2)), int(match.group(3))
            if best is None or width * height > best[2] * best[3]:
                best = (int(match.group(6)), int(match.group(7)), width, height)
    if best is None or best[2] * best[3] <= 1:
        raise RuntimeError(f"no X window named {name!r}")
    return best


def screen_point(window, node, name):
    """The middle of `node` in screen coordinates. GTK 4.8 has no screen
    coordinates under X11: window coordinates, plus where the X window is,
    plus the border client-side decorations put around it."""
    x, y, width, height = x_window(name)
    outer = window.queryComponent().getExtents(pyatspi.WINDOW_COORDS)
    inner = node.queryComponent().getExtents(pyatspi.WINDOW_COORDS)
    border_x, border_y = (width - outer.width) // 2, (height - outer.height) // 2
    return x + border_x + inner.x + inner.width // 2, y + border_y + inner.y + inner.height // 2


# ---------------------------------------------------------------------------
# Starting the apps


class Launch:
    """One start of an app, timed from just before the spawn."""

    def __init__(self, config, kind, socket=None, tag="", extra=None):
        self.kind = kind
        work = config["work"]
        home = os.path.join(work, f"home-{kind}")
        runtime = os.path.join(work, f"run-{kind}")
        for directory in (home, runtime):
            os.makedirs(directory, mode=0o700, exist_ok=True)
        env = {key: os.environ[key] for key in ("DISPLAY", "XAUTHORITY", "DBUS_SESSION_BUS_ADDRESS") if key in os.environ}
        env.update({"PATH": "/usr/bin:/bin", "HOME": home, "XDG_RUNTIME_DIR": runtime, "LANG": "C.UTF-8", "TZ": config["tz"],
                    "XDG_CONFIG_HOME": os.path.join(home, ".config"), "XDG_STATE_HOME": os.path.join(home, ".local", "state"),
                    "XDG_CACHE_HOME": os.path.join(home, ".cache"), "XDG_DATA_HOME": os.path.join(home, ".local", "share"),
                    "GTK_A11Y": "atspi"})
        self.frame_log = None
        if kind == "alarms":
            self.frame_log = os.path.join(work, f"frames-{tag or 'x'}.log")
            if os.path.exists(self.frame_log):
                os.unlink(self.frame_log)
            env["ALARMD_SOCKET"] = socket
            env["ALARMS_FRAME_LOG"] = self.frame_log
            env.update(extra or {})  # GSK_RENDERER=cairo for the second renderer
            argv, self.title = [config["alarms"]], "Alarms"
        else:
            argv, self.title = [config["clocks"]], None
        self.output = os.path.join(work, f"{kind}-{tag or 'x'}.log")
        with open(self.output, "wb") as output:
            self.started = now_ns()
            self.process = subprocess.Popen(argv, env=env, stdin=subprocess.DEVNULL, stdout=output, stderr=output)
        CHILDREN.append(self.process)
        self.window_ns, self.window = wait_window(self.process, self.title, config["timeout"])

    def ms(self, ns):
        return (ns - self.started) / 1e6

    def frames(self):
        """Every frame so far, monotonic µs."""
        try:
            with open(self.frame_log) as handle:
                return [int(line) for line in handle if line.strip()]
        except OSError:
            return []

    def first_frame_ns(self, timeout=10):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            frames = self.frames()
            if frames:
                return frames[0] * 1000
            time.sleep(0.01)
        raise RuntimeError(f"alarms wrote no frame to {self.frame_log} within {timeout} s")

    def stop(self):
        stop(self.process)

    def tail(self):
        try:
            with open(self.output, errors="replace") as handle:
                return handle.read()[-1500:]
        except OSError:
            return ""


# ---------------------------------------------------------------------------
# 1 and 4: start and memory, against GNOME Clocks


def start_runs(config):
    runs = {"alarms": [], "clocks": []}
    total = config["start_runs"] + 1
    for index in range(total):
        # Alternately first, so neither always follows the other.
        order = ("alarms", "clocks") if index % 2 == 0 else ("clocks", "alarms")
        for kind in order:
            launch = Launch(config, kind, config["socket_20"], tag=f"start-{index}")
            try:
                sample = {"window_ms": launch.ms(launch.window_ns)}
                settle_from = launch.window_ns
                if kind == "alarms":
                    first = launch.first_frame_ns()
                    sample["first_frame_ms"] = launch.ms(first)
                    settle_from = first
                time.sleep(max(0.0, (settle_from - now_ns()) / 1e9 + config["settle"]))
                sample["memory"] = memory(launch.process.pid)
                sample["renderer"] = renderer(launch.process.pid)
            finally:
                launch.stop()
            if index == 0:
                log(f"warm-up start of {kind}: window after {sample['window_ms']:.0f} ms (not counted)")
                continue
            runs[kind].append(sample)
            log(f"start {index}/{total - 1} {kind}: window on the AT-SPI bus after {sample['window_ms']:.1f} ms"
                + (f", first frame {sample['first_frame_ms']:.1f} ms" if "first_frame_ms" in sample else "")
                + f"; VmRSS {sample['memory']['rss_mib']:.1f} MiB, {sample['memory']['threads']} threads")
    return runs


# ---------------------------------------------------------------------------
# 2: 10,000 alarms, scrolled


def row_positions(listing, rows):
    """{alarm label: the top of its row, window coordinates} of the list's
    first `rows` rows. Only one before scrolling: every row read makes GTK
    keep an accessible object for it up to date (bounds) while it scrolls,
    which a first run that read all 205 paid for with a 200–370 ms frame."""
    positions = {}
    for item in [listing.getChildAtIndex(i) for i in range(min(rows, listing.childCount))]:
        switch = row_switch(item) if item is not None else None
        if switch is not None:
            try:
                positions[switch.name] = item.queryComponent().getExtents(pyatspi.WINDOW_COORDS).y
            except Exception:
                pass
    return positions


def scrolled_by(before, after):
    """How far the rows moved up (px), from the rows seen before and after;
    None when no row was there both times (every row was bound anew)."""
    moves = sorted(before[name] - after[name] for name in before.keys() & after.keys())
    return moves[len(moves) // 2] if moves else None


def scroll_runs(config, renderer_name, extra):
    runs = []
    for index in range(config["scroll_runs"]):
        launch = Launch(config, "alarms", config["socket_10k"], tag=f"scroll-{renderer_name}-{index}", extra=extra)
        try:
            first = launch.first_frame_ns()
            run = {"window_ms": launch.ms(launch.window_ns), "first_frame_ms": launch.ms(first)}
            time.sleep(1.0)
            listing = alarm_list(launch.window)
            if listing is None:
                raise RuntimeError("no list of alarms on the accessibility bus")
            pane = scroll_pane_of(listing)
            x, y = screen_point(launch.window, pane, launch.title)
            before = row_positions(listing, 1)
            injected = []
            began = now_ns()
            end = began + int(config["scroll_seconds"] * 1e9)
            while now_ns() < end:
                injected.append(now_ns())
                Atspi.generate_mouse_event(x, y, "b5c")  # wheel down, one notch
                time.sleep(config["wheel_interval"])
            time.sleep(0.5)
            after = row_positions(listing, 1)
            frames = launch.frames()
            run["memory"] = memory(launch.process.pid)
            run["renderer"] = renderer(launch.process.pid)
        finally:
            launch.stop()
        # The frames painted while the wheel turned: from the first notch to
        # one frame interval after the last.
        start_us, stop_us = injected[0] // 1000, injected[-1] // 1000 + 50_000
        during = [f for f in frames if start_us <= f <= stop_us]
        run.update({
            "wheel_notches": len(injected), "seconds": (injected[-1] - injected[0]) / 1e9,
            "wheel_gaps_ms": [(b - a) / 1e6 for a, b in zip(injected, injected[1:])],
            "frames": len(during), "frame_gaps_ms": [(b - a) / 1000 for a, b in zip(during, during[1:])],
            "frame_times_ms": [(f - start_us) / 1000 for f in during],
            "rows_before": len(before), "rows_after": len(after), "scrolled_px": scrolled_by(before, after),
        })
        longest = max(run["frame_gaps_ms"]) if run["frame_gaps_ms"] else None
        log(f"scroll ({renderer_name} renderer) {index + 1}/{config['scroll_runs']}: first frame {run['first_frame_ms']:.0f} ms; {run['frames']} frames in "
            f"{run['seconds']:.1f} s of wheel ({run['wheel_notches']} notches), longest gap "
            + (f"{longest:.1f} ms" if longest is not None else "n/a") + f"; the rows moved {run['scrolled_px']} px")
        runs.append(run)
    return runs


# ---------------------------------------------------------------------------
# 3: an alarm added by alarmctl, on the AT-SPI bus


class Rows:
    """The switches of the list's rows, read with as few calls as can be:
    the rows are scanned again only when their number changed, otherwise
    only each known switch's name is read (a row rebound to another alarm
    keeps its switch and changes its name); rows in the list's order, so
    that an alarm at the top is found after a read or two."""

    def __init__(self, listing):
        self.listing = listing
        self.count = -1
        self.switches = []
        self.looks = 0

    def contains(self, label):
        count = self.listing.childCount
        self.looks += 1
        # A new alarm changes the number of rows; only then are they
        # scanned, from the top (where a new 00:MM alarm sorts). A switch
        # that no longer answers (GTK replaced its row) forces a scan too.
        # Scanning every row on a schedule instead made the poller's own
        # scan, about 100 ms of D-Bus calls, part of what it measured.
        if count != self.count:
            self.count, self.switches, found, unfilled = count, [], False, False
            for item in kids(self.listing):
                switch = row_switch(item) if item is not None else None
                if switch is None:
                    unfilled = True  # a row GTK has not filled in yet
                    continue
                self.switches.append(switch)
                try:
                    if switch.name == label:
                        found = True
                        break
                except Exception:
                    pass
            if found or unfilled:
                # Not every row was read, or one had no switch yet and would
                # never be read while the number of rows stays: scan again
                # next time.
                self.count = -1
            return found
        for switch in self.switches:
            try:
                if switch.name == label:
                    return True
            except Exception:
                self.count = -1  # a row went away: scan again next time
        return False

def alarmctl(config, *arguments):
    return [config["alarmctl"], "--socket", config["socket_20"], *arguments]


def live_runs(config, renderer_name, extra):
    launch = Launch(config, "alarms", config["socket_20"], tag=f"live-{renderer_name}", extra=extra)
    samples = []
    try:
        launch.first_frame_ns()
        time.sleep(1.0)
        listing = alarm_list(launch.window)
        if listing is None:
            raise RuntimeError("no list of alarms on the accessibility bus")
        rows = Rows(listing)
        rows.contains("")
        rows.looks = 0
        for index in range(config["adds"]):
            label = f"Live {renderer_name} {index:02d}"
            polls = []
            last_miss = None
            started = now_ns()
            adder = subprocess.Popen(alarmctl(config, "add", f"00:{index % 60:02d}", "--label", label, "--json"),
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            CHILDREN.append(adder)
            # alarmctl's exit, stamped by a thread of its own while this one looks.
            exited = {}
            waiter = threading.Thread(target=lambda: (adder.wait(), exited.setdefault("ns", now_ns())), daemon=True)
            waiter.start()
            seen = None
            deadline = started + int(config["live_timeout"] * 1e9)
            while now_ns() < deadline:
                poll_start = now_ns()
                present = rows.contains(label)
                polls.append((now_ns() - poll_start) / 1e6)
                if present:
                    seen = now_ns()
                    break
                last_miss = poll_start
                time.sleep(config.get("live_poll_interval", 0.002))
            out, err = adder.communicate(timeout=30)
            waiter.join(5)
            CHILDREN.remove(adder)
            if adder.returncode != 0:
                raise RuntimeError(f"alarmctl add failed ({adder.returncode}): {err.strip()}")
            returned = exited.get("ns", now_ns())
            reply = json.loads(out)
            identifier = (reply.get("alarm") or reply).get("id")
            frames_after = [f for f in launch.frames() if f * 1000 >= started]
            sample = {
                "label": label, "visible_ms": (seen - started) / 1e6 if seen else None,
                # The last look that did not find it yet: it appeared between the two.
                "not_yet_ms": (last_miss - started) / 1e6 if (seen and last_miss) else 0.0,
                "alarmctl_ms": (returned - started) / 1e6, "polls": len(polls), "poll_ms_mean": sum(polls) / len(polls) if polls else None,
                "first_frame_after_ms": (frames_after[0] * 1000 - started) / 1e6 if frames_after else None,
            }
            samples.append(sample)
            subprocess.run(alarmctl(config, "rm", identifier), check=True, capture_output=True)
            gone_deadline = time.monotonic() + config["live_timeout"]
            while rows.contains(label) and time.monotonic() < gone_deadline:
                time.sleep(0.005)
            time.sleep(0.1)
            if index % 10 == 9 or index == config["adds"] - 1:
                done = [s["visible_ms"] for s in samples[-10:] if s["visible_ms"] is not None]
                log(f"live ({renderer_name} renderer) {index + 1}/{config['adds']}: visible after " + ", ".join(f"{v:.0f}" for v in done) + " ms")
    finally:
        launch.stop()
    return samples


# ---------------------------------------------------------------------------


def main():
    signal.signal(signal.SIGTERM, terminated)
    with open(sys.argv[1]) as handle:
        config = json.load(handle)
    parts = config.get("parts", ["start", "scroll", "live"])
    bus = subprocess.Popen(["/usr/libexec/at-spi-bus-launcher", "--launch-immediately"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    CHILDREN.append(bus)
    result = {"display": os.environ.get("DISPLAY"), "xdotool": None}
    try:
        # The registry answers once the accessibility bus is up.
        deadline = time.monotonic() + 20
        while True:
            try:
                pyatspi.Registry.getDesktop(0).childCount
                break
            except Exception:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        if "start" in parts:
            result["start"] = start_runs(config)
        # GTK's own choice (GL, here on Mesa's llvmpipe), then GSK_RENDERER=cairo.
        renderers = config.get("renderers", {"default": {}})
        if "scroll" in parts:
            result["scroll"] = {name: scroll_runs(config, name, extra) for name, extra in renderers.items()}
        if "live" in parts:
            result["live"] = {name: live_runs(config, name, extra) for name, extra in renderers.items()}
    finally:
        for process in reversed(list(CHILDREN)):
            stop(process)
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
