# SPDX-License-Identifier: Apache-2.0
"""1b. atd's lateness: `at -t` jobs for a whole minute, each writing `date +%s.%N`.

Full run: batches one after another, right after section 1 (`run`). Quick run:
one batch submitted at the start (`submit_early`) that runs while the other
sections do. Either way the batches are read at the end (`finish`)."""

import os
import time

from .. import peers
from ..processes import log
from ..stats import distribution, over_runs

LABEL = "1 lateness"


def submit(bench, count, min_lead):
    """Submits `count` jobs due at the next minute boundary at least `min_lead` s away."""
    if not peers.atd_running(bench):
        return None
    now = time.time()
    boundary = (int(now + min_lead) // 60 + 1) * 60
    stamp = time.strftime("%Y%m%d%H%M", time.localtime(boundary))
    directory = os.path.join(bench.work, f"at-{boundary}")
    os.makedirs(directory)
    jobs = []
    for index in range(count):
        _, job = peers.submit_at(bench, ["/usr/bin/at", "-t", stamp], f"date +%s.%N > {directory}/{index}.ts\n")
        jobs.append(job)
    return {"boundary": boundary, "directory": directory, "count": count, "jobs": jobs, "submitted_s_before": boundary - time.time()}


def collect(batch, timeout=120):
    deadline = batch["boundary"] + timeout
    while time.time() < deadline:
        done = [n for n in os.listdir(batch["directory"]) if n.endswith(".ts")]
        if len(done) >= batch["count"]:
            break
        time.sleep(0.5)
    time.sleep(0.5)  # let the last writes finish
    lateness = []
    for name in os.listdir(batch["directory"]):
        with open(os.path.join(batch["directory"], name)) as handle:
            text = handle.read().strip()
        if text:
            lateness.append((float(text) - batch["boundary"]) * 1000)
    return {"jobs": batch["count"], "ran": len(lateness), "lateness_ms": distribution(lateness), "samples_ms": lateness}


def wait_for(batch):
    deadline = batch["boundary"] + 120
    while time.time() < deadline and len([n for n in os.listdir(batch["directory"]) if n.endswith(".ts")]) < batch["count"]:
        time.sleep(0.5)


def submit_early(bench):
    """Quick run: the jobs wait for their minute while everything else runs."""
    bench.at_batches.append(submit(bench, bench.settings.at_jobs, min_lead=15))


def run(bench):
    s = bench.settings
    for _ in range(s.at_runs):
        batch = submit(bench, s.at_jobs, min_lead=10 + s.at_jobs * 0.05)
        if batch:
            log(f"   {s.at_jobs} at jobs due {time.strftime('%H:%M:%S', time.localtime(batch['boundary']))}")
            bench.at_batches.append(batch)
            # Wait for this batch before submitting the next one.
            wait_for(batch)


def finish(bench):
    runs = [collect(b) for b in bench.at_batches if b]
    if not runs:
        return bench.skip("at_lateness", "at/atd not available")
    samples = [x for r in runs for x in r.pop("samples_ms")]
    result = {"runs": runs, "samples_ms": samples}
    result["lateness_ms"] = over_runs(runs, "lateness_ms")
    if bench.settings.quick:
        result["note"] = "quick mode: jobs submitted at the start and run while the other benchmarks ran"
    bench.results["at_lateness"] = result
    log(f"at: {sum(r['ran'] for r in runs)}/{sum(r['jobs'] for r in runs)} jobs ran; p50 {result['lateness_ms']['p50']['median']:.1f} ms")


def rows(results, table):
    at = results.get("at_lateness")
    if at and "skipped" not in at:
        n = at["runs"][0]["jobs"]
        for q in ("p50", "p99", "max"):
            table.row(LABEL, f"atd {n} jobs in one minute, {q} (ms)", table.mmm(at["lateness_ms"][q], "{:.1f}"))
    elif at:
        table.row(LABEL, "atd", "skipped: " + at["skipped"])
