# SPDX-License-Identifier: Apache-2.0
"""6. Group commit (issue #13): acknowledged `AddAlarm` calls per second, each
answered after its durable commit, with one client and with eight at once,
alternating in the same run so that the ratio holds on a noisy machine."""

from ..daemon import Daemon
from ..processes import log, run_json
from ..stats import median_min_max
from .control import small_store
from .scale import add_alarm_parameters

LABEL = "6 commit"
CLIENTS = (1, 8)


def run(bench):
    s = bench.settings
    state, _ = small_store(bench, "commit")
    daemon = Daemon(bench, state, "commit")
    daemon.start()
    runs = {n: [] for n in CLIENTS}
    for round_number in range(s.commit_runs):
        for connections in CLIENTS:
            # Each run labels its adds apart from every other run's: the tool numbers calls
            # from the same start each time, and the daemon refuses an alarm's twin.
            parameters = add_alarm_parameters(f"bench commit {round_number}.{connections}")
            result = run_json(bench.bench_tool("throughput", "--socket", daemon.socket, "--method", "io.alarmd.AddAlarm", "--params", parameters,
                                               "--connections", connections, "--seconds", s.commit_seconds))
            if result["errors"] or result["failures"]:
                raise RuntimeError(f"commit, {connections} clients: {result['errors']} errors, failures {result['failures']}")
            runs[connections].append(result)
    daemon.stop_now()
    rates = {n: median_min_max([r["requests_per_second"] for r in runs[n]]) for n in CLIENTS}
    result = {
        "method": "io.alarmd.AddAlarm", "seconds": s.commit_seconds,
        "one_client_runs": runs[1], "eight_clients_runs": runs[8],
        "one_client_per_second": rates[1], "eight_clients_per_second": rates[8],
        "ratio": rates[8]["median"] / rates[1]["median"],
        "ratio_per_round": [e["requests_per_second"] / o["requests_per_second"] for o, e in zip(runs[1], runs[8])],
    }
    bench.results["commit"] = result
    log(f"commit: AddAlarm {rates[1]['median']:.0f}/s with one client, {rates[8]['median']:.0f}/s with 8 (×{result['ratio']:.2f})")


def rows(results, table):
    commit = results.get("commit")
    if not commit:
        return
    table.row(LABEL, "AddAlarm acknowledged (durable), 1 client (changes/s)", table.mmm(commit["one_client_per_second"], "{:.0f}"))
    table.row(LABEL, "AddAlarm acknowledged (durable), 8 clients at once (changes/s)", table.mmm(commit["eight_clients_per_second"], "{:.0f}"))
    table.row(LABEL, "8 clients / 1 client (ratio of medians)", f"{commit['ratio']:.2f}", "commit-8-over-1")
