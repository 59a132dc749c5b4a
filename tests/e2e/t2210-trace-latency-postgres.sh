#!/bin/sh
# trace --latency --min on PostgreSQL (BCC's dbslower): a throw-away cluster (pg-lib.sh), traced
# with -a while one psql runs a pg_sleep(0.2) among fast queries: of the query pairs (query__start,
# query__done: the text) of our backend, exactly the slow one is printed, with its text. Its
# query__execute pair is slow too and is printed, without text (it has no argument); the fast
# queries' pairs are not. (The program-made pairs and one answer with report: t2205.)
. "$(dirname "$0")/pg-lib.sh"
$FOREGROUND "$SDTRACE" trace --latency --min 50ms -a -x "$PG_BIN/postgres" \
	-e '%postgresql:query__*' >pg.out 2>pg.err &
tp=$!
at_exit "kill -INT $tp 2>/dev/null; wait $tp 2>/dev/null"
from=$(($(wc -l <"$PGT/log") + 1))
if check "trace --latency -a is armed" armed "$tp"; then
	psql -X -q -c 'select 1' -c 'select pg_sleep(0.2)' -c 'select 2' \
		-c "select 'fast'" >psql.out 2>&1
	check_eq "psql: exit 0" 0 $?
fi
# the slow query's line is printed when it ends: wait for it, then stop
wait_grep pg.out 'pg_sleep' 10
kill -INT "$tp"
wait "$tp"
check_eq "trace: SIGINT ends it, exit 0" 0 $?
be=$(tail -n +"$from" "$PGT/log" | sed -n 's/^\([0-9]*\):LOG:  connection received: .*/\1/p' | head -n 1)
# other clusters of the machine are traced too (-a): our backend's lines
grep -E "^[0-9.]+ +$be/$be " pg.out >pg.ours
sed -E 's/^[0-9.]+ +[0-9]+\/[0-9]+ +//; s/  [0-9.]+ms  / DUR /' pg.ours >pg.cut
check_eq "of the query pairs, exactly the slow one, with its text (backend $be)" \
	'postgresql:query DUR query="select pg_sleep(0.2)"' "$(grep '^postgresql:query ' pg.cut)"
check_eq "... and its execute pair (no text), nothing else" 'postgresql:query__execute DUR ' \
	"$(grep -v '^postgresql:query ' pg.cut)"
check "... each lasting 200 ms or more" awk '$4 ~ /ms$/ && $4 + 0 >= 200 { n++ } END { exit n != 2 }' \
	pg.ours
check_eq "trace's uprobes are gone" 0 "$(grep -c "^p:sdtrace_${tp}_" "$TRACEFS/uprobe_events")"
check "the closing line counts the pairs" \
	grep -qE '^sdtrace: [0-9]+ of [0-9]+ pairs lasted 50\.00ms or longer; the slowest' pg.err
finish
