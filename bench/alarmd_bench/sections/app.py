# SPDX-License-Identifier: Apache-2.0
"""11. The desktop app (issue #30): `alarms` next to GNOME Clocks, both under
one Xvfb display, one private session bus and one accessibility bus. Starts
two alarmd (20 and 10,000 alarms, none due for hours), then runs
bench/app.py under Debian's /usr/bin/python3 (pyatspi) inside
`xvfb-run … dbus-run-session --`; app.py says what it measures. Skipped,
with the reason, where Xvfb, pyatspi, GNOME Clocks or the app is missing."""

import json
import os
import shutil
import signal
import subprocess
import threading
import time

from .. import BENCH_DIR
from ..daemon import Daemon
from ..processes import log
from ..stats import distribution, median_min_max, quantile
from .sound import start_pulse

LABEL = "11 app"
DRIVER = os.path.join(BENCH_DIR, "app.py")
PYTHON = "/usr/bin/python3"  # Debian's, with python3-pyatspi (the first python3 on PATH may be another)
CLOCKS = "/usr/bin/gnome-clocks"
BUS_LAUNCHER = "/usr/libexec/at-spi-bus-launcher"
SCREEN = "-screen 0 1280x1024x24"


def missing(bench):
    """Why the section cannot run here, or None."""
    for tool in ("xvfb-run", "dbus-run-session", "xwininfo"):
        if shutil.which(tool) is None:
            return f"{tool} is not installed (the Makefile's test dependencies install it)"
    for path, what in ((CLOCKS, "gnome-clocks"), (BUS_LAUNCHER, "at-spi2-core"), (PYTHON, "python3")):
        if not os.path.exists(path):
            return f"{path} is missing (Debian package {what})"
    if subprocess.run([PYTHON, "-c", "import pyatspi"], capture_output=True).returncode != 0:
        return f"{PYTHON} cannot import pyatspi (Debian package python3-pyatspi)"
    if not os.path.exists(bench.binary("alarms")):
        return f"{bench.binary('alarms')} was not built"
    return None


def noon_zone():
    """A zone where it is about noon now (Etc/GMT-3 is UTC+3): the alarms the
    live part adds at 00:00–00:59 then sort to the top of the list and are
    hours away, whatever the hour of the run."""
    offset = (12 - time.gmtime().tm_hour) % 24
    if offset > 12:
        offset -= 24
    return "Etc/GMT" if offset == 0 else f"Etc/GMT{-offset:+d}"


def run(bench):
    reason = missing(bench)
    if reason:
        return bench.skip("app", reason)
    s = bench.settings
    zone = noon_zone()
    now = int(time.time())
    none = os.path.join(bench.work, "app-nothing")
    os.makedirs(os.path.join(bench.work, "app-config-dirs"), exist_ok=True)
    daemons = {}
    pulse = None
    # A private PulseAudio with a null sink (as section 9 starts one): with no
    # sound server alarmd warns, and the app's warning banner slides in at
    # start, a transition whose frames (30–40 ms each on llvmpipe) held the
    # app's registration on the accessibility bus back by about 200 ms. A
    # desktop has a sound server; so does this run, where it can.
    if shutil.which("pulseaudio") and shutil.which("pactl"):
        server, pulse = start_pulse(bench)
    else:
        server = "unix:" + none + "-sound-server"
        bench.notes.append("app: no pulseaudio: alarmd warns of no sound server and the app starts with its banner")
    # Otherwise as the tests' DaemonProcess: no machine config, no wake-up helper.
    environment = {"TZ": zone, "XDG_CONFIG_DIRS": os.path.join(bench.work, "app-config-dirs"),
                   "ALARMD_WAKE_HELPER": none + "-wake-helper", "PULSE_SERVER": server}
    try:
        for count in (20, 10_000):
            # Nothing due for six hours: a ringing alarm would cover the list.
            state, _ = bench.make_store(f"app-{count}", alarms=count, zone=zone, avoid_start=now, avoid_end=now + 6 * 3600)
            daemons[count] = Daemon(bench, state, f"app{count}", environment=environment)
            daemons[count].start()
        config = {
            "alarms": bench.binary("alarms"), "clocks": CLOCKS, "alarmctl": bench.binary("alarmctl"),
            "socket_20": daemons[20].socket, "socket_10k": daemons[10_000].socket,
            "work": os.path.join(bench.work, "app"), "tz": zone, "timeout": 60, "settle": 2.0,
            "start_runs": s.app_start_runs, "scroll_runs": s.app_scroll_runs, "scroll_seconds": s.app_scroll_seconds,
            "wheel_interval": 0.01, "adds": s.app_adds, "live_timeout": 5.0, "live_poll_interval": 0.002,
            # GTK's own renderer (GL; under Xvfb on Mesa's llvmpipe, in software), then cairo.
            "renderers": {"default": {}, "cairo": {"GSK_RENDERER": "cairo"}},
        }
        raw = drive(bench, config)
    finally:
        for daemon in daemons.values():
            daemon.stop_now()
        if pulse is not None:
            bench.cleanup.run_now(pulse)
    bench.results["app"] = summarize(raw, zone, s)
    bench.results["app"]["sound_server"] = "private PulseAudio, null sink" if pulse is not None else "none (alarmd warns)"
    report_log(bench.results["app"])


def drive(bench, config):
    os.makedirs(config["work"], mode=0o700, exist_ok=True)
    path = os.path.join(bench.work, "app-config.json")
    with open(path, "w") as handle:
        json.dump(config, handle)
    home = os.path.join(bench.work, "app-session")
    os.makedirs(home, mode=0o700, exist_ok=True)
    env = {"PATH": "/usr/bin:/bin", "HOME": home, "XDG_RUNTIME_DIR": home, "LANG": "C.UTF-8"}
    argv = ["xvfb-run", "-a", "-s", SCREEN, "dbus-run-session", "--", PYTHON, DRIVER, path]
    log("app: " + " ".join(argv[:3]) + f" '{SCREEN}' " + " ".join(argv[4:]))
    errors = os.path.join(bench.work, "app-driver.log")
    process = subprocess.Popen(argv, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, start_new_session=True)

    def stop_group():
        # The driver stops what it started; its session (xvfb-run, Xvfb, the
        # buses, the apps) is ended here only when it did not finish.
        if process.poll() is None:
            try:
                os.killpg(process.pid, signal.SIGTERM)
                process.wait(15)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                try:
                    os.killpg(process.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                process.wait()

    token = bench.cleanup.add(f"app driver session {process.pid}", stop_group)

    def relay():
        with open(errors, "w") as handle:
            for line in process.stderr:
                handle.write(line)
                handle.flush()
                if line.startswith("[app "):
                    print(line.rstrip(), flush=True)

    relayer = threading.Thread(target=relay, daemon=True)
    relayer.start()
    try:
        out = process.stdout.read()
        process.wait(timeout=1800)
    finally:
        bench.cleanup.run_now(token)
    relayer.join(5)
    lines = out.strip().splitlines()
    if process.returncode != 0 or not lines:
        with open(errors, errors="replace") as handle:
            tail = handle.read()[-3000:]
        raise RuntimeError(f"bench/app.py failed ({process.returncode}); its log {errors} ends:\n{tail}")
    return json.loads(lines[-1])


def summary(values):
    """distribution() with p95, over the values that are there; the samples kept."""
    present = [v for v in values if v is not None]
    result = distribution(present) or {"count": 0}
    if present:
        result["p95"] = quantile(sorted(present), 0.95)
    result["missing"] = len(values) - len(present)
    result["samples"] = [round(v, 3) if v is not None else None for v in values]
    return result


def summarize(raw, zone, settings):
    result = {"zone": zone, "xdotool": shutil.which("xdotool"),
              "wheel": "AT-SPI Registry generate_mouse_event 'b5c' (XTest through at-spi2-registryd): xdotool is not installed"
              if shutil.which("xdotool") is None else "AT-SPI Registry generate_mouse_event 'b5c' (XTest)"}
    start = raw.get("start")
    if start:
        alarms, clocks = start["alarms"], start["clocks"]
        a_window = summary([r["window_ms"] for r in alarms])
        c_window = summary([r["window_ms"] for r in clocks])
        a_frame = summary([r["first_frame_ms"] for r in alarms])
        result["start"] = {
            "runs": len(alarms), "alarms": {"window_ms": a_window, "first_frame_ms": a_frame}, "clocks": {"window_ms": c_window},
            "alarms_over_clocks": a_window["p50"] / c_window["p50"],
            "first_frame_over_clocks_window": a_frame["p50"] / c_window["p50"],
        }

        def mem(runs):
            return {key: median_min_max([r["memory"].get(key) for r in runs]) for key in ("rss_mib", "pss_mib", "hwm_mib", "threads")}

        result["memory"] = {"settle_s": 2.0, "alarms": mem(alarms), "clocks": mem(clocks),
                            "gl": {"alarms": alarms[0]["renderer"], "clocks": clocks[0]["renderer"]}}
        result["memory"]["rss_over_clocks"] = result["memory"]["alarms"]["rss_mib"]["median"] / result["memory"]["clocks"]["rss_mib"]["median"]
    for name, scroll in (raw.get("scroll") or {}).items():
        summary_ = scroll_summary(scroll)
        summary_["renderer"] = "GTK's default (GL)" if name == "default" else f"GSK_RENDERER={name}"
        if name == "default":
            result["scroll_10k"] = summary_
        else:
            result.setdefault("scroll_10k", {})[name] = summary_
    for name, live in (raw.get("live") or {}).items():
        summary_ = live_summary(live)
        if name == "default":
            result["live"] = {**summary_, **result.get("live", {})}
        else:
            result.setdefault("live", {})[name] = summary_
    return result


def scroll_summary(scroll):
    runs = []
    for r in scroll:
        runs.append({
            "first_frame_ms": r["first_frame_ms"], "window_ms": r["window_ms"], "seconds": r["seconds"],
            "wheel_notches": r["wheel_notches"], "frames": r["frames"], "frames_per_second": r["frames"] / r["seconds"] if r["seconds"] else None,
            "frame_gap_ms": distribution(r["frame_gaps_ms"]), "wheel_gap_max_ms": max(r["wheel_gaps_ms"]) if r["wheel_gaps_ms"] else None,
            "scrolled_px": r["scrolled_px"], "scrolled": r["scrolled_px"] is None or r["scrolled_px"] > 0, "rows": r["rows_after"],
            "memory": r["memory"], "gl": r["renderer"],
            # (ms after the first notch, gap) of every frame that came more than 50 ms after the one before
            "gaps_over_50_ms": [[round(t, 1), round(g, 1)] for t, g in zip(r["frame_times_ms"][1:], r["frame_gaps_ms"]) if g > 50],
        })
    gaps = [g for r in scroll for g in r["frame_gaps_ms"]]
    return {
        "alarms": 10_000, "runs": runs, "first_frame_ms": median_min_max([r["first_frame_ms"] for r in runs]),
        "window_ms": median_min_max([r["window_ms"] for r in runs]),
        # Over every gap of every run: the longest frame is the target's figure.
        "frame_gap_ms": distribution(gaps) if gaps else None,
        "every_run_scrolled": all(r["scrolled"] for r in runs),
    }


def live_summary(live):
    return {
        "adds": len(live), "visible_ms": summary([r["visible_ms"] for r in live]),
        # The last look that did not find the switch yet: it appeared between the two.
        "not_yet_ms": summary([r["not_yet_ms"] for r in live if r["visible_ms"] is not None]),
        "alarmctl_ms": summary([r["alarmctl_ms"] for r in live]),
        "first_frame_after_ms": summary([r["first_frame_after_ms"] for r in live]),
        "poll_ms_mean": sum(r["poll_ms_mean"] for r in live if r["poll_ms_mean"]) / len(live),
        # Each add as measured, so that one never seen (or slow) can be looked at after the run.
        "samples": live,
    }


def report_log(app):
    start, memory, scroll, live = app.get("start"), app.get("memory"), app.get("scroll_10k"), app.get("live")
    if start:
        log(f"app: window on the AT-SPI bus, median: alarms {start['alarms']['window_ms']['p50']:.0f} ms, "
            f"GNOME Clocks {start['clocks']['window_ms']['p50']:.0f} ms; alarms' first frame {start['alarms']['first_frame_ms']['p50']:.0f} ms")
    if memory:
        log(f"app: VmRSS alarms {memory['alarms']['rss_mib']['median']:.1f} MiB, GNOME Clocks {memory['clocks']['rss_mib']['median']:.1f} MiB")
    if scroll and scroll.get("frame_gap_ms"):
        log(f"app: 10,000 alarms: first frame {scroll['first_frame_ms']['median']:.0f} ms; while scrolling, longest frame gap "
            f"{scroll['frame_gap_ms']['max']:.1f} ms, p99 {scroll['frame_gap_ms']['p99']:.1f} ms")
    if live and "visible_ms" in live:
        v = live["visible_ms"]
        log(f"app: alarmctl add → on the AT-SPI bus: p50 {v.get('p50', float('nan')):.1f} ms, p95 {v.get('p95', float('nan')):.1f} ms"
            + (f", {v['missing']} never seen" if v["missing"] else ""))


def rows(results, table):
    app = results.get("app")
    if not app:
        return
    if "skipped" in app:
        table.row(LABEL, "desktop app", "skipped: " + app["skipped"])
        return
    start = app.get("start")
    if start:
        a, c, f = start["alarms"]["window_ms"], start["clocks"]["window_ms"], start["alarms"]["first_frame_ms"]
        table.row(LABEL, f"start, 20 alarms: window on the AT-SPI bus, alarms / GNOME Clocks, median (p95) of {start['runs']} (ms)",
                  f"{a['p50']:.0f} ({a['p95']:.0f}) / {c['p50']:.0f} ({c['p95']:.0f})")
        table.row(LABEL, "start: alarms / GNOME Clocks, ratio of the medians", f"{start['alarms_over_clocks']:.2f}", "app-start-vs-clocks")
        table.row(LABEL, "start: alarms' first frame (ALARMS_FRAME_LOG), median (p95) (ms)", f"{f['p50']:.0f} ({f['p95']:.0f})")
    memory = app.get("memory")
    if memory:
        a, c = memory["alarms"], memory["clocks"]
        table.row(LABEL, "2 s after start, 20 alarms: VmRSS alarms / GNOME Clocks (MiB)", f"{a['rss_mib']['median']:.1f} / {c['rss_mib']['median']:.1f}")
        table.row(LABEL, "VmRSS alarms / GNOME Clocks, ratio of the medians", f"{memory['rss_over_clocks']:.2f}", "app-rss-vs-clocks")
        table.row(LABEL, "PSS alarms / GNOME Clocks (MiB); threads", f"{a['pss_mib']['median']:.1f} / {c['pss_mib']['median']:.1f}; "
                  f"{a['threads']['median']:.0f} / {c['threads']['median']:.0f}")
    scroll = app.get("scroll_10k")
    if scroll and "runs" in scroll:
        table.row(LABEL, f"10,000 alarms: first frame, median [min–max] of {len(scroll['runs'])} (ms)", table.mmm(scroll["first_frame_ms"], "{:.0f}"))
        gaps = scroll["frame_gap_ms"]
        if gaps:
            table.row(LABEL, "10,000 alarms, wheel scrolling: frame gap p50 / p99 (ms)", f"{gaps['p50']:.1f} / {gaps['p99']:.1f}")
            table.row(LABEL, "10,000 alarms, wheel scrolling, GL on llvmpipe: longest frame gap, all runs (ms)", f"{gaps['max']:.1f}")
        else:
            table.row(LABEL, "10,000 alarms, wheel scrolling, GL on llvmpipe", "no frame painted")
    cairo = (scroll or {}).get("cairo")
    if cairo and cairo["frame_gap_ms"]:
        gaps = cairo["frame_gap_ms"]
        table.row(LABEL, "  with GSK_RENDERER=cairo: first frame; frame gap p50 / p99 (ms)",
                  f"{cairo['first_frame_ms']['median']:.0f}; {gaps['p50']:.1f} / {gaps['p99']:.1f}")
        table.row(LABEL, "  with GSK_RENDERER=cairo: longest frame gap, all runs (ms)", f"{gaps['max']:.1f}", "app-10k-max-frame",
                  met=None if cairo["every_run_scrolled"] else False)
    elif scroll:
        table.row(LABEL, "10,000 alarms, wheel scrolling with GSK_RENDERER=cairo", "no frame painted", "app-10k-max-frame", met=False)
    live = app.get("live")
    if live and "visible_ms" in live:
        v, f = live["visible_ms"], live["first_frame_after_ms"]
        text = f"{v['p50']:.1f} / {v['p95']:.1f} / {v['max']:.1f}" if v["count"] else "never seen"
        if v["missing"]:
            text += f"; {v['missing']} of {live['adds']} never seen"
        table.row(LABEL, f"alarmctl add → its switch on the AT-SPI bus, p50 / p95 / max of {live['adds']} (ms)", text, "app-live-p95",
                  met=False if v["missing"] else None)
        if f["count"]:
            table.row(LABEL, "alarmctl add → the app's next frame, p50 / p95 (ms)", f"{f['p50']:.1f} / {f['p95']:.1f}")
    cairo = (live or {}).get("cairo")
    if cairo and cairo["visible_ms"]["count"]:
        v, f = cairo["visible_ms"], cairo["first_frame_after_ms"]
        table.row(LABEL, "  the same with GSK_RENDERER=cairo: on the AT-SPI bus p50 / p95; next frame p50 / p95 (ms)",
                  f"{v['p50']:.1f} / {v['p95']:.1f}; {f['p50']:.1f} / {f['p95']:.1f}"
                  + (f"; {v['missing']} never seen" if v["missing"] else ""))
