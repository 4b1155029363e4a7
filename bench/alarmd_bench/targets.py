# SPDX-License-Identifier: Apache-2.0
"""The targets table (bench/targets.toml): loading it, judging a run's results
against it, and the Markdown table BENCHMARKS.md carries between its markers."""

import os
import tomllib

from . import BENCH_DIR, REPO

TARGETS_FILE = os.path.join(BENCH_DIR, "targets.toml")
BENCHMARKS_MD = os.path.join(REPO, "BENCHMARKS.md")
BEGIN, END = "<!-- targets:begin -->", "<!-- targets:end -->"

# The sections, in the order of a run and of the table, with their labels.
SECTION_LABELS = {
    "lateness": "1 lateness", "at": "1 lateness", "scale": "2 scale", "idle": "3 idle", "control": "4 control",
    "core": "5 core", "commit": "6 commit", "storm": "7 storm", "burst": "8 burst", "sound": "9 sound", "caldav": "10 caldav", "app": "11 app",
    "footprint": "12 footprint", "tui": "13 tui",
}
SYMBOLS = {"<=": "≤", ">=": "≥", "~": "≈"}
# Units written in the target column ("≤ 5 ms"); the others are in the figure's name.
SHOWN_UNITS = {"s", "ms", "µs", "MiB"}
MICROSECONDS_PER = {"s": 1_000_000, "ms": 1000, "µs": 1}
FIELDS = {"id", "section", "description", "comparison", "value", "unit", "path", "path_unit", "prefix", "scope", "measured", "issue"}
REQUIRED = {"id", "section", "description", "comparison", "value", "unit", "path"}

MET, MISSED, NOT_MEASURED = "met", "MISSED", "not measured"


def convert(value, unit, to):
    """A duration from one unit to another, exactly where it can be (1 ms is 1000 µs, not 1000.0000000000001)."""
    a, b = MICROSECONDS_PER[unit], MICROSECONDS_PER[to]
    return value * (a // b) if a >= b else value / (b // a)


class Target:
    def __init__(self, entry):
        unknown, missing = set(entry) - FIELDS, REQUIRED - set(entry)
        if unknown or missing:
            raise ValueError(f"target {entry.get('id')}: unknown fields {sorted(unknown)}, missing {sorted(missing)}")
        if entry["comparison"] not in SYMBOLS:
            raise ValueError(f"target {entry['id']}: comparison must be one of {sorted(SYMBOLS)}")
        if entry["section"] not in SECTION_LABELS:
            raise ValueError(f"target {entry['id']}: unknown section {entry['section']}")
        self.id = entry["id"]
        self.section = entry["section"]
        self.description = entry["description"]
        self.comparison = entry["comparison"]
        self.value = entry["value"]
        self.unit = entry["unit"]
        self.path = entry["path"]
        self.path_unit = entry.get("path_unit", self.unit)
        self.prefix = entry.get("prefix", "")
        self.scope = entry.get("scope", "")
        self.measured = entry.get("measured", True)
        self.issue = entry.get("issue")
        if self.path_unit != self.unit and not (self.unit in MICROSECONDS_PER and self.path_unit in MICROSECONDS_PER):
            raise ValueError(f"target {self.id}: cannot convert {self.path_unit} to {self.unit}")

    @property
    def judged(self):
        return self.comparison != "~"

    def value_text(self):
        value = self.value
        return f"{int(value):,}" if float(value).is_integer() else f"{value:g}"

    def short(self):
        """The target as the table's column shows it: `≤ 2 s at 1M`, `RSS ≤ 300 MiB at 1M`, `≥ 20,000`."""
        text = f"{SYMBOLS[self.comparison]} {self.value_text()}"
        if self.unit in SHOWN_UNITS:
            text += f" {self.unit}"
        return " ".join(part for part in (self.prefix, text, self.scope) if part)

    def full(self):
        """With every unit, for BENCHMARKS.md."""
        text = f"{SYMBOLS[self.comparison]} {self.value_text()}" + (self.unit if self.unit == "×" else f" {self.unit}")
        return " ".join(part for part in (self.prefix, text, self.scope) if part)

    def limit(self):
        """The target in the unit of the figure at `path`."""
        if self.path_unit == self.unit:
            return self.value
        return convert(self.value, self.unit, self.path_unit)

    def figure(self, results):
        """The measured figure at `path` in `results`, or None."""
        if not self.measured:
            return None
        node = results
        for key in self.path.split("."):
            if not isinstance(node, dict) or key not in node:
                return None
            node = node[key]
        return node if isinstance(node, (int, float)) and not isinstance(node, bool) else None

    def judge(self, results):
        """met, MISSED, not measured, or "" for a goal that is never judged."""
        figure = self.figure(results)
        if figure is None:
            return NOT_MEASURED
        if not self.judged:
            return ""
        met = figure <= self.limit() if self.comparison == "<=" else figure >= self.limit()
        return MET if met else MISSED

    def figure_text(self, results):
        """The measured figure in the target's unit, for the list of targets."""
        figure = self.figure(results)
        if figure is None:
            return ""
        if self.path_unit != self.unit:
            figure = convert(figure, self.path_unit, self.unit)
        magnitude = abs(figure)
        unit = self.unit if self.unit == "×" else " " + self.unit
        if magnitude >= 1000:
            return f"{figure:,.0f}{unit}"
        return f"{figure:.3g}{unit}" if magnitude < 100 else f"{figure:.0f}{unit}"


def load(path=TARGETS_FILE):
    with open(path, "rb") as handle:
        entries = tomllib.load(handle).get("target", [])
    targets = [Target(entry) for entry in entries]
    seen = set()
    for target in targets:
        if target.id in seen:
            raise ValueError(f"target {target.id} is listed twice")
        seen.add(target.id)
    return {target.id: target for target in targets}


def judge_all(targets, results, sections, overrides=None):
    """Every target with its figure and result; a target of a section that did not run is
    not measured. `overrides`: results decided by the report's rows (an Import refused)."""
    overrides = overrides or {}
    verdicts = []
    for target in targets.values():
        ran = target.section in sections
        result = overrides.get(target.id) or target.judge(results) if ran else NOT_MEASURED
        verdicts.append({
            "id": target.id, "section": SECTION_LABELS[target.section], "target": target.short(),
            "measured": target.figure_text(results) if ran else "", "result": result,
        })
    return verdicts


def markdown(targets):
    """BENCHMARKS.md's table of targets, markers included."""
    lines = [BEGIN,
             "<!-- Generated from bench/targets.toml by `bench/run --targets-md`; `make test` checks that it is in step. -->",
             "",
             "| id | § | what is measured | target | in `latest.json` | issue |",
             "| --- | --- | --- | --- | --- | --- |"]
    for t in targets.values():
        where = f"`results.{t.path}`" + (f" ({t.path_unit})" if t.path_unit != t.unit else "")
        if not t.measured:
            where = "not measured yet"
        lines.append(f"| `{t.id}` | {SECTION_LABELS[t.section]} | {t.description} | {t.full()} | {where} | #{t.issue} |")
    lines.append(END)
    return "\n".join(lines) + "\n"


def marked_section(path=BENCHMARKS_MD):
    """The text of BENCHMARKS.md from its begin marker through its end marker (with a newline), or None."""
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    start, end = text.find(BEGIN), text.find(END)
    if start < 0 or end < start:
        return None
    return text[start:end + len(END)] + "\n"


def check_markdown(path=BENCHMARKS_MD):
    """(ok, message): whether BENCHMARKS.md's marked table is what --targets-md prints."""
    expected = markdown(load())
    found = marked_section(path)
    if found is None:
        return False, f"{os.path.relpath(path, REPO)} has no {BEGIN} … {END} section"
    if found != expected:
        import difflib
        diff = "".join(difflib.unified_diff(found.splitlines(True), expected.splitlines(True), "BENCHMARKS.md", "bench/run --targets-md"))
        return False, f"{os.path.relpath(path, REPO)}'s table of targets is not what bench/targets.toml gives; regenerate it with bench/run --write-targets-md:\n{diff}"
    return True, f"{os.path.relpath(path, REPO)}'s table of targets matches bench/targets.toml"


def write_markdown(path=BENCHMARKS_MD):
    """Replaces BENCHMARKS.md's marked table with the generated one."""
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    start, end = text.find(BEGIN), text.find(END)
    if start < 0 or end < start:
        raise RuntimeError(f"{path} has no {BEGIN} … {END} section to replace")
    after = end + len(END)
    if text[after:after + 1] == "\n":
        after += 1
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text[:start] + markdown(load()) + text[after:])
