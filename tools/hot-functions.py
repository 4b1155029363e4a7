#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes Sources/alarmd/alarmd.order and Sources/alarmctl/alarmctl.order:
the functions a release alarmd runs in an ordinary day, and those alarmctl
runs for the commands of that day, which each program's release link lays
out first and together (orderedLink in Package.swift).

alarmd's code is about 11 MB (the Swift runtime and FoundationEssentials
linked in), of which an ordinary day runs about 1 MB. The kernel maps a
file's pages around each one touched (fault-around, 64 KiB): spread across
the binary, that 1 MB keeps 7.8 MB of code resident; laid out together,
4.6 MB (most of the rest is the Swift runtime's own large sections, which
cannot be moved). The list is only an order: a function missing from it
still runs, from wherever the linker put it. alarmctl, which starts for every
command, runs code spread over its 11 MB in the same way: each start faults
in the pages around each function, and laid out together they are fewer.

The day: start with a store, then alarmctl's common commands (add, list, edit,
show, rename, enable/disable, skip, pause, reminders, next, history, status,
watch, export), a reminder that rings and is snoozed and dismissed, a timer,
and shutdown; alarmd and each alarmctl run under valgrind's callgrind, which
records every function run (not `alarmctl watch`, which ends by a signal,
before callgrind writes its record). Under valgrind no sound process starts
(valgrind does not know pidfd_open) and there is no session bus: those paths
are left to the linker's default place.

Usage: tools/hot-functions.py ALARMD ALARMCTL [SOURCES]   (a release alarmd and a
release alarmctl, whose names are the ones to write; the orders go under
SOURCES, by default the package's Sources)
"""
import os
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__.split("Usage: ")[1])
    alarmd, alarmctl = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    sources = sys.argv[3] if len(sys.argv) > 3 else os.path.join(ROOT, "Sources")
    if not shutil.which("valgrind"):
        sys.exit("hot-functions: valgrind is needed (apt-get install valgrind)")
    work = tempfile.mkdtemp(prefix="alarmd-hot-")
    env = dict(os.environ)
    for name in ("run", "state", "config", "home"):
        os.makedirs(os.path.join(work, name), mode=0o700)
    env.update(XDG_RUNTIME_DIR=f"{work}/run", XDG_STATE_HOME=f"{work}/state", XDG_CONFIG_HOME=f"{work}/config",
               HOME=f"{work}/home", ALARMD_SOCKET=f"{work}/run/alarmd/io.alarmd", LANG="C.UTF-8")
    env.pop("DBUS_SESSION_BUS_ADDRESS", None)
    callgrind = ["valgrind", "--tool=callgrind", "--demangle=no", "--dump-instr=no", "--compress-strings=no", "--compress-pos=no"]
    profile = os.path.join(work, "callgrind.out")
    daemon = subprocess.Popen([*callgrind, f"--callgrind-out-file={profile}", alarmd],
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    ctl_profiles = []

    def ctl(*arguments):
        ctl_profiles.append(os.path.join(work, f"alarmctl.{len(ctl_profiles)}.out"))
        subprocess.run([*callgrind, f"--callgrind-out-file={ctl_profiles[-1]}", alarmctl, *arguments],
                       env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120)

    try:
        deadline = time.monotonic() + 120
        while not os.path.exists(env["ALARMD_SOCKET"]):
            if time.monotonic() > deadline or daemon.poll() is not None:
                sys.exit("hot-functions: alarmd did not start under valgrind")
            time.sleep(0.5)
        time.sleep(2)
        watch = subprocess.Popen([alarmctl, "watch"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        ctl("status")
        for when in ("6:00", "6:30", "7:00", "7:15", "8:00"):
            ctl("add", when, "weekdays")
        ctl("add", "9:00", "daily", "gym")
        ctl("add", "tomorrow", "10:00", "--label", "dentist")
        ctl("list")
        ctl("edit", "gym", "9:30")
        ctl("rename", "gym", "to", "swim")
        ctl("show", "swim")
        ctl("disable", "swim")
        ctl("enable", "swim")
        ctl("skip", "swim", "tomorrow")
        ctl("unskip", "swim")
        ctl("pause", "swim", "for", "a", "week")
        ctl("resume", "swim")
        ctl("remind", "add", "Buy milk", "--in", "2h", "--notes", "oat")
        ctl("remind", "add", "Call mum", "--at", "18:00")
        ctl("remind", "add", "Ring", "--in", "3s", "--sound", "bell")
        ctl("remind", "move", "Call mum", "top")
        ctl("remind", "list")
        ctl("timer", "10m", "tea")
        ctl("timer")
        ctl("next")
        time.sleep(8)
        ctl("status")
        ctl("snooze")
        ctl("dismiss")
        ctl("remind", "done", "milk")
        ctl("remind", "edit", "Call mum", "--notes", "birthday")
        ctl("remind", "rm", "Ring")
        ctl("history")
        ctl("export")
        ctl("rm", "swim")
        time.sleep(5)
        watch.terminate()
        watch.wait(10)
    finally:
        daemon.terminate()
        daemon.wait(120)
    orders = {"alarmd": ran([profile], alarmd),
              "alarmctl": ran([path for path in ctl_profiles if os.path.exists(path)], alarmctl)}
    shutil.rmtree(work, ignore_errors=True)
    for program, names in orders.items():
        # lld's symbol-ordering file: one symbol per line, nothing else.
        # Sorted, so that writing it again changes only the names that
        # changed: within the megabyte or so laid out together, their order
        # does not matter.
        out = os.path.join(sources, program, f"{program}.order")
        with open(out, "w") as handle:
            handle.write("".join(f"{name}\n" for name in sorted(names)))
        print(f"hot-functions: {len(names)} functions to {out}")


def ran(profiles, binary):
    """The functions of `binary` that callgrind saw run in any of `profiles`,
    named as nm names them."""
    defined = set()
    listing = subprocess.run(["nm", binary], capture_output=True, text=True, check=True).stdout
    for line in listing.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "tTwW":
            defined.add(parts[2])
    seen, names, current = set(), [], None
    real = os.path.realpath(binary)
    for profile in profiles:
        with open(profile) as handle:
            for line in handle:
                if line.startswith("ob="):
                    current = os.path.realpath(line[3:].strip())
                elif line.startswith("fn=") and current == real:
                    name = line[3:].strip()
                    if name in defined and name not in seen:
                        seen.add(name)
                        names.append(name)
    return names


if __name__ == "__main__":
    main()
