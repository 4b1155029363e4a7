# SPDX-License-Identifier: Apache-2.0
"""Order statistics: medians over runs, nearest-rank quantiles, distributions."""

import math
import statistics


def median_min_max(values):
    values = [v for v in values if v is not None]
    if not values:
        return None
    return {"median": statistics.median(values), "min": min(values), "max": max(values), "runs": len(values)}


def quantile(sorted_values, q):
    """Nearest-rank quantile of an ascending list."""
    if not sorted_values:
        return None
    rank = max(1, math.ceil(q * len(sorted_values)))
    return sorted_values[min(len(sorted_values), rank) - 1]


def distribution(values):
    ordered = sorted(values)
    if not ordered:
        return None
    return {
        "count": len(ordered), "min": ordered[0], "p50": quantile(ordered, 0.5), "p90": quantile(ordered, 0.9),
        "p99": quantile(ordered, 0.99), "max": ordered[-1], "mean": statistics.fmean(ordered),
    }


def over_runs(runs, side, quantiles=("p50", "p99", "max")):
    """Median [min–max] over runs of each run's quantiles of `side` (a distribution per run)."""
    return {q: median_min_max([r[side][q] for r in runs if r.get(side)]) for q in quantiles}
