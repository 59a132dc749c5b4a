#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Compare `sdtrace list -x FILE --json` with `readelf -n --wide FILE`, for t0100-list-vs-readelf.

usage: list-readelf-compare.py [--expect-sites] SDTRACE FILE

Checks, for the file: the same number of SDT sites; for every site, in order, the same provider,
name, location (JSON "address"), semaphore (JSON null = readelf 0) and argument strings (the JSON
specs joined by one space = readelf's "Arguments:"); every site's build_id and path equal to
readelf's Build ID and FILE; every object has exactly the documented keys.
sdtrace lists sites sorted by provider, then name, then note order; readelf in note order: the
readelf sites are sorted the same way (stable) before the comparison.
--expect-sites: fail when readelf finds no site (so that a broken build cannot pass vacuously).
Prints one line "FILE: N sites agree" or the differences (at most 10); exits 0 or 1.
"""
import json
import re
import subprocess
import sys

SITE_KEYS = {"provider", "name", "path", "build_id", "address", "file_offset", "semaphore",
             "semaphore_offset", "types_from", "names_from", "args"}
ARG_KEYS = {"n", "name", "type", "spec", "size", "signed", "float", "fetch", "typed_fetch"}


def readelf_sites(path):
    out = subprocess.run(["readelf", "-n", "--wide", path], check=True, capture_output=True,
                         text=True, errors="surrogateescape").stdout
    sites, build_id, cur = [], None, None
    for line in out.splitlines():
        m = re.search(r"Build ID: ([0-9a-f]+)", line)
        if m:
            build_id = m.group(1)
        m = re.search(r"NT_STAPSDT .*Provider: (.*)$", line)
        if m:
            cur = {"provider": m.group(1), "name": None, "location": None, "semaphore": None,
                   "args": ""}
            sites.append(cur)
            continue
        if cur is None:
            continue
        s = line.strip()
        if s.startswith("Name: "):
            cur["name"] = s[len("Name: "):]
        elif s.startswith("Location: "):
            m = re.match(r"Location: (0x[0-9a-f]+), Base: (0x[0-9a-f]+), Semaphore: (0x[0-9a-f]+)", s)
            if not m:
                raise SystemExit(f"{path}: cannot parse readelf line: {s}")
            cur["location"] = int(m.group(1), 16)
            cur["semaphore"] = int(m.group(3), 16)
        elif s.startswith("Arguments:"):
            cur["args"] = s[len("Arguments:"):].strip()
        elif s.startswith("Displaying notes") or re.match(r"\S+\s+0x[0-9a-f]+\s", s):
            cur = None  # the next note (of another owner) or section
    return sites, build_id


def main():
    argv = sys.argv[1:]
    expect_sites = False
    if argv and argv[0] == "--expect-sites":
        expect_sites = True
        argv = argv[1:]
    if len(argv) != 2:
        raise SystemExit(__doc__)
    sdtrace, path = argv
    res = subprocess.run([sdtrace, "list", "-x", path, "--json"], capture_output=True, text=True,
                         errors="surrogateescape")
    errors = []
    rs, build_id = readelf_sites(path)
    # nothing to list is said (exit 1, as grep), else exit 0 and silence
    want_rc, want_err = (0, "") if rs else (1, f"sdtrace: '{path}' has no SDT probes\n")
    if res.returncode != want_rc:
        errors.append(f"sdtrace exited {res.returncode}: {res.stderr.strip()}")
    if res.stderr != want_err:
        errors.append(f"sdtrace wrote to stderr: {res.stderr.strip()}")
    try:
        js = json.loads(res.stdout)
    except ValueError as e:
        print(f"{path}: sdtrace output is not JSON: {e}")
        return 1
    if expect_sites and not rs:
        errors.append("readelf finds no SDT site (expected some)")
    if not isinstance(js, list):
        errors.append("the JSON output is not an array")
        js = []
    if len(js) != len(rs):
        errors.append(f"site count: sdtrace {len(js)}, readelf {len(rs)}")
    rs_sorted = sorted(rs, key=lambda r: (r["provider"].encode(), r["name"].encode()))
    for i, (j, r) in enumerate(zip(js, rs_sorted)):
        where = f"site {i} ({r['provider']}:{r['name']} at {r['location']:#x})"
        if set(j) != SITE_KEYS:
            errors.append(f"{where}: keys {sorted(j)}")
            continue
        for a in j["args"]:
            want = ARG_KEYS | ({"unavailable"} if a.get("fetch") is None else set()) | \
                ({"typed_unavailable"} if a.get("typed_fetch") is None else set())
            if set(a) != want:
                errors.append(f"{where}: argument keys {sorted(a)}")
        sem = j["semaphore"] if j["semaphore"] is not None else 0
        args = " ".join(a["spec"] for a in j["args"])
        got = (j["provider"], j["name"], j["address"], sem, args)
        want = (r["provider"], r["name"], r["location"], r["semaphore"], r["args"])
        if got != want:
            errors.append(f"{where}: sdtrace {got} != readelf {want}")
        if j["build_id"] != build_id:
            errors.append(f"{where}: build_id {j['build_id']} != readelf {build_id}")
        if j["path"] != path:
            errors.append(f"{where}: path {j['path']!r} != {path!r}")
    if errors:
        print(f"{path}: {len(errors)} difference(s):")
        for e in errors[:10]:
            print(f"  {e}")
        return 1
    print(f"{path}: {len(js)} sites agree")
    return 0


if __name__ == "__main__":
    sys.exit(main())
