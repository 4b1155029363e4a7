// SPDX-License-Identifier: Apache-2.0
/// The `io.alarmd` interface definition, served verbatim by
/// `org.varlink.service.GetInterfaceDescription`. Its source is
/// `io.alarmd.varlink` next to this file, embedded at build time, so the file
/// in the repository and what the daemon serves cannot drift apart.
public enum InterfaceDefinition {
    public static let name = "io.alarmd"
    public static let text = String(decoding: PackageResources.io_alarmd_varlink, as: UTF8.self)

    /// The method names the interface declares.
    public static let methods: [String] = text.split(separator: "\n").compactMap { line in
        guard line.hasPrefix("method ") else { return nil }
        return String(line.dropFirst(7).prefix { $0 != "(" })
    }
}
