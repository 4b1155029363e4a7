# SPDX-License-Identifier: Apache-2.0
"""Checks of the benchmark harness that need no build and no daemon (run by
`make test`): the targets table is well-formed and judged as it says,
BENCHMARKS.md's table of targets is the one bench/targets.toml gives, and the
report rebuilds the committed results' table row for row."""

import json
import os
import sys
import unittest

BENCH = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, BENCH)

from alarmd_bench import report, targets  # noqa: E402
from alarmd_bench.sections import SECTIONS  # noqa: E402

LATEST = os.path.join(BENCH, "results", "latest.json")


class TargetsTests(unittest.TestCase):
    def setUp(self):
        self.targets = targets.load()
        with open(LATEST) as handle:
            self.latest = json.load(handle)

    def test_benchmarks_md_is_in_step_with_the_table(self):
        ok, message = targets.check_markdown()
        self.assertTrue(ok, message)

    def test_every_target_belongs_to_a_section_the_harness_runs(self):
        for target in self.targets.values():
            self.assertIn(target.section, SECTIONS, target.id)

    def test_a_figure_that_is_missing_is_not_measured_never_met(self):
        for target in self.targets.values():
            self.assertEqual(target.judge({}), targets.NOT_MEASURED, target.id)
        verdicts = targets.judge_all(self.targets, self.latest["results"], sections=[])
        self.assertTrue(all(v["result"] == targets.NOT_MEASURED for v in verdicts))

    def test_a_target_marked_unmeasured_is_not_measured_even_with_a_figure(self):
        entry = {"id": "x", "section": "control", "description": "d", "comparison": "<=", "value": 100, "unit": "µs",
                 "path": "control.status.round_trip.p50", "measured": False, "issue": 13}
        self.assertEqual(targets.Target(entry).judge({"control": {"status": {"round_trip": {"p50": 1}}}}), targets.NOT_MEASURED)

    def test_comparisons_and_units(self):
        upcoming = self.targets["scale-1m-upcoming"]  # ≤ 1 ms, figure in µs
        self.assertEqual(upcoming.judge({"scale": {"1000000": {"upcoming": {"round_trip": {"p50": 1000}}}}}), targets.MET)
        self.assertEqual(upcoming.judge({"scale": {"1000000": {"upcoming": {"round_trip": {"p50": 1000.5}}}}}), targets.MISSED)
        commit = self.targets["commit-8-over-1"]  # ≥ 4
        self.assertEqual(commit.judge({"commit": {"ratio": 4.0}}), targets.MET)
        self.assertEqual(commit.judge({"commit": {"ratio": 1.1}}), targets.MISSED)
        self.assertEqual(self.targets["idle-cpu"].judge({"idle_alarmd": {"cpu_ms_schedstat": 5.0}}), "")  # ≈ 0: shown, never judged
        self.assertEqual(self.targets["scale-1m-rss"].short(), "RSS ≤ 300 MiB at 1M")
        self.assertEqual(self.targets["control-throughput"].short(), "≥ 20,000")

    def test_the_committed_results_have_every_figure_of_the_sections_they_ran(self):
        ran = self.latest["meta"]["sections"]
        sizes = self.latest["results"].get("scale", {})
        for target in self.targets.values():
            if target.section not in ran or (target.path.startswith("scale.") and target.path.split(".")[1] not in sizes):
                continue
            self.assertIsNotNone(target.figure(self.latest["results"]), f"{target.id}: results.{target.path}")

    def test_the_report_rebuilds_the_committed_table(self):
        table = report.Table(self.latest["results"], self.targets)
        for module in SECTIONS.values():
            module.rows(self.latest["results"], table)
        self.assertEqual(table.rows, self.latest["table"])


if __name__ == "__main__":
    unittest.main()
