#!/usr/bin/env python3
# The RECIPES section of man/sdtrace.1.scd as lines "NAME<TAB>COMMAND": each recipe's name (the
# bold words that open its paragraph: "ucalls -L", "ugc"), then every command of the code blocks
# that follow it, a line continued by "\" joined to the next. t2208 runs them.
import re
import sys

text = open(sys.argv[1], encoding="utf-8").read()
m = re.search(r"^# RECIPES\n(.*?)^# ", text, re.S | re.M)
if not m:
    sys.exit("no RECIPES section in " + sys.argv[1])
name, block, cmd = None, False, ""
for line in m.group(1).splitlines():
    if line.startswith("```"):
        block = not block
        continue
    if block:
        cmd += line.strip() if cmd else line
        if cmd.endswith("\\"):
            cmd = cmd[:-1].rstrip() + " "
            continue
        if cmd.strip():
            if not name:
                sys.exit("a command before any recipe's name: " + cmd)
            print(name + "\t" + cmd.strip())
        cmd = ""
        continue
    r = re.match(r"^\*([a-z][A-Za-z0-9 -]*)\* \(", line)
    if r:
        name = r.group(1)
