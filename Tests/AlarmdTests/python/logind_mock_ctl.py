#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Drives python-dbusmock's logind template on the bus in DBUS_SYSTEM_BUS_ADDRESS,
for LogindTests: `inhibitors` prints ListInhibitors as JSON lines; `sleep
true|false` emits PrepareForSleep; `calls` prints the calls the mock logged;
`adduser UID NAME` adds a user (not lingering); `linger UID true|false` sets
that user's Linger property.
Run with Debian's /usr/bin/python3, which has python3-dbusmock."""

import json
import sys

import dbus

bus = dbus.SystemBus()
manager = bus.get_object("org.freedesktop.login1", "/org/freedesktop/login1")

if sys.argv[1] == "inhibitors":
    for what, who, why, mode, uid, pid in manager.ListInhibitors(dbus_interface="org.freedesktop.login1.Manager"):
        print(json.dumps({"what": str(what), "who": str(who), "why": str(why), "mode": str(mode)}))
elif sys.argv[1] == "sleep":
    manager.EmitSignal("org.freedesktop.login1.Manager", "PrepareForSleep", "b", [sys.argv[2] == "true"],
                       dbus_interface="org.freedesktop.DBus.Mock")
elif sys.argv[1] == "calls":
    for timestamp, method, arguments in manager.GetCalls(dbus_interface="org.freedesktop.DBus.Mock"):
        print(json.dumps({"method": str(method)}))
elif sys.argv[1] == "adduser":
    manager.AddUser(dbus.UInt32(int(sys.argv[2])), sys.argv[3], True, dbus_interface="org.freedesktop.DBus.Mock")
    # The template's GetUser adds a string and a UInt32 (a TypeError in
    # dbusmock 0.28); this one returns the path AddUser made.
    manager.AddMethod("org.freedesktop.login1.Manager", "GetUser", "u", "o",
                      'ret = "/org/freedesktop/login1/user/%d" % args[0]', dbus_interface="org.freedesktop.DBus.Mock")
elif sys.argv[1] == "linger":
    user = bus.get_object("org.freedesktop.login1", f"/org/freedesktop/login1/user/{sys.argv[2]}")
    user.Set("org.freedesktop.login1.User", "Linger", sys.argv[3] == "true", dbus_interface="org.freedesktop.DBus.Properties")
else:
    sys.exit(f"unknown command {sys.argv[1]}")
