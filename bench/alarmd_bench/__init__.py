# SPDX-License-Identifier: Apache-2.0
"""alarmd's benchmark harness (issue #7, split into a package by issue #13).

`bench/run` is the entry point; BENCHMARKS.md says what every figure means and
lists the targets, which live in one data table, bench/targets.toml.

    processes   spawning and timing processes, /proc readings, the cleanup registry
    stats       medians, nearest-rank quantiles, distributions
    settings    the numbers of a full and of a quick run
    context     the run's state (work directory, results, notes) and its helpers
    daemon      alarmd under test
    peers       Debian's packages, atd, at jobs, cron
    sections/   one module per benchmark section: run(bench) and rows(results, table)
    profile     bench/run --profile
    targets     the targets table: loading, judging, BENCHMARKS.md's Markdown
    report      the printed table, latest.json, the lateness plot
    cli         the command line and the order of a run
"""

import os

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BENCH_DIR = os.path.join(REPO, "bench")
DEFAULT_RESULTS = os.path.join(BENCH_DIR, "results")
