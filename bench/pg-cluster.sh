# A throw-away PostgreSQL 15 cluster for the bench/b*.sh scripts (sourced after common.sh):
# initdb in $tmp, a Unix socket there, no TCP, run as `postgres` (or nobody: the server refuses
# root), stopped at exit on every path. Sets PG_BIN and PGHOST/PGPORT/PGUSER/PGDATABASE;
# pg_start starts it and runs `pgbench -i`.
PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}
pg_start() {
	for p in postgres initdb pg_ctl pgbench; do
		[ -x "$PG_BIN/$p" ] || { echo "  skipped: no $PG_BIN/$p (Debian: postgresql-15)"; exit 0; }
	done
	if id postgres >/dev/null 2>&1; then pg_user=postgres; else pg_user=nobody; fi
	chmod 711 "$tmp"
	pg_dir=$tmp/pg
	mkdir "$pg_dir" && chown "$pg_user:$(id -g "$pg_user")" "$pg_dir" && chmod 700 "$pg_dir"
	export LC_ALL=C PGHOST="$pg_dir" PGPORT=5432 PGUSER=postgres PGDATABASE=postgres
	pg_as "$PG_BIN/initdb" -D "$pg_dir/data" -A trust -U postgres -E UTF8 --no-sync \
		--no-instructions >"$tmp/initdb.out" 2>&1 || { cat "$tmp/initdb.out" >&2; exit 1; }
	at_exit "pg_as $PG_BIN/pg_ctl -D $pg_dir/data stop -m immediate -w -t 20 >/dev/null 2>&1;
		[ -s $pg_dir/data/postmaster.pid ] && kill -9 \$(head -n 1 $pg_dir/data/postmaster.pid) 2>/dev/null"
	pg_as "$PG_BIN/pg_ctl" -D "$pg_dir/data" -l "$pg_dir/log" -w -t 60 \
		-o "-k $pg_dir -c listen_addresses= -p $PGPORT -c fsync=off -c synchronous_commit=off" \
		start >"$tmp/pgctl.out" 2>&1 || { cat "$tmp/pgctl.out" "$pg_dir/log" >&2; exit 1; }
	"$PG_BIN/pgbench" -i -s 1 -q >"$tmp/pgbench-i.out" 2>&1 || { cat "$tmp/pgbench-i.out" >&2; exit 1; }
}
pg_as() { setpriv --reuid="$pg_user" --regid="$(id -g "$pg_user")" --clear-groups env HOME="$pg_dir" "$@"; }
# pg_tps OUT SECONDS: a pgbench run of 2 clients on the script below; prints its tps. Simple
# protocol (PostgreSQL fires query__start only there) and texts without variables: a handful of
# distinct query texts, one of them longer than bpftrace's 64-byte strings.
pg_tps() {
	[ -s "$tmp/pg.sql" ] || cat >"$tmp/pg.sql" <<'SQL'
BEGIN;
SELECT abalance FROM pgbench_accounts WHERE aid = 4242;
SELECT sum(a.abalance) FROM pgbench_accounts a JOIN pgbench_branches b USING (bid) WHERE a.aid < 50;
SELECT tbalance FROM pgbench_tellers WHERE tid = 3;
END;
SQL
	"$PG_BIN/pgbench" -n -f "$tmp/pg.sql" -c 2 -j 2 -T "$2" >"$1" 2>&1 || { cat "$1" >&2; exit 1; }
	sed -n 's/^tps = \([0-9.]*\) .*/\1/p' "$1" | head -n 1
}
