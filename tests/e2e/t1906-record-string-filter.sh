#!/bin/sh
# String filters in the kernel give the answers report --filter gives after the fact: for each
# filter, `record --filter F` (set in the kernel: the BPF program, or the tracefs event's filter)
# keeps exactly the events that `report --filter F` keeps of one unfiltered recording (the
# user-space evaluator, filter_eval.c). Strings of prog-filter (short) and prog-longstr (cut at
# 4095 bytes, 10000-byte ones among them), comm, negations, a missing string. With the BPF engine
# the forms it takes (TEXT, TEXT*, *TEXT, *; at most 63 bytes; 4 literals) say "in the program",
# the others "filtered in user space" with the reason.
. "$(dirname "$0")/lib.sh"
P=$PROGS_DIR/prog-filter
L=$PROGS_DIR/prog-longstr
need_file "$P"
need_file "$L"
need_tracefs
uprobes_guard
cd "$T" || exit 1

REQ="$P:%filt:req(id:s32,delta:s64,query:string)"
TXT="$L:%str:text(text:string,len:s32)"

# the events a text report keeps, one line each, from the event's name on (pids and times differ)
events() { "$SDTRACE" report -i "$1" ${2:+--filter "$2"} | grep ' filt:req: \| str:text: ' |
	sed 's/.* \(filt:req: \|str:text: \)/\1/' | sort; }

"$SDTRACE" record -o all.data -e "$REQ" -- "$P" 200 >/dev/null 2>all.err
check_eq "unfiltered: 200 requests" 200 "$(events all.data | wc -l)"
"$SDTRACE" record -o long.data -e "$TXT" -- "$L" 2 >/dev/null 2>long.err
check_eq "unfiltered: 12 texts" 12 "$(events long.data | wc -l)"

# differ NAME DATA SPEC CMD FILTER: the kernel's filter keeps what report's keeps
differ() {
	"$SDTRACE" -v record -o f.data --filter "$5" -e "$3" -- $4 >/dev/null 2>f.err
	check_eq "$1: exit 0" 0 $?
	events "$2" "$5" >want
	events f.data >got
	check_eq "$1: the same $(wc -l <want) events as report --filter" "" "$(diff want got)"
	if ! tracefs_engine; then
		if [ "${6:-}" = user ]; then
			check "$1: evaluated here, said" grep -q "filtered in user space" f.err
		else
			check "$1: in the program" grep -q "bpf: .*: the filter '.*' in the program" f.err
			check_fails "$1: no user-space warning" grep -q 'filtered in user space' f.err
		fi
	fi
}

differ "== a query" all.data "$REQ" "$P 200" 'query == "INSERT_b"'
differ "!= a query" all.data "$REQ" "$P 200" 'query != "INSERT_b"'
differ "a prefix" all.data "$REQ" "$P 200" 'query ~ "SELECT*"'
differ "a suffix, negated" all.data "$REQ" "$P 200" 'query !~ "*_c"'
differ "any string" all.data "$REQ" "$P 200" 'query ~ "*"'
differ "not empty" all.data "$REQ" "$P 200" 'query && !(query == "")'
differ "a string against a number" all.data "$REQ" "$P 200" 'query == 3 || id < 10'
differ "comm and a prefix" all.data "$REQ" "$P 200" 'comm == "prog-filter" && query ~ "S*"'
differ "comm's prefix, or" all.data "$REQ" "$P 200" 'comm ~ "nosuch*" || (id & 1 && query ~ "*b")'
differ "4 literals" all.data "$REQ" "$P 200" \
	'query == "a" || query == "SELECT_a" || query ~ "UPD*" || query ~ "*_t"'
differ "a glob the program cannot" all.data "$REQ" "$P 200" 'query ~ "*LEC*"' user
differ "5 literals" all.data "$REQ" "$P 200" \
	'query == "a" || query == "b" || query == "c" || query == "d" || query == "SELECT_a"' user
# the long ones: 4095 bytes and more are cut, the filter sees what was kept
differ "a long string's prefix" long.data "$TXT" "$L 2" 'text ~ "ahovcjqxel*" && len > 4000'
differ "a cut string's end" long.data "$TXT" "$L 2" 'text ~ "*hov" || len == 8'
differ "63 bytes of one" long.data "$TXT" "$L 2" \
	'text ~ "ahovcjqxelszgnubipwdkryfmtahovcjqxelszgnubipwdkryfmtahovcjqxels*"'
differ "64 bytes: evaluated here" long.data "$TXT" "$L 2" \
	'text ~ "ahovcjqxelszgnubipwdkryfmtahovcjqxelszgnubipwdkryfmtahovcjqxelsz*"' user
finish
