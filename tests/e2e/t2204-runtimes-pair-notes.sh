#!/bin/sh
# A provider file's pairing notes, on tests/progs/prog-oneq's requests: req__start on the main
# thread, req__done on another (the finisher), keyed by the request's id. With a provider file
# in the user's directory saying `@sdtrace pair-by: key` on req__start, `sdtrace record` then
# `report --latency` pairs every request with no --pair-by option; without the note none pairs
# (they are on different threads). (The `@sdtrace pair:` note of differently named probes:
# t2202's php exceptions, t2203's libvirt objects.)
. "$(dirname "$0")/lib.sh"
P="$PROGS_DIR/prog-oneq"
need_file "$P"
need_tracefs
uprobes_guard
cd "$T" || exit 1
N=40
export XDG_CONFIG_HOME="$T/config"
mkdir -p "$XDG_CONFIG_HOME/sdtrace/providers"
cat >"$XDG_CONFIG_HOME/sdtrace/providers/oneq.d" <<'DEOF'
provider oneq {
	/*
	 * a request, ended by another thread
	 * @sdtrace key: id
	 * @sdtrace pair-by: key
	 */
	probe req__start(long id);
	/* @sdtrace key: id */
	probe req__done(long id);
};
DEOF

"$SDTRACE" record -o req.sdt -e '%oneq:req__*' -- "$P" $N >/dev/null 2>rec.err
check_eq "sdtrace record -- prog-oneq $N: exit 0" 0 $?
"$SDTRACE" report -i req.sdt --latency >lat.out 2>lat.err
check_eq "report --latency: exit 0" 0 $?
check_eq "the pair-by note: all $N requests paired across threads" "count $N" \
	"$(grep -o '^  count [0-9]*' lat.out | head -n 1 | sed 's/^ *//')"
check_fails "... none left unmatched" grep -q 'unmatched' lat.out

# without the note: pairs on the thread, and the requests cross threads
sed -i '/pair-by/d' "$XDG_CONFIG_HOME/sdtrace/providers/oneq.d"
"$SDTRACE" report -i req.sdt --latency >lat2.out 2>&1
check_eq "without it: no request pairs on its thread" "count 0" \
	"$(grep -o '^  count [0-9]*' lat2.out | head -n 1 | sed 's/^ *//')"

uprobes_unchanged
finish
