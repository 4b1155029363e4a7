import Foundation

/// One CalDAV collection (RFC 4791) as the sync worker uses it: list its
/// resources with their ETags, read some, create, replace and delete one,
/// each conditional on the ETag last seen. Blocking; on the worker's queue.
package final class CalDAVCollection {
    /// Why a request failed, said without the password.
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
        /// A refusal of the credentials (401): retrying soon will not help.
        package var unauthorized = false

        package init(description: String, unauthorized: Bool = false) {
            self.description = description
            self.unauthorized = unauthorized
        }
    }

    /// A write's outcome.
    package enum Stored {
        /// Written; the new ETag when the server said it.
        case stored(etag: String?)
        /// `If-Match`/`If-None-Match` failed (412): it changed there meanwhile.
        case changedThere
        /// Refused for this item alone (another 4xx): the round goes on.
        case refused(status: Int)
    }

    package let url: String
    private let http: HTTPClient
    /// `https://host:port`, which a server's absolute-path hrefs go after.
    private let origin: String
    /// The collection's own path, so its listing can leave it out.
    private let path: String

    package init(url: String, http: HTTPClient) {
        self.url = url
        self.http = http
        let afterScheme = url.range(of: "://").map { url[$0.upperBound...] } ?? url[...]
        let slash = afterScheme.firstIndex(of: "/") ?? afterScheme.endIndex
        origin = String(url[..<slash])
        path = String(afterScheme[slash...])
    }

    /// Every calendar object in the collection: href → ETag (`PROPFIND`,
    /// depth 1), and the collection's sync token when the server has them
    /// (RFC 6578).
    package func list() throws(Failure) -> (listing: [String: String], token: String?) {
        let body = """
            <?xml version="1.0" encoding="utf-8"?>
            <d:propfind xmlns:d="DAV:"><d:prop><d:getetag/><d:resourcetype/><d:sync-token/></d:prop></d:propfind>
            """
        let reply = try multistatus("PROPFIND", url, headers: ["Depth: 1"], body: body)
        var listing: [String: String] = [:]
        var token: String?
        for resource in reply.resources where (200..<300).contains(resource.status) {
            let href = normalized(resource.href)
            if href == path || resource.isCollection {
                if href == path { token = resource.syncToken }
                continue
            }
            guard let etag = resource.etag else { continue }
            listing[href] = etag
        }
        return (listing, token)
    }

    /// What changed since `token` (a `sync-collection` REPORT, RFC 6578):
    /// hrefs with their new ETags, hrefs removed, and the next token; `nil`
    /// when the server does not take the token (expired, or no support), and
    /// a full listing is needed instead.
    package func changes(since token: String) throws(Failure) -> (changed: [String: String], removed: [String], token: String)? {
        let body = """
            <?xml version="1.0" encoding="utf-8"?>
            <d:sync-collection xmlns:d="DAV:"><d:sync-token>\(Self.xmlEscaped(token))</d:sync-token><d:sync-level>1</d:sync-level>
            <d:prop><d:getetag/></d:prop></d:sync-collection>
            """
        let response = try send("REPORT", url, headers: ["Content-Type: application/xml; charset=utf-8"], body: Array(body.utf8))
        guard response.status == 207 else {
            if (400..<500).contains(response.status) || response.status == 501 { return nil }
            throw refusal(response, "REPORT sync-collection \(path)")
        }
        let reply: Multistatus
        do { reply = try Multistatus(response.body) } catch { throw Failure(description: "REPORT \(path): \(error)") }
        guard let next = reply.syncToken else { return nil }
        var changed: [String: String] = [:]
        var removed: [String] = []
        for resource in reply.resources {
            let href = normalized(resource.href)
            guard href != path else { continue }
            if resource.status == 404 { removed.append(href) } else if let etag = resource.etag { changed[href] = etag }
        }
        return (changed, removed, next)
    }

    /// The calendar text of `hrefs` (`calendar-multiget`), 100 at a time.
    package func fetch(_ hrefs: [String]) throws(Failure) -> [String: (etag: String?, text: String)] {
        var found: [String: (etag: String?, text: String)] = [:]
        var start = 0
        while start < hrefs.count {
            let batch = hrefs[start..<min(start + 100, hrefs.count)]
            start += 100
            let body = """
                <?xml version="1.0" encoding="utf-8"?>
                <c:calendar-multiget xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">
                <d:prop><d:getetag/><c:calendar-data/></d:prop>
                \(batch.map { "<d:href>\(Self.xmlEscaped($0))</d:href>" }.joined(separator: "\n"))
                </c:calendar-multiget>
                """
            let reply = try multistatus("REPORT", url, headers: ["Depth: 1"], body: body)
            for resource in reply.resources {
                guard (200..<300).contains(resource.status), let text = resource.calendarData else { continue }
                found[normalized(resource.href)] = (resource.etag, text)
            }
        }
        return found
    }

    /// Writes `text` at `href`: over the copy with `etag`, or new when `etag`
    /// is `nil` (`If-None-Match: *`, so nothing there is overwritten).
    package func put(_ href: String, _ text: String, etag: String?) throws(Failure) -> Stored {
        let condition = etag.map { "If-Match: \($0)" } ?? "If-None-Match: *"
        let response = try send("PUT", origin + href, headers: ["Content-Type: text/calendar; charset=utf-8", condition], body: Array(text.utf8))
        switch response.status {
        case 200..<300: return .stored(etag: response.headers["etag"])
        case 412: return .changedThere
        case 400..<500: return .refused(status: response.status)
        default: throw refusal(response, "PUT \(href)")
        }
    }

    /// Deletes `href` if it still has `etag`; gone already counts as done.
    package func delete(_ href: String, etag: String) throws(Failure) -> Stored {
        let response = try send("DELETE", origin + href, headers: ["If-Match: \(etag)"], body: nil)
        switch response.status {
        case 200..<300, 404: return .stored(etag: nil)
        case 412: return .changedThere
        case 400..<500: return .refused(status: response.status)
        default: throw refusal(response, "DELETE \(href)")
        }
    }

    /// `href`'s ETag now (`PROPFIND`, depth 0), for a server that does not
    /// send it with a PUT's reply.
    package func etag(of href: String) throws(Failure) -> String? {
        let body = """
            <?xml version="1.0" encoding="utf-8"?>
            <d:propfind xmlns:d="DAV:"><d:prop><d:getetag/></d:prop></d:propfind>
            """
        return try multistatus("PROPFIND", origin + href, headers: ["Depth: 0"], body: body).resources.first?.etag
    }

    /// Where a new item goes: `<collection>/<uuid>.ics`, as most clients name them.
    package func href(for id: UUID) -> String { path + id.uuidString.lowercased() + ".ics" }

    // MARK: -

    private func send(_ method: String, _ target: String, headers: [String], body: [UInt8]?) throws(Failure) -> HTTPClient.Response {
        do {
            let response = try http.request(method, target, headers: headers, body: body)
            if response.status == 401 {
                throw Failure(description: "the server at \(origin) refused the user name or password (HTTP 401)", unauthorized: true)
            }
            return response
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure(description: "cannot reach \(origin): \(error)")
        }
    }

    private func multistatus(_ method: String, _ target: String, headers: [String], body: String) throws(Failure) -> Multistatus {
        let response = try send(method, target, headers: headers + ["Content-Type: application/xml; charset=utf-8"], body: Array(body.utf8))
        guard response.status == 207 else { throw refusal(response, "\(method) \(path)") }
        do { return try Multistatus(response.body) } catch { throw Failure(description: "\(method) \(path): \(error)") }
    }

    private func refusal(_ response: HTTPClient.Response, _ what: String) -> Failure {
        Failure(description: "\(what): the server answered HTTP \(response.status)")
    }

    /// A server's href as a path: an absolute URL loses its origin, and a
    /// relative one (rare) is taken inside the collection, so that a request
    /// made from it never goes to another host.
    private func normalized(_ href: String) -> String {
        if href.hasPrefix(origin) { return String(href.dropFirst(origin.count)) }
        if let range = href.range(of: "://"), let slash = href[range.upperBound...].firstIndex(of: "/") { return String(href[slash...]) }
        return href.hasPrefix("/") ? href : path + href
    }

    private static func xmlEscaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }
}
