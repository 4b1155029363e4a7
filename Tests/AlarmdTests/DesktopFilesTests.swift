// SPDX-License-Identifier: Apache-2.0
import Foundation
import FoundationXML
import Glibc
import Testing

/// The files that make the desktop app, Alarms, part of the desktop (data/):
/// its .desktop entry and AppStream metainfo under their own validators, its
/// icons parsed and drawn, its manual under mandoc, and each file agreeing
/// with the others and with Package.swift. (That `make install` puts them
/// where desktops look is InstallTests'; that the Debian package does,
/// DebianPackageTests'.)
@Suite struct DesktopFilesTests {
    static let root = InstallTests.root
    static let id = "io.alarmd.Alarms"
    static let desktopFile = "data/io.alarmd.Alarms.desktop"
    static let metainfoFile = "data/io.alarmd.Alarms.metainfo.xml"
    static let appIcon = "data/icons/hicolor/scalable/apps/io.alarmd.Alarms.svg"
    static let symbolicIcon = "data/icons/hicolor/symbolic/apps/io.alarmd.Alarms-symbolic.svg"

    /// A checker on PATH; missing, the test fails and names the package that
    /// has it (`make test-deps` installs them all).
    static func tool(_ name: String, package: String) throws -> String {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
            .map { $0 + "/" + name }.first { FileManager.default.isExecutableFile(atPath: $0) }
        return try #require(path, "\(name) is not installed (apt-get install \(package), or make test-deps as root)")
    }

    static func text(_ path: String) throws -> String {
        try String(contentsOfFile: root + "/" + path, encoding: .utf8)
    }

    /// The [Desktop Entry] group's keys and values (comments and other groups left out).
    static func desktopEntry() throws -> [String: String] {
        var entry: [String: String] = [:]
        var group = ""
        for line in try text(desktopFile).split(separator: "\n") where !line.hasPrefix("#") {
            if line.hasPrefix("[") { group = String(line); continue }
            guard group == "[Desktop Entry]", let equals = line.firstIndex(of: "=") else { continue }
            entry[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        return entry
    }

    static func xml(_ path: String) throws -> XMLDocument {
        try XMLDocument(contentsOf: URL(fileURLWithPath: root + "/" + path), options: [])
    }

    /// The text of the elements at `xpath`, each with its xml:lang ("" when it has none).
    static func strings(_ document: XMLDocument, _ xpath: String) throws -> [(lang: String, text: String)] {
        try document.nodes(forXPath: xpath).compactMap { $0 as? XMLElement }.map { element in
            (element.attribute(forName: "xml:lang")?.stringValue ?? "", element.stringValue ?? "")
        }
    }

    /// An attribute's value by its name as written. (FoundationXML's
    /// attribute(forName:) looks in the element's namespace, SVG's, where
    /// an SVG element's plain attributes are not.)
    static func attribute(_ element: XMLElement, _ name: String) -> String? {
        element.attributes?.first { $0.name == name }?.stringValue
    }

    /// The products Package.swift declares as executables.
    static func executableProducts() throws -> Set<String> {
        let manifest = try text("Package.swift")
        return Set(manifest.matches(of: #/\.executable\(name: "([^"]+)"/#).map { String($0.output.1) })
    }

    @Test func theDesktopEntryPassesDesktopFileValidate() throws {
        let validate = try Self.tool("desktop-file-validate", package: "desktop-file-utils")
        let result = try InstallTests.run([validate, Self.root + "/" + Self.desktopFile], environment: ["LC_ALL": "C.UTF-8"])
        #expect(result.status == 0, "desktop-file-validate:\n\(result.output)")
        #expect(result.output.isEmpty, "desktop-file-validate printed:\n\(result.output)")
    }

    @Test func theDesktopEntryStartsTheAppUnderItsNameAndIcon() throws {
        let entry = try Self.desktopEntry()
        #expect(entry["Type"] == "Application")
        #expect(entry["Name"] == "Alarms")
        #expect(entry["Name[zh_TW]"] == "鬧鐘")
        #expect(entry["Comment"]?.isEmpty == false && entry["Comment[zh_TW]"]?.isEmpty == false)
        #expect(entry["Keywords"]?.hasSuffix(";") == true && entry["Keywords[zh_TW]"]?.hasSuffix(";") == true)
        #expect(entry["Icon"] == Self.id, "the icon is named by the application id")
        #expect(entry["Categories"]?.split(separator: ";").map(String.init) == ["GTK", "GNOME", "Utility", "Clock"])
        #expect(entry["StartupNotify"] == "true")
        #expect(entry["X-GNOME-UsesNotifications"] == "true")
        // The app registers no D-Bus activation: the desktop must run Exec.
        #expect(entry["DBusActivatable"] == nil)
        // Exec is the product Package.swift builds, which the build made.
        let exec = try #require(entry["Exec"])
        #expect(exec == "alarms", "Exec=\(exec)")
        #expect(try Self.executableProducts().contains(exec), "Package.swift has no executable product \(exec)")
        #expect(FileManager.default.isExecutableFile(atPath: productsDirectory + "/" + exec), "\(exec) was not built in \(productsDirectory)")
    }

    @Test func theMetainfoPassesAppstreamcliValidate() throws {
        let appstreamcli = try Self.tool("appstreamcli", package: "appstream")
        let result = try InstallTests.run([appstreamcli, "validate", "--no-net", "--no-color", Self.root + "/" + Self.metainfoFile],
                                          environment: ["LC_ALL": "C.UTF-8"])
        #expect(result.status == 0, "appstreamcli validate:\n\(result.output)")
        // No error and no warning; only pedantic notes (shown with --pedantic)
        // may remain, such as the upper-case letter the application id has.
        let issues = result.output.split(separator: "\n").filter { $0.hasPrefix("E:") || $0.hasPrefix("W:") || $0.hasPrefix("I:") }
        #expect(issues.isEmpty, "appstreamcli validate:\n\(result.output)")
    }

    /// The metainfo names what the other files are: its launchable is the
    /// desktop entry shipped beside it, its binary the entry's Exec, its names
    /// the entry's, its release the Debian package's version.
    @Test func theMetainfoAgreesWithTheDesktopEntryAndThePackage() throws {
        let metainfo = try Self.xml(Self.metainfoFile)
        let component = try #require(metainfo.rootElement())
        #expect(component.name == "component" && component.attribute(forName: "type")?.stringValue == "desktop-application")
        #expect(try Self.strings(metainfo, "/component/id").map(\.text) == [Self.id])
        #expect(try Self.strings(metainfo, "/component/metadata_license").map(\.text) == ["CC0-1.0"])

        let launchable = try metainfo.nodes(forXPath: "/component/launchable").compactMap { $0 as? XMLElement }
        #expect(launchable.count == 1 && launchable.first?.attribute(forName: "type")?.stringValue == "desktop-id")
        let desktopID = try #require(launchable.first?.stringValue)
        #expect("data/" + desktopID == Self.desktopFile, "the launchable is \(desktopID)")
        #expect(FileManager.default.fileExists(atPath: Self.root + "/data/" + desktopID), "no data/\(desktopID)")

        let entry = try Self.desktopEntry()
        #expect(try Self.strings(metainfo, "/component/provides/binary").map(\.text) == [entry["Exec"] ?? "?"])
        let names = try Self.strings(metainfo, "/component/name")
        #expect(names.first { $0.lang.isEmpty }?.text == entry["Name"])
        #expect(names.first { $0.lang == "zh_TW" }?.text == entry["Name[zh_TW]"])
        let summaries = try Self.strings(metainfo, "/component/summary")
        #expect(Set(summaries.map(\.lang)) == ["", "zh_TW"], "\(summaries)")
        // Every paragraph and list item of the description has its translation.
        let paragraphs = try Self.strings(metainfo, "/component/description/p")
        #expect(paragraphs.filter { $0.lang == "zh_TW" }.count == paragraphs.filter { $0.lang.isEmpty }.count)
        let items = try Self.strings(metainfo, "/component/description/ul/li")
        #expect(!items.isEmpty && items.filter { $0.lang == "zh_TW" }.count == items.filter { $0.lang.isEmpty }.count)

        // The release is the one debian/changelog's top entry makes.
        let changelog = try Self.text("debian/changelog")
        let version = try #require(changelog.firstMatch(of: #/^alarmd \(([^)]+)\)/#)).output.1
        let releases = try metainfo.nodes(forXPath: "/component/releases/release").compactMap { $0 as? XMLElement }
        #expect(releases.first?.attribute(forName: "version")?.stringValue == String(version), "debian/changelog is at \(version)")

        // Three screenshots of the real app, English and Chinese, where the
        // README's screenshots are made (docs/screenshots), each captioned in both.
        var images: [String] = []
        for screenshot in try metainfo.nodes(forXPath: "/component/screenshots/screenshot").compactMap({ $0 as? XMLElement }) {
            let captions = screenshot.elements(forName: "caption").map { $0.attribute(forName: "xml:lang")?.stringValue ?? "" }
            #expect(captions == ["", "zh_TW"], "\(captions)")
            images += screenshot.elements(forName: "image").map { image in
                ((image.attribute(forName: "xml:lang")?.stringValue).map { $0 + ":" } ?? "") + (image.stringValue ?? "")
            }
        }
        let base = "https://raw.githubusercontent.com/alarmd/alarmd/main/docs/screenshots/"
        var expected: [String] = []
        for screen in ["alarms", "alarm-editor", "todos"] {
            expected.append(base + screen + ".png")
            expected.append("zh_TW:" + base + screen + "-zh_TW.png")
        }
        #expect(images == expected, "\(images)")
    }

    /// The icons are SVG that a desktop can draw: an <svg> root with a viewBox,
    /// shapes only (no bitmap, no text), and something visible when rasterized.
    @Test(arguments: [appIcon, symbolicIcon])
    func theIconsAreSVGAndDrawSomething(_ icon: String) throws {
        let document = try Self.xml(icon)
        let svg = try #require(document.rootElement())
        #expect(svg.localName == "svg" && svg.uri == "http://www.w3.org/2000/svg", "the root is <\(svg.name ?? "?")>")
        let viewBox = try #require(Self.attribute(svg, "viewBox"), "\(icon) has no viewBox")
        let size = icon == Self.symbolicIcon ? "16" : "128"
        #expect(viewBox == "0 0 \(size) \(size)", "\(icon): viewBox \(viewBox)")
        #expect(Self.attribute(svg, "width") == size && Self.attribute(svg, "height") == size)
        let elements = try document.nodes(forXPath: "//*").compactMap { $0 as? XMLElement }
        let names = Set(elements.compactMap(\.localName))
        #expect(names.isDisjoint(with: ["image", "text", "foreignObject", "script", "use"]), "\(icon) uses \(names.sorted())")
        #expect(!(try Self.text(icon)).contains("data:"), "\(icon) embeds data")

        // Drawn by librsvg, as GTK draws icons, through ImageMagick.
        let convert = try Self.tool("convert", package: "imagemagick")
        _ = try Self.tool("rsvg-convert", package: "librsvg2-bin")
        let identify = try Self.tool("identify", package: "imagemagick")
        let directory = TemporaryDirectory()
        let png = directory.path + "/icon.png"
        let drawn = try InstallTests.run([convert, "-background", "none", Self.root + "/" + icon, png])
        try #require(drawn.status == 0, "convert \(icon):\n\(drawn.output)")
        let described = try InstallTests.run([identify, "-format", "%w %h %k", png])
        let fields = described.output.split(separator: " ").compactMap { Int($0) }
        try #require(fields.count == 3, "identify: \(described.output)")
        #expect(fields[0] == Int(size) && fields[1] == Int(size), "\(icon) draws at \(fields[0])×\(fields[1])")
        // A blank (all transparent) picture has one colour.
        #expect(fields[2] > 1, "\(icon) draws a blank picture")
    }

    /// A symbolic icon is recoloured by GTK, which fills every shape with the
    /// text colour: so shapes only, filled with the one colour the
    /// guidelines draw them in, no strokes (a stroked ring would be filled
    /// into a disc).
    @Test func theSymbolicIconIsFilledShapesInOneColour() throws {
        let document = try Self.xml(Self.symbolicIcon)
        var colours: Set<String> = []
        for element in try document.nodes(forXPath: "//*").compactMap({ $0 as? XMLElement }) {
            #expect(Self.attribute(element, "stroke") == nil && Self.attribute(element, "style") == nil,
                    "<\(element.localName ?? "?")> has a stroke or a style")
            if let fill = Self.attribute(element, "fill") { colours.insert(fill.lowercased()) }
        }
        #expect(colours == ["#2e3436"], "\(colours)")
    }

    /// alarms(1) under mandoc's lint, and under groff as lintian runs it
    /// (a Chinese character written raw would be a groff warning there).
    @Test func theManualPassesItsCheckers() throws {
        let mandoc = try Self.tool("mandoc", package: "mandoc")
        let page = Self.root + "/docs/man/alarms.1"
        let lint = try InstallTests.run([mandoc, "-T", "lint", "-W", "warning", page])
        #expect(lint.status == 0 && lint.output.isEmpty, "mandoc -T lint:\n\(lint.output)")
        let man = try Self.tool("man", package: "man-db")
        // Only what man says on standard error: the page itself goes to /dev/null.
        let groff = try InstallTests.run(["sh", "-c", "\"$0\" --warnings -E UTF-8 -l -Tutf8 -Z \"$1\" >/dev/null", man, page],
                                         environment: ["LC_ALL": "C.UTF-8", "MANROFFSEQ": "", "MANWIDTH": "80"])
        #expect(groff.status == 0, "man --warnings:\n\(groff.output)")
        #expect(!groff.output.contains("warning"), "man --warnings:\n\(groff.output)")
        // It documents the shortcuts and the state file the app keeps.
        let text = try String(contentsOfFile: page, encoding: .utf8)
        for needle in ["Ctrl+N", "Ctrl+Z", "Ctrl+Q", "F1", "ALARMD_SOCKET", "XDG_STATE_HOME", "alarms/window.ini", ".BR alarmctl (1)"] {
            #expect(text.contains(needle), "alarms.1 does not mention \(needle)")
        }
    }
}
