// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: a CalDAV server's reply as the sync process reads it.
//
// The bytes are a `207 Multi-Status` body (`Multistatus`), and every href in
// it, and the whole input as one reference, are resolved against the
// collection's URL (`CalDAVURL.member`), as the requests the sync process
// makes from them are.
//
// None may trap; what is accepted keeps the bounds a hostile server must not
// pass:
//   - every text within its limit (href, ETag, sync token, calendar data);
//   - every resource has an href;
//   - a member href is on the collection's origin, its path absolute and
//     free of dot segments, and (within the length a reference may have)
//     resolving its own text again gives it back.
@testable import AlarmSync

let collection = try! CalDAVURL("https://dav.example.org:8443/cal/me/tasks/")

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let reply = try? Multistatus(bytes) {
        check(reply.resources.count <= Multistatus.maxNodes, "more resources than nodes")
        for resource in reply.resources {
            check(!resource.href.isEmpty, "a resource without an href")
            check(resource.href.utf8.count <= Multistatus.Limit.href, "an href over its limit: \(resource.href.utf8.count)")
            check((resource.etag?.utf8.count ?? 0) <= Multistatus.Limit.etag, "an ETag over its limit")
            check((resource.syncToken?.utf8.count ?? 0) <= Multistatus.Limit.syncToken, "a sync token over its limit")
            check((resource.calendarData?.utf8.count ?? 0) <= Multistatus.Limit.calendarData, "calendar data over its limit")
            member(resource.href)
        }
        check((reply.syncToken?.utf8.count ?? 0) <= Multistatus.Limit.syncToken, "the reply's sync token over its limit")
    }
    member(String(decoding: bytes.prefix(16 << 10), as: UTF8.self))
    return 0
}

/// A reference the sync process would make a request from.
func member(_ reference: String) {
    guard let url = try? collection.member(reference) else { return }
    check(url.isSameOrigin(collection), "\(reference) left the origin: \(url)")
    check(url.target.hasPrefix("/"), "\(reference) gave a relative path: \(url.target)")
    check(!url.target.split(separator: "?", maxSplits: 1)[0].split(separator: "/").contains { $0 == "." || $0 == ".." },
          "\(reference) kept a dot segment: \(url.target)")
    // Percent-encoding may take a reference past the length a reference
    // may have; one within it reads back to itself.
    guard url.description.utf8.count <= CalDAVURL.maxLength else { return }
    let again = try? collection.member(url.description)
    check(again?.description == url.description, "\(url) does not read back: \(again.map { "\($0)" } ?? "refused")")
}
