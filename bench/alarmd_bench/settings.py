# SPDX-License-Identifier: Apache-2.0
"""The numbers of a run: full (`bench/run`) and quick (`bench/run --quick`)."""


class Settings:
    def __init__(self, quick):
        self.quick = quick
        if quick:
            self.lateness_reminders, self.lateness_window, self.lateness_runs = 500, 2.0, 1
            self.added_reminders, self.added_runs = 300, 1
            self.at_jobs, self.at_runs = 5, 1
            self.scale_sizes, self.scale_restarts = [10_000], 2
            self.upcoming_calls, self.add_calls, self.status_calls_scale = 200, 20, 100
            self.idle_alarms, self.idle_window, self.idle_settle = 100_000, 5.0, 2.0
            self.status_calls, self.throughput_seconds, self.throughput_runs = 2000, 1.0, 1
            self.process_runs = 5
            self.import_alarms, self.import_fit_runs, self.import_full_runs = 10_000, 1, 1
            self.core_iterations, self.core_repeat = 1_000_000, 3
            self.calendar_iterations, self.calendar_runs = 5_000, 1
            # Issue #13's sections.
            self.commit_seconds, self.commit_runs = 1.0, 1
            # 200 changes a client: the storm outlasts its 0.3 s lead on the first firing even on a quick disk (12,800 changes).
            self.storm_clients, self.storm_changes, self.storm_window, self.storm_interval = 64, 200, 3.0, 0.01
            self.burst_items, self.burst_runs = 100, 1
            self.sound_idle_window = 5.0
            self.caldav_todos, self.caldav_runs = 200, 1
            # Issue #30's desktop app.
            self.app_start_runs, self.app_scroll_runs, self.app_scroll_seconds, self.app_adds = 3, 1, 1.5, 10
            # The terminal interface.
            self.tui_start_runs, self.tui_adds, self.tui_scroll_keys = 3, 5, 100
            self.quiet_firings = 1
        else:
            self.lateness_reminders, self.lateness_window, self.lateness_runs = 10_000, 10.0, 3
            self.added_reminders, self.added_runs = 300, 5
            self.at_jobs, self.at_runs = 100, 2
            self.scale_sizes, self.scale_restarts = [10_000, 100_000, 1_000_000], 5
            self.upcoming_calls, self.add_calls, self.status_calls_scale = 1000, 100, 200
            self.idle_alarms, self.idle_window, self.idle_settle = 100_000, 60.0, 10.0
            self.status_calls, self.throughput_seconds, self.throughput_runs = 20_000, 5.0, 3
            self.process_runs = 30
            self.import_alarms, self.import_fit_runs, self.import_full_runs = 100_000, 3, 3
            self.core_iterations, self.core_repeat = 10_000_000, 5
            self.calendar_iterations, self.calendar_runs = 40_000, 3
            self.commit_seconds, self.commit_runs = 3.0, 3
            self.storm_clients, self.storm_changes, self.storm_window, self.storm_interval = 64, 1000, 20.0, 0.01
            self.burst_items, self.burst_runs = 100, 5
            self.sound_idle_window = 60.0
            self.caldav_todos, self.caldav_runs = 1000, 3
            self.app_start_runs, self.app_scroll_runs, self.app_scroll_seconds, self.app_adds = 10, 3, 3.0, 50
            self.tui_start_runs, self.tui_adds, self.tui_scroll_keys = 10, 30, 500
            self.quiet_firings = 3
