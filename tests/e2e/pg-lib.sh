# SPDX-License-Identifier: MIT
# Sourced first by the PostgreSQL tests (it sources lib.sh and real-lib.sh): a throw-away
# PostgreSQL 15 cluster in $T (initdb, pg_ctl on a Unix socket in $T, no TCP, run as the
# `postgres` user or `nobody`: the server refuses root; stopped on every path, also when a check
# fails), then `pgbench -i`. Leaves PG_BIN, the user U and as_u, PGT, DATA (the data directory),
# PM (the postmaster's pid) and the PG* variables for psql and pgbench; the test is in $T. Skips
# without postgresql-15. log_lines: how many lines the server's log ($PGT/log) has now.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/real-lib.sh"
PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}
for p in postgres initdb pg_ctl pgbench; do
	[ -x "$PG_BIN/$p" ] || skip "'$PG_BIN/$p' is not installed (Debian: postgresql-15)"
done
need_tracefs
need_cmd python3 setpriv
real_guard "$PG_BIN/postgres"
cd "$T" || exit 1

# The server's user: postgres (the Debian package's), else nobody, owning a directory in $T.
if id postgres >/dev/null 2>&1; then
	U=postgres
elif id nobody >/dev/null 2>&1; then
	U=nobody
else
	skip "no 'postgres' or 'nobody' user to run the server as (it refuses root)"
fi
log_lines() { wc -l <"$PGT/log"; }
as_u() { setpriv --reuid="$U" --regid="$(id -g "$U")" --clear-groups env HOME="$PGT" "$@"; }
chmod 711 "$T"
PGT=$T/pg
mkdir "$PGT" && chown "$U:$(id -g "$U")" "$PGT" && chmod 700 "$PGT" || exit 1
DATA=$PGT/data
export LC_ALL=C PGHOST="$PGT" PGPORT=5432 PGUSER=postgres PGDATABASE=postgres
unset PGSERVICE PGSERVICEFILE PGPASSFILE PGOPTIONS 2>/dev/null

as_u "$PG_BIN/initdb" -D "$DATA" -A trust -U postgres -E UTF8 --no-sync --no-instructions \
	>initdb.out 2>&1 || skip "initdb failed as '$U': $(tail -n 3 initdb.out)"
# stop the cluster on every path: fast, then the postmaster itself when that did not work
at_exit "as_u $PG_BIN/pg_ctl -D $DATA stop -m immediate -w -t 20 >/dev/null 2>&1;
	[ -s $DATA/postmaster.pid ] && kill -9 \$(head -n 1 $DATA/postmaster.pid) 2>/dev/null"
as_u "$PG_BIN/pg_ctl" -D "$DATA" -l "$PGT/log" -w -t 60 \
	-o "-k $PGT -c listen_addresses= -p $PGPORT -c fsync=off -c log_connections=on -c log_line_prefix=%p:" \
	start >pgctl.out 2>&1
check_eq "the cluster started (pg_ctl start)" 0 $?
PM=$(head -n 1 "$DATA/postmaster.pid" 2>/dev/null)
if [ -z "$PM" ] || ! kill -0 "$PM" 2>/dev/null; then
	fail "the postmaster runs" "$(tail -n 5 "$PGT/log" 2>&1)"
	finish
fi
"$PG_BIN/pgbench" -i -s 1 -q >pgbench-i.out 2>&1
check_eq "pgbench -i" 0 $?
