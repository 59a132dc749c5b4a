#!/bin/sh
# Never a silent zero: a semaphore nothing raised. With --semaphore=poke, a command's semaphores
# are poked at its exec, when only the executable is mapped: lib:gated, whose semaphore is in
# libprog-lib.so (loaded afterwards by prog-uselib), is never enabled, its code never fires, and
# stat/trace/record end with "sdtrace: 0 hits: %lib:gated: semaphore: ...". With the kernel's
# method (refctr, the default where tracefs has it) the same run hits it, and says nothing.
. "$(dirname "$0")/lib.sh"
P=$PROGS_DIR
need_file "$P/prog-uselib" "$P/libprog-lib.so"
need_tracefs
uprobes_guard
cd "$T" || exit 1

SEM='^sdtrace: 0 hits: %lib:gated: semaphore: its semaphore was never raised: .*libprog-lib.so was not mapped when the semaphores were poked'

# The BPF engine has the kernel raise semaphores (its links' ref_ctr offsets): poke is refused.
if ! tracefs_engine; then
	for cmd in stat trace record; do
		"$SDTRACE" "$cmd" --semaphore=poke -x "$P/libprog-lib.so" -e %lib:gated \
			-- "$P/prog-uselib" >"$cmd.out" 2>"$cmd.err"
		check_eq "$cmd --semaphore=poke under bpf: exit 1" 1 $?
		check "$cmd: the error says poke is tracefs's" grep -q \
			'^sdtrace: error: --semaphore=poke is the tracefs engine.s: the BPF engine raises semaphores through the kernel.s ref_ctr_offset' \
			"$cmd.err"
		check_fails "$cmd: the program was not run" grep -q '^probe lib:call ' "$cmd.out"
	done
fi
for cmd in stat trace record; do
	tracefs_engine || break
	"$SDTRACE" "$cmd" --semaphore=poke -x "$P/libprog-lib.so" -e %lib:gated -e %lib:call \
		-- "$P/prog-uselib" >"$cmd.out" 2>"$cmd.err"
	check_eq "$cmd --semaphore=poke -- prog-uselib: exit 0" 0 $?
	check "$cmd: the program ran (lib:call printed)" \
		grep -q '^probe lib:call ' "$cmd.out"
	check_fails "$cmd: the program saw its semaphore at 0" grep -q '^probe lib:gated ' "$cmd.out"
	check "$cmd: the line says the semaphore was never raised" grep -q "$SEM" "$cmd.err"
	check_eq "$cmd: no line for lib:call (it fired)" 0 "$(grep -c 'lib:call' "$cmd.err")"
done

if grep -q ref_ctr_offset "$TRACEFS/README" 2>/dev/null; then
	"$SDTRACE" stat --semaphore=refctr -x "$P/libprog-lib.so" -e %lib:gated \
		-- "$P/prog-uselib" >k.out 2>k.err
	check_eq "stat --semaphore=refctr: exit 0" 0 $?
	check "refctr: lib:gated fired" grep -Eq '^ +1  %lib:gated$' k.out
	check_fails "refctr: no line about it" grep -q '^sdtrace: [0-9]* hits:' k.err
else
	say "this kernel's uprobes take no ref_ctr_offset: the refctr half is skipped"
fi
uprobes_unchanged
finish
