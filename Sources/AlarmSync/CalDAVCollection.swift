// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials

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

    /// One resource left out of a reply, for the caller to log.
    package struct Skipped: CustomStringConvertible {
        package let href: String
        package let reason: String
        package var description: String { "\(CalDAVURL.Refusal.shown(href)): \(reason)" }
    }

    /// The collection's address as configured (the sync state's key).
    package let url: String
    private let http: HTTPClient
    /// The address as a URL: every request goes to its origin, and nowhere
    /// else; an address that is not a usable one fails every request.
    private let base: Result<CalDAVURL, CalDAVURL.Refusal>
    /// Told of each resource a reply brings that is not used.
    private let skipped: (Skipped) -> Void

    package init(url: String, http: HTTPClient, skipped: @escaping (Skipped) -> Void = { _ in }) {
        self.url = url
        self.http = http
        self.skipped = skipped
        base = Result { () throws(CalDAVURL.Refusal) in try CalDAVURL(url) }
    }

    /// The collection's path, percent-encoded as configured.
    private var path: String { (try? base.get())?.path ?? "" }
    /// `scheme://host[:port]`, for messages.
    private var origin: String { (try? base.get())?.origin ?? url }

    /// Every calendar object in the collection: href → ETag (`PROPFIND`,
    /// depth 1), and the collection's sync token when the server has them
    /// (RFC 6578).
    ///
    /// The listing is all or nothing: a caller takes an item missing from it
    /// for one removed there, so a reply that cannot be the whole collection
    /// is refused (thrown) rather than returned in part — one without the
    /// collection itself in it (an empty `<multistatus/>`), one the server
    /// marks truncated (507), one with a member that has no 2xx status or no
    /// ETag, or with an href off the collection's server.
    package func list() throws(Failure) -> (listing: [String: String], token: String?) {
        let body = """
            <?xml version="1.0" encoding="utf-8"?>
            <d:propfind xmlns:d="DAV:"><d:prop><d:getetag/><d:resourcetype/><d:sync-token/></d:prop></d:propfind>
            """
        let reply = try multistatus("PROPFIND", try collectionURL(), headers: ["Depth: 1"], body: body)
        let what = "PROPFIND \(path)"
        guard !reply.isTruncated else { throw Failure(description: "\(what): the server left part of the listing out (507); it is not used") }
        var listing: [String: String] = [:]
        var token: String?
        var sawCollection = false
        for resource in reply.resources {
            let href = try member(resource.href, what)
            if isCollection(href) {
                sawCollection = true
                token = resource.syncToken
                continue
            }
            if resource.isCollection { continue }
            guard (200..<300).contains(resource.status), let etag = resource.etag, !etag.isEmpty else {
                throw Failure(description: "\(what): the server listed \(CalDAVURL.Refusal.shown(href)) with \((200..<300).contains(resource.status) ? "no ETag" : "HTTP \(resource.status)"); the listing is not used")
            }
            listing[href] = etag
        }
        guard sawCollection else {
            throw Failure(description: "\(what): the server's listing does not hold the collection itself (\(reply.resources.count) responses); it is not used")
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
        let response = try send("REPORT", try collectionURL(), headers: ["Content-Type: application/xml; charset=utf-8"], body: Array(body.utf8))
        guard response.status == 207 else {
            if (400..<500).contains(response.status) || response.status == 501 { return nil }
            throw refusal(response, "REPORT sync-collection \(path)")
        }
        let what = "REPORT sync-collection \(path)"
        let reply: Multistatus
        do { reply = try Multistatus(response.body) } catch { throw Failure(description: "\(what): \(error)") }
        guard let next = reply.syncToken, !next.isEmpty else { return nil }
        var changed: [String: String] = [:]
        var removed: [String] = []
        for resource in reply.resources {
            let href = try member(resource.href, what)
            // The collection itself: a 507 there says more changes follow
            // with the next token (RFC 6578 §3.6).
            guard !isCollection(href), !resource.isCollection else { continue }
            if resource.status == 404 {
                removed.append(href)
            } else if (200..<300).contains(resource.status), let etag = resource.etag, !etag.isEmpty {
                changed[href] = etag
            } else {
                throw Failure(description: "\(what): the server reported \(CalDAVURL.Refusal.shown(href)) with \((200..<300).contains(resource.status) ? "no ETag" : "HTTP \(resource.status)"); the changes are not used")
            }
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
            let collection = try collectionURL()
            let reply = try multistatus("REPORT", collection, headers: ["Depth: 1"], body: body)
            for resource in reply.resources {
                let href: String
                do throws(CalDAVURL.Refusal) { href = try collection.member(resource.href).target } catch {
                    skipped(Skipped(href: resource.href, reason: error.description))
                    continue
                }
                if let size = resource.calendarDataTooLarge {
                    skipped(Skipped(href: href, reason: "its calendar data is \(size) bytes, more than the \(Multistatus.Limit.calendarData >> 20) MiB an item may have"))
                }
                guard (200..<300).contains(resource.status), let text = resource.calendarData else { continue }
                found[href] = (resource.etag, text)
            }
        }
        return found
    }

    /// Writes `text` at `href`: over the copy with `etag`, or new when `etag`
    /// is `nil` (`If-None-Match: *`, so nothing there is overwritten).
    package func put(_ href: String, _ text: String, etag: String?) throws(Failure) -> Stored {
        let condition = etag.map { "If-Match: \($0)" } ?? "If-None-Match: *"
        let response = try send("PUT", try target(href, "PUT"), headers: ["Content-Type: text/calendar; charset=utf-8", condition], body: Array(text.utf8))
        switch response.status {
        case 200..<300: return .stored(etag: response.headers["etag"])
        case 412: return .changedThere
        case 400..<500: return .refused(status: response.status)
        default: throw refusal(response, "PUT \(href)")
        }
    }

    /// Deletes `href` if it still has `etag`; gone already counts as done.
    package func delete(_ href: String, etag: String) throws(Failure) -> Stored {
        let response = try send("DELETE", try target(href, "DELETE"), headers: ["If-Match: \(etag)"], body: nil)
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
        return try multistatus("PROPFIND", try target(href, "PROPFIND"), headers: ["Depth: 0"], body: body).resources.first?.etag
    }

    /// Where a new item goes: `<collection>/<uuid>.ics`, as most clients name them.
    package func href(for id: UUID) -> String { path + id.lowercasedText + ".ics" }

    // MARK: -

    private func send(_ method: String, _ target: CalDAVURL, headers: [String], body: [UInt8]?) throws(Failure) -> HTTPClient.Response {
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

    private func multistatus(_ method: String, _ target: CalDAVURL, headers: [String], body: String) throws(Failure) -> Multistatus {
        let response = try send(method, target, headers: headers + ["Content-Type: application/xml; charset=utf-8"], body: Array(body.utf8))
        guard response.status == 207 else { throw refusal(response, "\(method) \(path)") }
        do { return try Multistatus(response.body) } catch { throw Failure(description: "\(method) \(path): \(error)") }
    }

    private func refusal(_ response: HTTPClient.Response, _ what: String) -> Failure {
        Failure(description: "\(what): the server answered HTTP \(response.status)")
    }

    /// The collection's URL, or the reason the configured address is not one.
    private func collectionURL() throws(Failure) -> CalDAVURL {
        switch base {
        case .success(let url): return url
        case .failure(let refusal): throw Failure(description: "the collection's address: \(refusal)")
        }
    }

    /// Where a request for `href` (the caller's, from an earlier listing)
    /// goes: resolved against the collection, and refused unless it is on
    /// the collection's server, so the credentials go nowhere else.
    private func target(_ href: String, _ method: String) throws(Failure) -> CalDAVURL {
        let collection = try collectionURL()
        do throws(CalDAVURL.Refusal) { return try collection.member(href) } catch {
            throw Failure(description: "\(method): \(error); nothing is sent")
        }
    }

    /// A server's href in a reply, as the path (and query) on the
    /// collection's server that it names; one elsewhere fails the reply.
    private func member(_ href: String, _ what: String) throws(Failure) -> String {
        let collection = try collectionURL()
        do throws(CalDAVURL.Refusal) { return try collection.member(href).target } catch {
            throw Failure(description: "\(what): \(error); the reply is not used")
        }
    }

    /// Whether `href` (a path from ``member(_:_:)``) is the collection itself,
    /// with or without its final `/` and whatever a server percent-encodes.
    private func isCollection(_ href: String) -> Bool {
        func key(_ path: String) -> String {
            let decoded = path.percentDecoded()
            return decoded.hasSuffix("/") ? String(decoded.dropLast()) : decoded
        }
        return key(href) == key(path)
    }

    private static func xmlEscaped(_ text: String) -> String {
        text.replacing("&", with: "&amp;").replacing("<", with: "&lt;").replacing(">", with: "&gt;")
    }
}
