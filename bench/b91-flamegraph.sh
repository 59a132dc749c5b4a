#!/bin/sh
# Issue 19: the flame graph SVG of 10,000 distinct stacks (depth 10-30, frame names from a pool
# of 400): its size, the time to write it (sdtrace-test-flamegraph, cli/flamegraph.c), how many
# frames are drawn (the rest narrower than 0.1 px), and the wall time of headless Chromium to
# load it and run its script (--dump-dom) and to take a 1200x800 screenshot, against an empty
# page. Two inputs: "random" (each frame drawn from the pool: stacks share little beyond main,
# the worst case) and "tree" (paths down one call tree of fan-out 2-4: stacks share callers, as
# real profiles do). Each at the default minimum width, 0.1 px, and at 0.5 px. Needs a build (BUILD_DIR, default ./build), python3 and chromium.
set -eu
BUILD_DIR=${BUILD_DIR:-build}
FG=$BUILD_DIR/tests/helper/sdtrace-test-flamegraph
T=$(mktemp -d /tmp/b91-flamegraph.XXXXXX)
trap 'rm -rf "$T"' EXIT
gen() {
	python3 - "$1" <<'PY'
import random, sys
random.seed(19)
pool = ['fn_%03d' % i for i in range(400)]
seen = {}
if sys.argv[1] == 'random':
    while len(seen) < 10000:
        d = random.randint(10, 30)
        seen[';'.join(['main'] + [random.choice(pool) for _ in range(d - 1)])] = random.randint(1, 1000)
else:
    kids = {}
    while len(seen) < 10000:
        path, d = ['main'], random.randint(10, 30)
        while len(path) < d:
            k = kids.setdefault(';'.join(path), random.sample(pool, random.randint(2, 4)))
            path.append(random.choice(k))
        seen[';'.join(path)] = random.randint(1, 1000)
for s in sorted(seen):
    print(s, seen[s])
PY
}
secs() {
	s=$(date +%s%N)
	"$@" >/dev/null 2>&1 || true
	echo "$(( ($(date +%s%N) - s) / 1000000 )) ms"
}
chrome() {
	timeout 120 chromium --headless=new --no-sandbox --disable-gpu --no-first-run \
		--user-data-dir="$T/ud" "$@"
}
printf '<html></html>' >"$T/empty.html"
echo "chromium, an empty page (--dump-dom): $(secs chrome --dump-dom "file://$T/empty.html")"
for kind in random tree; do
	gen $kind >"$T/$kind.folded"
	for min in 0.1 0.5; do
		s=$(date +%s%N)
		"$FG" --min-width $min <"$T/$kind.folded" >"$T/$kind.svg" 2>"$T/$kind.err"
		w=$(( ($(date +%s%N) - s) / 1000000 ))
		echo "$kind, min width $min px: $(wc -l <"$T/$kind.folded") stacks;" \
			"$(cat "$T/$kind.err"); $(stat -c %s "$T/$kind.svg") bytes, written in $w ms"
		echo "  chromium --dump-dom $(secs chrome --dump-dom "file://$T/$kind.svg")," \
			"--screenshot $(secs chrome --screenshot="$T/$kind.png" \
			--window-size=1200,800 "file://$T/$kind.svg")"
	done
done
