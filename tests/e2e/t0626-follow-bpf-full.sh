#!/bin/sh
# A library dlopen()ed during the recording with more sites than the BPF engine's maps keep room
# for (lib/record/bpf/engine.h: 4096 site plans and 1024 events past the start's): libprog-follow-many.so
# (gen-many-sites.sh: follow_many:a 2000 sites, follow_many:b 2200, follow_ev:e0..e1099 one
# each, follow_lib:call). As t0621, prog-follow waits for a copy of it to appear, dlopen()s it
# and calls into it (another inode than the cached file: armed late). Under --engine=bpf:
#  - its 4201 follow_many sites do not fit: a warning at the time names the file, the sites
#    needed and the room left, and the ways out (--engine=tracefs); the recording goes on (the
#    program's follow:tick recorded, exit 0); the end's "0 hits" lines say not-armed with the
#    reason for each of its events (before: not-mapped, the cached file's reason, for those the
#    start had, and nothing for the rest);
#  - its 1101 follow_ev events do not fit (1024 more): the same, with the events' numbers;
#  - follow_many:a alone, 2000 sites of one event: armed (before: refused, a site was counted
#    as an event), its 2000 hits recorded.
# Under --engine=tracefs the whole library is armed: every site's hit recorded; with --filter it
# is not (filters are not applied to late files yet): not-armed too, with that reason.
# engine: tracefs (it picks the engine of each run)
# uprobe_events is left as it was.
. "$(dirname "$0")/lib.sh"
need_tracefs
P=$PROGS_DIR
F=$P/prog-follow
L=$P/libprog-follow-many.so
need_file "$F" "$L"
cd "$T" || exit 1
unset SDTRACE_ENGINE
uprobes_guard "^[p-r]:[^ ]+ ($PROGS_DIR|$T)/"
for f in "$L" "$F"; do "$SDTRACE" cache add "$f" >/dev/null 2>&1 || fail "cache add" "cannot cache $f"; done
"$SDTRACE" stat --engine=bpf -e '%follow:first' -- "$F" 1 >/dev/null 2>bpf-probe.err ||
	skip "the BPF engine does not run here: $(cat bpf-probe.err)"

# hits DATA REGEX: the records of DATA whose report line matches REGEX
hits() { "$SDTRACE" report -i "$1" | grep -c "$2"; }
# rec NAME ENGINE WAIT-REGEX SPEC...: record prog-follow 3 with the library appearing (a rename:
# prog-follow polls for the path and would dlopen() a file cp is still writing) once sdtrace is
# armed; the calls made once sdtrace's stderr matches WAIT-REGEX (armed, or refused)
rec() {
	_rn=$1
	_re=$2
	_rw=$3
	shift 3
	rm -rf new go
	mkdir new
	$FOREGROUND "$SDTRACE" -v record --engine="$_re" -o "$_rn.data" "$@" -e '%follow_lib:*' \
		-e '%follow:tick' -- "$F" 3 "$T/new/lib.so" "$T/go" >"$_rn.out" 2>"$_rn.err" &
	sd=$!
	wait_grep "$_rn.err" "debug: armed: every probe placed and enabled" 20
	cp "$L" new/.lib.so.part && mv new/.lib.so.part new/lib.so
	if ! wait_grep "$_rn.err" "$_rw" 20; then
		echo "program:"; cat "$_rn.out"; echo "sdtrace:"; cat "$_rn.err"
	fi
	touch go
	wait $sd
	echo $? >"$_rn.rc"
}
NEW="'$T/new/lib.so'"

# BPF, the sites: 4201 past the 4096 left
rec sites bpf "cannot arm " -e '%follow_many:*'
check_eq "bpf sites: exit status" 0 "$(cat sites.rc)"
check "bpf sites: a warning names the file, the sites and the room" grep -Eq \
	"^sdtrace: warning: cannot arm $NEW \(pid [0-9]+\): its 4201 sites do not fit in the BPF engine's maps: 4096 more site plans fit" \
	sites.err
check "bpf sites: the warning gives the way out" grep -q "cannot arm .*--engine=tracefs arms it" sites.err
check_eq "bpf sites: the rest recorded (follow:tick)" 3 "$(hits sites.data 'follow:tick: arg1=[0-2]$')"
check_eq "bpf sites: nothing of the library" 0 "$(hits sites.data 'follow_lib:call\|follow_many:')"
for ev in follow_lib:call follow_many:a follow_many:b; do
	check "bpf sites: 0 hits: %$ev: not-armed, why" grep -q \
		"^sdtrace: 0 hits: %$ev: not-armed: $NEW (mapped by process [0-9]*) was not armed: its 4201 sites do not fit" \
		sites.err
done

# BPF, the events: 1101 past the 1024 left
rec events bpf "cannot arm " -e '%follow_ev:*'
check_eq "bpf events: exit status" 0 "$(cat events.rc)"
check "bpf events: a warning names the file, the events and the room" grep -Eq \
	"^sdtrace: warning: cannot arm $NEW \(pid [0-9]+\): its 1101 events do not fit in the BPF engine's maps: 1024 more events fit" \
	events.err
check_eq "bpf events: the rest recorded (follow:tick)" 3 "$(hits events.data 'follow:tick: arg1=[0-2]$')"
check "bpf events: 0 hits: %follow_ev:e0: not-armed" grep -q \
	"^sdtrace: 0 hits: %follow_ev:e0: not-armed: $NEW (mapped by process [0-9]*) was not armed: its 1101 events do not fit" \
	events.err
check "bpf events: and how many more" grep -q "^sdtrace: \.\.\. and [0-9]* more events with no hit" \
	events.err

# BPF, 2000 sites of one event (and follow_lib:call): they fit
rec one bpf "armed [0-9]+ events in $NEW" -e '%follow_many:a'
check_eq "bpf 2000 sites: exit status" 0 "$(cat one.rc)"
check "bpf 2000 sites: armed" grep -q "armed 2 events in $NEW" one.err
check "bpf 2000 sites: no warning" sh -c "! grep -q 'cannot arm' one.err"
check_eq "bpf 2000 sites: the 3 calls" 3 "$(hits one.data 'follow_lib:call: arg1=[0-2]$')"
check_eq "bpf 2000 sites: follow_many:a 2000 times" 2000 "$(hits one.data 'follow_many:a: arg1=0$')"

# tracefs: all of it
rec tfs tracefs "armed [0-9]+ events in $NEW" -e '%follow_many:*' -e '%follow_ev:*'
check_eq "tracefs: exit status" 0 "$(cat tfs.rc)"
check "tracefs: no warning" sh -c "! grep -q 'cannot arm' tfs.err"
check_eq "tracefs: the 3 calls" 3 "$(hits tfs.data 'follow_lib:call: arg1=[0-2]$')"
check_eq "tracefs: follow_many:a 2000 times" 2000 "$(hits tfs.data 'follow_many:a: arg1=0$')"
check_eq "tracefs: follow_many:b 2200 times" 2200 "$(hits tfs.data 'follow_many:b: arg1=0$')"
check_eq "tracefs: follow_ev 1100 events, once each" 1100 \
	"$("$SDTRACE" report -i tfs.data | grep 'follow_ev:e[0-9]*: arg1=0$' | sed 's/.*follow_ev:\(e[0-9]*\):.*/\1/' | sort -u | wc -l)"
check "tracefs: no 0 hits line" sh -c "! grep -q '0 hits' tfs.err"

# tracefs with a filter: a late file is not armed (filters are not applied to it yet): the
# same not-armed line with that reason (before: not-mapped, the cached file's)
rec filt tracefs "cannot arm " --filter 'arg1 >= 0'
check_eq "tracefs --filter: exit status" 0 "$(cat filt.rc)"
check "tracefs --filter: 0 hits: %follow_lib:call: not-armed, why" grep -q \
	"^sdtrace: 0 hits: %follow_lib:call: not-armed: $NEW (mapped by process [0-9]*) was not armed: filters are not applied" \
	filt.err

uprobes_unchanged
finish
