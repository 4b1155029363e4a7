// SPDX-License-Identifier: Apache-2.0
/// How text meant for a person is put into that person's language: messages
/// (English source text, looked up the way gettext looks up a msgid) and the
/// forms of dates and times.
///
/// The core builds its sentences (a rule in words, a notification's body)
/// through one of these and never opens a catalog itself: the daemon and
/// alarmctl pass the gettext one (`AlarmLocale`), the journal and the wire pass
/// `SourceLocalization`, so what is stored, logged or sent as JSON never
/// depends on anyone's locale.
///
/// Messages are marked where they are written: `L("Every day")`,
/// `Lf("Every %d days", n)`, `Ln("%d alarm", "%d alarms", n)`, and `N_("…")` for
/// a string translated later (help texts in tables). `po/extract.py` finds
/// those calls in the sources and writes `po/alarmd.pot`. Placeholders are C's
/// `%s` and `%d` (with `%1$s` to reorder), so `msgfmt --check` holds every
/// translation to the arguments of its source.
public protocol Localization: Sendable {
    /// The translation of `message`, or `message` itself.
    func L(_ message: String) -> String
    /// The form of `singular`/`plural` that `count` takes in the language,
    /// placeholders unfilled (`Ln` fills them).
    func plural(_ singular: String, _ plural: String, _ count: Int) -> String
    /// A calendar date: `2026-12-24`, `2026年12月24日`, `12/24/2026`.
    func date(year: Int, month: Int, day: Int) -> String
    /// A day of the year without its year: `Dec 24`, `12月24日`.
    func monthDay(month: Int, day: Int) -> String
    /// A month's short name, January being 1: `Jan`, `1月`.
    func monthName(_ month: Int) -> String
    /// A time of day: `07:30`, `7:30 AM`, `上午7:30`; with seconds when given.
    func time(hour: Int, minute: Int, second: Int?) -> String
    /// A weekday's short name: `Thu`, `週四`.
    func weekday(_ day: Weekday) -> String
}

extension Localization {
    /// The translation of `message` with its `%s`/`%d` placeholders filled in.
    public func Lf(_ message: String, _ arguments: any CustomStringConvertible...) -> String { Lf(message, arguments: arguments) }

    /// `Lf` with the arguments in an array (what a wrapper of `Lf` passes on).
    public func Lf(_ message: String, arguments: [any CustomStringConvertible]) -> String {
        MessageFormat.fill(L(message), arguments.map(\.description))
    }

    /// The plural form for `count`, filled in with `arguments` (`count` alone when none are given).
    public func Ln(_ singular: String, _ plural: String, _ count: Int, _ arguments: any CustomStringConvertible...) -> String {
        Ln(singular, plural, count, arguments: arguments)
    }

    /// `Ln` with the arguments in an array.
    public func Ln(_ singular: String, _ plural: String, _ count: Int, arguments: [any CustomStringConvertible]) -> String {
        MessageFormat.fill(self.plural(singular, plural, count), arguments.isEmpty ? [String(count)] : arguments.map(\.description))
    }

    /// A local instant's date.
    public func date(of local: LocalDateTime) -> String { date(year: local.year, month: local.month, day: local.day) }

    /// A local instant's time of day, in hours and minutes (and seconds when asked).
    public func time(of local: LocalDateTime, seconds: Bool = false) -> String {
        time(hour: local.hour, minute: local.minute, second: seconds ? local.second : nil)
    }

    /// A time of day such as an alarm's.
    public func time(_ timeOfDay: TimeOfDay) -> String { time(hour: timeOfDay.hour, minute: timeOfDay.minute, second: nil) }

    /// Items of a list: `Mon, Wed` in English, `週一、週三` in Chinese.
    public func list(_ items: [String]) -> String { items.joined(separator: L(", ")) }

    /// `2026-12-24 07:30` in the language's forms.
    public func dateTime(_ local: LocalDateTime, seconds: Bool = false) -> String {
        Lf("%1$s %2$s", date(of: local), time(of: local, seconds: seconds))
    }

    /// `Thu 07:30`, a time within the coming week.
    public func weekdayTime(_ local: LocalDateTime) -> String {
        Lf("%1$s %2$s", weekday(local.weekday), time(of: local))
    }

    /// `Thu, Dec 24 07:30`: a time later in the coming year, its weekday first
    /// as ``weekdayTime(_:)`` has it.
    public func weekdayMonthDayTime(_ local: LocalDateTime) -> String {
        Lf("%1$s, %2$s %3$s", weekday(local.weekday), monthDay(month: local.month, day: local.day), time(of: local))
    }

    /// `2026-12-24 Thu 07:30`: a date, its weekday and a time.
    public func dateWeekdayTime(_ local: LocalDateTime, seconds: Bool = false) -> String {
        Lf("%1$s %2$s %3$s", date(of: local), weekday(local.weekday), time(of: local, seconds: seconds))
    }
}

/// Marks `message` for translation at its declaration (a help text in a table);
/// whoever shows it passes it through `L`.
public func N_(_ message: String) -> String { message }
