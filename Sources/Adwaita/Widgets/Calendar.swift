// SPDX-License-Identifier: Apache-2.0
import CAdwaita

/// A month's days to pick one from.
public struct Calendar: WidgetWrapper {
    public let widget: Widget

    public init() { widget = Widget(gtk_calendar_new()) }

    /// The chosen day, as (year, month 1-12, day).
    public var day: (year: Int, month: Int, day: Int) {
        guard let date = gtk_calendar_get_date(widget.c()) else { return (1970, 1, 1) }
        defer { g_date_time_unref(date) }
        return (Int(g_date_time_get_year(date)), Int(g_date_time_get_month(date)), Int(g_date_time_get_day_of_month(date)))
    }

    public func select(year: Int, month: Int, day: Int) {
        guard let zone = g_time_zone_new_local(), let date = g_date_time_new(zone, Int32(year), Int32(month), Int32(day), 12, 0, 0) else { return }
        gtk_calendar_select_day(widget.c(), date)
        g_date_time_unref(date)
        g_time_zone_unref(zone)
    }
}
