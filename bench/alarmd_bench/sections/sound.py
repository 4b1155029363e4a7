# SPDX-License-Identifier: Apache-2.0
"""9. Sound (issue #15): alarmd's resident memory before, while and after an
item rings through the sound server with the in-process player (libpulse,
the file decoded by libsndfile), next to paplay playing the same file; both
on a private PulseAudio server with a null sink. And idle cost with an alarm
set: nothing wakes alarmd in the window when nothing (not even a notice
before an alarm) is due in it."""

import json
import os
import shutil
import subprocess
import time

from ..daemon import Daemon
from ..processes import activity, activity_delta, kib, log, proc_status, stop_process

LABEL = "9 sound"
# The theme's alarm sound, what an alarm plays unless told otherwise.
THEME_SOUND = "/usr/share/sounds/freedesktop/stereo/alarm-clock-elapsed.oga"


def run(bench):
    if shutil.which("pulseaudio") is None or shutil.which("paplay") is None:
        return bench.skip("sound", "pulseaudio or paplay is not installed (the bench installs them with apt-get)")
    server, token = start_pulse(bench)
    try:
        sound = THEME_SOUND if os.path.exists(THEME_SOUND) else tone(bench)
        result = {"file": sound, "alarmd": ringing_alarmd(bench, server, sound), "paplay": paplay(server, sound)}
    finally:
        bench.cleanup.run_now(token)
    bench.results["sound"] = result
    a, p = result["alarmd"], result["paplay"]
    log(f"sound: alarmd RSS {a['idle']['rss_mib']:.1f} → {a['ringing']['rss_mib']:.1f} → {a['after']['rss_mib']:.1f} MiB; "
        f"paplay {p['rss_mib']:.1f} MiB")


def start_pulse(bench):
    directory = os.path.join(bench.work, "pulse")
    os.makedirs(os.path.join(directory, "runtime"), mode=0o700, exist_ok=True)
    socket_path = os.path.join(directory, "native")
    env = {"PATH": "/usr/bin:/bin", "HOME": directory, "XDG_RUNTIME_DIR": os.path.join(directory, "runtime")}
    argv = ["pulseaudio", "-n", "--daemonize=no", "--exit-idle-time=-1", "--use-pid-file=no", "--system=no", "--disable-shm=yes",
            "-L", "module-null-sink sink_name=benchsink", "-L", f"module-native-protocol-unix auth-anonymous=1 socket={socket_path}"]
    process = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    token = bench.cleanup.add(f"pulseaudio pid {process.pid}", lambda: stop_process(process, "pulseaudio"))
    server = "unix:" + socket_path
    deadline = time.monotonic() + 15
    while subprocess.run(["pactl", "info"], env={**env, "PULSE_SERVER": server}, capture_output=True).returncode != 0:
        if time.monotonic() > deadline or process.poll() is not None:
            bench.cleanup.run_now(token)
            raise RuntimeError("pulseaudio did not start")
        time.sleep(0.1)
    return server, token


def tone(bench):
    path = os.path.join(bench.work, "tone.wav")
    subprocess.run(["sox", "-n", "-r", "44100", "-c", "2", path, "synth", "3", "sine", "440", "vol", "0.5"], check=True)
    return path


def memory(pid):
    status = proc_status(pid)
    return {"rss_mib": kib(status.get("VmRSS")) / 1024, "hwm_mib": kib(status.get("VmHWM")) / 1024, "threads": int(status.get("Threads", 0))}


def alarmctl(bench, daemon, *arguments):
    out = subprocess.run([bench.binary("alarmctl"), "--socket", daemon.socket, *arguments, "--json"], check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


def ringing_alarmd(bench, server, sound):
    config = os.path.join(bench.work, "alarmd-sound.conf")
    with open(config, "w") as handle:
        handle.write(f"[Sound]\nReminderSound={sound}\nFade=0\n")
    state = os.path.join(bench.work, "sound")
    os.makedirs(state, mode=0o700, exist_ok=True)
    daemon = Daemon(bench, state, "sound", config=config, environment={"PULSE_SERVER": server})
    daemon.start()
    try:
        time.sleep(2)
        idle = memory(daemon.pid)
        reminder = alarmctl(bench, daemon, "remind", "add", "Bench ring", "--in", "1s")["reminder"]["id"]
        deadline = time.monotonic() + 10
        while reminder not in alarmctl(bench, daemon, "status")["ringing"]:
            if time.monotonic() > deadline:
                raise RuntimeError("the reminder did not ring")
            time.sleep(0.1)
        # A few loops of the sound, then the figures while it plays.
        time.sleep(3)
        ringing = memory(daemon.pid)
        alarmctl(bench, daemon, "dismiss", reminder)
        time.sleep(2)
        after = memory(daemon.pid)
        # Idle again: the sound server's connection and thread are gone.
        before = activity(daemon.pid)
        time.sleep(bench.settings.sound_idle_window)
        quiet = activity_delta(before, activity(daemon.pid))
    finally:
        daemon.stop_now()
    return {"idle": idle, "ringing": ringing, "after": after, "idle_after_ring": quiet}


def paplay(server, sound):
    env = {"PATH": "/usr/bin:/bin", "PULSE_SERVER": server, "HOME": "/nonexistent"}
    process = subprocess.Popen(["paplay", "--volume=52428", sound], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    peak = {"rss_mib": 0.0, "hwm_mib": 0.0, "threads": 0}
    while process.poll() is None:
        try:
            sample = memory(process.pid)
        except OSError:
            break
        if sample["rss_mib"] > peak["rss_mib"]:
            peak = sample
        time.sleep(0.05)
    process.wait()
    return peak


def rows(results, table):
    sound = results.get("sound")
    if not sound:
        return
    if "skipped" in sound:
        table.row(LABEL, "sound", "skipped: " + sound["skipped"])
        return
    a, p = sound["alarmd"], sound["paplay"]
    table.row(LABEL, f"alarmd VmRSS idle / ringing ({os.path.basename(sound['file'])}) / after Dismiss (MiB)",
              f"{a['idle']['rss_mib']:.1f} / {a['ringing']['rss_mib']:.1f} / {a['after']['rss_mib']:.1f}")
    table.row(LABEL, "alarmd threads idle / ringing / after", f"{a['idle']['threads']} / {a['ringing']['threads']} / {a['after']['threads']}")
    table.row(LABEL, "paplay playing the same file: peak VmRSS (MiB)", f"{p['rss_mib']:.1f}")
    quiet = a["idle_after_ring"]
    table.row(LABEL, f"alarmd after the ring, idle: context switches in {quiet['seconds']:.0f} s", str(quiet["context_switches"]), "sound-idle-switches")
