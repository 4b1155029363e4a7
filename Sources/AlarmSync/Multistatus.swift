// SPDX-License-Identifier: Apache-2.0
import CXML2
import FoundationEssentials

/// A WebDAV `207 Multi-Status` reply (RFC 4918 §13) as CalDAV servers send
/// for `PROPFIND`, `calendar-multiget` (RFC 4791 §7.9) and `sync-collection`
/// (RFC 6578): per resource, its href, the status, and the properties asked
/// for. Read with libxml2; elements are matched by namespace and local name,
/// so whatever prefixes a server chooses read the same.
///
/// The reply comes from a server alarmd does not control, so it is read
/// strictly and within bounds, and a value exists only for a reply that
/// passed all of it:
/// - it is well-formed XML with no DOCTYPE: nothing is declared, loaded or
///   expanded, so no text is longer than the reply holds it;
/// - the tree has at most ``maxNodes`` nodes (libxml2 refuses nesting deeper
///   than 256 on its own);
/// - the root is `DAV:multistatus`, and every `response` in it has an href
///   (one, or several in the status-only form) and a status, its own or a
///   propstat's, that parses as an HTTP status line;
/// - each text value is within its bound (``Limit``) and holds no element.
///
/// What a caller may trust: every resource the server wrote is in
/// ``resources``, in its order, with the status the server gave it; a
/// property is set only when a 2xx propstat held it. What it may not: that
/// the reply lists everything (``isTruncated`` says when the server said it
/// did not, and a server may leave resources out without saying so, which
/// only the caller can notice, e.g. by the collection itself missing); that
/// an href is on the server that answered (``CalDAVURL`` decides that); an
/// empty `<multistatus/>` is a well-formed reply with no resources.
struct Multistatus {
    struct Resource {
        /// As the server wrote it (trimmed; percent-encoded).
        var href: String
        /// The response's own status (`HTTP/1.1 404 Not Found` for a
        /// resource gone, in a sync-collection reply), else that of the
        /// first 2xx propstat, else that of the first propstat.
        var status: Int
        var etag: String?
        var calendarData: String?
        /// The size of a `calendar-data` over ``Limit/calendarData``, which
        /// is then left out (``calendarData`` is `nil`): one item too large
        /// to keep, not a broken reply.
        var calendarDataTooLarge: Int?
        /// Whether `resourcetype` holds `DAV:collection`.
        var isCollection = false
        /// A collection's `DAV:sync-token` property (RFC 6578 §4).
        var syncToken: String?
    }

    var resources: [Resource] = []
    /// A sync-collection reply's new token.
    var syncToken: String?
    /// Some response has status 507 (Insufficient Storage): the server says
    /// it left resources out (RFC 6578 §3.6, RFC 4918 §11.5).
    var isTruncated: Bool { resources.contains { $0.status == 507 } }

    /// Why a reply is refused as a whole.
    struct Malformed: Error, CustomStringConvertible { let description: String }

    /// The longest text each element may hold, in bytes of UTF-8.
    enum Limit {
        static let href = 8 << 10
        static let etag = 1 << 10
        static let status = 256
        static let syncToken = 8 << 10
        /// An item's iCalendar text; an alarm or a to-do is a few kilobytes.
        static let calendarData = 1 << 20
    }

    /// The most nodes a reply's tree may have: a listing of about 40,000
    /// items, two thousand times what a multiget batch of 100 brings.
    static let maxNodes = 500_000

    static let dav = "DAV:", caldav = "urn:ietf:params:xml:ns:caldav"

    init(_ body: [UInt8]) throws(Malformed) {
        guard !body.isEmpty else { throw Malformed(description: "the server's reply is empty, not a WebDAV multistatus") }
        guard body.count <= Int(Int32.max) else { throw Malformed(description: "the server's reply is larger than libxml2 reads (\(body.count) bytes)") }
        // No network access, no entity substitution, no DTD (the DOCTYPE
        // hook stops at one), no XML_PARSE_HUGE (its limits stay: depth 256,
        // 10 MB per text node); errors are collected, not printed.
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOBLANKS.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue)
        var outcome = alarmd_xml_outcome()
        outcome.maxNodes = Self.maxNodes
        let parsed = body.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { alarmd_xml_read($0.baseAddress, Int32($0.count), options, &outcome) }
        }
        guard let document = parsed else {
            if outcome.declaresDTD != 0 {
                throw Malformed(description: "the server's reply declares a DOCTYPE, which a WebDAV multistatus never needs; it is not read")
            }
            if outcome.tooManyNodes != 0 {
                throw Malformed(description: "the server's reply has more than \(Self.maxNodes) XML nodes")
            }
            let message = withUnsafeBytes(of: outcome.errorMessage) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                .trimmingBlanks()
            throw Malformed(description: "the server's reply is not well-formed XML (line \(outcome.errorLine): \(message.isEmpty ? "error \(outcome.errorCode)" : message))")
        }
        defer { xmlFreeDoc(document) }
        guard let root = xmlDocGetRootElement(document), Self.isElement(root, Self.dav, "multistatus") else {
            throw Malformed(description: "the server's reply is not a WebDAV multistatus")
        }
        for child in Self.children(root) {
            if Self.isElement(child, Self.dav, "sync-token") { syncToken = try Self.text(child, "sync-token", limit: Limit.syncToken) }
            guard Self.isElement(child, Self.dav, "response") else { continue }
            resources += try Self.resources(child, number: resources.count + 1)
        }
    }

    /// One `response`: one resource, or one per href in the status-only form.
    private static func resources(_ response: UnsafeMutablePointer<xmlNode>, number: Int) throws(Malformed) -> [Resource] {
        var hrefs: [String] = []
        var responseStatus: Int?
        var propstats: [UnsafeMutablePointer<xmlNode>] = []
        for part in children(response) {
            if isElement(part, dav, "href") {
                let href = try text(part, "href", limit: Limit.href)
                guard !href.isEmpty else { throw Malformed(description: "response \(number) of the server's reply has an empty href") }
                hrefs.append(href)
            } else if isElement(part, dav, "status") {
                guard responseStatus == nil else { throw Malformed(description: "response \(number) of the server's reply has two statuses") }
                responseStatus = try statusCode(part, number)
            } else if isElement(part, dav, "propstat") {
                propstats.append(part)
            }
        }
        guard let first = hrefs.first else {
            throw Malformed(description: "response \(number) of the server's reply has no href")
        }
        guard hrefs.count == 1 || propstats.isEmpty else {
            throw Malformed(description: "response \(number) of the server's reply has \(hrefs.count) hrefs and properties, which RFC 4918 allows only for one")
        }
        guard responseStatus != nil || !propstats.isEmpty else {
            throw Malformed(description: "response \(number) (\(shown(first))) of the server's reply has neither a status nor properties")
        }
        var resource = Resource(href: first, status: 0)
        var firstStatus: Int?
        for propstat in propstats {
            guard let statusNode = children(propstat).first(where: { isElement($0, dav, "status") }) else {
                throw Malformed(description: "a propstat of response \(number) (\(shown(first))) has no status")
            }
            let status = try statusCode(statusNode, number)
            if firstStatus == nil { firstStatus = status }
            // Properties a server does not have come in a 404 propstat: ignored.
            guard (200..<300).contains(status) else { continue }
            if resource.status == 0 { resource.status = status }
            for prop in children(propstat) where isElement(prop, dav, "prop") {
                for property in children(prop) {
                    if isElement(property, dav, "getetag") {
                        resource.etag = try text(property, "getetag", limit: Limit.etag)
                    } else if isElement(property, dav, "sync-token") {
                        let token = try text(property, "sync-token", limit: Limit.syncToken)
                        if !token.isEmpty { resource.syncToken = token }
                    } else if isElement(property, caldav, "calendar-data") {
                        let size = textSize(property)
                        if size > Limit.calendarData {
                            resource.calendarDataTooLarge = size
                        } else {
                            resource.calendarData = try text(property, "calendar-data", limit: Limit.calendarData, trimmed: false)
                        }
                    } else if isElement(property, dav, "resourcetype") {
                        resource.isCollection = children(property).contains { isElement($0, dav, "collection") }
                    }
                }
            }
        }
        if resource.status == 0, let firstStatus { resource.status = firstStatus }
        if let responseStatus { resource.status = responseStatus }
        return hrefs.map { href in
            var each = resource
            each.href = href
            return each
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

    /// The bytes of the element's own text and CDATA children.
    private static func textSize(_ node: UnsafeMutablePointer<xmlNode>) -> Int {
        var size = 0
        var child = node.pointee.children
        while let current = child {
            if current.pointee.type == XML_TEXT_NODE || current.pointee.type == XML_CDATA_SECTION_NODE, let content = current.pointee.content {
                size += Self.length(content)
            }
            child = current.pointee.next
        }
        return size
    }

    /// The element's text: its text and CDATA children, at most `limit`
    /// bytes, trimmed of white space unless `trimmed` is false. A text value
    /// holding an element (or anything but text, comments and processing
    /// instructions) is refused.
    private static func text(_ node: UnsafeMutablePointer<xmlNode>, _ name: String, limit: Int, trimmed: Bool = true) throws(Malformed) -> String {
        var bytes: [UInt8] = []
        var child = node.pointee.children
        while let current = child {
            child = current.pointee.next
            switch current.pointee.type {
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                guard let content = current.pointee.content else { continue }
                let length = Self.length(content)
                guard bytes.count + length <= limit else {
                    throw Malformed(description: "a <\(name)> in the server's reply is longer than \(limit) bytes")
                }
                bytes.append(contentsOf: UnsafeBufferPointer(start: content, count: length))
            case XML_COMMENT_NODE, XML_PI_NODE:
                continue
            default:
                let inner = current.pointee.name.map { String(cString: $0) } ?? "?"
                throw Malformed(description: "a <\(name)> in the server's reply holds <\(shown(inner))>, where only text belongs")
            }
        }
        let text = String(decoding: bytes, as: UTF8.self)
        return trimmed ? text.trimmingBlanks() : text
    }

    private static func length(_ content: UnsafePointer<xmlChar>) -> Int {
        strlen(UnsafeRawPointer(content).assumingMemoryBound(to: CChar.self))
    }

    /// `HTTP/1.1 404 Not Found` → 404; anything else is refused.
    private static func statusCode(_ node: UnsafeMutablePointer<xmlNode>, _ number: Int) throws(Malformed) -> Int {
        let line = try text(node, "status", limit: Limit.status)
        let parts = line.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/"), parts[1].count == 3, let code = Int(parts[1]), (100...599).contains(code) else {
            throw Malformed(description: "response \(number) of the server's reply has the status \"\(shown(line))\", not an HTTP status line")
        }
        return code
    }

    /// Server text for a message: at most 100 characters, control characters
    /// as `?`, so that it cannot forge lines in a log.
    static func shown(_ text: String) -> String {
        let cleaned = String(String.UnicodeScalarView(text.unicodeScalars.prefix(100).map { $0.properties.generalCategory == .control ? "?" : $0 }))
        return text.unicodeScalars.count > 100 ? cleaned + "…" : cleaned
    }
}
