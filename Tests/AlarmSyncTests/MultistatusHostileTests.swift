// SPDX-License-Identifier: Apache-2.0
@testable import AlarmSync
import Foundation
import Testing

/// Replies a hostile server sends, the same bodies `hostile_caldav.py` serves
/// (smaller where the size is not the point): each is refused whole, with an
/// error that says why, in time and memory bounded by the reply's size.
@Suite struct MultistatusHostileTests {
    static let head = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
    static let open = "<d:multistatus xmlns:d=\"DAV:\" xmlns:c=\"urn:ietf:params:xml:ns:caldav\">"
    static let collection = "<d:response><d:href>/cal/</d:href><d:propstat><d:prop><d:getetag>\"c1\"</d:getetag><d:resourcetype><d:collection/></d:resourcetype></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>"

    static func member(_ href: String = "/cal/x.ics", etag: String = "\"e1\"", data: String? = nil) -> String {
        "<d:response><d:href>\(href)</d:href><d:propstat><d:prop><d:getetag>\(etag)</d:getetag>"
            + (data.map { "<c:calendar-data>\($0)</c:calendar-data>" } ?? "")
            + "</d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>"
    }

    static func reply(_ responses: [String], prolog: String = "") -> [UInt8] {
        Array((head + prolog + open + responses.joined() + "</d:multistatus>").utf8)
    }

    static func refusal(_ body: [UInt8]) -> String? {
        do {
            _ = try Multistatus(body)
            return nil
        } catch {
            return error.description
        }
    }

    /// One internal entity used many times in `getetag`: 20,000 × 200 KB was
    /// 4 GB of text from a 300 KB reply. 1,000 × 10 KB here is enough to see
    /// whether it is expanded.
    @Test func anEntityExpansionBombIsRefusedUnexpanded() {
        let bomb = Self.reply([Self.collection, Self.member(etag: String(repeating: "&bomb;", count: 1_000))],
                              prolog: "<!DOCTYPE d:multistatus [<!ENTITY bomb \"\(String(repeating: "A", count: 10_000))\">]>\n")
        #expect(Self.refusal(bomb)?.contains("DOCTYPE") == true)
    }

    @Test func theFullSizeBombIsRefusedQuickly() {
        let bomb = Self.reply([Self.collection, Self.member(etag: String(repeating: "&bomb;", count: 20_000))],
                              prolog: "<!DOCTYPE d:multistatus [<!ENTITY bomb \"\(String(repeating: "A", count: 200_000))\">]>\n")
        let clock = ContinuousClock()
        let took = clock.measure { #expect(Self.refusal(bomb)?.contains("DOCTYPE") == true) }
        #expect(took < .seconds(1))
    }

    @Test func anExternalEntityIsNeitherLoadedNorExpanded() {
        let body = Self.reply([Self.collection, Self.member("/cal/&passwd;", etag: "&passwd;")],
                              prolog: "<!DOCTYPE d:multistatus [<!ENTITY passwd SYSTEM \"file:///etc/passwd\">]>\n")
        let refusal = Self.refusal(body)
        #expect(refusal?.contains("DOCTYPE") == true)
        #expect(refusal?.contains("root:") != true)
    }

    @Test func parameterEntitiesAndExternalDTDsAreRefused() {
        let parameter = Self.reply([Self.collection], prolog: "<!DOCTYPE d:multistatus [<!ENTITY % p \"<!ENTITY x 'y'>\"> %p;]>\n")
        #expect(Self.refusal(parameter)?.contains("DOCTYPE") == true)
        let external = Self.reply([Self.collection], prolog: "<!DOCTYPE d:multistatus SYSTEM \"http://127.0.0.1:9/x.dtd\">\n")
        #expect(Self.refusal(external)?.contains("DOCTYPE") == true)
    }

    /// An entity used without a DOCTYPE is not well-formed, and is said so.
    @Test func anUndeclaredEntityIsNotWellFormed() {
        let body = Self.reply([Self.member(etag: "&x;")])
        #expect(Self.refusal(body)?.contains("not well-formed XML (line 2") == true)
    }

    @Test func aResponseWithoutHrefRefusesTheWholeReply() {
        let nameless = "<d:response><d:propstat><d:prop><d:getetag>\"e1\"</d:getetag></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>"
        #expect(Self.refusal(Self.reply([Self.collection, nameless, nameless])) == "response 2 of the server's reply has no href")
        #expect(Self.refusal(Self.reply([Self.member(""), Self.member()])) == "response 1 of the server's reply has an empty href")
    }

    @Test func anEmptyMultistatusIsWellFormedAndEmpty() throws {
        let reply = try Multistatus(Array((Self.head + "<d:multistatus xmlns:d=\"DAV:\"/>").utf8))
        #expect(reply.resources.isEmpty && reply.syncToken == nil && !reply.isTruncated)
    }

    @Test func responsesWithoutStatusOrWithABadOneAreRefused() {
        #expect(Self.refusal(Self.reply(["<d:response><d:href>/cal/a.ics</d:href></d:response>"]))?.contains("neither a status nor properties") == true)
        let bad = "<d:response><d:href>/cal/a.ics</d:href><d:status>teapot</d:status></d:response>"
        #expect(Self.refusal(Self.reply([bad])) == "response 1 of the server's reply has the status \"teapot\", not an HTTP status line")
        let noPropstatStatus = "<d:response><d:href>/cal/a.ics</d:href><d:propstat><d:prop><d:getetag>\"e\"</d:getetag></d:prop></d:propstat></d:response>"
        #expect(Self.refusal(Self.reply([noPropstatStatus]))?.contains("has no status") == true)
    }

    @Test func theStatusOnlyFormMayNameSeveralHrefs() throws {
        let gone = "<d:response><d:href>/cal/a.ics</d:href><d:href>/cal/b.ics</d:href><d:status>HTTP/1.1 404 Not Found</d:status></d:response>"
        let reply = try Multistatus(Self.reply([gone]))
        #expect(reply.resources.map(\.href) == ["/cal/a.ics", "/cal/b.ics"] && reply.resources.allSatisfy { $0.status == 404 })
        let both = "<d:response><d:href>/cal/a.ics</d:href><d:href>/cal/b.ics</d:href><d:propstat><d:prop/><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>"
        #expect(Self.refusal(Self.reply([both]))?.contains("2 hrefs and properties") == true)
    }

    @Test func aResourceWhosePropertiesAreAllMissingHasTheirStatus() throws {
        let missing = "<d:response><d:href>/cal/a.ics</d:href><d:propstat><d:prop><d:getetag/></d:prop><d:status>HTTP/1.1 404 Not Found</d:status></d:propstat></d:response>"
        let reply = try Multistatus(Self.reply([missing]))
        #expect(reply.resources.first?.status == 404 && reply.resources.first?.etag == nil)
    }

    @Test func aTruncatedReplySaysSo() throws {
        let truncated = "<d:response><d:href>/cal/</d:href><d:status>HTTP/1.1 507 Insufficient Storage</d:status></d:response>"
        #expect(try Multistatus(Self.reply([Self.member(), truncated])).isTruncated)
    }

    @Test func textValuesAreBounded() {
        let longETag = Self.reply([Self.member(etag: String(repeating: "e", count: Multistatus.Limit.etag + 1))])
        #expect(Self.refusal(longETag) == "a <getetag> in the server's reply is longer than \(Multistatus.Limit.etag) bytes")
        let longHref = Self.reply([Self.member("/" + String(repeating: "h", count: Multistatus.Limit.href))])
        #expect(Self.refusal(longHref) == "a <href> in the server's reply is longer than \(Multistatus.Limit.href) bytes")
        let element = Self.reply([Self.member(etag: "\"a\"<d:x>\"b\"</d:x>")])
        #expect(Self.refusal(element) == "a <getetag> in the server's reply holds <x>, where only text belongs")
    }

    /// One item's calendar data over the bound leaves that item out, not the reply.
    @Test func calendarDataOverItsBoundIsLeftOutOfItsResource() throws {
        let large = String(repeating: "X", count: Multistatus.Limit.calendarData + 1)
        let reply = try Multistatus(Self.reply([Self.member("/cal/big.ics", data: large), Self.member("/cal/small.ics", data: "BEGIN:VCALENDAR&#13;\nEND:VCALENDAR&#13;\n")]))
        #expect(reply.resources[0].calendarData == nil && reply.resources[0].calendarDataTooLarge == Multistatus.Limit.calendarData + 1)
        #expect(reply.resources[1].calendarData == "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n" && reply.resources[1].calendarDataTooLarge == nil)
    }

    /// The nested item `hostile_caldav.py --mode nested` serves reaches the
    /// caller as text within the bound, or is left out above it.
    @Test func aDeeplyNestedItemIsOnlyText() throws {
        // LF line ends: XML reads a CR LF written as is as LF.
        func nested(_ depth: Int) -> String {
            "BEGIN:VCALENDAR\nBEGIN:VTODO\n" + (1...depth).map { "BEGIN:X\($0)\n" }.joined()
                + (1...depth).reversed().map { "END:X\($0)\n" }.joined() + "END:VTODO\nEND:VCALENDAR\n"
        }
        let fits = try Multistatus(Self.reply([Self.member(data: nested(20_000))]))
        #expect(fits.resources[0].calendarData == nested(20_000))
        let over = try Multistatus(Self.reply([Self.member(data: nested(100_000))]))
        #expect(over.resources[0].calendarData == nil && over.resources[0].calendarDataTooLarge != nil)
    }

    @Test func tooManyNodesAreRefusedBeforeTheTreeGrows() {
        let many = Self.reply([Self.collection, String(repeating: "<d:x/>", count: Multistatus.maxNodes)])
        #expect(Self.refusal(many) == "the server's reply has more than \(Multistatus.maxNodes) XML nodes")
        let comments = Self.reply([Self.collection, String(repeating: "<!---->", count: Multistatus.maxNodes)])
        #expect(Self.refusal(comments) == "the server's reply has more than \(Multistatus.maxNodes) XML nodes")
    }

    @Test func nestingDeeperThanLibxml2sLimitIsRefused() {
        let deep = Self.reply([String(repeating: "<d:x>", count: 10_000) + String(repeating: "</d:x>", count: 10_000)])
        #expect(Self.refusal(deep)?.contains("not well-formed XML") == true)
    }

    @Test func emptyAndNonXMLRepliesAreRefused() {
        #expect(Self.refusal([]) == "the server's reply is empty, not a WebDAV multistatus")
        #expect(Self.refusal(Array("<html>nope</html>".utf8)) == "the server's reply is not a WebDAV multistatus")
        #expect(Self.refusal(Array("{\"json\": 1}".utf8))?.hasPrefix("the server's reply is not well-formed XML") == true)
    }
}
