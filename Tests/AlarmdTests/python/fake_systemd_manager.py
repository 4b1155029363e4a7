# SPDX-License-Identifier: Apache-2.0
"""A stand-in for the systemd user manager on a private session bus.

It owns org.freedesktop.systemd1 and answers the three calls alarmd makes on
reload: Manager.GetUnitByPID, and Properties.Get of the Environment property of
the manager and of the unit. The environments are read from two files, one
VAR=value a line, on every call, so a test changes them by rewriting a file.
It prints "ready" once it owns the name, and each call it answers.

usage: fake_systemd_manager.py BUS_ADDRESS MANAGER_ENV_FILE UNIT_ENV_FILE
"""
import sys

from jeepney import HeaderFields, MessageType, new_error, new_method_return
from jeepney.bus_messages import message_bus
from jeepney.io.blocking import open_dbus_connection

UNIT_PATH = "/org/freedesktop/systemd1/unit/alarmd_2eservice"
MANAGER_PATH = "/org/freedesktop/systemd1"


def read_environment(path):
    try:
        with open(path, encoding="utf-8") as f:
            return [line.rstrip("\n") for line in f if "=" in line]
    except FileNotFoundError:
        return []


def answer(message, manager_env, unit_env):
    fields = message.header.fields
    path = fields.get(HeaderFields.path)
    interface = fields.get(HeaderFields.interface)
    member = fields.get(HeaderFields.member)
    if interface == "org.freedesktop.systemd1.Manager" and member == "GetUnitByPID":
        return new_method_return(message, "o", (UNIT_PATH,))
    if interface == "org.freedesktop.DBus.Properties" and member == "Get":
        wanted_interface, name = message.body
        if name == "Environment":
            if path == MANAGER_PATH and wanted_interface == "org.freedesktop.systemd1.Manager":
                return new_method_return(message, "v", (("as", read_environment(manager_env)),))
            if path == UNIT_PATH and wanted_interface == "org.freedesktop.systemd1.Service":
                return new_method_return(message, "v", (("as", read_environment(unit_env)),))
        return new_error(message, "org.freedesktop.DBus.Error.UnknownProperty", "s", (f"no {wanted_interface}.{name} at {path}",))
    return new_error(message, "org.freedesktop.DBus.Error.UnknownMethod", "s", (f"no {interface}.{member}",))


def main():
    address, manager_env, unit_env = sys.argv[1:4]
    connection = open_dbus_connection(bus=address)
    reply = connection.send_and_get_reply(message_bus.RequestName("org.freedesktop.systemd1"))
    if reply.body[0] != 1:
        sys.exit(f"could not own org.freedesktop.systemd1: {reply.body}")
    print("ready", flush=True)
    while True:
        message = connection.receive()
        if message.header.message_type != MessageType.method_call:
            continue
        fields = message.header.fields
        print(fields.get(HeaderFields.interface), fields.get(HeaderFields.member), message.body, flush=True)
        connection.send(answer(message, manager_env, unit_env))


if __name__ == "__main__":
    main()
