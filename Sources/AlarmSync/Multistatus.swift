import CXML2

/// A WebDAV `207 Multi-Status` reply (RFC 4918 §13) as CalDAV servers send
/// for `PROPFIND`, `calendar-multiget` (RFC 4791 §7.9) and `sync-collection`
/// (RFC 6578): per resource, its href, the status, and the properties asked
/// for. Read with libxml2; elements are matched by namespace and local name,
/// so whatever prefixes a server chooses read the same.
struct Multistatus {
    struct Resource {
        /// As the server wrote it (a path, percent-encoded).
        var href: String
        /// The response's own status (`HTTP/1.1 404 Not Found` for a
        /// resource gone, in a sync-collection reply), else that of the
        /// propstat holding the properties.
        var status: Int
        var etag: String?
        var calendarData: String?
        /// Whether `resourcetype` holds `DAV:collection`.
        var isCollection = false
        /// A collection's `DAV:sync-token` property (RFC 6578 §4).
        var syncToken: String?
    }

    var resources: [Resource] = []
    /// A sync-collection reply's new token.
    var syncToken: String?

    struct Malformed: Error, CustomStringConvertible { let description: String }

    static let dav = "DAV:", caldav = "urn:ietf:params:xml:ns:caldav"

    init(_ body: [UInt8]) throws(Malformed) {
        // No network access and no entity expansion: the reply comes from a
        // server we do not control.
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOBLANKS.rawValue)
        guard let document = body.withUnsafeBufferPointer({ buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) { xmlReadMemory($0, Int32(buffer.count), "reply.xml", nil, options) }
        }) else {
            throw Malformed(description: "the server's reply is not XML")
        }
        defer { xmlFreeDoc(document) }
        guard let root = xmlDocGetRootElement(document), Self.isElement(root, Self.dav, "multistatus") else {
            throw Malformed(description: "the server's reply is not a WebDAV multistatus")
        }
        for child in Self.children(root) {
            if Self.isElement(child, Self.dav, "sync-token") { syncToken = Self.text(child) }
            guard Self.isElement(child, Self.dav, "response") else { continue }
            var resource = Resource(href: "", status: 0)
            var responseStatus: Int?
            for part in Self.children(child) {
                if Self.isElement(part, Self.dav, "href") { resource.href = Self.text(part).trimmingCharacters(in: .whitespacesAndNewlines) }
                if Self.isElement(part, Self.dav, "status") { responseStatus = Self.statusCode(Self.text(part)) }
                guard Self.isElement(part, Self.dav, "propstat") else { continue }
                let status = Self.children(part).first { Self.isElement($0, Self.dav, "status") }.map { Self.statusCode(Self.text($0)) } ?? 200
                // Properties a server does not have come in a 404 propstat: ignored.
                guard (200..<300).contains(status) else { continue }
                resource.status = status
                for prop in Self.children(part) where Self.isElement(prop, Self.dav, "prop") {
                    for property in Self.children(prop) {
                        if Self.isElement(property, Self.dav, "getetag") { resource.etag = Self.text(property).trimmingCharacters(in: .whitespacesAndNewlines) }
                        if Self.isElement(property, Self.dav, "sync-token") {
                            let token = Self.text(property).trimmingCharacters(in: .whitespacesAndNewlines)
                            if !token.isEmpty { resource.syncToken = token }
                        }
                        if Self.isElement(property, Self.caldav, "calendar-data") { resource.calendarData = Self.text(property) }
                        if Self.isElement(property, Self.dav, "resourcetype") {
                            resource.isCollection = Self.children(property).contains { Self.isElement($0, Self.dav, "collection") }
                        }
                    }
                }
            }
            if let responseStatus { resource.status = responseStatus }
            if resource.status == 0 { resource.status = 200 }
            guard !resource.href.isEmpty else { continue }
            resources.append(resource)
        }
    }

    private static func children(_ node: UnsafeMutablePointer<xmlNode>) -> [UnsafeMutablePointer<xmlNode>] {
        var result: [UnsafeMutablePointer<xmlNode>] = []
        var child = node.pointee.children
        while let current = child {
            if current.pointee.type == XML_ELEMENT_NODE { result.append(current) }
            child = current.pointee.next
        }
        return result
    }

    private static func isElement(_ node: UnsafeMutablePointer<xmlNode>, _ namespace: String, _ name: String) -> Bool {
        guard node.pointee.type == XML_ELEMENT_NODE, let nodeName = node.pointee.name,
              String(cString: nodeName) == name else { return false }
        guard let href = node.pointee.ns?.pointee.href else { return false }
        return String(cString: href) == namespace
    }

    /// The element's text, entities and CDATA resolved.
    private static func text(_ node: UnsafeMutablePointer<xmlNode>) -> String {
        guard let content = xmlNodeGetContent(node) else { return "" }
        defer { alarmd_xml_free(content) }
        return String(cString: content)
    }

    /// `HTTP/1.1 404 Not Found` → 404.
    private static func statusCode(_ line: String) -> Int {
        let parts = line.split(separator: " ")
        return parts.count >= 2 ? Int(parts[1]) ?? 0 : 0
    }
}
