// SPDX-License-Identifier: Apache-2.0
extension DaemonConfig {
    /// The commented default alarmd.conf, shipped as `config/alarmd.conf`
    /// (installed to `/etc/xdg/alarmd/`): every key of ``keys`` under its
    /// section, with its doc wrapped into comment lines and its default
    /// commented out, so uncommenting a line changes nothing until its value
    /// is edited. A test holds the shipped file to this text.
    public static var defaultFileText: String {
        var lines = header.flatMap { commentLines($0) }
        var section: String?
        for key in keys {
            lines.append("")
            if key.section != section {
                section = key.section
                lines.append("[\(key.section)]")
            }
            lines += commentLines(key.doc)
            lines.append("#\(key.name)=\(key.defaultValue)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The paragraphs above the first section; an empty one is a bare `#` line.
    private static let header = [
        "alarmd configuration.",
        "",
        "The daemon reads the first of these that exists: the file given with --config, "
            + "$XDG_CONFIG_HOME/alarmd/alarmd.conf (~/.config/alarmd/alarmd.conf), each $XDG_CONFIG_DIRS entry's "
            + "alarmd/alarmd.conf (/etc/xdg/alarmd/alarmd.conf). Every key is shown commented out with its built-in default; "
            + "alarmd.conf(5) describes each. Reload with `systemctl --user reload alarmd` (SIGHUP). An unknown key is a "
            + "warning in the journal; a value that does not parse stops start-up, naming file, line and key.",
    ]

    /// The longest comment line, `# ` included.
    private static let width = 78

    /// `paragraph` as `# ` lines of at most ``width`` characters, broken at
    /// spaces (a longer word gets a line of its own); an empty one is `#`.
    private static func commentLines(_ paragraph: String) -> [String] {
        var lines: [String] = []
        var line = "#"
        for word in paragraph.split(separator: " ") {
            if line != "#", line.count + 1 + word.count > width {
                lines.append(line)
                line = "#"
            }
            line += " " + word
        }
        lines.append(line)
        return lines
    }
}
