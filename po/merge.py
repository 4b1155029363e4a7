#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Brings LANG.po up to date with alarmd.pot, keeping the catalog's style.

Usage: po/merge.py po/alarmd.pot po/LANG.po

Every entry is rebuilt from the template in the template's order, with the
translation the catalog already has for its msgid (and msgctxt); a new msgid
gets an empty translation, a msgid no longer in the sources is dropped. Unlike
`msgmerge --update`, it neither re-wraps lines nor guesses fuzzy translations
from similar messages: a translation is exact or absent, and `msgfmt
--statistics` then says how many are missing.
"""
import re
import sys


def blocks(path):
    return open(path, encoding="utf-8").read().split("\n\n")


def fields(block):
    """The entry's key (msgctxt, msgid) and its fields, continuation lines kept."""
    current, parts = None, {}
    for line in block.split("\n"):
        if line.startswith('"') and current:
            parts[current].append(line)
            continue
        match = re.match(r"^(msgctxt|msgid_plural|msgid|msgstr(\[\d+\])?) ", line)
        current = match.group(1) if match else None
        if current:
            parts.setdefault(current, []).append(line)
    key = ("\n".join(parts.get("msgctxt", [])), "\n".join(parts.get("msgid", [])))
    return key, parts


def translation(parts):
    return [line for name, lines in parts.items() if name.startswith("msgstr") for line in lines]


def is_empty(lines):
    return all(re.fullmatch(r'(msgstr(\[\d+\])? )?""', line) for line in lines)


def main(template, catalog):
    existing = blocks(catalog)
    known = {}
    for block in existing[1:]:
        key, parts = fields(block)
        known[key] = translation(parts)
    output = [existing[0]]
    for block in blocks(template)[1:]:
        if not block.strip():
            continue
        key, parts = fields(block)
        kept, in_msgstr = [], False
        for line in block.split("\n"):
            if line.startswith("msgstr"):
                in_msgstr = True
                continue
            if in_msgstr and line.startswith('"'):
                continue
            in_msgstr = False
            kept.append(line)
        old = known.get(key)
        output.append("\n".join(kept + (old if old and not is_empty(old) else translation(parts))))
    with open(catalog, "w", encoding="utf-8") as file:
        file.write("\n\n".join(output).rstrip("\n") + "\n")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
