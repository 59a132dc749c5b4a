#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Compare what the test programs say they passed to their probes with `sdtrace report --json`.

usage: rec-compare.py [--unordered] [--pid PID] [--engine E] --list LIST.json [--list ...]
                     PROG.out REPORT.json

PROG.out     the program's stdout: one "probe PROVIDER:NAME arg1=V arg2=V ..." line per firing
             (tests/progs/prog.h); other lines are ignored
REPORT.json  `sdtrace report --json`: one event per line
LIST.json    `sdtrace list --json -x BINARY` of every probed binary: the sites, their arguments
             and which of them the scanner marked unavailable

Every firing must be in the report and every event of the report must be a firing, in the same
order by time_ns (report prints each CPU's ring in turn when the recorder drains them at the
end; --unordered: as multisets, for several processes). For each event:
  - provider, name, path and address name a site `list --json` gives;
  - args has exactly as many entries as the site has arguments (nothing dropped or shifted);
  - an argument marked unavailable is null; every other one is the program's value:
    integers as JSON integers (sign and size kept), floats as JSON numbers equal to the value
    (a float argument also as the float32 nearest the printed value; a 16-byte long double,
    "16f@", read exactly from the JSON text and equal when both round to the same x87 value,
    sign of zero included), a ":string" fetch or a
    typed string argument as the string, and a pointer the program printed as a string (no type
    known) as a non-zero integer.
--pid: only events of this process.
--engine bpf (default: $SDTRACE_ENGINE, else tracefs): the BPF engine fetches what the list marks
unavailable for tracefs when it is an indexed address or a %fs: thread-local variable: those
must be values too.
Prints one summary line; on a mismatch the first ones and exit status 1.
"""
import decimal
import json
import os
import struct
import sys
from fractions import Fraction


def parse_args(argv):
    opts = {"unordered": False, "pid": None, "lists": [],
            "engine": os.environ.get("SDTRACE_ENGINE") or "tracefs"}
    rest = []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--unordered":
            opts["unordered"] = True
        elif a in ("--pid", "--list", "--engine") and i + 1 < len(argv):
            if a == "--pid":
                opts["pid"] = int(argv[i + 1])
            elif a == "--engine":
                opts["engine"] = argv[i + 1]
            else:
                opts["lists"].append(argv[i + 1])
            i += 1
        else:
            rest.append(a)
        i += 1
    if len(rest) != 2 or not opts["lists"]:
        sys.exit(__doc__.split("\n\n")[1])
    return opts, rest[0], rest[1]


def load_sites(paths):
    """(provider, name, path, address) -> the site's args from `list --json`."""
    sites = {}
    for p in paths:
        with open(p) as f:
            for s in json.load(f):
                key = (s["provider"], s["name"], s["path"], s["address"])
                sites[key] = s["args"]
    return sites


def load_expected(path):
    out = []
    with open(path, errors="replace") as f:
        for line in f:
            w = line.split()
            if len(w) < 2 or w[0] != "probe":
                continue
            vals = []
            for k, tok in enumerate(w[2:], 1):
                key, _, val = tok.partition("=")
                if key != "arg%d" % k:
                    sys.exit("%s: bad line: %s" % (path, line.rstrip()))
                vals.append(val)
            out.append((w[1], vals))
    return out


def is_int(text):
    try:
        int(text, 10)
        return True
    except ValueError:
        return False


def is_float(text):
    try:
        float(text)
        return True
    except ValueError:
        return False


def x87(text):
    """The x87 extended value (64-bit significand) nearest the decimal `text`: (sign, Fraction)."""
    neg = text.strip().startswith("-")
    a = abs(Fraction(text))
    if a == 0:
        return (neg, a)
    e = a.numerator.bit_length() - a.denominator.bit_length()
    if Fraction(2) ** e > a:
        e -= 1
    q = max(e - 63, -16445)  # the quantum: 64 significant bits, or the denormals' 2^-16445
    m = a / Fraction(2) ** q
    n = m.numerator // m.denominator
    rest = m - n
    if rest > Fraction(1, 2) or (rest == Fraction(1, 2) and n % 2):
        n += 1
    return (neg, n * Fraction(2) ** q)

ENGINE = "tracefs"


def bpf_fetches(arg):
    """Does the BPF engine fetch this argument the list marks unavailable (for tracefs)?"""
    op = arg.get("spec", "").split("@", 1)[-1]
    return ("(" in op and "," in op) or op.startswith("%fs:")


def check_value(want, got, arg):
    """None when `got` is the program's `want` for this site argument, else why not."""
    if arg.get("unavailable") and ENGINE == "bpf" and bpf_fetches(arg):
        arg = dict(arg, unavailable=None, fetch="")
    if arg.get("unavailable"):
        return None if got is None else "unavailable (%s) but got %r" % (arg["unavailable"], got)
    if got is None:
        return "null, expected %s (fetch %s)" % (want, arg.get("fetch"))
    if arg.get("spec", "").startswith("16f@"):
        if not isinstance(got, decimal.Decimal):
            return "%r is not a number" % (got,)
        return None if x87(str(got)) == x87(want) else "long double %s, expected %s" % (got, want)
    if isinstance(got, decimal.Decimal):
        got = float(got)
    fetch = arg.get("fetch") or ""
    if fetch.endswith(":string") or fetch.endswith(":ustring"):
        return None if got == want else "string %r, expected %r" % (got, want)
    if arg.get("float"):
        if type(got) is not float and type(got) is not int:
            return "%r is not a number" % (got,)
        w = float(want)
        w32 = struct.unpack("<f", struct.pack("<f", w))[0] if abs(w) < 3.5e38 else w
        return None if got in (w, w32) else "float %r, expected %s" % (got, want)
    if is_int(want):
        if type(got) is not int:
            return "%r is not an integer (expected %s)" % (got, want)
        return None if got == int(want) else "%d, expected %s" % (got, want)
    if type(got) is str:
        # a type (spec, provider file) made it a string
        return None if got == want else "string %r, expected %r" % (got, want)
    if not is_float(want):
        # the program printed a string, the site has no type: the pointer was recorded
        if type(got) is int and got != 0:
            return None
        return "expected a pointer to %r, got %r" % (want, got)
    return "%r, expected %s" % (got, want)


def main():
    global ENGINE
    opts, prog_out, report = parse_args(sys.argv[1:])
    ENGINE = opts["engine"]
    sites = load_sites(opts["lists"])
    expected = load_expected(prog_out)
    events = []
    with open(report) as f:
        for n, line in enumerate(f, 1):
            try:
                # numbers with a fraction as their text: a long double keeps its digits
                ev = json.loads(line, parse_float=decimal.Decimal)
            except ValueError as e:
                sys.exit("%s:%d: not JSON (%s): %s" % (report, n, e, line[:200]))
            if opts["pid"] is None or ev["pid"] == opts["pid"]:
                events.append(ev)
    events.sort(key=lambda e: e["time_ns"])
    errors = []
    nargs = nnull = 0

    def compare(want, ev, where):
        nonlocal nargs, nnull
        name = "%s:%s" % (ev["provider"], ev["name"])
        if name != want[0]:
            return "%s: event %s, the program fired %s" % (where, name, want[0])
        key = (ev["provider"], ev["name"], ev["path"], ev["address"])
        if key not in sites:
            return "%s: %s at %r in %s is no site list --json gives" % (
                where, name, ev["address"], ev["path"])
        args = sites[key]
        if len(ev["args"]) != len(args) or len(want[1]) != len(args):
            return "%s: %s has %d args in the report, %d at the site, %d fired" % (
                where, name, len(ev["args"]), len(args), len(want[1]))
        for k, (w, g, a) in enumerate(zip(want[1], ev["args"], args), 1):
            why = check_value(w, g, a)
            if why:
                return "%s: %s arg%d (%s): %s" % (where, name, k, a["spec"], why)
        nargs += len(args)
        nnull += sum(1 for g in ev["args"] if g is None)
        return None

    if len(events) != len(expected):
        errors.append("%d events in the report, the program fired %d" % (len(events),
                                                                          len(expected)))
    if opts["unordered"]:
        pool = list(events)
        for i, want in enumerate(expected):
            for j, ev in enumerate(pool):
                if not compare(want, ev, "firing %d" % (i + 1)):
                    del pool[j]
                    break
            else:
                errors.append("firing %d (%s %s): no matching event in the report" %
                              (i + 1, want[0], " ".join(want[1])))
    else:
        for i, (want, ev) in enumerate(zip(expected, events)):
            why = compare(want, ev, "event %d" % (i + 1))
            if why:
                errors.append(why)
    if not expected:
        errors.append("the program fired nothing")
    if errors:
        for e in errors[:10]:
            print("rec-compare: " + e)
        sys.exit(1)
    print("rec-compare: %d events, %d args (%d null) as the program passed them" %
          (len(events), nargs, nnull))


if __name__ == "__main__":
    main()
