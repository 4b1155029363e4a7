# SPDX-License-Identifier: Apache-2.0
"""One module per benchmark section, each with `run(bench)` (measures, and puts
its results in bench.results) and `rows(results, table)` (its rows of the
report). The order here is the order of the table and of `--only`'s names."""

from . import app, at, burst, caldav, commit, control, core, footprint, idle, lateness, scale, sound, storm, tui

SECTIONS = {"lateness": lateness, "at": at, "scale": scale, "idle": idle, "control": control, "core": core,
            "commit": commit, "storm": storm, "burst": burst, "sound": sound, "caldav": caldav, "app": app,
            "footprint": footprint, "tui": tui}
