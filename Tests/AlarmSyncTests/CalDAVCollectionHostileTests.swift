// SPDX-License-Identifier: Apache-2.0
@testable import AlarmSync
import Foundation
import Testing

/// `CalDAVCollection` over real HTTP (libcurl) against
/// `hostile_caldav.py`: the password never goes anywhere but the configured
/// origin, and a listing that cannot be the whole collection is never
/// returned as one.
@Suite(.serialized) struct CalDAVCollectionHostileTests {
    static func client(timeout: Int = 30) throws -> HTTPClient {
        try #require(HTTPClient(user: "alice", password: "secret", timeoutSeconds: timeout))
    }

    /// Lists the collection, then writes and deletes every href listed, as
    /// a sync round would; the listing's failure, if any.
    static func round(_ collection: CalDAVCollection) -> String? {
        do {
            let (listing, _) = try collection.list()
            for (href, etag) in listing {
                _ = try? collection.put(href, "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n", etag: etag)
                _ = try? collection.delete(href, etag: etag)
                _ = try? collection.etag(of: href)
            }
            return nil
        } catch {
            return error.description
        }
    }

    /// An href with a user name in it named a second port: requests went
    /// there, with the password.
    @Test func anHrefWithAUserNameNeverGetsTheCredentialsElsewhere() throws {
        let sink = try HostileServer(["--sink"])
        let server = try HostileServer(["--mode", "userinfo", "--sink-port", String(sink.port)])
        let failure = Self.round(CalDAVCollection(url: server.collection, http: try Self.client()))
        #expect(sink.requests().isEmpty, "requests reached the other port: \(sink.requests().map { "\($0.method) \($0.path)" })")
        #expect(failure?.contains("has a user name before its host") == true, "\(failure ?? "listed")")
    }

    @Test func anHrefOnAnotherHostRefusesTheListing() throws {
        let server = try HostileServer(["--mode", "suffix-host"])
        let failure = Self.round(CalDAVCollection(url: server.collection, http: try Self.client()))
        #expect(failure?.contains("is on http://127.0.0.1.invalid:\(server.port), not on the collection's server") == true, "\(failure ?? "listed")")
        #expect(server.requests().map(\.method) == ["PROPFIND"])
    }

    /// A write to an href from elsewhere (a record from an older listing)
    /// is refused before anything is sent.
    @Test func aWriteToAnHrefElsewhereSendsNothing() throws {
        let sink = try HostileServer(["--sink"])
        let server = try HostileServer(["--mode", "normal"])
        let collection = CalDAVCollection(url: server.collection, http: try Self.client())
        for href in ["http://127.0.0.1:\(sink.port)/cal/x.ics", "//127.0.0.1:\(sink.port)/cal/x.ics", "http://127.0.0.1:\(server.port)@127.0.0.1:\(sink.port)/cal/x.ics"] {
            #expect(throws: CalDAVCollection.Failure.self) { try collection.put(href, "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n", etag: nil) }
            #expect(throws: CalDAVCollection.Failure.self) { try collection.delete(href, etag: "\"e1\"") }
        }
        #expect(sink.requests().isEmpty && server.requests().isEmpty)
        // A path on the server is still written there.
        #expect(try collection.put("/cal/x.ics", "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n", etag: nil).isStored)
        #expect(server.requests().map { "\($0.method) \($0.path) \($0.authorization)" } == ["PUT /cal/x.ics false"])
    }

    @Test func aRedirectIsNotFollowed() throws {
        let sink = try HostileServer(["--sink"])
        let server = try HostileServer(["--mode", "redirect", "--sink-port", String(sink.port)])
        let failure = Self.round(CalDAVCollection(url: server.collection, http: try Self.client()))
        #expect(failure == "PROPFIND /cal/: the server answered HTTP 307")
        #expect(sink.requests().isEmpty)
    }

    @Test func anEntityBombIsRefusedAsAReply() throws {
        let server = try HostileServer(["--mode", "entity-bomb"])
        let failure = Self.round(CalDAVCollection(url: server.collection, http: try Self.client()))
        #expect(failure?.contains("declares a DOCTYPE") == true, "\(failure ?? "listed")")
    }

    @Test func anExternalEntityIsRefusedAsAReply() throws {
        let server = try HostileServer(["--mode", "doctype"])
        let failure = Self.round(CalDAVCollection(url: server.collection, http: try Self.client()))
        #expect(failure?.contains("declares a DOCTYPE") == true, "\(failure ?? "listed")")
    }

    /// Responses without href were dropped, and the rest taken for the
    /// whole collection.
    @Test func aListingWithoutHrefsIsRefused() throws {
        let server = try HostileServer(["--mode", "no-href"])
        let failure = Self.round(CalDAVCollection(url: server.collection, http: try Self.client()))
        #expect(failure == "PROPFIND /cal/: response 1 of the server's reply has no href")
    }

    /// An empty listing was an empty collection: every item there taken for removed.
    @Test func anEmptyListingIsRefused() throws {
        let server = try HostileServer(["--mode", "empty"])
        let failure = Self.round(CalDAVCollection(url: server.collection, http: try Self.client()))
        #expect(failure == "PROPFIND /cal/: the server's listing does not hold the collection itself (0 responses); it is not used")
    }

    @Test func anOrdinaryListingReads() throws {
        let server = try HostileServer(["--mode", "normal"])
        let collection = CalDAVCollection(url: server.collection, http: try Self.client())
        let (listing, token) = try collection.list()
        #expect(listing == ["/cal/x.ics": "\"e1\""] && token == "http://127.0.0.1/ns/sync/1")
        let fetched = try collection.fetch(["/cal/x.ics"])
        #expect(fetched["/cal/x.ics"]?.text.hasPrefix("BEGIN:VCALENDAR") == true)
    }

    @Test func aReplyOverTheCapFailsWhileItArrives() throws {
        for extra in [[String](), ["--content-length"]] {
            let server = try HostileServer(["--mode", "huge"] + extra)
            let failure = Self.round(CalDAVCollection(url: server.collection, http: try Self.client()))
            #expect(failure?.contains("the reply was larger than 64 MiB") == true, "\(extra): \(failure ?? "listed")")
        }
    }

    @Test func tooManyHeaderLinesFail() throws {
        let server = try HostileServer(["--mode", "many-headers", "--header-count", "1000"])
        let failure = Self.round(CalDAVCollection(url: server.collection, http: try Self.client()))
        #expect(failure?.contains("headers were more than \(HTTPClient.maxHeaderLines) lines") == true, "\(failure ?? "listed")")
    }

    @Test func aServerThatNeverAnswersTimesOut() throws {
        let server = try HostileServer(["--mode", "hang", "--hang", "30"])
        let clock = ContinuousClock()
        var failure: String?
        let took = clock.measure { failure = Self.round(CalDAVCollection(url: server.collection, http: try! Self.client(timeout: 2))) }
        #expect(failure?.contains("cannot reach http://127.0.0.1:\(server.port)") == true, "\(failure ?? "listed")")
        #expect(took < .seconds(10))
    }

    /// The multiget's nested item comes back as text, bounded: left out
    /// (and said) over the bound.
    @Test func aNestedItemOverTheBoundIsSkippedAndSaid() throws {
        let server = try HostileServer(["--mode", "nested"])
        var skipped: [String] = []
        let collection = CalDAVCollection(url: server.collection, http: try Self.client()) { skipped.append($0.description) }
        #expect(try collection.fetch(["/cal/x.ics"]).isEmpty)
        #expect(skipped.count == 1 && skipped[0].hasPrefix("/cal/x.ics: its calendar data is"), "\(skipped)")
    }
}

extension CalDAVCollection.Stored {
    var isStored: Bool {
        if case .stored = self { return true }
        return false
    }
}
