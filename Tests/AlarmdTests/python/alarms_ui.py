#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Drives the Alarms desktop app (`alarms`) through AT-SPI, as a screen reader would.

Run with Debian's /usr/bin/python3 (python3-pyatspi, gir1.2-atspi-2.0); the
app runs with GTK_A11Y=atspi on the same session bus (DBUS_SESSION_BUS_ADDRESS)
and display, with at-spi-bus-launcher started on that bus.

    alarms_ui.py [--pid PID] [--app NAME] [--timeout SECONDS] COMMAND ARG...
        runs one command and prints its JSON reply;
    alarms_ui.py [--pid PID] [--app NAME] [--timeout SECONDS] --serve
        reads one command per line on stdin, each a JSON array
        (["click", "push button", "Save"]), and answers each with one line of
        JSON: {"ok": true, "value": ...} or {"ok": false, "error": "..."}.
        One Python process then serves a whole test, without paying Python's
        and pyatspi's start-up for every step.

A node is found by its AT-SPI role name ("push button", "check box", "spin
button", "text", "label", "menu item", ...) and its accessible name, exactly.
A NAME that starts with "re:" is a regular expression (re.search), one that
starts with "prefix:" a prefix. Only nodes on screen count: GTK 4.8 keeps the
widgets of hidden stack pages in the tree with empty extents, and reports
STATE_SHOWING on windows only, so "on screen" here means STATE_VISIBLE and
extents (window coordinates; GTK 4.8 has no screen coordinates under X11) of
non-zero size, within an ancestor chain that is on screen too.

Every wait polls the tree every 20 ms until its deadline (--timeout, 10 s by
default, or the command's own last argument where it takes one). A command
that fails answers (or, run once, exits 1 with) a message naming what it
waited for, followed by the app's on-screen tree, so a failing test says what
the app showed instead.

Commands (ROLE and NAME as above):
    wait ROLE NAME [TIMEOUT]     until the node is on screen; its description
    gone ROLE NAME [TIMEOUT]     until no such node is on screen
    exists ROLE NAME             true or false, now, without waiting
    click ROLE NAME              the node's "click" action (else its first)
    toggle ROLE NAME             the node's "toggle" action (else click); a node
                                 with no action at all (GTK 4.8's GtkCheckButton)
                                 is clicked with the mouse (mouse-click)
    mouse-click ROLE NAME        a mouse click (XTest) in the middle of the node
    press ROLE NAME KEY          focus the node, press KEY (space, Return,
                                 Escape, Delete, Tab or one character) via XTest
    action ROLE NAME ACTION      a named action ("activate", "press", ...)
    states ROLE NAME             its states: ["checked", "pressed", ...]
    wait-state ROLE NAME STATE [on|off] [TIMEOUT]
                                 until the state is set (on) or clear (off)
    set-value ROLE NAME NUMBER   Value interface (spin buttons, scales)
    value ROLE NAME              the current value
    set-text ROLE NAME TEXT      EditableText interface (entries, text views)
    text ROLE NAME               the Text interface's whole text
    names ROLE                   the names of every on-screen node of ROLE
    row-labels ROLE NAME         the labels of the row the node is in: the
                                 names of every label under its parent
    labels                       every on-screen label's name, in tree order
    windows                      the app's windows: [{"role", "name", "extents"}]
    wait-window NAME [TIMEOUT]   until a window (frame or dialog) so named is on screen
    window-gone NAME [TIMEOUT]   until it is not
    layout NAME                  the window's extents and every on-screen node
                                 that reaches outside it ("overflow"); nodes
                                 inside a scroll pane count by the pane's extents
    shot NAME PATH               a screenshot of the window (xwininfo, ImageMagick
                                 `import`) into PATH, and what it holds:
                                 {"width", "height", "colours", "spread"}
    tree                         the app's on-screen tree, as text
    ping                         answers "pong" (the driver found the app)
    quit                         ends --serve
"""

import json
import os
import re
import subprocess
import sys
import time
import traceback

import gi

gi.require_version("Atspi", "2.0")
from gi.repository import Atspi  # noqa: E402
import pyatspi  # noqa: E402

POLL = 0.02
DEFAULT_TIMEOUT = 10.0


class Failure(Exception):
    """A command that could not be done; its message says what was awaited."""


# ---------------------------------------------------------------------------
# Finding the app and its nodes


class App:
    def __init__(self, pid=None, name="alarms", timeout=DEFAULT_TIMEOUT):
        self.pid = pid
        self.name = name
        self.timeout = timeout
        self.root = None

    def find_root(self):
        """The app's accessible root (the `application` node), by process id
        when given (several apps may share the bus), else by name."""
        desktop = pyatspi.Registry.getDesktop(0)
        for i in range(desktop.childCount):
            try:
                app = desktop.getChildAtIndex(i)
                if app is None:
                    continue
                if self.pid is not None:
                    if app.get_process_id() == self.pid:
                        return app
                elif app.name == self.name:
                    return app
            except Exception:
                continue
        return None

    def application(self, timeout=None):
        """Waits for the app to register on the accessibility bus."""
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        while True:
            if self.root is None:
                self.root = self.find_root()
                if self.root is not None:
                    # No cache: libatspi would keep names, states and children
                    # it read once, and only events (which this driver does not
                    # listen to) would refresh them. Every read goes to the app.
                    try:
                        self.root.set_cache_mask(Atspi.Cache.NONE)
                    except Exception:
                        pass
            if self.root is not None:
                try:
                    self.root.clear_cache()
                    self.root.childCount  # still there?
                    return self.root
                except Exception:
                    self.root = None
            if time.monotonic() >= deadline:
                who = "pid %d" % self.pid if self.pid is not None else "name %r" % self.name
                raise Failure("the app (%s) did not appear on the accessibility bus within %.1f s" % (who, self.timeout if timeout is None else timeout))
            time.sleep(POLL)


def role_of(node):
    try:
        return node.getRoleName()
    except Exception:
        return ""


def name_of(node):
    try:
        return node.name or ""
    except Exception:
        return ""


def extents_of(node):
    """(x, y, width, height) in window coordinates, or None without Component."""
    try:
        e = node.queryComponent().getExtents(pyatspi.WINDOW_COORDS)
        return (e.x, e.y, e.width, e.height)
    except Exception:
        return None


def states_of(node):
    try:
        return [pyatspi.stateToString(s) for s in node.getState().getStates()]
    except Exception:
        return []


def children(node):
    try:
        count = node.childCount
    except Exception:
        return []
    result = []
    for i in range(count):
        try:
            child = node.getChildAtIndex(i)
        except Exception:
            child = None
        if child is not None:
            result.append(child)
    return result


def on_screen(node):
    """Visible with a non-empty box. Nodes without Component (GtkStackPage)
    are looked through: their children decide."""
    states = states_of(node)
    if "visible" not in states and role_of(node) not in ("application",):
        return False
    box = extents_of(node)
    if box is None:
        return True
    return box[2] > 0 and box[3] > 0


def has_actions(node):
    try:
        return node.queryAction().nActions > 0
    except Exception:
        return False


def effective_box(node):
    """The node's extents, or for a node without Component (a GtkStackPage)
    its first child's."""
    box = extents_of(node)
    if box is not None:
        return box
    for child in children(node):
        box = extents_of(child)
        if box is not None:
            return box
    return None


def overlap(a, b):
    x = max(a[0], b[0])
    y = max(a[1], b[1])
    w = min(a[0] + a[2], b[0] + b[2]) - x
    h = min(a[1] + a[3], b[1] + b[3]) - y
    return w > 0 and h > 0 and w * h >= 1600


def hidden_stack_pages(parent, kids):
    """The children of `parent` that are hidden pages of a stack.

    GTK 4.8 keeps a stack's hidden pages (GtkStack, AdwViewStack) in the
    tree, "visible", with the allocation they had when last shown, and says
    nothing else that tells them apart. So children of one parent whose boxes
    overlap are hit-tested with GTK's own picking (Component's
    GetAccessibleAtPoint, which skips unmapped widgets) at nine points of
    each one's box: a child no point lands in, while some land in a sibling
    or the parent, is hidden. An overlay's children (a toast over the page)
    each get points of their own, so both stay; where GTK picks nothing the
    child stays too."""
    boxes = []
    for kid in kids:
        box = effective_box(kid)
        if box is not None and box[2] * box[3] >= 1600:
            boxes.append((kid, box))
    overlapping = [(kid, box) for kid, box in boxes if any(other is not kid and overlap(box, b) for other, b in boxes)]
    if len(overlapping) < 2:
        return []
    try:
        component = parent.queryComponent()
    except Exception:
        return []

    def landing(px, py):
        """The child of `parent` GTK picks at (px, py), `parent` when the
        point is on the parent itself or outside its children, None when GTK
        picks nothing."""
        try:
            hit = component.getAccessibleAtPoint(px, py, pyatspi.WINDOW_COORDS)
        except Exception:
            return None
        steps = 0
        while hit is not None and steps < 64:
            if hit == parent:
                return parent
            try:
                up = hit.parent
            except Exception:
                return None
            if up is None:
                return parent  # outside `parent` altogether
            if up == parent:
                return hit
            hit = up
            steps += 1
        return None

    hidden = []
    for kid, (x, y, w, h) in overlapping:
        seen_elsewhere = False
        seen_here = False
        for fx in (0.25, 0.5, 0.75):
            for fy in (0.25, 0.5, 0.75):
                landed = landing(int(x + w * fx), int(y + h * fy))
                if landed is None:
                    continue
                if landed == kid:
                    seen_here = True
                    break
                seen_elsewhere = True
            if seen_here:
                break
        if not seen_here and seen_elsewhere:
            hidden.append(kid)
    return hidden


def walk(node, depth=0, inside_scroll=None):
    """Yields (node, depth, scroll-pane extents or None) for every on-screen
    node under `node`, in tree order; hidden subtrees are not entered."""
    kids = [child for child in children(node) if on_screen(child)]
    if len(kids) > 1:
        hidden = hidden_stack_pages(node, kids)
        kids = [k for k in kids if not any(k == h for h in hidden)]
    for child in kids:
        yield child, depth + 1, inside_scroll
        pane = extents_of(child) if role_of(child) == "scroll pane" else inside_scroll
        yield from walk(child, depth + 1, pane)


def windows(root):
    return [w for w in children(root) if role_of(w) in ("frame", "dialog", "window", "alert", "file chooser") and on_screen(w)]


def matches(name, wanted):
    if wanted.startswith("re:"):
        return re.search(wanted[3:], name) is not None
    if wanted.startswith("prefix:"):
        return name.startswith(wanted[7:])
    return name == wanted


def find_iter(root, role, name=None):
    """On-screen nodes with ROLE (and NAME), the newest window first (a
    dialog before the window it is over), each window in tree order."""
    for window in reversed(windows(root)):
        if role_of(window) == role and (name is None or matches(name_of(window), name)):
            yield window
        for node, _, _ in walk(window):
            if role_of(node) == role and (name is None or matches(name_of(node), name)):
                yield node


def find_all(root, role, name=None):
    return list(find_iter(root, role, name))


def find_first(root, role, name=None):
    """The first match, without reading the rest of the tree."""
    return next(find_iter(root, role, name), None)


def describe(node):
    box = extents_of(node)
    return {"role": role_of(node), "name": name_of(node), "states": [s for s in states_of(node) if s in INTERESTING],
            "extents": list(box) if box else None}


INTERESTING = ("checked", "pressed", "selected", "focused", "sensitive", "enabled", "editable", "expanded", "showing", "modal")


def tree_text(root):
    lines = []
    for window in windows(root):
        lines.append(line_for(window, 0))
        for node, depth, _ in walk(window):
            lines.append(line_for(node, depth))
    return "\n".join(lines)


def line_for(node, depth):
    role, name = role_of(node), name_of(node)
    flags = [s for s in states_of(node) if s in ("checked", "pressed", "focused")]
    if "sensitive" not in states_of(node):
        flags.append("insensitive")
    box = extents_of(node)
    extra = ""
    if role in ("spin button", "slider"):
        try:
            extra = " value=%g" % node.queryValue().currentValue
        except Exception:
            pass
    if role in ("text", "entry", "password text"):
        try:
            t = node.queryText()
            extra = " text=%r" % t.getText(0, t.characterCount)
        except Exception:
            pass
    return "%s%s %r%s%s%s" % ("  " * depth, role, name, (" [" + ",".join(flags) + "]") if flags else "",
                               (" @%d,%d %dx%d" % box) if box else "", extra)


# ---------------------------------------------------------------------------
# Commands


class Driver:
    def __init__(self, app):
        self.app = app

    def timeout(self, value):
        return float(value) if value not in (None, "") else self.app.timeout

    def poll(self, what, timeout, probe):
        """Calls `probe` every 20 ms until it returns something other than
        None, or fails naming `what` and showing the tree."""
        deadline = time.monotonic() + timeout
        last_error = None
        while True:
            root = self.app.application(timeout=max(0.0, deadline - time.monotonic()))
            try:
                result = probe(root)
                if result is not None:
                    return result
            except Failure:
                raise
            except Exception as error:  # a node went away while being read
                last_error = error
            if time.monotonic() >= deadline:
                message = "timed out after %.1f s waiting for %s" % (timeout, what)
                if last_error is not None:
                    message += " (last error: %s)" % last_error
                raise Failure(message + "\nThe app's windows on screen:\n" + self.tree_or_error())
            time.sleep(POLL)

    def tree_or_error(self):
        try:
            return tree_text(self.app.application(timeout=1))
        except Exception as error:
            return "(the tree could not be read: %s)" % error

    def node(self, role, name, timeout=None):
        """The one on-screen node with ROLE and NAME, waited for."""
        return self.poll("a %s named %r" % (role, name), self.timeout(timeout), lambda root: find_first(root, role, name))

    # -- commands --------------------------------------------------------

    def cmd_ping(self):
        self.app.application()
        return "pong"

    def cmd_wait(self, role, name, timeout=None):
        return describe(self.node(role, name, timeout))

    def cmd_gone(self, role, name, timeout=None):
        def probe(root):
            return True if find_first(root, role, name) is None else None
        return self.poll("no %s named %r to be on screen" % (role, name), self.timeout(timeout), probe)

    def cmd_exists(self, role, name):
        return find_first(self.app.application(), role, name) is not None

    def actionable(self, role, name, timeout=None):
        """The first on-screen node with ROLE and NAME that has an action:
        a GtkMenuButton shows as a push button holding its toggle button of
        the same name, and only the inner one acts."""
        def probe(root):
            found = find_all(root, role, name)
            for node in found:
                try:
                    if node.queryAction().nActions > 0:
                        return node
                except Exception:
                    continue
            return found[0] if found else None
        return self.poll("a %s named %r" % (role, name), self.timeout(timeout), probe)

    def do_action(self, node, preferred):
        try:
            action = node.queryAction()
            names = [action.getName(i) for i in range(action.nActions)]
        except NotImplementedError:
            names = []
        for wanted in preferred:
            if wanted in names:
                return action.doAction(names.index(wanted)), wanted
        if names:
            return action.doAction(0), names[0]
        raise Failure("%s %r has no action (wanted %s)" % (role_of(node), name_of(node), "/".join(preferred)))

    def cmd_click(self, role, name):
        node = self.actionable(role, name)
        done, used = self.do_action(node, ["click", "activate", "press", "toggle"])
        if not done:
            raise Failure("the %r action of %s %r did nothing" % (used, role, name))
        return used

    def cmd_toggle(self, role, name):
        node = self.actionable(role, name)
        if not has_actions(node):
            # GTK 4.8 gives a GtkCheckButton no AT-SPI action at all (only
            # buttons, switches, expanders and entries have one), nor
            # Component.GrabFocus for the keyboard: a person clicks it with
            # the mouse, and so does this.
            return self.mouse_click(node, role, name)
        done, used = self.do_action(node, ["toggle", "click", "activate", "press"])
        if not done:
            raise Failure("the %r action of %s %r did nothing" % (used, role, name))
        return used

    def focus_and_press(self, node, role, name, keysym, key):
        """Gives the node the keyboard focus (Component.GrabFocus) and types
        `keysym` through the registry (XTest on X11), as a keyboard user
        would."""
        if not node.queryComponent().grabFocus():
            raise Failure("%s %r has no action and would not take the focus" % (role, name))
        self.poll("%s %r to have the focus" % (role, name), self.app.timeout,
                  lambda root: True if "focused" in states_of(node) else None)
        Atspi.generate_keyboard_event(keysym, None, Atspi.KeySynthType.SYM)
        return "focus+" + key

    def x_window(self, name):
        """(id, x, y, width, height) of the largest X window titled `name`
        (GTK also makes a 1×1 leader window of the same name, off screen)."""
        info = subprocess.run(["/usr/bin/xwininfo", "-root", "-tree"], capture_output=True, text=True)
        if info.returncode != 0:
            raise Failure("xwininfo -root -tree failed: %s" % info.stderr.strip())
        best = None
        for line in info.stdout.splitlines():
            match = re.match(r'\s*(0x[0-9a-f]+) "(.*)": \(.*\)\s+(\d+)x(\d+)\+(-?\d+)\+(-?\d+)\s+\+(-?\d+)\+(-?\d+)', line)
            if not match or match.group(2) != name:
                continue
            width, height = int(match.group(3)), int(match.group(4))
            if best is None or width * height > best[3] * best[4]:
                best = (match.group(1), int(match.group(7)), int(match.group(8)), width, height)
        if best is None or best[3] * best[4] <= 1:
            raise Failure("xwininfo -root -tree shows no X window named %r:\n%s" % (name, info.stdout))
        return best

    def mouse_click(self, node, role, name):
        """Clicks the middle of the node with the mouse (XTest, through the
        registry). GTK 4.8 has no screen coordinates under X11, so the point
        is the node's window coordinates plus where the X window is, plus the
        resize border GTK's client-side decorations put around it (the X
        window is that much larger than the AT-SPI window, on every side)."""
        top = node
        while top is not None and role_of(top) not in ("frame", "dialog", "window", "alert"):
            top = top.parent
        if top is None:
            raise Failure("%s %r is in no window" % (role, name))
        _, x, y, width, height = self.x_window(name_of(top))
        _, _, top_width, top_height = extents_of(top)
        border_x, border_y = (width - top_width) // 2, (height - top_height) // 2
        nx, ny, nw, nh = extents_of(node)
        Atspi.generate_mouse_event(x + border_x + nx + nw // 2, y + border_y + ny + nh // 2, "b1c")
        return "mouse"

    def cmd_mouse_click(self, role, name):
        return self.mouse_click(self.node(role, name), role, name)

    def cmd_press(self, role, name, key):
        """Focuses the node and presses KEY ("space", "Return", "Escape",
        "Delete", or one character)."""
        keys = {"space": 0x20, "Return": 0xff0d, "Escape": 0xff1b, "Delete": 0xffff, "Tab": 0xff09}
        keysym = keys.get(key, ord(key) if len(key) == 1 else None)
        if keysym is None:
            raise Failure("unknown key %r (known: %s, or one character)" % (key, ", ".join(keys)))
        return self.focus_and_press(self.node(role, name), role, name, keysym, key)

    def cmd_action(self, role, name, action_name):
        node = self.actionable(role, name)
        action = node.queryAction()
        names = [action.getName(i) for i in range(action.nActions)]
        if action_name not in names:
            raise Failure("%s %r has no action %r, only %s" % (role, name, action_name, names))
        return action.doAction(names.index(action_name))

    def cmd_states(self, role, name):
        return states_of(self.node(role, name))

    def cmd_wait_state(self, role, name, state, want="on", timeout=None):
        want_on = want != "off"

        def probe(root):
            found = find_first(root, role, name)
            if found is not None and ((state in states_of(found)) == want_on):
                return states_of(found)
            return None
        return self.poll("%s %r to be %s%s" % (role, name, "" if want_on else "not ", state), self.timeout(timeout), probe)

    def cmd_set_value(self, role, name, number):
        node = self.node(role, name)
        value = node.queryValue()
        value.currentValue = float(number)
        return value.currentValue

    def cmd_value(self, role, name):
        return self.node(role, name).queryValue().currentValue

    def cmd_set_text(self, role, name, text):
        node = self.node(role, name)
        if not node.queryEditableText().setTextContents(text):
            raise Failure("%s %r did not take the text %r" % (role, name, text))
        return text

    def cmd_text(self, role, name):
        t = self.node(role, name).queryText()
        return t.getText(0, t.characterCount)

    def cmd_names(self, role):
        return [name_of(n) for n in find_all(self.app.application(), role)]

    def cmd_row_labels(self, role, name):
        node = self.node(role, name)
        parent = node.parent
        labels = []
        for child, _, _ in walk(parent):
            if role_of(child) == "label":
                labels.append(name_of(child))
        return labels

    def cmd_labels(self):
        return [name_of(n) for n in find_all(self.app.application(), "label")]

    def cmd_windows(self):
        return [describe(w) for w in windows(self.app.application())]

    def window(self, name, timeout=None):
        def probe(root):
            for w in windows(root):
                if matches(name_of(w), name):
                    return w
            return None
        return self.poll("a window named %r" % name, self.timeout(timeout), probe)

    def cmd_wait_window(self, name, timeout=None):
        return describe(self.window(name, timeout))

    def cmd_window_gone(self, name, timeout=None):
        def probe(root):
            return True if not any(matches(name_of(w), name) for w in windows(root)) else None
        return self.poll("no window named %r" % name, self.timeout(timeout), probe)

    def cmd_layout(self, name, tolerance="2"):
        """The window's box, and every on-screen node reaching outside it by
        more than `tolerance` pixels (libadwaita's header bar reaches one
        pixel past the window's edge by design). A node inside a scroll pane
        may lie outside the window (it is scrolled away): the pane itself
        must fit, not its content."""
        window = self.window(name)
        wx, wy, ww, wh = extents_of(window)
        slack = int(tolerance)
        overflow = []
        count = 0
        popup_depth = None
        for node, depth, pane in walk(window):
            # A popover (a menu, a drop-down's list) and a tooltip are
            # surfaces of their own, allowed past the window's edge.
            if popup_depth is not None and depth > popup_depth:
                continue
            popup_depth = None
            if role_of(node) in ("menu", "popup menu", "tool tip", "window"):
                popup_depth = depth
                continue
            box = extents_of(node)
            if box is None:
                continue
            count += 1
            if pane is not None:
                continue
            x, y, w, h = box
            # Window coordinates: the window's own box starts at (0, 0).
            if x < -slack or y < -slack or x + w > ww + slack or y + h > wh + slack:
                overflow.append(line_for(node, 0).strip())
        return {"window": [wx, wy, ww, wh], "nodes": count, "overflow": overflow}

    def cmd_shot(self, name, path):
        """Finds the X window by its title in `xwininfo -root -tree` (GTK
        also makes a 1×1 leader window of the same name, off screen: the
        largest one is the window), captures it with ImageMagick's import,
        and measures the picture with PIL. The X window is a little larger
        than the AT-SPI window: GTK's client-side decorations put a resize
        border around it."""
        self.window(name)  # on screen as far as AT-SPI knows
        best = self.x_window(name)
        shot = subprocess.run(["/usr/bin/import", "-window", best[0], path], capture_output=True, text=True)
        if shot.returncode != 0:
            raise Failure("import -window %s %s failed: %s" % (best[0], path, shot.stderr.strip()))
        result = measure(path)
        result["xwindow"] = best[0]
        return result

    def cmd_tree(self):
        return tree_text(self.app.application())


def measure(path):
    """What a picture holds: its size, how many distinct colours, and the
    spread (the largest per-channel standard deviation, 0–255) — a blank or
    near-uniform picture has few colours and little spread."""
    from PIL import Image, ImageStat
    image = Image.open(path).convert("RGB")
    colours = image.getcolors(maxcolors=1 << 24)
    stat = ImageStat.Stat(image)
    return {"width": image.width, "height": image.height, "colours": len(colours) if colours else 1 << 24,
            "spread": max(stat.stddev)}


COMMANDS = {
    "ping": "cmd_ping", "wait": "cmd_wait", "gone": "cmd_gone", "exists": "cmd_exists", "click": "cmd_click",
    "toggle": "cmd_toggle", "press": "cmd_press", "mouse-click": "cmd_mouse_click", "action": "cmd_action", "states": "cmd_states", "wait-state": "cmd_wait_state",
    "set-value": "cmd_set_value", "value": "cmd_value", "set-text": "cmd_set_text", "text": "cmd_text",
    "names": "cmd_names", "row-labels": "cmd_row_labels", "labels": "cmd_labels", "windows": "cmd_windows",
    "wait-window": "cmd_wait_window", "window-gone": "cmd_window_gone", "layout": "cmd_layout", "shot": "cmd_shot",
    "tree": "cmd_tree",
}


def run(driver, words):
    if not words:
        raise Failure("an empty command")
    method = COMMANDS.get(words[0])
    if method is None:
        raise Failure("unknown command %r (known: %s)" % (words[0], ", ".join(sorted(COMMANDS))))
    try:
        return getattr(driver, method)(*words[1:])
    except TypeError as error:
        raise Failure("%s: wrong arguments %r (%s)" % (words[0], words[1:], error))


def main(argv):
    pid, name, timeout, serve = None, "alarms", DEFAULT_TIMEOUT, False
    args = list(argv)
    while args and args[0].startswith("--"):
        option = args.pop(0)
        if option == "--pid":
            pid = int(args.pop(0))
        elif option == "--app":
            name = args.pop(0)
        elif option == "--timeout":
            timeout = float(args.pop(0))
        elif option == "--serve":
            serve = True
        elif option == "--help":
            print(__doc__)
            return 0
        else:
            print("alarms_ui.py: unknown option %s" % option, file=sys.stderr)
            return 64
    driver = Driver(App(pid=pid, name=name, timeout=timeout))
    if not serve:
        try:
            value = run(driver, args)
        except Failure as error:
            print("alarms_ui.py: %s" % error, file=sys.stderr)
            return 1
        print(value if isinstance(value, str) else json.dumps(value, ensure_ascii=False))
        return 0
    # The line protocol: a JSON array in, one JSON object out, flushed.
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            words = json.loads(line)
            if not isinstance(words, list):
                raise Failure("a command is a JSON array of strings, not %r" % line)
            if words == ["quit"]:
                print(json.dumps({"ok": True, "value": "bye"}), flush=True)
                return 0
            reply = {"ok": True, "value": run(driver, [str(w) for w in words])}
        except Failure as error:
            reply = {"ok": False, "error": str(error)}
        except Exception as error:
            reply = {"ok": False, "error": "%s: %s\n%s" % (type(error).__name__, error, traceback.format_exc())}
        print(json.dumps(reply, ensure_ascii=False), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
