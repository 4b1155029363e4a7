// swift-tools-version:6.0
// SPDX-License-Identifier: Apache-2.0
import PackageDescription

// Layers, bottom to top:
//   AlarmCore   pure model, time rules, ringing state machine, config parsing;
//               no I/O but the system's zone files, never reads the clock
//   AlarmStore  SQLite persistence (through the C API in CSQLite)
//   AlarmProtocol  JSON, Varlink framing and messages, the io.alarmd interface and
//               the wire form of items; shared by the daemon and alarmctl
//   AlarmDaemon the scheduler and the adapters around it (journal, sd_notify,
//               clock and time-zone watching, signals), wired into a daemon
//   AlarmViewModels  what the app and the terminal UI show and send: rows, forms,
//               phrases, the daemon client; plain Swift, tested without GTK
//   AlarmCLI    alarmctl's commands, kept in a library so tests can drive them in-process too
//   Adwaita     the typed Swift layer over GTK 4 and libadwaita (CAdwaita): the
//               widgets and signals the app uses, GObject's reference rules in one place
//   AlarmApp    the desktop app's screens, binding view models to widgets
//   AlarmSound  the sound process's decoding and sound-server stream (libsndfile,
//               libpulse through CSoundLibraries), kept out of alarmd
//   alarmd, alarmctl, alarmd-wake, alarmd-sync, alarmd-sound, alarms  thin executables
//   SystemCalls  beside the layers: the system calls alarmd and alarmd-wake share, and the journal
//   BusWire     beside the layers: D-Bus messages in the wire format, for AlarmDaemon's bus client
//
// AlarmCore, AlarmProtocol, AlarmCLI and alarmctl import FoundationEssentials,
// never Foundation: the rest of Foundation brings ICU (about 50 MB of code and
// data) and its start-up cost into alarmctl. ShippedFilesTests checks it.
/// For the modules in alarmctl, which starts once for every command typed:
/// concrete generic types' metadata through direct accessors instead of by
/// mangled name. The default demangles each such type at its first use, and
/// in a short process every use is a first use: that was a quarter of
/// `alarmctl add`'s own CPU time, and this takes about a tenth of it off
/// (BENCHMARKS.md, §4). Release only; the cost is about 25 KB of code.
let startsOften: [SwiftSetting] = [
    .unsafeFlags(["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"], .when(configuration: .release)),
]

/// The release link of the two programs that start or stay: lld, with the
/// relative relocations packed (`DT_RELR`: 8 KB where `RELA` takes a
/// megabyte the dynamic loader reads at each start; glibc 2.36 at run time),
/// and the functions the program runs laid out first, side by side, in the
/// order file `tools/hot-functions.py` writes from callgrind runs. The kernel
/// maps a program's file pages 64 KiB around each one touched: laid out
/// together, what runs maps less of what does not. alarmd, all day in memory:
/// about 2.6 MiB of RSS and of PSS less. alarmctl, started for every command:
/// fewer page faults at each start, and `alarmctl add` about a tenth faster
/// (BENCHMARKS.md). The list is only an order: a name it lacks, or one that
/// no longer exists, costs memory and time, never behaviour. Each function
/// has a section of its own to be placed by (-function-sections, below).
let packageDirectory = String(#filePath.dropLast("Package.swift".count))
func orderedLink(_ program: String) -> [LinkerSetting] {
    [.unsafeFlags(["-use-ld=lld",
                   "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
                   "-Xlinker", "--symbol-ordering-file=\(packageDirectory)Sources/\(program)/\(program).order",
                   "-Xlinker", "--no-warn-symbol-ordering"],
                  .when(configuration: .release))]
}

let package = Package(
    name: "alarmd",
    products: [
        .executable(name: "alarmd", targets: ["alarmd"]),
        .executable(name: "alarmctl", targets: ["alarmctl"]),
        .executable(name: "alarmd-wake", targets: ["alarmd-wake"]),
        .executable(name: "alarmd-sync", targets: ["alarmd-sync"]),
        .executable(name: "alarms", targets: ["alarms"]),
        .executable(name: "alarmctl-ui", targets: ["alarmctl-ui"]),
        .executable(name: "alarmd-sound", targets: ["alarmd-sound"]),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // sd-journal's header, for reading the journal back through dlopen:
        // nothing links libsystemd (see Sources/CSystemd/shim.h).
        .systemLibrary(
            name: "CSystemd",
            providers: [.apt(["libsystemd-dev"])]
        ),
        // The sound server's client library and the decoder for the sounds
        // it plays (issue 15).
        // HTTP and XML for CalDAV sync (issue 18): the libraries Debian
        // ships for exactly this, rather than hand-written protocol code.
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        .systemLibrary(
            name: "CXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]
        ),
        // The sync process's system call filter.
        .systemLibrary(
            name: "CSeccomp",
            pkgConfig: "libseccomp",
            providers: [.apt(["libseccomp-dev"])]
        ),
        // GTK 4 and libadwaita, as Debian 12 ships them (4.8, 1.2), for the
        // desktop app.
        .systemLibrary(
            name: "CAdwaita",
            pkgConfig: "libadwaita-1",
            providers: [.apt(["libadwaita-1-dev"])]
        ),
        // ncursesw, for the terminal interface. Not through pkg-config, whose
        // flags for it (-D_XOPEN_SOURCE=600) SwiftPM refuses; the module map
        // names the libraries and shim.h the headers and macros.
        .systemLibrary(
            name: "CNcurses",
            providers: [.apt(["libncurses-dev"])]
        ),
        // Linux calls Swift cannot reach directly (syscall(2) is variadic).
        .systemLibrary(name: "CLinux"),
        // glibc's gettext and the locale's date and time forms.
        .systemLibrary(name: "CIntl"),
        // The system calls alarmd and alarmd-wake share, each wrapped once:
        // errno to a typed error, descriptors, the clocks, Unix sockets,
        // alarm timers, signals by a socket, the journal's native protocol.
        // No Foundation, as alarmd-wake needs.
        .target(name: "SystemCalls", dependencies: ["CLinux"]),
        // D-Bus messages in the wire format, read and written in one pass:
        // the bus client alarmd speaks to logind, the user manager and the
        // notification server with (AlarmDaemon/Bus), without libsystemd.
        .target(name: "BusWire", dependencies: ["SystemCalls"]),
        // Day numbers of dates (Hinnant's algorithms), under the core and the wake helper.
        .target(name: "CivilCalendar", swiftSettings: startsOften),
        .target(name: "AlarmCore", dependencies: ["CivilCalendar"], swiftSettings: startsOften),
        // The user's language: gettext catalogs and LC_TIME's forms, for
        // alarmctl's output and the daemon's notifications.
        .target(name: "AlarmLocale", dependencies: ["AlarmCore", "CIntl"], swiftSettings: startsOften),
        .target(name: "AlarmStore", dependencies: ["AlarmCore", "CSQLite"]),
        // JSON and Varlink framing and messages, with no Foundation: shared by
        // AlarmProtocol (which re-exports it) and the alarmd-wake helper.
        .target(name: "VarlinkCore", swiftSettings: startsOften),
        // io.alarmd.Wake and the alarmd-wake helper's decisions (WakeSlots,
        // WakeService): pure, with no Foundation, like VarlinkCore.
        .target(name: "AlarmWake", dependencies: ["VarlinkCore", "CivilCalendar"], resources: [.embedInCode("io.alarmd.Wake.varlink")]),
        .target(name: "AlarmProtocol", dependencies: ["AlarmCore", "VarlinkCore", "AlarmWake"], resources: [.embedInCode("io.alarmd.varlink")],
                swiftSettings: startsOften),
        .target(name: "AlarmViewModels", dependencies: ["AlarmCore", "AlarmProtocol"], swiftSettings: startsOften),
        .target(name: "AlarmCLI", dependencies: ["AlarmCore", "AlarmProtocol", "AlarmLocale", "AlarmViewModels"], swiftSettings: startsOften),
        .target(name: "Adwaita", dependencies: ["CAdwaita"]),
        .target(name: "AlarmApp", dependencies: ["Adwaita", "AlarmViewModels", "AlarmLocale", "AlarmCore", "AlarmProtocol"]),
        // curses in a small typed layer (the screen, keys, display widths),
        // and the terminal interface over the same view models as the app.
        .target(name: "Terminal", dependencies: ["CNcurses"]),
        .target(name: "AlarmTerminal", dependencies: ["Terminal", "AlarmViewModels", "AlarmLocale", "AlarmCore", "AlarmProtocol"]),
        // `alarmctl ui`: alarmctl runs it, so that alarmctl itself links no curses.
        .executableTarget(name: "alarmctl-ui", dependencies: ["AlarmTerminal"]),
        // The desktop app, Alarms: a client of alarmd like alarmctl.
        .executableTarget(name: "alarms", dependencies: ["AlarmApp"]),
        // `make install` and bench/run link alarmctl fully static (see the
        // Makefile's STATIC_ALARMCTL): it then starts in about half the time.
        // Not here: the flag needs --static-swift-stdlib, and a plain
        // `swift build -c release` must build every product.
        .executableTarget(name: "alarmctl", dependencies: ["AlarmCLI"], exclude: ["alarmctl.order"], swiftSettings: startsOften,
                          linkerSettings: orderedLink("alarmctl")),
        // CalDAV: HTTP, XML and the sync rounds. Linked only into alarmd-sync,
        // the sandboxed process that talks to servers (docs/SECURITY.md).
        .target(name: "AlarmSync", dependencies: ["AlarmCore", "AlarmStore", "AlarmProtocol", "CCurl", "CXML2", "CSeccomp"]),
        // The sound stack's headers and its loader (dlopen), and the sound
        // process over them: alarmd runs alarmd-sound to play and to check
        // sounds, so it never maps libpulse or libsndfile (with their codecs,
        // X11 and D-Bus) nor parses a sound file itself.
        .target(name: "CSoundLibraries"),
        .target(name: "AlarmSound", dependencies: ["AlarmCore", "CSoundLibraries"]),
        .executableTarget(name: "alarmd-sound", dependencies: ["AlarmSound"]),
        .target(name: "AlarmDaemon", dependencies: ["AlarmCore", "AlarmStore", "AlarmProtocol", "AlarmLocale", "SystemCalls", "BusWire", "CSystemd", "CLinux"]),
        .executableTarget(name: "alarmd", dependencies: ["AlarmDaemon"], exclude: ["alarmd.order"], linkerSettings: orderedLink("alarmd")),
        // The sandboxed process that syncs with CalDAV servers for alarmd.
        .executableTarget(name: "alarmd-sync", dependencies: ["AlarmSync"]),
        // The system helper that sets wake-ups for users whose alarmd cannot.
        // It runs privileged for every user, so it links only what it uses:
        // the C library, Dispatch, and no Foundation at all
        // (WakeHelperBinaryTests checks the libraries and the size).
        .executableTarget(name: "alarmd-wake", dependencies: ["AlarmWake", "SystemCalls"]),
        // The floor under alarmd's footprint in bench/: one Dispatch timer and
        // one read source, no Foundation. Built, never installed.
        .executableTarget(name: "alarmd-floor"),
        // A deterministic generator (SplitMix64) for the benchmarks and the tests:
        // in no shipped binary.
        .target(name: "SeededRandom"),
        .executableTarget(name: "alarmd-bench", dependencies: ["AlarmCore", "AlarmStore", "AlarmProtocol", "SeededRandom"]),
        // Helpers every test target shares: temporary directories and stores,
        // SplitMix64. A plain target, so that test targets can depend on it.
        .target(name: "AlarmTestSupport", dependencies: ["AlarmStore", "SeededRandom"], path: "Tests/AlarmTestSupport"),
        .testTarget(name: "AlarmCoreTests", dependencies: ["AlarmCore", "AlarmTestSupport"]),
        .testTarget(name: "AlarmStoreTests", dependencies: ["AlarmStore", "CSQLite", "AlarmTestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "AlarmCLITests", dependencies: ["AlarmCLI", "AlarmTestSupport"]),
        .testTarget(name: "AlarmTerminalTests", dependencies: ["AlarmTerminal", "Terminal", "AlarmViewModels", "AlarmCore", "AlarmProtocol", "AlarmTestSupport"]),
        .testTarget(name: "AlarmViewModelsTests", dependencies: ["AlarmViewModels", "AlarmCore", "AlarmProtocol", "AlarmLocale", "AlarmTestSupport"]),
        .testTarget(name: "AlarmdTests", dependencies: ["AlarmDaemon", "AlarmStore", "AlarmCore", "AlarmProtocol", "SystemCalls", "AlarmTestSupport"], exclude: ["python"]),
        .testTarget(name: "AlarmProtocolTests", dependencies: ["AlarmProtocol", "AlarmTestSupport"]),
        .testTarget(name: "AlarmWakeTests", dependencies: ["AlarmWake", "AlarmCore", "AlarmTestSupport"]),
        .testTarget(name: "BusWireTests", dependencies: ["BusWire", "SystemCalls", "AlarmTestSupport"]),
        .testTarget(name: "AlarmSyncTests", dependencies: ["AlarmSync", "AlarmCore", "AlarmTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)

/// The modules alarmd and alarmctl link: compiled with a section per
/// function in release builds, so that the link can place them (see
/// orderedLink); the other programs that link some of them (alarmd-wake,
/// the app) keep their default layout. The Swift runtime's and
/// FoundationEssentials' static libraries have sections for part of their
/// functions only: the rest of their code cannot be moved.
let placedByOrder: Set<String> = [
    "CivilCalendar", "AlarmCore", "AlarmLocale", "AlarmStore", "VarlinkCore", "AlarmWake", "AlarmProtocol", "SystemCalls", "BusWire", "AlarmDaemon", "alarmd",
    "AlarmViewModels", "AlarmCLI", "alarmctl",
]
for target in package.targets where placedByOrder.contains(target.name) {
    target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-Xfrontend", "-function-sections"], .when(configuration: .release))]
}
