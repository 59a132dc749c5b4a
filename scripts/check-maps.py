#!/usr/bin/env python3
"""The maps of the source tree agree with the tree (run by `make check` as the test layout/maps).

A newcomer reads the top README's Layout, then a folder's README.md; both lag the code unless
something says so. This checks, and prints every miss with what to add where:
  1. the top README.md's Layout (its section, code blocks included) names every folder of the
     tree down to two levels (`lib/stack/`, `tests/e2e`), and every folder of lib/ at any depth
     (`arch/`), as `PATH/` or as its last part followed by `/` or a space;
  2. on the Layout row of each lib/ and cli/ folder (the line starting with the folder's path and
     the indented lines after it), every .c file of that folder is named, exactly or by a glob
     (`recorder_*.c`, `arch/*.c`, `cmd-<name>.c`);
  3. every .c file of lib/STAGE/ (and below) is named in the nearest README.md above it inside
     lib/STAGE/, and every .c file of cli/ in cli/README.md: by its name, or by a glob of a
     family in backquotes (`uprobe*.c`).

Usage: check-maps.py SRC_DIR. The files are git's (`git ls-files`) when SRC_DIR is a checkout,
else every file below it but build directories (build*, or any with a CMakeCache.txt). Exits 1 when anything is missing.
"""
import fnmatch
import os
import re
import subprocess
import sys

MAPPED_CODE = ("lib", "cli")  # folders whose .c files the maps name one by one


def tree_files(src):
    try:
        out = subprocess.run(["git", "-C", src, "ls-files"], capture_output=True, text=True,
                             check=True).stdout
        files = [f for f in out.splitlines() if f]
        if files:
            return [f for f in files if os.path.exists(os.path.join(src, f))]
    except (OSError, subprocess.CalledProcessError):
        pass
    files = []
    for root, dirs, names in os.walk(src):
        rel = os.path.relpath(root, src)
        # build trees: build*/, and any holding a CMakeCache.txt (dh's obj-<triplet>/)
        dirs[:] = [d for d in dirs if not d.startswith(".") and
                   not (rel == "." and d.startswith("build")) and
                   not os.path.exists(os.path.join(root, d, "CMakeCache.txt"))]
        files += [os.path.normpath(os.path.join(rel, n)) for n in names]
    return files


def layout_section(readme):
    m = re.search(r"^## Layout\n(.*?)(?=^## )", readme, re.S | re.M)
    return m.group(1) if m else ""


def layout_rows(layout):
    """folder path -> the text of its row (the line naming it and the indented lines after)."""
    rows = {}
    cur = None
    for line in layout.splitlines():
        m = re.match(r"([A-Za-z0-9_.][\w./-]*)/\s", line + " ")
        if m:
            cur = m.group(1)
            rows[cur] = line[m.end():]
        elif cur and line.startswith((" ", "\t")) and line.strip():
            rows[cur] += " " + line.strip()
        else:
            cur = None
    return rows


def named(text, name):
    return re.search(r"(?<![\w-])" + re.escape(name) + r"(?![\w])", text) is not None


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    src = sys.argv[1]
    files = tree_files(src)
    misses = []

    readme = open(os.path.join(src, "README.md"), encoding="utf-8").read()
    layout = layout_section(readme)
    if not layout:
        misses.append("README.md: no '## Layout' section")
    rows = layout_rows(layout)

    dirs = set()
    for f in files:
        parts = f.split("/")[:-1]
        for i in range(1, len(parts) + 1):
            dirs.add("/".join(parts[:i]))
    for d in sorted(dirs):
        depth = d.count("/") + 1
        if d.startswith(".") or (depth > 2 and not d.startswith("lib/")):
            continue
        base = d.rsplit("/", 1)[-1]
        if not (d + "/" in layout or re.search(r"(?<![\w-])" + re.escape(base) + r"[/ ]",
                                               layout)):
            misses.append("README.md, Layout: the folder '%s/' is not named" % d)

    for f in sorted(files):
        if not f.endswith(".c") or f.split("/")[0] not in MAPPED_CODE:
            continue
        folder = os.path.dirname(f)
        # 2. the top Layout: the row of the nearest folder that has one
        row_dir = folder
        while row_dir and row_dir not in rows:
            row_dir = os.path.dirname(row_dir)
        if not row_dir:
            misses.append("README.md, Layout: no row for '%s/' (naming %s)" % (folder, f))
        else:
            rel = os.path.relpath(f, row_dir)
            tokens = re.findall(r"[\w*<>./{},-]+\.c\b", rows[row_dir])
            pats = [re.sub(r"<\w+>", "*", t) for t in tokens]
            if not any(fnmatch.fnmatchcase(rel, p) and ("/" in p) == ("/" in rel)
                       for p in pats):
                misses.append("README.md, Layout: '%s' is not named on the row of '%s/'"
                              % (f, row_dir))
        # 3. the folder's own README.md: the nearest one inside its stage (lib/STAGE, cli)
        top = "/".join(f.split("/")[:2]) if f.startswith("lib/") else "cli"
        d = folder
        while True:
            r = os.path.join(d, "README.md")
            if r in files or d == top:
                break
            d = os.path.dirname(d)
        path = os.path.join(src, r)
        if not os.path.exists(path):
            misses.append("%s: missing (it should name %s)" % (r, f))
            continue
        text = open(path, encoding="utf-8").read()
        globs = re.findall(r"`([\w./-]*\*[\w./*-]*\.c)`", text)
        if not (named(text, os.path.basename(f)) or named(text, os.path.relpath(f, d)) or
                any(fnmatch.fnmatchcase(os.path.basename(f), g) for g in globs)):
            misses.append("%s: '%s' is not named" % (r, os.path.relpath(f, d)))

    for m in misses:
        print("check-maps: " + m)
    print("check-maps: %s (%d files)" % ("FAILED, %d misses" % len(misses) if misses else "ok",
                                         len(files)))
    return 1 if misses else 0


if __name__ == "__main__":
    sys.exit(main())
