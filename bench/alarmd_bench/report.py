# SPDX-License-Identifier: Apache-2.0
"""The report: the table of figures (printed and kept in latest.json), the
list of targets judged against bench/targets.toml, the lateness plot, and
latest.json itself."""

import datetime as dt
import json
import os
import platform
import shutil
import subprocess
import time

from . import REPO
from . import targets as targets_table
from .processes import log

COLUMNS = ("section", "figure", "value", "target", "result")


class Table:
    """Rows of the report. A row that carries a target names it by id; its target
    text and met/MISSED come from the targets table, judged on the results."""

    def __init__(self, results, targets):
        self.results = results
        self.targets = targets
        self.rows = []
        # Judgements made by a row rather than from a figure (see `row`).
        self.overrides = {}

    def row(self, section, name, figure, target=None, met=None):
        """`target`: a target id. `met` overrides the judgement where the figure
        has no number to judge (an Import refused is a miss)."""
        text, result = "", ""
        if target is not None:
            entry = self.targets[target]
            text = entry.short()
            result = entry.judge(self.results)
            if met is not None:
                result = targets_table.MET if met else targets_table.MISSED
                self.overrides[target] = result
        self.rows.append({"section": section, "figure": name, "value": figure, "target": text, "result": result})

    @staticmethod
    def mmm(stat, fmt, scale=1.0):
        """median [min–max] of a figure over runs."""
        if not stat:
            return "n/a"
        return f"{fmt.format(stat['median'] * scale)} [{fmt.format(stat['min'] * scale)}–{fmt.format(stat['max'] * scale)}]"


def format_columns(rows, header, keys):
    widths = [max(len(str(r[k])) for r in rows + [dict(zip(keys, header))]) for k in keys]
    lines = ["  ".join(h.ljust(w) for h, w in zip(header, widths)), "  ".join("-" * w for w in widths)]
    for r in rows:
        lines.append("  ".join(str(r[k]).ljust(w) for k, w in zip(keys, widths)).rstrip())
    return "\n".join(lines)


def print_table(rows):
    text = format_columns(rows, ("section", "figure", "median [min–max]", "target", "result"), COLUMNS)
    print(text)
    return text


def print_targets(verdicts):
    """Every target of bench/targets.toml with this run's figure: met, MISSED or not measured."""
    text = format_columns(verdicts, ("target", "section", "goal", "this run", "result"), ("id", "section", "target", "measured", "result"))
    counts = {}
    for v in verdicts:
        counts[v["result"] or "not judged"] = counts.get(v["result"] or "not judged", 0) + 1
    summary = ", ".join(f"{n} {name}" for name, n in sorted(counts.items()))
    print("\nTargets (bench/targets.toml): " + summary)
    print(text)
    return text


def plot(bench):
    late = bench.results.get("lateness")
    if not late or not shutil.which("gnuplot"):
        bench.notes.append("no lateness plot: gnuplot or the lateness results are missing")
        return None
    series = [("alarmd, client side (Watch receipt)", late["samples"]["client_ms"]),
              ("alarmd, daemon side (actual − scheduled)", late["samples"]["daemon_ms"])]
    at = bench.results.get("at_lateness")
    if at and "samples_ms" in at and at["samples_ms"]:
        series.append(("atd, job output of date +%s.%N − minute", at["samples_ms"]))
    floor = 0.001  # 1 µs: the log axis cannot show 0
    files = []
    for index, (title, samples) in enumerate(series):
        path = os.path.join(bench.work, f"cdf-{index}.dat")
        ordered = sorted(max(floor, x) for x in samples)
        with open(path, "w") as handle:
            step = max(1, len(ordered) // 4000)
            for i in list(range(0, len(ordered), step)) + [len(ordered) - 1]:
                handle.write(f"{ordered[i]} {(i + 1) / len(ordered)}\n")
        files.append((title, path))
    svg = os.path.join(bench.results_dir, "lateness.svg")
    mode = "quick" if bench.settings.quick else "full"
    script = (
        f"set terminal svg size 900,520 dynamic font 'sans,12'\nset output '{svg}'\n"
        f"set title 'Firing lateness, CDF ({mode} run, {time.strftime('%Y-%m-%d')}, {os.cpu_count()} cores)'\n"
        "set logscale x\nset xlabel 'lateness (ms, log scale; 0 drawn at 0.001)'\nset ylabel 'fraction of firings'\n"
        "set yrange [0:1.02]\nset grid\nset key top left\n"
        "plot " + ", ".join(f"'{p}' using 1:2 with steps lw 2 title \"{t}\"" for t, p in files) + "\n")
    subprocess.run(["gnuplot"], input=script, text=True, check=True)
    return svg


def write_results(bench, rows, verdicts, svg, sections, started, load_before):
    """bench/results/latest.json (or --results): meta, the table, the results; the
    raw samples that made the plot are left out."""
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=REPO, capture_output=True, text=True).stdout.strip() != ""
    cpu = ""
    try:
        with open("/proc/cpuinfo") as handle:
            cpu = next((l.split(":", 1)[1].strip() for l in handle if l.startswith("model name")), "")
    except OSError:
        pass
    meta = {
        "date": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"), "mode": "quick" if bench.settings.quick else "full",
        "nproc": os.cpu_count(), "kernel": platform.release(), "cpu": cpu, "commit": commit + ("+dirty" if dirty else ""),
        "sources_sha256_16": bench.fingerprint,
        "swift": subprocess.run(["swift", "--version"], capture_output=True, text=True).stdout.splitlines()[0] if shutil.which("swift") else None,
        "journald": os.path.exists("/run/systemd/journal/socket"), "peers": bench.peers, "duration_s": time.time() - started,
        "loadavg_before": load_before, "loadavg_after": os.getloadavg(),
        "sections": sections, "notes": bench.notes,
    }
    results = json.loads(json.dumps(bench.results))
    results.get("lateness", {}).pop("samples", None)
    results.get("at_lateness", {}).pop("samples_ms", None)
    document = {"meta": meta, "table": rows, "results": results, "targets": verdicts}
    if svg:
        document["plot"] = os.path.relpath(svg, REPO)
    path = os.path.join(bench.results_dir, "latest.json")
    with open(path, "w") as handle:
        json.dump(document, handle, indent=1, sort_keys=False)
        handle.write("\n")
    log(f"wrote {os.path.relpath(path, REPO)}" + (f" and {os.path.relpath(svg, REPO)}" if svg else ""))
