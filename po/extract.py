#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes alarmd's message template (po/alarmd.pot) from the Swift sources.

xgettext has no Swift parser (gettext 0.21 reads C, Python, Java and others,
not Swift): read as C it takes a multi-line literal (\"\"\"...\"\"\") apart, and
read as Python an apostrophe in a // comment starts a string. So this reads
Swift's literals itself and finds the calls that mark messages:

    L("text")             a message
    Lf("text %s", x)      a message with placeholders
    Ln("one", "many", n)  a message with a plural form
    N_("text")            a message translated where it is shown

A comment starting `TRANSLATORS:` on the lines just above a call is given to
translators. Placeholders are C's (%s, %d, %1$s), so the message is flagged
c-format and `msgfmt --check` holds translations to them; a message with other
% directives (a strftime form) is flagged no-c-format.

Usage: po/extract.py OUTPUT.pot SOURCE_DIR...
"""
import os
import re
import sys

KEYWORDS = {"L": 1, "Lf": 1, "N_": 1, "Ln": 2}
C_FORMAT = re.compile(r"%(?:\d+\$)?[sd]")
ANY_DIRECTIVE = re.compile(r"%[^%]")


def literal(text, i):
    """Reads the Swift string literal at text[i] ('"'); returns (value, end) or None."""
    if text.startswith('"""', i):
        end = text.index('"""', i + 3)
        body = text[i + 3:end]
        lines = body.split("\n")[1:]
        # Swift strips the closing delimiter's indentation from every line.
        indent = len(lines[-1]) if lines else 0
        value = "\n".join(l[indent:] for l in lines[:-1])
        # A backslash at a line's end joins it with the next.
        value = value.replace("\\\n", "")
        return value, end + 3
    j = i + 1
    out = []
    while text[j] != '"':
        if text[j] == "\\":
            out.append(text[j:j + 2])
            j += 2
            continue
        if text[j] == "\n":
            return None
        out.append(text[j])
        j += 1
    return "".join(out), j + 1


def unescape(value):
    if "\\(" in value:
        # Interpolated text cannot be looked up: use Lf with placeholders.
        raise ValueError("interpolation in a marked message: " + value[:60])
    return (value.replace("\\n", "\n").replace("\\t", "\t").replace('\\"', '"').replace("\\'", "'")
            .replace("\\\\", "\\"))


def messages(path):
    text = open(path, encoding="utf-8").read()
    i = 0
    line = 1
    pending_comment = []
    comment_line = 0
    while i < len(text):
        c = text[i]
        if c == "\n":
            line += 1
            i += 1
            continue
        if text.startswith("//", i):
            end = text.find("\n", i)
            end = len(text) if end < 0 else end
            body = text[i + 2:end].strip()
            if body.startswith("TRANSLATORS:") or (pending_comment and comment_line == line - 1):
                pending_comment.append(body)
                comment_line = line
            i = end
            continue
        if text.startswith("/*", i):
            end = text.index("*/", i)
            line += text.count("\n", i, end)
            i = end + 2
            continue
        if c == '"' or (c == "#" and text.startswith('#"', i)):
            raw = c == "#"
            start = i + 1 if raw else i
            if raw:
                end = text.index('"#', start + 1) + 2
            else:
                _, end = literal(text, i) or (None, text.index("\n", i))
            line += text.count("\n", i, end)
            i = end
            continue
        m = re.match(r"(Lf|Ln|L|N_)\(", text[i:i + 4])
        if m and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            name = m.group(1)
            j = i + len(m.group(0))
            values = []
            for _ in range(KEYWORDS[name]):
                while text[j] in " \n":
                    j += 1
                if text[j] != '"':
                    break
                parsed = literal(text, j)
                if parsed is None:
                    break
                values.append(unescape(parsed[0]))
                j = parsed[1]
                while text[j] in " \n":
                    j += 1
                if text[j] == ",":
                    j += 1
            if len(values) == KEYWORDS[name]:
                comment = [c for c in pending_comment] if comment_line >= line - 2 else []
                if comment:
                    comment[0] = comment[0].removeprefix("TRANSLATORS:").strip()
                yield values, line, comment
                pending_comment = []
            i += len(m.group(0))
            continue
        if not c.isspace():
            if comment_line < line - 1:
                pending_comment = []
        i += 1


def po_string(value):
    escaped = value.replace("\\", "\\\\").replace('"', '\\"').replace("\t", "\\t")
    if "\n" in escaped.rstrip("\n"):
        parts = escaped.split("\n")
        chunks = [p + "\\n" for p in parts[:-1]] + ([parts[-1]] if parts[-1] else [])
        return '""\n' + "\n".join('"' + c + '"' for c in chunks)
    return '"' + escaped.replace("\n", "\\n") + '"'


def main():
    output, roots = sys.argv[1], sys.argv[2:]
    found = {}
    order = []
    for root in roots:
        for directory, _, files in sorted(os.walk(root)):
            for name in sorted(files):
                if not name.endswith(".swift"):
                    continue
                path = os.path.join(directory, name)
                for values, line, comment in messages(path):
                    key = tuple(values)
                    if key not in found:
                        found[key] = ([], [])
                        order.append(key)
                    found[key][0].append(f"{path}:{line}")
                    found[key][1].extend(c for c in comment if c not in found[key][1])
    with open(output, "w", encoding="utf-8") as out:
        out.write('# alarmd\'s messages. Made by po/extract.py (make po-update); do not edit.\n'
                  'msgid ""\nmsgstr ""\n'
                  '"Project-Id-Version: alarmd\\n"\n'
                  '"Report-Msgid-Bugs-To: \\n"\n'
                  '"MIME-Version: 1.0\\n"\n'
                  '"Content-Type: text/plain; charset=UTF-8\\n"\n'
                  '"Content-Transfer-Encoding: 8bit\\n"\n'
                  '"Plural-Forms: nplurals=INTEGER; plural=EXPRESSION;\\n"\n\n')
        for key in order:
            references, comment = found[key]
            for c in comment:
                out.write(f"#. {c}\n")
            out.write("#: " + " ".join(references) + "\n")
            text = "".join(key)
            if C_FORMAT.search(text):
                out.write("#, c-format\n")
            elif ANY_DIRECTIVE.search(text.replace("%%", "")):
                out.write("#, no-c-format\n")
            out.write("msgid " + po_string(key[0]) + "\n")
            if len(key) == 2:
                out.write("msgid_plural " + po_string(key[1]) + "\n")
                out.write('msgstr[0] ""\nmsgstr[1] ""\n\n')
            else:
                out.write('msgstr ""\n\n')


if __name__ == "__main__":
    main()
