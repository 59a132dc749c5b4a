#!/usr/bin/env python3
"""The exported symbols of libsdtrace.so are the public functions, no more, no fewer.

The version script (lib/libsdtrace.map) lists every function include/sdtrace/*.h declares with
SDT_API, by name (not `sdt_*`: a helper that happens to carry the prefix must not leak out).
This check fails when:
  - a function the headers declare is missing from the map, or the map names one they do not;
  - (with LIB) the shared library exports a symbol the map does not list, or misses one it does.

Usage: check-exports.py SRC_DIR [LIB.so]    check (the CTest test layout/exports)
       check-exports.py SRC_DIR --write     rewrite the map's list from the headers
"""
import glob
import os
import re
import subprocess
import sys

DECL = re.compile(r"^SDT_API\b[^;{]*?\b(\w+)\s*\(", re.M)
MAP_NAME = re.compile(r"^\t\t(\w+);$", re.M)
HEAD = """/* Symbol versions of libsdtrace.so: the SDT_API functions of include/sdtrace/*.h, by name
 * (scripts/check-exports.py checks the list against the headers and the built library; with
 * --write it rewrites it). The library is built with -fvisibility=hidden; each release that
 * adds symbols gets a node of its own. */
"""


def declared(src):
    names = set()
    for h in sorted(glob.glob(os.path.join(src, "include", "sdtrace", "*.h"))):
        with open(h, encoding="utf-8") as fh:
            names.update(DECL.findall(fh.read()))
    return names


def listed(path):
    with open(path, encoding="utf-8") as fh:
        return set(MAP_NAME.findall(fh.read()))


def exported(lib):
    out = subprocess.run(["nm", "-D", "--defined-only", lib], check=True, capture_output=True,
                         text=True).stdout
    names = set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 3 and parts[1] in "TDBRVWiu":
            names.add(parts[2].split("@")[0])
    return names - {"LIBSDTRACE_0.1"}


def main(argv):
    if len(argv) not in (2, 3):
        print(next(l for l in __doc__.splitlines() if l.startswith("Usage")), file=sys.stderr)
        return 2
    src = argv[1]
    mapfile = os.path.join(src, "lib", "libsdtrace.map")
    decl = declared(src)
    if len(argv) == 3 and argv[2] == "--write":
        with open(mapfile, "w", encoding="utf-8") as fh:
            fh.write(HEAD + "LIBSDTRACE_0.1 {\n\tglobal:\n")
            fh.writelines(f"\t\t{n};\n" for n in sorted(decl))
            fh.write("\tlocal:\n\t\t*;\n};\n")
        print(f"exports: {len(decl)} functions written to {mapfile}")
        return 0
    errors = []
    inmap = listed(mapfile)
    errors += [f"{n}: declared SDT_API in include/sdtrace/ but not in lib/libsdtrace.map "
               "(scripts/check-exports.py SRC --write)" for n in sorted(decl - inmap)]
    errors += [f"{n}: in lib/libsdtrace.map but no public header declares it"
               for n in sorted(inmap - decl)]
    if len(argv) == 3:
        exp = exported(argv[2])
        errors += [f"{n}: exported by {os.path.basename(argv[2])} but not in the map"
                   for n in sorted(exp - inmap)]
        errors += [f"{n}: in the map but not exported (SDT_API missing on its definition?)"
                   for n in sorted(inmap - exp)]
    for e in errors:
        print("exports: " + e)
    print(f"exports: {len(decl)} public functions, {len(errors)} problem(s)")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
