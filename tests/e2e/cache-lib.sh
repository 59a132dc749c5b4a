# Shared by the cache tests (tests/e2e/t02*.sh), sourced after lib.sh.
#
# build_prog OUT [PROV]   compile cache-prog.c (provider PROV, default h4cache) to OUT
# mkbuilds SRC DIR N [SET]  N copies of SRC with distinct build-ids (cache-mkbuilds.c)
# sdt ARGS...             sdtrace with the test's own cache ($T/sdt)
# cmp_probes PERF OURS    the probes files match: same lines, except that ours may carry
#                         arguments perf dropped (each perf argument is in ours, same text)

need_cmd cc
build_prog() {
	cc -O2 -g -o "$1" -DPROV="${2:-h4cache}" "$SRC_DIR/tests/e2e/cache-prog.c" ||
		skip "cannot compile cache-prog.c"
}
mkbuilds() {
	[ -x "$T/mkbuilds" ] || cc -O2 -o "$T/mkbuilds" "$SRC_DIR/tests/e2e/cache-mkbuilds.c" ||
		skip "cannot compile cache-mkbuilds.c"
	mkdir -p "$2" && "$T/mkbuilds" "$@"
}
sdt() { "$SDTRACE" --cache-dir "$T/sdt" "$@"; }

cmp_probes() {
	if [ "$(wc -l <"$1")" != "$(wc -l <"$2")" ]; then
		echo "line counts differ: $(wc -l <"$1") vs $(wc -l <"$2")"
		return 1
	fi
	paste -d '\t' "$1" "$2" | awk -F '\t' '
	{
		np = split($1, p, " "); no = split($2, o, " ")
		# header lines and the probe point (first two fields) must be identical
		if (substr($1, 1, 1) != "p" || np < 2 || no < 2) {
			if ($1 != $2) { print "line " NR ": " $1 " != " $2; bad = 1 }
			next
		}
		if (p[1] != o[1] || p[2] != o[2]) { print "line " NR ": " $1 " != " $2; bad = 1; next }
		# every arg perf wrote is in ours, in the same order; ours only adds args
		j = 3
		for (i = 3; i <= np; i++) {
			while (j <= no && o[j] != p[i]) {
				split(o[j], kv, "="); split(p[i], pkv, "=")
				if (kv[1] == pkv[1]) { print "line " NR ": " p[i] " != " o[j]; bad = 1 }
				j++
			}
			if (j > no) { print "line " NR ": perf arg " p[i] " missing"; bad = 1 }
			j++
		}
	}
	END { exit bad }'
}
