#!/bin/sh
# SPDX-License-Identifier: MIT
# record -g walks frame pointers. On code built without them (prog-stack-nofp here; Debian's
# python3.11) every stack is one frame deep: sdtrace says so at the end, and points at
# --call-graph=dwarf, instead of recording one-frame stacks silently. The same program built
# with frame pointers gets no such warning.
. "$(dirname "$0")/lib.sh"
need_tracefs
P=$PROGS_DIR
need_file "$P/prog-stack-nofp" "$P/prog-stack-fp"
cd "$T" || exit 1
uprobes_guard "^[p-r]:[^ ]+ $P/"
"$SDTRACE" record -g -o nofp.sdt -e '%stack:hit' -- "$P/prog-stack-nofp" 5 >/dev/null 2>nofp.err
check_eq "record -g of a program without frame pointers: exit 0" 0 $?
check "it says the stacks are one frame deep, and why" \
	grep -q "^sdtrace: warning: 5 of 5 stacks are one frame deep: the probed code has no frame pointers" nofp.err
check "it points at --call-graph=dwarf" grep -q -- "--call-graph=dwarf unwinds it" nofp.err
"$SDTRACE" record -g -o fp.sdt -e '%stack:hit' -- "$P/prog-stack-fp" 5 >/dev/null 2>fp.err
check_eq "record -g of the program with frame pointers: exit 0" 0 $?
check_eq "no warning there" 0 "$(grep -c 'one frame deep' fp.err)"
"$SDTRACE" record --call-graph=dwarf -o dw.sdt -e '%stack:hit' -- "$P/prog-stack-nofp" 5 \
	>/dev/null 2>dw.err
check_eq "--call-graph=dwarf: no warning (the stacks are unwound at report time)" 0 \
	"$(grep -c 'one frame deep' dw.err)"
uprobes_unchanged
finish
