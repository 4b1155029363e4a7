// swift-tools-version:6.0
import PackageDescription

// Layers, bottom to top:
//   AlarmCore   pure model, time rules and state machines; no I/O, never reads the clock
//   AlarmStore  SQLite persistence (through the C API in CSQLite)
//   AlarmCLI    alarmctl's commands, kept in a library so tests can drive them in-process too
//   alarmd, alarmctl  thin executables
let package = Package(
    name: "alarmd",
    products: [
        .executable(name: "alarmd", targets: ["alarmd"]),
        .executable(name: "alarmctl", targets: ["alarmctl"]),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .target(name: "AlarmCore"),
        .target(name: "AlarmStore", dependencies: ["AlarmCore", "CSQLite"]),
        .target(name: "AlarmCLI", dependencies: ["AlarmCore", "AlarmStore"]),
        .executableTarget(name: "alarmctl", dependencies: ["AlarmCLI"]),
        .executableTarget(name: "alarmd", dependencies: ["AlarmCore", "AlarmStore"]),
        .testTarget(name: "AlarmCoreTests", dependencies: ["AlarmCore"]),
        .testTarget(name: "AlarmStoreTests", dependencies: ["AlarmStore", "CSQLite"], exclude: ["Fixtures"]),
        .testTarget(name: "AlarmCLITests", dependencies: ["AlarmCLI"]),
    ],
    swiftLanguageModes: [.v6]
)
