#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Print the MAPPING records of a recording, one line each, in file order.

usage: rec-mappings.py FILE

    PID START LEN PGOFF BUILD_ID PATH     (numbers in hex but PID; "-" for a missing string)

The recording's layout is lib/trace/trace_file.h's: a 16-byte header, then records of
u8 type, varint body length, body; type 9 MAPPING is pid, start, len, pgoff (varints), str
build-id, str path ("str": varint length + 1, then the bytes; 0 is NULL). Nothing else is
decoded: the other records are skipped by their length. The reader's API has no command that
lists them (report uses them to symbolize), and a test must see each one to count duplicates.
"""
import sys

REC_MAPPING = 9


def varint(b, at):
    v = shift = 0
    while True:
        c = b[at]
        at += 1
        v |= (c & 0x7F) << shift
        shift += 7
        if not c & 0x80:
            return v, at


def string(b, at):
    n, at = varint(b, at)
    if not n:
        return None, at
    return b[at:at + n - 1].decode("utf-8", "replace"), at + n - 1


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    data = open(sys.argv[1], "rb").read()
    if data[:8] != b"\x89SDTRACE":
        sys.exit("%s: not a recording" % sys.argv[1])
    at = 16
    while at < len(data):
        kind = data[at]
        n, body = varint(data, at + 1)
        at = body + n
        if at > len(data):
            break  # cut short (no END record): what was complete is printed
        if kind != REC_MAPPING:
            continue
        pid, p = varint(data, body)
        start, p = varint(data, p)
        length, p = varint(data, p)
        pgoff, p = varint(data, p)
        bid, p = string(data, p)
        path, p = string(data, p)
        print("%d %x %x %x %s %s" % (pid, start, length, pgoff, bid or "-", path or "-"))


main()
