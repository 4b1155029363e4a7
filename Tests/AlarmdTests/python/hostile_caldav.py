#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""A hostile CalDAV server for the tests: one collection, /cal/, on 127.0.0.1,
whose replies are each an attack on the client, chosen by --mode.

Usage:
  hostile_caldav.py --mode MODE --log FILE [options]
  hostile_caldav.py --sink --log FILE [--lifetime SECONDS]

Listens on 127.0.0.1 on a port the system chooses and prints one line
"PORT <number>" on stdout (flushed) once it accepts connections. Every request
is appended to FILE as one JSON line:
  {"listener": "main"|"sink", "method": "PROPFIND", "path": "/cal/",
   "host": "127.0.0.1:40123", "authorization": true}
("authorization" says whether an Authorization header came; its value is never
written). The process exits by itself after --lifetime seconds (default 120,
at most 3600), or on SIGTERM. It never opens a connection to anything: every
address it writes into a reply is 127.0.0.1 or under .invalid (RFC 2606),
which never resolves.

--sink: only records requests: a request without credentials is answered 401
with "WWW-Authenticate: Basic", as a server would to get them, one with them
404. Start one and pass its port as --sink-port to see whether requests, and
the credentials, reach another origin.

Modes (the hostile part is in the reply to the request named; every other
request gets an ordinary answer: PROPFIND lists /cal/, /cal/x.ics and what
was PUT, each with an ETag; calendar-multiget returns x.ics and the PUT items
asked for; PUT keeps the item and answers 201 with an ETag, DELETE drops it
and answers 204; no authentication is asked for). With --mode-file, the mode
is that file's content whenever it has one, read for every request.
  normal        nothing hostile: the baseline.
  nested        multiget: x.ics's calendar-data is a VTODO holding --depth
                (default 100000) nested components BEGIN:X1 … BEGIN:Xn, each
                with its own name, then their ENDs.
  entity-bomb   PROPFIND: a DOCTYPE declaring one internal entity of
                --entity-bytes (default 200000) used --entity-uses (default
                20000) times inside <getetag>.
  doctype       PROPFIND: a DOCTYPE with an external entity
                SYSTEM "file:///etc/passwd", used in <href> and <getetag>.
  userinfo      PROPFIND: the member's href is
                http://127.0.0.1:<this port>@127.0.0.1:<--sink-port>/cal/x.ics
  suffix-host   PROPFIND: the member's href is
                http://<--suffix-host>:<this port>/cal/y.ics, on a host whose
                name begins with the configured one (default
                127.0.0.1.invalid).
  redirect      PROPFIND and REPORT: 307 to the same path on --sink-port.
  no-href       PROPFIND: a 207 whose responses have no <href>.
  empty         PROPFIND: an empty <multistatus/>.
  forget        PROPFIND: a well-formed listing of /cal/ and /cal/x.ics only,
                as if everything PUT had been removed.
  huge          PROPFIND and REPORT: a 207 whose body is --huge-bytes (default
                64 MiB + 64 KiB) sent in 64 KiB pieces --chunk-delay seconds
                apart (default 0), without a Content-Length (closed at the
                end) unless --content-length; stops when the client goes.
  many-headers  PROPFIND: --header-count (default 5000) extra header lines.
  hang          every request: read, then no answer for --hang seconds
                (default 60, never past the lifetime), then close.

Example:
  hostile_caldav.py --sink --log sink.jsonl            -> PORT 40001
  hostile_caldav.py --mode userinfo --sink-port 40001 --log main.jsonl
  then sync alarmd against http://127.0.0.1:<PORT>/cal/ and check that
  sink.jsonl stays empty."""

import argparse
import re
import json
import os
import signal
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

COLLECTION = "/cal/"
MEMBER = COLLECTION + "x.ics"
ETAG = '"e1"'
CALENDAR = ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//alarmd tests//hostile//EN\r\n"
            "BEGIN:VTODO\r\nUID:hostile-1\r\nDTSTAMP:20260101T000000Z\r\nSUMMARY:hostile\r\n"
            "END:VTODO\r\nEND:VCALENDAR\r\n")

arguments = None
log_lock = threading.Lock()


def parse_arguments():
    parser = argparse.ArgumentParser(description="A hostile CalDAV server on 127.0.0.1 (see the file's header).")
    parser.add_argument("--mode", default="normal",
                        choices=["normal", "nested", "entity-bomb", "doctype", "userinfo", "suffix-host", "redirect",
                                 "no-href", "empty", "huge", "many-headers", "hang"])
    parser.add_argument("--sink", action="store_true", help="only record requests")
    parser.add_argument("--mode-file", help="a file whose content, when present, is the mode (read per request)")
    parser.add_argument("--log", required=True, help="JSON-lines file every request is appended to")
    parser.add_argument("--lifetime", type=float, default=120.0, help="seconds before exiting (at most 3600)")
    parser.add_argument("--sink-port", type=int, default=9, help="the sink's port, for userinfo and redirect")
    parser.add_argument("--suffix-host", default="127.0.0.1.invalid")
    parser.add_argument("--depth", type=int, default=100000)
    parser.add_argument("--entity-bytes", type=int, default=200000)
    parser.add_argument("--entity-uses", type=int, default=20000)
    parser.add_argument("--huge-bytes", type=int, default=(64 << 20) + (64 << 10))
    parser.add_argument("--chunk-delay", type=float, default=0.0)
    parser.add_argument("--content-length", action="store_true")
    parser.add_argument("--header-count", type=int, default=5000)
    parser.add_argument("--hang", type=float, default=60.0)
    parsed = parser.parse_args()
    parsed.lifetime = max(1.0, min(parsed.lifetime, 3600.0))
    # Bounds on what one reply may cost this process.
    parsed.depth = max(1, min(parsed.depth, 1000000))
    parsed.entity_bytes = max(1, min(parsed.entity_bytes, 16 << 20))
    parsed.entity_uses = max(1, min(parsed.entity_uses, 1000000))
    parsed.huge_bytes = max(1, min(parsed.huge_bytes, 256 << 20))
    parsed.header_count = max(0, min(parsed.header_count, 100000))
    return parsed


# What clients PUT, as an ordinary server keeps it: href -> (etag, body).
stored = {}
stored_lock = threading.Lock()


def current_mode():
    """--mode, or the first word of --mode-file when it names one (read for
    every request, so a test can turn a server hostile after an ordinary round)."""
    if arguments.mode_file:
        try:
            with open(arguments.mode_file) as file:
                word = file.read().strip()
            if word:
                return word
        except OSError:
            pass
    return arguments.mode


def stored_responses():
    with stored_lock:
        return [response(href, etag=etag) for href, (etag, _) in sorted(stored.items())]


def record(entry):
    with log_lock, open(arguments.log, "a") as log:
        log.write(json.dumps(entry) + "\n")


def multistatus(responses, prolog=""):
    return ('<?xml version="1.0" encoding="utf-8"?>\n' + prolog +
            '<d:multistatus xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">' +
            "".join(responses) + "</d:multistatus>")


def response(href, etag=ETAG, collection=False, data=None, token=None):
    props = "<d:getetag>%s</d:getetag>" % etag
    props += "<d:resourcetype>%s</d:resourcetype>" % ("<d:collection/><c:calendar/>" if collection else "")
    if token:
        props += "<d:sync-token>%s</d:sync-token>" % token
    if data is not None:
        props += "<c:calendar-data>%s</c:calendar-data>" % data
    return ("<d:response><d:href>%s</d:href><d:propstat><d:prop>%s</d:prop>"
            "<d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>" % (href, props))


def escaped(text):
    # CR as a character reference, as Radicale writes it: XML reads a bare CR LF as LF.
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\r", "&#13;")


def nested_calendar(depth):
    opening = "".join("BEGIN:X%d\r\n" % n for n in range(1, depth + 1))
    closing = "".join("END:X%d\r\n" % n for n in range(depth, 0, -1))
    return ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//alarmd tests//hostile//EN\r\n"
            "BEGIN:VTODO\r\nUID:hostile-nested\r\nDTSTAMP:20260101T000000Z\r\n" + opening + closing +
            "END:VTODO\r\nEND:VCALENDAR\r\n")


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "hostile"
    sys_version = ""

    def log_message(self, format, *args):
        pass

    def record(self):
        record({"listener": "sink" if arguments.sink else "main", "method": self.command, "path": self.path,
                "host": self.headers.get("Host"), "authorization": "Authorization" in self.headers})

    def read_body(self):
        length = int(self.headers.get("Content-Length") or 0)
        self.body = self.rfile.read(min(length, 16 << 20)) if length > 0 else b""
        return self.body

    def send(self, status, body=b"", content_type="application/xml; charset=utf-8", headers=()):
        if isinstance(body, str):
            body = body.encode()
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        if body:
            self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if body and self.command != "HEAD":
            self.wfile.write(body)

    def handle_any(self):
        self.record()
        self.read_body()
        if arguments.sink:
            challenge = [] if "Authorization" in self.headers else [("WWW-Authenticate", 'Basic realm="sink"')]
            self.send(404 if not challenge else 401, headers=challenge)
            return
        mode = current_mode()
        if mode == "hang":
            self.close_connection = True
            time.sleep(max(0.0, min(arguments.hang, arguments.lifetime)))
            return
        port = self.server.server_address[1]
        method = self.command
        if method in ("PROPFIND", "REPORT") and mode == "redirect":
            self.send(307, headers=[("Location", "http://127.0.0.1:%d%s" % (arguments.sink_port, self.path))])
        elif method in ("PROPFIND", "REPORT") and mode == "huge":
            self.send_huge()
        elif method == "PROPFIND":
            self.propfind(mode, port)
        elif method == "REPORT":
            data = escaped(nested_calendar(arguments.depth) if mode == "nested" else CALENDAR)
            asked = re.findall(r"<d:href>([^<]*)</d:href>", self.body.decode("utf-8", "replace"))
            with stored_lock:
                kept = [response(href, etag=stored[href][0], data=escaped(stored[href][1])) for href in asked if href in stored]
            self.send(207, multistatus([response(MEMBER, data=data)] + kept))
        elif method == "PUT":
            with stored_lock:
                etag = '"s%d"' % (len(stored) + 1000 * len(self.body))
                stored[self.path] = (etag, self.body.decode("utf-8", "replace"))
            self.send(201, headers=[("ETag", etag)])
        elif method == "DELETE":
            with stored_lock:
                stored.pop(self.path, None)
            self.send(204)
        else:
            self.send(405)

    def propfind(self, mode, port):
        depth = self.headers.get("Depth", "1")
        collection = response(COLLECTION, etag='"c1"', collection=True, token="http://127.0.0.1/ns/sync/1")
        member = response(MEMBER)
        members = [member] + stored_responses()
        if depth == "0" and self.path != COLLECTION:
            self.send(207, multistatus([response(self.path)]))
        elif mode == "entity-bomb":
            value = "A" * arguments.entity_bytes
            uses = "&bomb;" * arguments.entity_uses
            prolog = '<!DOCTYPE d:multistatus [<!ENTITY bomb "%s">]>\n' % value
            self.send(207, multistatus([collection, response(MEMBER, etag=uses)], prolog))
        elif mode == "doctype":
            prolog = '<!DOCTYPE d:multistatus [<!ENTITY passwd SYSTEM "file:///etc/passwd">]>\n'
            self.send(207, multistatus([collection, response("/cal/&passwd;", etag="&passwd;")], prolog))
        elif mode == "userinfo":
            href = "http://127.0.0.1:%d@127.0.0.1:%d%s" % (port, arguments.sink_port, MEMBER)
            self.send(207, multistatus([collection, response(href)]))
        elif mode == "suffix-host":
            self.send(207, multistatus([collection, response("http://%s:%d/cal/y.ics" % (arguments.suffix_host, port))]))
        elif mode == "no-href":
            nameless = ("<d:response><d:propstat><d:prop><d:getetag>%s</d:getetag></d:prop>"
                        "<d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>" % ETAG)
            self.send(207, multistatus([nameless, nameless]))
        elif mode == "forget":
            self.send(207, multistatus([collection, member]))
        elif mode == "empty":
            self.send(207, '<?xml version="1.0" encoding="utf-8"?>\n<d:multistatus xmlns:d="DAV:"/>')
        elif mode == "many-headers":
            extra = [("X-Filler-%d" % n, "x" * 32) for n in range(arguments.header_count)]
            self.send(207, multistatus([collection] + members), headers=extra)
        else:
            self.send(207, multistatus([collection] + members))

    def send_huge(self):
        total = arguments.huge_bytes
        self.send_response(207)
        self.send_header("Content-Type", "application/xml; charset=utf-8")
        if arguments.content_length:
            self.send_header("Content-Length", str(total))
        else:
            self.send_header("Connection", "close")
            self.close_connection = True
        self.end_headers()
        head = b'<?xml version="1.0"?><d:multistatus xmlns:d="DAV:"><!--'
        piece = b"x" * (64 << 10)
        sent = 0
        try:
            self.wfile.write(head)
            sent = len(head)
            while sent < total:
                chunk = piece[:total - sent]
                self.wfile.write(chunk)
                sent += len(chunk)
                if arguments.chunk_delay > 0:
                    time.sleep(arguments.chunk_delay)
        except (BrokenPipeError, ConnectionResetError):
            pass
        self.close_connection = True

    do_PROPFIND = do_REPORT = do_PUT = do_DELETE = do_GET = do_HEAD = do_POST = do_OPTIONS = handle_any


def main():
    global arguments
    arguments = parse_arguments()
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    # A parent may start it with signals blocked (the mask survives exec).
    signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM, signal.SIGINT])
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    stopper = threading.Timer(arguments.lifetime, lambda: os._exit(0))
    stopper.daemon = True
    stopper.start()
    print("PORT %d" % server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
