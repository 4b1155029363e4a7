#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Talks to the alarmd-wake helper as one user, with the independent Python
`varlink` package (and a raw socket for what no library would send).

Usage: wake_helper_client.py SOCKET ACTION [ARGUMENT]

  set AT        SetWake(at: AT)
  clear         SetWake() with no instant
  get           GetWake()
  raw JSON      JSON sent as it is, as one message (the library would drop
                a parameter the interface does not declare, such as "uid")
  burst N AT    N SetWake(at: AT) calls on one connection, one line each
  oversize N    one raw message of N bytes; prints the reply and whether the
                helper then closed the connection

Prints one JSON object a line: {"parameters": {...}} or {"error": NAME,
"parameters": {...}}. Run it under setpriv to be another uid.
"""

import json
import socket
import sys

import varlink


def show(call):
    try:
        print(json.dumps({"parameters": dict(call() or {})}))
    except varlink.VarlinkError as error:
        print(json.dumps({"error": error.error(), "parameters": error.parameters()}))
    sys.stdout.flush()


def main():
    path, action = sys.argv[1], sys.argv[2]
    argument = sys.argv[3] if len(sys.argv) > 3 else None
    if action in ("oversize", "raw"):
        connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        connection.connect(path)
        if action == "raw":
            message = argument.encode() + b"\0"
        else:
            message = b'{"method":"io.alarmd.Wake.SetWake","parameters":{"at":"' + b"x" * int(argument) + b'"}}\0'
        connection.sendall(message)
        connection.settimeout(5)
        reply = b""
        while not reply.endswith(b"\0"):
            chunk = connection.recv(4096)
            if not chunk:
                break
            reply += chunk
        if action == "oversize":
            closed = connection.recv(1) == b""
            print(json.dumps({**json.loads(reply.rstrip(b"\0") or b"{}"), "closed": closed}))
        else:
            print(json.dumps(json.loads(reply.rstrip(b"\0"))))
        return
    with varlink.Client(address="unix:" + path) as client:
        with client.open("io.alarmd.Wake") as wake:
            if action == "set":
                show(lambda: wake.SetWake(at=argument))
            elif action == "clear":
                show(lambda: wake.SetWake())
            elif action == "get":
                show(lambda: wake.GetWake())
            elif action == "burst":
                count, at = int(argument), sys.argv[4]
                for _ in range(count):
                    show(lambda: wake.SetWake(at=at))
            else:
                sys.exit(f"unknown action {action}")


main()
