// SPDX-License-Identifier: Apache-2.0
import CCurl
import FoundationEssentials

/// HTTP requests through libcurl's easy interface: one handle, reused so
/// that connections stay open across a sync's requests, used from one queue
/// (the sync worker's). Blocking by design — the worker exists so that no
/// request ever runs on the daemon's owner queue.
///
/// Credentials go to libcurl only (`CURLOPT_USERNAME`/`PASSWORD`); no error
/// or log line built here contains them. A request goes to exactly the
/// ``CalDAVURL`` it is given (which has no user name in it): libcurl follows
/// no redirect and speaks only http and https. What comes back is bounded
/// while it arrives: the body by ``maxBody``, the headers by
/// ``maxHeaderLines`` and ``maxHeaderBytes``, the whole exchange by the timeout.
package final class HTTPClient {
    struct Response {
        var status: Int
        /// Header names in lower case; the last value of a repeated header.
        var headers: [String: String]
        var body: [UInt8]
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// Why a request got no HTTP answer at all (no connection, a timeout, TLS).
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Bodies larger than this are cut off and the request fails: a calendar
    /// server's reply for a few thousand items is a few megabytes.
    static let maxBody = 64 << 20
    /// Header lines one response may have; servers send a dozen or two.
    static let maxHeaderLines = 200
    /// Bytes of headers over a whole exchange, every response in it (a
    /// `100 Continue`, a `401` before the answer) counted.
    static let maxHeaderBytes = 256 << 10

    private let handle: UnsafeMutableRawPointer
    private let user: String
    private let password: String
    private let timeout: Int
    /// How credentials are sent. Over https, Basic with the first request
    /// (as Python's `requests` does): one request instead of two, and TLS
    /// keeps the password. Over plain http, the first request asks the
    /// server which schemes it takes (libcurl's probe), so a server that only
    /// takes Digest never sees the password in clear; what it offered is then
    /// used directly. A server that asks for Digest gets Digest from then on.
    private enum Scheme { case probe, basic, digest }
    private var scheme: Scheme

    package init?(user: String, password: String, timeoutSeconds: Int = 30) {
        Self.initializeOnce
        guard let handle = curl_easy_init() else { return nil }
        self.handle = handle
        self.user = user
        self.password = password
        timeout = timeoutSeconds
        scheme = .probe
    }

    deinit { curl_easy_cleanup(handle) }

    /// libcurl's global set-up is not thread-safe; done once, before any handle.
    private static let initializeOnce: Void = { curl_global_init(Int(CURL_GLOBAL_DEFAULT)) }()

    /// Collects a response as libcurl hands it over.
    private final class Sink {
        var body: [UInt8] = []
        var headers: [String: String] = [:]
        var overflow = false
        var headerLines = 0
        var headerBytes = 0
        var headerOverflow = false
        var offered: [String] = []
    }

    func request(_ method: String, _ url: CalDAVURL, headers: [String] = [], body: [UInt8]? = nil) throws(Failure) -> Response {
        if scheme == .probe, url.scheme == .https { scheme = .basic }
        let (response, offered) = try perform(method, url, headers: headers, body: body)
        let offersDigest = offered.contains { $0.hasPrefix("digest") }
        if response.status == 401, scheme == .basic, offersDigest {
            scheme = .digest
            return try perform(method, url, headers: headers, body: body).response
        }
        if scheme == .probe, response.status != 401, !offered.isEmpty {
            scheme = offersDigest ? .digest : .basic
        }
        return response
    }

    /// The response, and the schemes the server offered on the way (every
    /// `WWW-Authenticate`, lower case).
    private func perform(_ method: String, _ url: CalDAVURL, headers: [String], body: [UInt8]?) throws(Failure) -> (response: Response, offered: [String]) {
        curl_easy_reset(handle)
        let sink = Sink()
        let context = Unmanaged.passUnretained(sink).toOpaque()
        var list: UnsafeMutablePointer<curl_slist>?
        for header in headers { list = curl_slist_append(list, header) }
        // libcurl adds "Expect: 100-continue" to uploads, which costs a round trip.
        list = curl_slist_append(list, "Expect:")
        defer { curl_slist_free_all(list) }
        var code = alarmd_curl_setopt_string(handle, CURLOPT_URL, url.description)
        func set(_ result: CURLcode) { if code == CURLE_OK { code = result } }
        set(alarmd_curl_setopt_string(handle, CURLOPT_CUSTOMREQUEST, method))
        set(alarmd_curl_setopt_pointer(handle, CURLOPT_HTTPHEADER, UnsafeMutableRawPointer(list)))
        set(alarmd_curl_setopt_string(handle, CURLOPT_USERNAME, user))
        set(alarmd_curl_setopt_string(handle, CURLOPT_PASSWORD, password))
        let auth: Int
        switch scheme {
        case .probe: auth = alarmd_curl_auth_basic() | alarmd_curl_auth_digest()
        case .basic: auth = alarmd_curl_auth_basic()
        case .digest: auth = alarmd_curl_auth_digest()
        }
        set(alarmd_curl_setopt_long(handle, CURLOPT_HTTPAUTH, auth))
        set(alarmd_curl_setopt_long(handle, CURLOPT_TIMEOUT, timeout))
        set(alarmd_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT, 10))
        set(alarmd_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1))
        // Only http and https, and no redirect followed: a request goes to
        // the URL given and nowhere else, and a redirect comes back as a 3xx.
        set(alarmd_curl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "http,https"))
        set(alarmd_curl_setopt_string(handle, CURLOPT_REDIR_PROTOCOLS_STR, "http,https"))
        set(alarmd_curl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0))
        set(alarmd_curl_setopt_long(handle, CURLOPT_UNRESTRICTED_AUTH, 0))
        // A Content-Length over the limit is refused before the body comes;
        // the write callback bounds a body without one.
        set(alarmd_curl_setopt_offset(handle, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(Self.maxBody)))
        set(alarmd_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, context))
        set(alarmd_curl_setopt_callback(handle, CURLOPT_WRITEFUNCTION) { data, size, count, context in
            let sink = Unmanaged<Sink>.fromOpaque(context!).takeUnretainedValue()
            let length = size * count
            guard sink.body.count + length <= HTTPClient.maxBody else {
                sink.overflow = true
                return 0
            }
            data.map { sink.body.append(contentsOf: UnsafeRawBufferPointer(start: $0, count: length)) }
            return length
        })
        set(alarmd_curl_setopt_pointer(handle, CURLOPT_HEADERDATA, context))
        set(alarmd_curl_setopt_callback(handle, CURLOPT_HEADERFUNCTION) { data, size, count, context in
            let sink = Unmanaged<Sink>.fromOpaque(context!).takeUnretainedValue()
            let length = size * count
            sink.headerLines += 1
            sink.headerBytes += length
            guard sink.headerLines <= HTTPClient.maxHeaderLines, sink.headerBytes <= HTTPClient.maxHeaderBytes else {
                sink.headerOverflow = true
                return 0
            }
            guard let data else { return length }
            let line = String(decoding: UnsafeRawBufferPointer(start: data, count: length), as: UTF8.self)
            if let colon = line.firstIndex(of: ":") {
                let name = line[..<colon].lowercased()
                let value = String(line[line.index(after: colon)...]).trimmingBlanks()
                sink.headers[name] = value
                if name == "www-authenticate" { sink.offered.append(value.lowercased()) }
            } else if line.hasPrefix("HTTP/") {
                // A new response (after a 401 and digest retry): only the last one's headers count.
                sink.headers.removeAll()
                sink.headerLines = 1
            }
            return length
        })
        if let body {
            // Copied into libcurl, which can then send it again after an
            // authentication challenge (a read callback would have to rewind).
            set(alarmd_curl_setopt_long(handle, CURLOPT_POSTFIELDSIZE, body.count))
            body.withUnsafeBytes { bytes in
                set(alarmd_curl_setopt_pointer(handle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!)))
            }
        }
        guard code == CURLE_OK else { throw Failure(description: "cannot set up the request: \(String(cString: curl_easy_strerror(code)))") }
        let result = curl_easy_perform(handle)
        guard !sink.overflow, result != CURLE_FILESIZE_EXCEEDED else { throw Failure(description: "the reply was larger than \(Self.maxBody >> 20) MiB") }
        guard !sink.headerOverflow else {
            throw Failure(description: "the reply's headers were more than \(Self.maxHeaderLines) lines or \(Self.maxHeaderBytes >> 10) KiB")
        }
        guard result == CURLE_OK else { throw Failure(description: String(cString: curl_easy_strerror(result))) }
        var status = 0
        _ = alarmd_curl_response_code(handle, &status)
        return (Response(status: status, headers: sink.headers, body: sink.body), sink.offered)
    }
}
