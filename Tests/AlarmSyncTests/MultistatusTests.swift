// SPDX-License-Identifier: Apache-2.0
@testable import AlarmSync
import Testing

/// WebDAV multistatus replies as Radicale 3.9 sends them (captured), read
/// by namespace whatever the prefixes.
@Suite struct MultistatusTests {
    @Test func aPropfindListingWithItsToken() throws {
        let body = """
            <?xml version='1.0' encoding='utf-8'?>
            <multistatus xmlns="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav" xmlns:CS="http://calendarserver.org/ns/">
            <response><href>/alice/tasks/</href><propstat><prop><resourcetype><C:calendar /><collection /></resourcetype><getetag>"5295a998"</getetag><sync-token>http://radicale.org/ns/sync/1828</sync-token></prop><status>HTTP/1.1 200 OK</status></propstat></response>
            <response><href>/alice/tasks/done1.ics</href><propstat><prop><resourcetype /><getetag>"7a348e40"</getetag></prop><status>HTTP/1.1 200 OK</status></propstat><propstat><prop><sync-token /></prop><status>HTTP/1.1 404 Not Found</status></propstat></response>
            </multistatus>
            """
        let reply = try Multistatus(Array(body.utf8))
        #expect(reply.resources.count == 2)
        #expect(reply.resources[0].isCollection && reply.resources[0].syncToken == "http://radicale.org/ns/sync/1828")
        #expect(reply.resources[1].href == "/alice/tasks/done1.ics" && reply.resources[1].etag == "\"7a348e40\"" && reply.resources[1].status == 200)
        #expect(!reply.resources[1].isCollection && reply.resources[1].syncToken == nil, "a property the server lacks (404 propstat) is not read")
    }

    @Test func aSyncCollectionReplyWithARemovalAndOtherPrefixes() throws {
        let body = """
            <d:multistatus xmlns:d="DAV:" xmlns:cal="urn:ietf:params:xml:ns:caldav"><d:sync-token>http://radicale.org/ns/sync/9178</d:sync-token>
            <d:response><d:href>/alice/tasks/done1.ics</d:href><d:status>HTTP/1.1 404 Not Found</d:status></d:response>
            <d:response><d:href>/alice/tasks/t2.ics</d:href><d:propstat><d:prop><d:getetag>"bdbe"</d:getetag><cal:calendar-data>BEGIN:VCALENDAR&#13;
            END:VCALENDAR&#13;
            </cal:calendar-data></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>
            </d:multistatus>
            """
        let reply = try Multistatus(Array(body.utf8))
        #expect(reply.syncToken == "http://radicale.org/ns/sync/9178")
        #expect(reply.resources.map(\.status) == [404, 200])
        #expect(reply.resources[1].calendarData == "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n")
    }

    @Test func notXMLOrNotAMultistatusIsRefused() {
        #expect(throws: Multistatus.Malformed.self) { try Multistatus(Array("<html>nope</html>".utf8)) }
        #expect(throws: Multistatus.Malformed.self) { try Multistatus(Array("{\"json\": 1}".utf8)) }
        // An entity that would read a local file: the DOCTYPE declaring it is refused.
        let hostile = "<?xml version=\"1.0\"?><!DOCTYPE m [<!ENTITY x SYSTEM \"file:///etc/passwd\">]><multistatus xmlns=\"DAV:\"><response><href>&x;</href></response></multistatus>"
        #expect(throws: Multistatus.Malformed.self) { try Multistatus(Array(hostile.utf8)) }
    }
}
