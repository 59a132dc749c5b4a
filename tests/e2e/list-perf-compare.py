#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Compare `sdtrace list -x FILE --json` with the `probes` file perf wrote for FILE, for
t0101-list-vs-perf.

usage: list-perf-compare.py SDTRACE PERF_BUILDID_DIR FILE

perf (`perf --buildid-dir DIR buildid-cache --add FILE`) writes DIR/<realpath>/<build-id>/probes:
	%sdt_PROV:NAME=NAME
	p:sdt_PROV/NAME PATH:0xOFFSET[(0xREFCTR)] arg1=FETCH arg3=FETCH ...
one p: line per site; an argument perf cannot express (a constant, a global) is left out, the
others keep their number. Checks:
 - the same sites: for each (provider, name) the same multiset of file offsets;
 - for every site, sdtrace's semaphore_offset equals perf's REFCTR (null = none);
 - for every argument perf wrote, sdtrace's fetch is the same text. Floating-point arguments
   are fetched as raw bits by both; perf types them u32/u64 and sdtrace x32/x64 (hex, as they
   are bits, not a number): for those only the 'u'/'x' letter may differ;
 - every argument perf left out is still in sdtrace's list (fetchable or with a reason), and a
   constant ("$5") or a global ("sym(%rip)", "sym+8(%rip)"), which perf drops, is fetchable.
perf 6.1 writes no probe at all for a file with a 16-byte ("16f@") argument; then there is
nothing to compare and the script says so (exit 0, "perf wrote no probes"), unless the file has
no such argument, which is a failure.
Prints "FILE: N sites, M arguments agree" or the differences (at most 10); exits 0 or 1.
"""
import json
import os
import re
import subprocess
import sys
from collections import defaultdict

CONST_OR_GLOBAL = re.compile(r"^-?\d+f?@(\$-?\d+|[A-Za-z_.][\w.+]*\(%rip\)|\d+\+[A-Za-z_.][\w.]*\(%rip\))$")
PLINE = re.compile(r"^p:sdt_(?P<prov>[^/]+)/(?P<name>\S+) (?P<path>.+?):0x(?P<off>[0-9a-f]+)"
                   r"(?:\(0x(?P<ref>[0-9a-f]+)\))?(?P<args>(?: arg\d+=\S+)*)$")


def perf_sites(path):
    sites = []
    with open(path, encoding="utf-8", errors="surrogateescape") as fp:
        for line in fp:
            line = line.rstrip("\n")
            if not line.startswith("p:"):
                continue
            m = PLINE.match(line)
            if not m:
                raise SystemExit(f"{path}: cannot parse perf line: {line}")
            args = {}
            for a in m.group("args").split():
                k, v = a.split("=", 1)
                args[int(k[3:])] = v
            sites.append({"provider": m.group("prov"), "name": m.group("name"),
                          "offset": int(m.group("off"), 16),
                          "ref": int(m.group("ref"), 16) if m.group("ref") else None,
                          "args": args})
    return sites


def same_fetch(arg, perf):
    got = arg["fetch"]
    if got == perf:
        return True
    if arg["float"] and got is not None:
        g, p = got.rsplit(":", 1), perf.rsplit(":", 1)
        return g[0] == p[0] and g[1][0] == "x" and p[1][0] == "u" and g[1][1:] == p[1][1:]
    return False


def main():
    if len(sys.argv) != 4:
        raise SystemExit(__doc__)
    sdtrace, cachedir, path = sys.argv[1:]
    res = subprocess.run([sdtrace, "list", "-x", path, "--json"], capture_output=True, text=True)
    if res.returncode != 0:
        print(f"{path}: sdtrace exited {res.returncode}: {res.stderr.strip()}")
        return 1
    js = json.loads(res.stdout)
    if not js:
        print(f"{path}: sdtrace lists no site")
        return 1
    probes = os.path.join(cachedir, os.path.realpath(path).lstrip("/"), js[0]["build_id"],
                          "probes")
    if not os.path.exists(probes):
        print(f"{path}: perf wrote no {probes}")
        return 1
    ps = perf_sites(probes)
    if not ps:
        if any(a["size"] == 16 and a["float"] for s in js for a in s["args"]):
            print(f"{path}: perf wrote no probes (it drops every probe of a file with a 16f@ "
                  f"argument); {len(js)} sdtrace sites not compared")
            return 0
        print(f"{path}: perf wrote no probes, sdtrace lists {len(js)} sites")
        return 1

    errors = []
    by_key = defaultdict(list)
    for p in ps:
        by_key[(p["provider"], p["name"], p["offset"])].append(p)
    nargs = ndropped = 0
    for s in js:
        where = f"{s['provider']}:{s['name']} at offset {s['file_offset']:#x}"
        cands = by_key.get((s["provider"], s["name"], s["file_offset"]))
        if not cands:
            errors.append(f"{where}: no perf site at this offset")
            continue
        p = cands.pop(0)
        if s["semaphore_offset"] != p["ref"]:
            errors.append(f"{where}: semaphore_offset {s['semaphore_offset']} != perf {p['ref']}")
        for i, a in enumerate(s["args"], 1):
            if i in p["args"]:
                nargs += 1
                if not same_fetch(a, p["args"][i]):
                    errors.append(f"{where}: arg{i} {a['spec']}: sdtrace {a['fetch']} != perf "
                                  f"{p['args'][i]}")
            elif a["fetch"] is None and not a.get("unavailable"):
                errors.append(f"{where}: arg{i} {a['spec']} (dropped by perf) has neither a "
                              f"fetch nor a reason")
            elif CONST_OR_GLOBAL.match(a["spec"]):
                ndropped += 1
                if a["fetch"] is None:
                    errors.append(f"{where}: arg{i} {a['spec']} (dropped by perf) is not "
                                  f"fetched: {a.get('unavailable')}")
        extra = set(p["args"]) - set(range(1, len(s["args"]) + 1))
        if extra:
            errors.append(f"{where}: perf has arguments {sorted(extra)} that sdtrace has not")
    left = [k for k, v in by_key.items() for _ in v]
    for k in left:
        errors.append(f"perf site {k[0]}:{k[1]} at offset {k[2]:#x} is not in sdtrace's list")
    if errors:
        print(f"{path}: {len(errors)} difference(s):")
        for e in errors[:10]:
            print(f"  {e}")
        return 1
    print(f"{path}: {len(js)} sites, {nargs} arguments agree, {ndropped} constants/globals that "
          f"perf drops are fetched")
    return 0


if __name__ == "__main__":
    sys.exit(main())
