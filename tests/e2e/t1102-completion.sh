#!/bin/sh
# SPDX-License-Identifier: MIT
# The bash completion (completion/sdtrace.bash), asked as bash asks it: event names for -e from
# the cache (through `sdtrace list`, i.e. the event index), narrowed by what was typed, with and
# without the '%', past the ':' that bash splits words at; --cache-dir and -x on the line are
# honoured; a cache that does not exist is never created by pressing TAB; option values
# (--semaphore=, --format=, -p, --pair); the command after --; cached paths for cache remove.
# Nothing is printed on the terminal. (How long it takes is printed, not asserted.)
. "$(dirname "$0")/lib.sh"
need_cmd bash
COMPLETION=$SRC_DIR/completion/sdtrace.bash
need_file "$COMPLETION" "$PROGS_DIR/prog-inline" "$PROGS_DIR/prog-sizes"

# comp LINE: the completions of LINE (sorted, space-separated); the command word is $SDTRACE
comp() {
	bash "$SRC_DIR/tests/e2e/complete-driver.bash" "$COMPLETION" "$SDTRACE $1" 2>>"$T/comp.err" |
		sort | tr '\n' ' ' | sed 's/ $//'
}

C=$T/cache
mkdir -p "$T/bin"
cp "$PROGS_DIR/prog-inline" "$PROGS_DIR/prog-sizes" "$T/bin/"
"$SDTRACE" cache add "$T/bin/prog-inline" "$T/bin/prog-sizes" >"$T/add.log" 2>&1 ||
	fail "cache add" "$(cat "$T/add.log")"
inline=$("$SDTRACE" list -x "$T/bin/prog-inline" | sed 's/.*:%/%/' | sort | tr '\n' ' ' | sed 's/ $//')
check "prog-inline has events" test -n "$inline"

# ---- events from the cache ---------------------------------------------------------------------
all=$("$SDTRACE" list | sed 's/.*:%/%/' | sort -u | tr '\n' ' ' | sed 's/ $//')
check_eq "-e: every event of the cache" "$all" "$(comp "record -e ")"
check_eq "-e %inl: the events of that provider" "$inline" "$(comp "record -e %inl")"
check_eq "--event=... is not split at '='" "$inline" \
	"$(comp "trace --event=%inl")"
check_eq "-e inl (no '%'): names without the '%'" "$(echo "$inline" | sed 's/%//g')" \
	"$(comp "stat -e inl")"
# bash replaces only what follows the last ':', so the completions are what comes after it
check_eq "-e %inline:h: the rest after the ':'" "hit" "$(comp "record -e %inline:h")"
check_eq "-e %inline: every event, after the ':'" "$(echo "$inline" | sed 's/%inline://g')" \
	"$(comp "record -e %inline:")"
check_eq "list PATTERN: from the cache too" "$inline" "$(comp "list %inl")"
check_eq "-e %nosuch: nothing" "" "$(comp "record -e %nosuch")"

# --cache-dir on the line wins over $SDTRACE_CACHE_DIR
mkdir -p "$T/empty"
check_eq "--cache-dir DIR: that cache" "$inline" \
	"$(SDTRACE_CACHE_DIR=$T/empty comp "--cache-dir $C record -e %inl")"
check_eq "--cache-dir=DIR: that cache" "$inline" \
	"$(SDTRACE_CACHE_DIR=$T/empty comp "--cache-dir=$C record -e %inl")"
check_eq "an empty cache: nothing" "" "$(SDTRACE_CACHE_DIR=$T/empty comp "record -e %inl")"
# a cache that does not exist is not created by pressing TAB
comp "--cache-dir $T/nocache record -e %" >/dev/null
SDTRACE_CACHE_DIR=$T/nocache2 comp "record -e %" >/dev/null
check "a missing cache is not created (--cache-dir, \$SDTRACE_CACHE_DIR)" \
	sh -c "[ ! -e '$T/nocache' ] && [ ! -e '$T/nocache2' ]"
# -x on the line: that binary's events, even when it is not cached
cp "$PROGS_DIR/prog-inline" "$T/bin/uncached"
check_eq "-x BIN -e: the binary's events without a cache" "$inline" \
	"$(SDTRACE_CACHE_DIR=$T/nocache3 comp "record -x $T/bin/uncached -e %")"
check_eq "list -x BIN PATTERN" "$inline" "$(SDTRACE_CACHE_DIR=$T/nocache3 comp "list -x $T/bin/uncached %")"

# user probes: -e takes them by name
if [ -f "$PROGS_DIR/prog-userprobe" ]; then
	fn=$(nm "$PROGS_DIR/prog-userprobe" 2>/dev/null | awk '$2 == "T" && $3 !~ /^_/ && $3 != "main" { print $3; exit }')
	if [ -n "$fn" ] && "$SDTRACE" probe add -x "$PROGS_DIR/prog-userprobe" "myuprobe=$fn" >"$T/padd" 2>&1; then
		check_eq "-e my: the user probe's name" "myuprobe" "$(comp "record -e my")"
		check_eq "-e %my: no user probes after a '%'" "" "$(comp "record -e %my")"
		check_eq "probe remove: the user probes' names" "myuprobe" "$(comp "probe remove m")"
	else
		fail "probe add for the completion test" "$(cat "$T/padd")"
	fi
fi

# ---- options and values ------------------------------------------------------------------------
check_eq "commands" "record report" "$(comp "re")"
check_eq "probe subcommands" "list" "$(comp "probe l")"
check_eq "help COMMAND" "record report" "$(comp "help re")"
check_eq "cache subcommands" "purge" "$(comp "cache pu")"
check_eq "--semaphore=: the methods" "auto poke refctr" "$(comp "record --semaphore=")"
check_eq "--semaphore=r" "refctr" "$(comp "record --semaphore=r")"
check_eq "--format=: the formats" "chrome csv flamegraph folded json perfetto text" "$(comp "report --format=")"
check_eq "an option prefix" "--stats" "$(comp "report --st")"
check "-p: this shell's pid among the pids" sh -c "echo ' $(comp "record -p ") ' | grep -q ' $$ '"
check_eq "-p A,B: the last element, after the comma" "$$,1" "$(comp "record -p $$,1" | tr ' ' '\n' | grep -x "$$,1")"
check_eq "--pair START,END: events after the comma" "hit" \
	"$(comp "report --pair %inline:once,%inline:h")"
check_eq "-x: file names" "$T/bin/prog-inline" "$(comp "list -x $T/bin/prog-i")"
check_eq "after --: a command" "sh" "$(comp "record -e %inline:hit -- sh" | tr ' ' '\n' | grep -x sh)"
check_eq "cache remove: the cached paths" "$T/bin/prog-inline" "$(comp "cache remove $T/bin/prog-i")"
check_eq "nothing on stderr" "" "$(cat "$T/comp.err" 2>/dev/null)"

# ---- how long one TAB takes (printed, not asserted) --------------------------------------------
start=$(date +%s%N)
for i in 1 2 3 4 5 6 7 8 9 10; do comp "record -e " >/dev/null; done
end=$(date +%s%N)
say "completing -e over a cache of 2 binaries: $(((end - start) / 10000000)) ms per TAB (bash start included)"
finish
