#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""text-safe.py FILE...: is each FILE safe to print on a terminal (issue 34)?

Every byte must be valid UTF-8, with no C0 control but the newline and the tab, no DEL and no C1 control
(U+0080..U+009F). Prints one line per offence (file, line number, the character) and exits 1
when there is any.
"""
import sys

bad = 0
for path in sys.argv[1:]:
    data = open(path, "rb").read()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        print(f"{path}: not UTF-8 at byte {e.start}: {data[max(0, e.start - 20):e.start + 4]!r}")
        bad += 1
        continue
    for n, line in enumerate(text.split("\n"), 1):
        for ch in line:
            if (ord(ch) < 0x20 and ch != "\t") or 0x7F <= ord(ch) <= 0x9F:
                print(f"{path}:{n}: control U+{ord(ch):04X} in {line[:80]!r}")
                bad += 1
                break
sys.exit(1 if bad else 0)
