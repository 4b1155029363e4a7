#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Drives python-dbusmock's systemd template on the bus in
DBUS_SESSION_BUS_ADDRESS (a stand-in user manager), for WakeTests: `calls`
prints each method call the mock logged as a JSON line with its arguments;
`refuse` makes StartTransientUnit fail as a manager without the capability
would; `track STATE` makes it create the unit (the template does not) with
ActiveState STATE: "active" as systemd 254 does, "failed" as systemd 252 does
for a user timer with WakeSystem=yes. Run with Debian's /usr/bin/python3, which has python3-dbusmock."""

import json
import sys

import dbus


def plain(value):
    """dbus-python values as JSON-able Python ones."""
    if isinstance(value, (dbus.Array, list, dbus.Struct, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, (dbus.Dictionary, dict)):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, dbus.Boolean):
        return bool(value)
    if isinstance(value, (dbus.String, dbus.ObjectPath, dbus.Signature, str)):
        return str(value)
    if isinstance(value, (int, float)):
        return int(value) if isinstance(value, int) else float(value)
    return str(value)


bus = dbus.SessionBus()
manager = bus.get_object("org.freedesktop.systemd1", "/org/freedesktop/systemd1")

if sys.argv[1] == "calls":
    for _, method, arguments in manager.GetCalls(dbus_interface="org.freedesktop.DBus.Mock"):
        print(json.dumps({"method": str(method), "args": plain(arguments)}))
elif sys.argv[1] == "refuse":
    manager.AddMethod("org.freedesktop.systemd1.Manager", "StartTransientUnit", "ssa(sv)a(sa(sv))", "o",
                      'raise dbus.exceptions.DBusException("WakeSystem= needs CAP_WAKE_ALARM", '
                      'name="org.freedesktop.DBus.Error.AccessDenied")',
                      dbus_interface="org.freedesktop.DBus.Mock")
elif sys.argv[1] == "track":
    code = (
        "name = str(args[0])\n"
        "path = '/org/freedesktop/systemd1/unit/' + name.replace('.', '_').replace('-', '_')\n"
        "if path in objects:\n"
        f"    objects[path].UpdateProperties('org.freedesktop.systemd1.Unit', {{'ActiveState': '{sys.argv[2]}'}})\n"
        "else:\n"
        "    self.AddObject(path, 'org.freedesktop.systemd1.Unit', "
        f"{{'Id': name, 'Names': [name], 'LoadState': 'loaded', 'ActiveState': '{sys.argv[2]}'}}, [])\n"
        "self.units[name] = path\n"
        "ret = '/org/freedesktop/systemd1/job/1'\n"
    )
    manager.AddMethod("org.freedesktop.systemd1.Manager", "StartTransientUnit", "ssa(sv)a(sa(sv))", "o", code,
                      dbus_interface="org.freedesktop.DBus.Mock")
else:
    sys.exit(f"unknown command {sys.argv[1]}")
