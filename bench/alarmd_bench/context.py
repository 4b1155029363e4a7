# SPDX-License-Identifier: Apache-2.0
"""The state of one run (arguments, settings, work directory, results, notes,
cleanup registry, binaries) and the helpers every section uses."""

import hashlib
import os
import shutil
import subprocess
import tempfile

from . import DEFAULT_RESULTS, REPO
from .daemon import Daemon
from .processes import Cleanup, log, run_json
from .settings import Settings


class Bench:
    def __init__(self, args):
        self.args = args
        self.settings = Settings(args.quick)
        if args.sizes:
            self.settings.scale_sizes = [int(x) for x in args.sizes.split(",")]
        self.cleanup = Cleanup()
        self.results = {}
        self.notes = []
        self.scratch = os.environ.get("BENCH_SCRATCH") or os.path.join(REPO, ".build", "bench")
        self.results_dir = os.path.abspath(args.results or os.environ.get("BENCH_RESULTS") or DEFAULT_RESULTS)
        self.bin_dir = args.bin
        self.work = None
        self.fingerprint = None
        self.config = None
        # The fully static alarmctl's directory, once built (see build()).
        self.alarmctl_dir = None
        self.peers = {}
        # The at batches submitted, read at the end of the run (sections/at.py).
        self.at_batches = []

    # ---- set-up

    def skip(self, key, reason):
        """Records that the section that fills results[key] could not run,
        and why (the report says so where its figures would be)."""
        self.results[key] = {"skipped": reason}
        log(f"{key}: skipped: {reason}")

    def binary(self, name):
        # alarmctl is the fully static one, built apart (see build()).
        if name == "alarmctl" and self.alarmctl_dir:
            return os.path.join(self.alarmctl_dir, name)
        return os.path.join(self.bin_dir, name)

    def ordered_present(self, program):
        """How many of the functions Sources/PROGRAM/PROGRAM.order lays out
        first the measured PROGRAM defines, and how many it lists: a list
        gone stale (functions renamed since tools/hot-functions.py wrote it)
        costs alarmd memory and alarmctl time at each start."""
        with open(os.path.join(REPO, "Sources", program, f"{program}.order")) as handle:
            listed = [line.strip() for line in handle if line.strip()]
        names = subprocess.run(["nm", "--defined-only", self.binary(program)], capture_output=True, text=True).stdout.split()
        defined = set(names)
        return sum(1 for name in listed if name in defined), len(listed)

    def bench_tool(self, *arguments):
        return [self.binary("alarmd-bench"), *map(str, arguments)]

    def daemon_environment(self):
        home = os.path.join(self.work, "home")
        runtime = os.path.join(self.work, "run")
        return {
            "PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": home, "LANG": "C.UTF-8",
            "XDG_RUNTIME_DIR": runtime, "XDG_CONFIG_HOME": os.path.join(home, ".config"),
            "XDG_STATE_HOME": os.path.join(home, ".local", "state"),
        }

    @staticmethod
    def sources_fingerprint():
        """SHA-256 over Package.swift and every file under Sources/, as they are when
        the build starts: names the exact code measured, committed or not."""
        digest = hashlib.sha256()
        paths = [os.path.join(REPO, "Package.swift")]
        for root, _, files in os.walk(os.path.join(REPO, "Sources")):
            paths += [os.path.join(root, name) for name in files]
        for path in sorted(paths):
            digest.update(os.path.relpath(path, REPO).encode() + b"\0")
            with open(path, "rb") as handle:
                digest.update(handle.read())
        return digest.hexdigest()[:16]

    def build(self):
        self.fingerprint = None if self.args.bin else self.sources_fingerprint()
        if self.args.bin:
            log(f"using the binaries in {self.args.bin}")
            return
        swift = os.environ.get("SWIFT") or "swift"
        argv = [swift, "build", "-c", "release", "--static-swift-stdlib", "--scratch-path", self.scratch]
        # alarmctl exactly as `make install` builds it (the Makefile's
        # STATIC_ALARMCTL): fully static, in a scratch path of its own.
        static = [swift, "build", "-c", "release", "--static-swift-stdlib", "-Xswiftc", "-static-executable",
                  "--product", "alarmctl", "--scratch-path", self.scratch + "-alarmctl"]
        for build in (argv, static):
            log("building: " + " ".join(build))
            subprocess.run(build, cwd=REPO, check=True)
        self.bin_dir = subprocess.run(argv + ["--show-bin-path"], cwd=REPO, check=True, capture_output=True, text=True).stdout.strip()
        self.alarmctl_dir = subprocess.run(static + ["--show-bin-path"], cwd=REPO, check=True, capture_output=True, text=True).stdout.strip()

    def prepare(self):
        self.work = tempfile.mkdtemp(prefix="alarmd-bench.")
        self.cleanup.add(f"work directory {self.work}", lambda: shutil.rmtree(self.work, ignore_errors=True) if not self.args.keep else log(f"kept {self.work}"))
        for sub in ("home", "home/.config", "run"):
            os.makedirs(os.path.join(self.work, sub), mode=0o700, exist_ok=True)
        self.config = os.path.join(self.work, "alarmd.conf")
        with open(self.config, "w") as handle:
            # No sound player for thousands of ringing reminders; everything else default.
            handle.write("[Sound]\nAlarmSound=none\nReminderSound=none\n")

    def start_daemon(self, state, name, timeout=120):
        """Starts alarmd on `state`; once more if something outside killed it before READY=1."""
        for attempt in range(2):
            daemon = Daemon(self, state, name)
            try:
                return daemon, daemon.start(timeout=timeout)
            except RuntimeError:
                code = daemon.process.returncode if daemon.process is not None else None
                daemon.stop_now()
                if attempt == 0 and code is not None and code < 0:
                    self.notes.append(f"an alarmd ({name}) was killed by signal {-code}, not sent by the harness, before READY=1; it was started again")
                    log(self.notes[-1])
                    continue
                raise

    def make_store(self, name, **options):
        state = os.path.join(self.work, name)
        os.makedirs(state, mode=0o700, exist_ok=True)
        argv = self.bench_tool("make-store", "--path", os.path.join(state, "alarmd.sqlite3"))
        for key, value in options.items():
            argv += [f"--{key.replace('_', '-')}", str(value)]
        return state, run_json(argv)
