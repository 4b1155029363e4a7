// SPDX-License-Identifier: Apache-2.0
@testable import AlarmSync
import Testing

/// Hrefs resolved against a collection's URL (RFC 3986 §5.2) and kept to its
/// origin, so that a server's href can never send the password elsewhere.
@Suite struct CalDAVURLTests {
    static let base = "http://127.0.0.1:18081/cal/x/"

    /// Hrefs on the collection's origin and the URL each resolves to.
    static let resolved: [(href: String, url: String)] = [
        ("/cal/x/a.ics", "http://127.0.0.1:18081/cal/x/a.ics"),
        ("a.ics", "http://127.0.0.1:18081/cal/x/a.ics"),
        ("./a.ics", "http://127.0.0.1:18081/cal/x/a.ics"),
        ("../y/a.ics", "http://127.0.0.1:18081/cal/y/a.ics"),
        ("../../../../a.ics", "http://127.0.0.1:18081/a.ics"),
        ("/cal/./x/../x/a.ics", "http://127.0.0.1:18081/cal/x/a.ics"),
        ("?q=1", "http://127.0.0.1:18081/cal/x/?q=1"),
        ("a.ics#fragment", "http://127.0.0.1:18081/cal/x/a.ics"),
        ("http://127.0.0.1:18081/cal/x/a.ics", "http://127.0.0.1:18081/cal/x/a.ics"),
        ("HTTP://127.0.0.1:18081/cal/x/a.ics", "http://127.0.0.1:18081/cal/x/a.ics"),
        ("//127.0.0.1:18081/cal/x/a.ics", "http://127.0.0.1:18081/cal/x/a.ics"),
        ("http://127.0.0.1:018081/cal/x/a.ics", "http://127.0.0.1:18081/cal/x/a.ics"),
        // Percent escapes stay as written; what a URL may not hold is encoded.
        ("/cal/x/a%20b%2F.ics", "http://127.0.0.1:18081/cal/x/a%20b%2F.ics"),
        ("/cal/x/a b\u{e9}.ics", "http://127.0.0.1:18081/cal/x/a%20b%C3%A9.ics"),
        ("/cal/x/%2E%2E/a.ics", "http://127.0.0.1:18081/cal/x/%2E%2E/a.ics"),
        ("/cal/x/a\\..\\b.ics", "http://127.0.0.1:18081/cal/x/a%5C..%5Cb.ics"),
        // An '@' in a path is only a character of the path.
        ("./@127.0.0.1:18082/cal/x.ics", "http://127.0.0.1:18081/cal/x/@127.0.0.1:18082/cal/x.ics"),
    ]

    @Test(arguments: resolved) func anHrefOnTheOriginResolves(_ href: String, _ url: String) throws {
        let member = try CalDAVURL(Self.base).member(href)
        #expect(member.description == url)
    }

    /// Hrefs refused, and why.
    static let refused: [(href: String, reason: CalDAVURL.Refusal.Reason)] = [
        // A user name makes the rest of the authority the host: port 18082 here.
        ("http://127.0.0.1:18081@127.0.0.1:18082/cal/x.ics", .userInfo),
        ("http://user:password@127.0.0.1:18081/cal/x.ics", .userInfo),
        ("//127.0.0.1:18081@127.0.0.1:18082/cal/x.ics", .userInfo),
        ("http://127.0.0.1:18082/cal/x/a.ics", .otherOrigin("http://127.0.0.1:18082")),
        ("http://127.0.0.1/cal/x/a.ics", .otherOrigin("http://127.0.0.1")),
        ("https://127.0.0.1:18081/cal/x/a.ics", .otherOrigin("https://127.0.0.1:18081")),
        ("http://127.0.0.1.evil.com:18081/cal/x/a.ics", .otherOrigin("http://127.0.0.1.evil.com:18081")),
        ("http://127.0.0.10:18081/cal/x/a.ics", .otherOrigin("http://127.0.0.10:18081")),
        ("//evil.com/cal/x/a.ics", .otherOrigin("http://evil.com")),
        ("http://[::1]:18081/cal/x/a.ics", .otherOrigin("http://[::1]:18081")),
        ("ftp://127.0.0.1:18081/cal/x/a.ics", .notHTTP),
        ("file:///etc/passwd", .notHTTP),
        ("javascript:alert(1)", .notHTTP),
        ("1http://127.0.0.1/", .badScheme),
        // A relative path's first segment may not hold ':' (RFC 3986 §4.2).
        ("@127.0.0.1:18082/cal/x.ics", .badScheme),
        // An empty href names the collection itself, never a member.
        ("", .empty),
        ("http:/cal/x/a.ics", .noHost),
        ("http:///cal/x/a.ics", .noHost),
        ("http://127.0.0.1:0/cal/", .badPort),
        ("http://127.0.0.1:65536/cal/", .badPort),
        ("http://127.0.0.1:80a/cal/", .badPort),
        ("http://127.0.0.1:18081:1/cal/", .badPort),
        ("http://127.0.0.1%2e:18081/cal/", .badHost),
        ("http://[::1%25lo]:18081/cal/", .badHost),
        ("http://[::1/cal/", .badHost),
        ("http://ex ample.org/", .badHost),
        ("/cal/x/a.ics\r\nHost: evil.com", .controlCharacter),
        ("/cal/x/a\u{0}.ics", .controlCharacter),
        ("/cal/x/a%2.ics", .badPercentEscape),
        ("/cal/x/a%zz.ics", .badPercentEscape),
        (String(repeating: "a", count: CalDAVURL.maxLength + 1), .tooLong),
    ]

    @Test(arguments: refused) func anHrefOffTheOriginOrMalformedIsRefused(_ href: String, _ reason: CalDAVURL.Refusal.Reason) {
        #expect(throws: CalDAVURL.Refusal(reference: href, reason: reason)) { try CalDAVURL(Self.base).member(href) }
    }

    @Test func aPrefixOfTheOriginIsNotTheOrigin() throws {
        let base = try CalDAVURL("https://cloud.example.org/remote.php/dav/calendars/alice/tasks/")
        #expect(throws: CalDAVURL.Refusal.self) { try base.member("https://cloud.example.org.evil.com/remote.php/dav/calendars/alice/tasks/a.ics") }
        #expect(throws: CalDAVURL.Refusal.self) { try base.member("https://cloud.example.organ/a.ics") }
        #expect(try base.member("https://cloud.example.org/a.ics").description == "https://cloud.example.org/a.ics")
    }

    @Test func defaultPortsAndHostCaseAreNormalised() throws {
        let base = try CalDAVURL("https://Cloud.Example.ORG/dav/")
        #expect(base.host == "cloud.example.org" && base.port == 443 && base.origin == "https://cloud.example.org")
        #expect(try base.member("https://CLOUD.example.org:443/dav/a.ics").description == "https://cloud.example.org/dav/a.ics")
        #expect(try base.member("https://cloud.example.org:/dav/a.ics").description == "https://cloud.example.org/dav/a.ics")
        #expect(throws: CalDAVURL.Refusal.self) { try base.member("https://cloud.example.org:8443/dav/a.ics") }
        #expect(throws: CalDAVURL.Refusal.self) { try base.member("http://cloud.example.org:443/dav/a.ics") }
        let plain = try CalDAVURL("http://example.org:80")
        #expect(plain.description == "http://example.org/" && plain.port == 80)
    }

    @Test func ipv6LiteralHosts() throws {
        let base = try CalDAVURL("http://[::1]:18081/cal/")
        #expect(base.host == "[::1]" && base.port == 18081)
        #expect(try base.member("http://[::1]:18081/cal/a.ics").description == "http://[::1]:18081/cal/a.ics")
        #expect(try base.member("/cal/a.ics").description == "http://[::1]:18081/cal/a.ics")
        let upper = try CalDAVURL("http://[FE80::A]/cal/")
        #expect(upper.host == "[fe80::a]" && upper.port == 80)
        #expect(try upper.member("http://[fe80::A]:80/cal/b.ics").description == "http://[fe80::a]/cal/b.ics")
        // The same address written otherwise is refused, never guessed equal.
        #expect(throws: CalDAVURL.Refusal.self) { try base.member("http://[0:0:0:0:0:0:0:1]:18081/cal/a.ics") }
        #expect(throws: CalDAVURL.Refusal.self) { try base.member("http://127.0.0.1:18081/cal/a.ics") }
    }

    @Test func aConfiguredAddressMustBeAbsoluteAndWithoutAUser() {
        #expect(throws: CalDAVURL.Refusal(reference: "/cal/", reason: .notAbsolute)) { try CalDAVURL("/cal/") }
        #expect(throws: CalDAVURL.Refusal(reference: "http://alice@example.org/cal/", reason: .userInfo)) { try CalDAVURL("http://alice@example.org/cal/") }
        #expect(throws: CalDAVURL.Refusal(reference: "", reason: .empty)) { try CalDAVURL("") }
    }

    @Test func aRefusalNamesTheHrefWithoutItsControlCharacters() {
        let refusal = CalDAVURL.Refusal(reference: "/a\r\nb", reason: .controlCharacter)
        #expect(refusal.description == "the href \"/a??b\" holds a control character")
        let far = CalDAVURL.Refusal(reference: "http://127.0.0.1:9/x", reason: .otherOrigin("http://127.0.0.1:9"))
        #expect(far.description == "the href \"http://127.0.0.1:9/x\" is on http://127.0.0.1:9, not on the collection's server")
    }
}
