#!/bin/sh
# SPDX-License-Identifier: MIT
# Never a silent zero, through a shim (issue 33): a pyenv-style shim execs another build than
# the one that has the events (here a copy of prog-nonotes, no SDT notes, named prog-sizes). The
# 0-hit reason says what happened: the exec chain the command ran, in order (the shim as "sh
# SCRIPT", then the program it exec'd), that none of it has the event, and which file has it
# and was never mapped; not only "never mapped". record, stat and trace alike; -v shows each
# exec as it happens; with nothing in the cache either, the "matches nothing" error names the
# chain. A shim that execs the right binary still records (no regression).
. "$(dirname "$0")/lib.sh"
need_tracefs
P=$PROGS_DIR/prog-sizes
N=$PROGS_DIR/prog-nonotes
need_file "$P" "$N"
cd "$T" || exit 1
uprobes_guard "^[p-r]:[^ ]+ $T/"
mkdir -p shims ver/bin good && cp "$N" ver/bin/prog-sizes || exit 1
exec_shim shims/prog-sizes "$T/ver/bin/prog-sizes"
exec_shim good/prog-sizes "$P"
chain="sh $T/shims/prog-sizes -> $T/ver/bin/prog-sizes"

for cmd in record stat trace; do
	out=
	[ "$cmd" = record ] && out="-o $cmd.dat"
	"$SDTRACE" $cmd $out -x "$P" -e %sizes:min -- "$T/shims/prog-sizes" >$cmd.out 2>$cmd.err
	check_eq "$cmd through the shim: the command's status" 0 $?
	line=$(grep '^sdtrace: 0 hits: %sizes:min: not-mapped: ' $cmd.err)
	check "$cmd: a not-mapped line for %sizes:min" test -n "$line"
	case $line in *"they ran $chain,"*) pass "$cmd: it names the exec chain, in order" ;;
	*) fail "$cmd: it names the exec chain, in order" "want: $chain" "$(cat $cmd.err)" ;; esac
	case $line in *"none of these has %sizes:min"*) pass "$cmd: none of the chain has it" ;;
	*) fail "$cmd: none of the chain has it" "$(cat $cmd.err)" ;; esac
	case $line in *"mapped $P;"*) pass "$cmd: the file that has it, never mapped" ;;
	*) fail "$cmd: the file that has it, never mapped" "$(cat $cmd.err)" ;; esac
done

# -v: each exec as it happens, in order (the script with its interpreter, then the program)
"$SDTRACE" -v stat -x "$P" -e %sizes:min -- "$T/shims/prog-sizes" >v.out 2>v.err
check_eq "stat -v: exit 0" 0 $?
check_eq "-v: the execs, in order" \
	"sdtrace: exec (pid N): /bin/sh $T/shims/prog-sizes (a script; R)
sdtrace: exec (pid N): $T/ver/bin/prog-sizes" \
	"$(grep '^sdtrace: exec (pid ' v.err | sed 's/(pid [0-9]*)/(pid N)/; s/(a script; .*)$/(a script; R)/')"

# an empty cache and no -x: the error that nothing the command ran matches names the chain
"$SDTRACE" --cache-dir "$T/empty" record -o n.dat -e %sizes:min -- "$T/shims/prog-sizes" >n.out 2>n.err
check_eq "nothing matches anything it ran: exit 1" 1 $?
check "the error names what it ran" grep -qF \
	"sdtrace: error: no SDT event matches '%sizes:min' in anything the command ran: $chain" n.err

# no regression: a shim that execs the binary that has the event records its hits
"$SDTRACE" record -o g.dat -x "$P" -e %sizes:min -- "$T/good/prog-sizes" >g.out 2>g.err
check_eq "record through a shim to the right binary: exit 0" 0 $?
check "its hit recorded" grep -q "^sdtrace: [1-9][0-9]* events\? recorded" g.err
check_eq "no 0-hit line" 0 "$(grep -c '0 hits' g.err)"
uprobes_unchanged
finish
