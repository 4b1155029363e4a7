#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""A real CalDAV server (Radicale) for the tests.

Usage: radicale_server.py DIRECTORY PORT USER PASSWORD

Writes DIRECTORY/config and DIRECTORY/users, keeps the data in
DIRECTORY/collections, makes sure USER owns a VTODO calendar /USER/tasks/ and
a VEVENT calendar /USER/alarms/, then serves http://127.0.0.1:PORT/ in the
foreground until killed. Prints one line "READY" on stdout once the port
accepts connections. Running it again on the same DIRECTORY (after SIGTERM or
SIGKILL) serves the same data: existing collections are left alone."""

import os
import sys

from radicale import config, log, server, storage

if len(sys.argv) != 5:
    sys.exit("usage: radicale_server.py DIRECTORY PORT USER PASSWORD")
directory, port, user, password = sys.argv[1:]
directory = os.path.abspath(directory)
os.makedirs(directory, exist_ok=True)

users_file = os.path.join(directory, "users")
with open(users_file, "w") as f:
    # plain: bcrypt would need the optional bcrypt module, and this is a test.
    f.write("%s:%s\n" % (user, password))

config_file = os.path.join(directory, "config")
with open(config_file, "w") as f:
    f.write(f"""\
[server]
hosts = 127.0.0.1:{port}
[auth]
type = htpasswd
htpasswd_filename = {users_file}
htpasswd_encryption = plain
# Radicale sleeps ~1 s on every failed login by default; tests probe 401s.
delay = 0
[rights]
type = owner_only
[storage]
filesystem_folder = {os.path.join(directory, "collections")}
[web]
type = none
[logging]
level = warning
""")

log.setup()  # Radicale's handler writes to stderr
configuration = config.load([(config_file, False)])
log.set_level(configuration.get("logging", "level"), False)

# Create the collections through Radicale's own storage code (so the on-disk
# layout is whatever this Radicale version expects), before anyone connects.
# create_collection() with props *replaces* an existing collection and its
# items, so only create what is missing: that is what makes restarts keep data.
store = storage.load(configuration)
with store.acquire_lock("w", user):
    for href, props in [
            ("/%s/" % user, None),  # the principal: a plain folder
            ("/%s/tasks/" % user, {"tag": "VCALENDAR", "D:displayname": "Tasks",
                                   "C:supported-calendar-component-set": "VTODO"}),
            ("/%s/alarms/" % user, {"tag": "VCALENDAR", "D:displayname": "Alarms",
                                    "C:supported-calendar-component-set": "VEVENT"})]:
        if next(iter(store.discover(href)), None) is None:
            store.create_collection(href, props=props)


class AnnouncingServer(server.ParallelHTTPServer):
    # serve() has no "bound" callback. Announcing right after our own listen()
    # (rather than polling the port) means READY can't come from some other
    # process that already holds PORT; connections queue from here on.
    def server_activate(self):
        super().server_activate()
        print("READY", flush=True)


server.ParallelHTTPServer = AnnouncingServer
# Runs until the process is killed; default SIGTERM handling ends it at once,
# which is what a test wants (every write Radicale acknowledged is already on
# disk, fsynced).
server.serve(configuration)
sys.exit("radicale_server.py: server stopped")
