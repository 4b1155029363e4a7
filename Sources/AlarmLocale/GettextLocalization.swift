// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import CIntl
import Glibc

/// The user's language through glibc's gettext (messages in the `alarmd`
/// domain) and the forms of LC_TIME (dates and times).
///
/// The C and POSIX locales keep alarmd's own forms (ISO dates, 24-hour times),
/// so scripts that read alarmctl's text under `LC_ALL=C` see what they always
/// did. Any other locale gets its date order and clock: from alarmd's catalog
/// for that LC_TIME language when it has them (GNU `ls` does the same with its
/// time styles: the catalog, looked up under LC_TIME, can say what glibc's
/// locale data does not: Taiwan's `上午7:30`), else from glibc's `D_FMT` and
/// `T_FMT` (`12/24/2026` and a 12-hour clock for en_US, `24.12.2026` for de_DE).
public struct GettextLocalization: Localization {
    /// The gettext domain: `alarmd.mo` under `LANG/LC_MESSAGES` (and
    /// `LANG/LC_TIME`, for the date and time forms).
    public static let domain = "alarmd"

    /// strftime(3) forms; `nil` keeps the source forms.
    private struct Patterns: Sendable {
        let date: String, monthDay: String, time: String, timeSeconds: String, weekday: String
    }

    private let patterns: Patterns?
    /// Whether messages are looked up at all: not under C or POSIX.
    private let translates: Bool
    /// A locale of its own, made active on the calling thread for each
    /// lookup (``init(locale:localeDirectory:)``); `nil`: the process's.
    private let own: OwnLocale?

    /// A `locale_t` with the messages and time categories of one locale,
    /// freed with the last copy of the localization that uses it. Never
    /// changed after it is made, so any thread may use it.
    // @unchecked: a `locale_t` is a C pointer, never changed after newlocale(3), which any thread may pass to uselocale(3).
    private final class OwnLocale: @unchecked Sendable {
        let handle: locale_t

        init?(_ name: String) {
            guard let handle = newlocale(LC_MESSAGES_MASK | LC_TIME_MASK, name, nil) else { return nil }
            self.handle = handle
        }

        deinit { freelocale(handle) }

        /// Runs `body` with this locale as the calling thread's (glibc's
        /// gettext, strftime and nl_langinfo read the thread's locale).
        func using<T>(_ body: () -> T) -> T {
            let previous = uselocale(handle)
            defer { uselocale(previous) }
            return body()
        }
    }

    /// Runs `body` in this localization's locale: its own, or the process's.
    private func inLocale<T>(_ body: () -> T) -> T { own.map { $0.using(body) } ?? body() }

    /// Takes the locale from the environment (`LC_ALL`, `LC_MESSAGES`,
    /// `LC_TIME`, `LANG`, and gettext's `LANGUAGE`) and binds the domain to
    /// `localeDirectory`. Process-wide, as gettext is: alarmctl calls it once,
    /// the daemon at start and on reload, on the queue that writes its
    /// notifications.
    ///
    /// Only the categories alarmd shows text by are set: LC_NUMERIC and
    /// LC_COLLATE stay C, so nothing parsed or sorted changes with the user's
    /// language; LC_CTYPE too, as the catalogs' codeset is bound to UTF-8
    /// below. Under C, POSIX or C.UTF-8 (scripts, the benchmarks) there is
    /// nothing to translate or re-form, and nothing is opened: setlocale
    /// would map the locale archive and read locale.alias for no change.
    public init(localeDirectory: @autoclosure () -> String? = Self.defaultDirectory()) {
        own = nil
        guard !Self.isPlain(Self.environmentLocale(for: "LC_MESSAGES")) || !Self.isPlain(Self.environmentLocale(for: "LC_TIME")) else {
            // A process starts in C; only a daemon that was in another
            // language before a reload has anything to set back.
            for category in [LC_MESSAGES, LC_TIME] where !Self.isPlain(Self.current(category)) {
                setlocale(category, "C")
            }
            patterns = nil
            translates = false
            return
        }
        setlocale(LC_MESSAGES, "")
        setlocale(LC_TIME, "")
        if let directory = localeDirectory() { bindtextdomain(Self.domain, directory) }
        // The catalogs are UTF-8 and so is everything alarmd writes.
        Self.bindCodesets()
        translates = !Self.isPlain(Self.current(LC_MESSAGES))
        patterns = Self.timePatterns(category: Self.current(LC_TIME))
    }

    /// The messages and time forms of the locale `name` (`zh_TW.UTF-8`),
    /// whatever the process's locale and environment: for a program that
    /// shows more than one language at once, and for tests, which share one
    /// process. Lookups switch the calling thread's locale (uselocale(3))
    /// for their duration only. gettext's `LANGUAGE` still comes first, as
    /// for any locale but C. Binds the domain to `localeDirectory`, which
    /// is process-wide. `nil` when glibc has no such locale (not generated).
    public init?(locale name: String, localeDirectory: String?) {
        guard !Self.isPlain(name) else {
            own = nil
            patterns = nil
            translates = false
            return
        }
        guard let locale = OwnLocale(name) else { return nil }
        if let localeDirectory { bindtextdomain(Self.domain, localeDirectory) }
        Self.bindCodesets()
        own = locale
        translates = true
        patterns = locale.using { Self.timePatterns(category: name) }
    }

    /// alarmd's catalogs, and glibc's own for strerror(3), in UTF-8: with
    /// LC_CTYPE left C, gettext would convert to ASCII, and a message that
    /// cannot be (any Chinese one) would come out in English.
    static func bindCodesets() {
        bind_textdomain_codeset(domain, "UTF-8")
        bind_textdomain_codeset("libc", "UTF-8")
    }

    /// The locale the process has set for `category`.
    static func current(_ category: Int32) -> String? { setlocale(category, nil).map { String(cString: $0) } }

    /// The locale a category takes from the environment, as setlocale(3)
    /// reads it: `LC_ALL`, else the category's own variable, else `LANG`.
    static func environmentLocale(for category: String) -> String? {
        for name in ["LC_ALL", category, "LANG"] {
            if let value = getenv(name), value.pointee != 0 { return String(cString: value) }
        }
        return nil
    }

    /// C, POSIX and C.UTF-8: alarmd's own words and forms.
    static func isPlain(_ locale: String?) -> Bool {
        guard let locale, !locale.isEmpty else { return true }
        return locale == "C" || locale == "POSIX" || locale.hasPrefix("C.")
    }

    /// Whether this is alarmd's own English with ISO dates and 24-hour times
    /// (C, POSIX, C.UTF-8): then the English texts the daemon sends are
    /// already what would be shown, and need not be made again.
    public var isSource: Bool { !translates && patterns == nil }

    /// `$ALARMD_LOCALEDIR` (a build tree's catalogs, for tests), else
    /// `share/locale` beside the executable's `bin` (so `/usr/bin/alarmctl`
    /// reads `/usr/share/locale`, and a home install `~/.local/share/locale`).
    public static func defaultDirectory() -> String? {
        if let value = getenv("ALARMD_LOCALEDIR"), value.pointee != 0 { return String(cString: value) }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        let executable = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var parts = executable.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count >= 3 else { return nil }
        parts.removeLast(2)
        return parts.joined(separator: "/") + "/share/locale"
    }

    public func L(_ message: String) -> String {
        guard translates, !message.isEmpty else { return message }
        return inLocale { Self.translation(of: message, category: LC_MESSAGES) } ?? message
    }

    /// The catalog's translation of `message` under `category`'s locale;
    /// `nil` when it has none. gettext returns the very pointer it was given
    /// then: Swift's temporary C string, gone once the call returns, so the
    /// answer is compared to it inside the call, and read there.
    private static func translation(of message: String, category: Int32) -> String? {
        message.withCString { id in
            guard let found = dcgettext(domain, id, category), found != UnsafeMutablePointer(mutating: id) else { return nil }
            return String(cString: found)
        }
    }

    public func plural(_ singular: String, _ plural: String, _ count: Int) -> String {
        guard translates else { return count == 1 ? singular : plural }
        return inLocale { Self.pluralForm(singular, plural, count) }
    }

    private static func pluralForm(_ singular: String, _ plural: String, _ count: Int) -> String {
        singular.withCString { one in
            plural.withCString { many in
                guard let found = dngettext(domain, one, many, UInt(max(0, count))) else { return count == 1 ? singular : plural }
                if found == UnsafeMutablePointer(mutating: one) { return singular }
                if found == UnsafeMutablePointer(mutating: many) { return plural }
                return String(cString: found)
            }
        }
    }

    public func date(year: Int, month: Int, day: Int) -> String {
        guard let patterns else { return SourceLocalization().date(year: year, month: month, day: day) }
        return inLocale { Self.format(patterns.date, year: year, month: month, day: day) }
    }

    public func monthDay(month: Int, day: Int) -> String {
        guard let patterns else { return SourceLocalization().monthDay(month: month, day: day) }
        return inLocale { Self.format(patterns.monthDay, year: 2000, month: month, day: day) }
    }

    public func monthName(_ month: Int) -> String {
        guard patterns != nil else { return SourceLocalization().monthName(month) }
        return inLocale { Self.format("%b", month: month) }.trimmingPrefix(" ").description
    }

    public func time(hour: Int, minute: Int, second: Int?) -> String {
        guard let patterns else { return SourceLocalization().time(hour: hour, minute: minute, second: second) }
        return inLocale { Self.format(second == nil ? patterns.time : patterns.timeSeconds, hour: hour, minute: minute, second: second ?? 0) }
    }

    public func weekday(_ day: Weekday) -> String {
        guard let patterns else { return day.shortName }
        return inLocale { Self.format(patterns.weekday, weekday: day) }
    }

    // MARK: LC_TIME

    // TRANSLATORS: the strftime(3) forms below are looked up under LC_TIME, so
    // they follow the reader's time locale. A date with its year:
    private static let datePattern = N_("%Y-%m-%d")
    // TRANSLATORS: a day of the year without the year (strftime(3)).
    private static let monthDayPattern = N_("%b %-d")
    // TRANSLATORS: a time of day in hours and minutes (strftime(3)); leave it
    // as it is to use the locale's own 12- or 24-hour clock.
    private static let timePattern = N_("%H:%M")
    // TRANSLATORS: a time of day with seconds (strftime(3)); leave it as it is
    // to use the locale's own 12- or 24-hour clock.
    private static let secondsPattern = N_("%H:%M:%S")
    // TRANSLATORS: a weekday's short name (strftime(3)).
    private static let weekdayPattern = N_("%a")

    /// The forms of the current LC_TIME (the thread's, when it has its
    /// own), named `category`; `nil` under C and POSIX.
    private static func timePatterns(category: String?) -> Patterns? {
        if isPlain(category) { return nil }
        func translated(_ pattern: String) -> String? { translation(of: pattern, category: LC_TIME) }
        let localeTime = String(cString: nl_langinfo(nl_item(T_FMT)))
        let twelveHour = ["%r", "%I", "%l"].contains { localeTime.contains($0) }
        return Patterns(
            date: translated(datePattern) ?? String(cString: nl_langinfo(nl_item(D_FMT))),
            monthDay: translated(monthDayPattern) ?? monthDayPattern,
            time: translated(timePattern) ?? (twelveHour ? "%-I:%M %p" : timePattern),
            timeSeconds: translated(secondsPattern) ?? (twelveHour ? "%-I:%M:%S %p" : secondsPattern),
            weekday: translated(weekdayPattern) ?? weekdayPattern
        )
    }

    private static func format(_ pattern: String, year: Int = 2000, month: Int = 1, day: Int = 1, hour: Int = 0, minute: Int = 0, second: Int = 0, weekday: Weekday? = nil) -> String {
        var fields = tm()
        fields.tm_year = Int32(year - 1900)
        fields.tm_mon = Int32(month - 1)
        fields.tm_mday = Int32(day)
        fields.tm_hour = Int32(hour)
        fields.tm_min = Int32(minute)
        fields.tm_sec = Int32(second)
        fields.tm_wday = Int32(weekday?.rawValue ?? CivilTime.weekday(dayNumber: CivilTime.dayNumber(year: year, month: month, day: day)).rawValue)
        var buffer = [CChar](repeating: 0, count: 128)
        let length = strftime(&buffer, buffer.count, pattern, &fields)
        // A pattern too long for the buffer writes nothing: show the source form.
        guard length > 0 else { return pattern }
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
