# SPDX-License-Identifier: Apache-2.0
"""The command line and the order of a run."""

import argparse
import os
import signal
import subprocess
import sys
import time

from . import peers, profile, report, targets
from .context import Bench
from .processes import log
from .sections import SECTIONS, at

# Log lines announcing each section, as the run reaches it.
HEADINGS = {"lateness": "1. firing lateness", "at": "1b. atd lateness (waits for whole minutes)", "scale": "2. scale",
            "idle": "3. idle cost", "control": "4. control", "core": "5. core", "commit": "6. group commit (AddAlarm, 1 and 8 clients)",
            "storm": "7. firings during a write storm", "burst": "8. a burst of reminders due at once",
            "sound": "9. sound: memory while ringing, against paplay",
            "caldav": "10. CalDAV sync: a real Radicale, against Python's caldav",
            "app": "11. the desktop app: alarms next to GNOME Clocks under one Xvfb",
            "footprint": "12. footprint: alarmd idle next to atd, cron and a Swift program that does nothing",
            "tui": "13. the terminal interface: alarmctl ui next to calcurse in one tmux terminal"}


def run(bench):
    started = time.time()
    load_before = os.getloadavg()
    os.makedirs(bench.results_dir, exist_ok=True)
    peers.ensure_packages(bench)
    bench.build()
    bench.prepare()
    sections = bench.args.only.split(",") if bench.args.only else list(SECTIONS)
    unknown = [name for name in sections if name not in SECTIONS]
    if unknown:
        raise RuntimeError(f"unknown sections {','.join(unknown)}; there are {','.join(SECTIONS)}")
    if "at" in sections and bench.settings.quick:
        at.submit_early(bench)
    for name, module in SECTIONS.items():
        if name not in sections or (name == "at" and bench.settings.quick):
            continue
        log(HEADINGS[name])
        module.run(bench)
    if "at" in sections:
        at.finish(bench)

    table = report.Table(bench.results, targets.load())
    for module in SECTIONS.values():
        module.rows(bench.results, table)
    table_text = report.print_table(table.rows)
    verdicts = targets.judge_all(table.targets, bench.results, sections, table.overrides)
    report.print_targets(verdicts)
    svg = report.plot(bench)
    report.write_results(bench, table.rows, verdicts, svg, sections, started, load_before)
    return table_text


def main():
    parser = argparse.ArgumentParser(description="alarmd benchmarks (issues #7, #13); see BENCHMARKS.md")
    parser.add_argument("--quick", action="store_true", help="small numbers, every code path, about a minute or two")
    parser.add_argument("--bin", help="use the release binaries in this directory instead of building")
    parser.add_argument("--only", help="comma-separated sections: " + ",".join(SECTIONS))
    parser.add_argument("--keep", action="store_true", help="keep the temporary work directory")
    parser.add_argument("--results", help="where latest.json, lateness.svg and profiles/ go (default bench/results; also $BENCH_RESULTS)")
    parser.add_argument("--sizes", help="comma-separated store sizes for the scale section (default 10k,100k,1M; quick 10k)")
    parser.add_argument("--profile", action="store_true",
                        help="instead of the benchmarks, record perf profiles of the cases behind missed targets into bench/results/profiles/")
    parser.add_argument("--targets-md", action="store_true",
                        help="print BENCHMARKS.md's table of targets, generated from bench/targets.toml, and exit")
    parser.add_argument("--check-targets-md", action="store_true",
                        help="exit 1 if BENCHMARKS.md's table of targets is not what --targets-md prints")
    parser.add_argument("--write-targets-md", action="store_true",
                        help="replace BENCHMARKS.md's table of targets (between its markers) with the generated one")
    args = parser.parse_args()

    if args.targets_md:
        sys.stdout.write(targets.markdown(targets.load()))
        return 0
    if args.check_targets_md:
        ok, message = targets.check_markdown()
        print(f"bench: {message}", file=sys.stdout if ok else sys.stderr)
        return 0 if ok else 1
    if args.write_targets_md:
        targets.write_markdown()
        return 0

    bench = Bench(args)

    def interrupted(number, _frame):
        raise KeyboardInterrupt(f"signal {number}")

    signal.signal(signal.SIGTERM, interrupted)
    try:
        if args.profile:
            peers.ensure_packages(bench)
            bench.build()
            bench.prepare()
            profile.run(bench)
        else:
            run(bench)
    except KeyboardInterrupt:
        print("bench: interrupted; stopping everything it started", file=sys.stderr)
        return 130
    except subprocess.CalledProcessError as error:
        print(f"bench: {' '.join(map(str, error.cmd))} failed with exit status {error.returncode}", file=sys.stderr)
        return 1
    except RuntimeError as error:
        print(f"bench: {error}", file=sys.stderr)
        return 1
    finally:
        bench.cleanup.run_all()
    return 0
