#!/bin/sh
# SPDX-License-Identifier: MIT
# Every public header (include/sdtrace/*.h) has a usage example in its opening comment, and each
# example compiles against the headers as they are now: the functions it calls exist, with those
# arguments. The example is the tab-indented block after the comment's "Example" line; the
# names it uses without declaring them are the parameters of the function it is compiled in:
# path, paths, pid, argv, c, cache, f, file, site, sites, n, sink (see below).
. "$(dirname "$0")/lib.sh"
need_cmd cc

n=0
for h in "$SRC_DIR"/include/sdtrace/*.h; do
	hdr=${h##*/}
	n=$((n + 1))
	# the lines after " * Example...", while they are " *<tab>...", without the " *"
	awk '/^ \* Example/ { on = 1; next }
	     on && /^ \*\t/ { sub(/^ \*/, ""); print; next }
	     on { exit }' "$h" >"$T/ex-$hdr.txt"
	check "$hdr: has a usage example in its opening comment" test -s "$T/ex-$hdr.txt"
	[ -s "$T/ex-$hdr.txt" ] || continue
	{
		cat <<'EOF'
#include <err.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/types.h>
EOF
		printf '#include <sdtrace/%s>\n' "$hdr"
		# after the header itself, so that it is shown to need nothing else; then the rest
		echo '#include <sdtrace/sdtrace.h>'
		cat <<'EOF'
int example(const char *path, const char *const *paths, pid_t pid, char **argv,
	    struct sdt_cache *c, struct sdt_cache *cache, struct sdt_file *f, const struct sdt_file *file,
	    const struct sdt_site *site, const size_t *sites, size_t n,
	    struct sdt_recorder_sink sink);
int example(const char *path, const char *const *paths, pid_t pid, char **argv,
	    struct sdt_cache *c, struct sdt_cache *cache, struct sdt_file *f, const struct sdt_file *file,
	    const struct sdt_site *site, const size_t *sites, size_t n,
	    struct sdt_recorder_sink sink)
{
	{
EOF
		cat "$T/ex-$hdr.txt"
		cat <<'EOF'
	}
	return 0;
}
EOF
	} >"$T/ex-$hdr.c"
	if cc -std=gnu11 -Wall -Wextra -Werror -Wno-unused-parameter -Wno-unused-variable \
		-Wno-unused-but-set-variable -Werror=implicit-function-declaration \
		-I"$SRC_DIR/include" -fsyntax-only "$T/ex-$hdr.c" >"$T/cc-$hdr.log" 2>&1; then
		pass "$hdr: the example compiles"
	else
		fail "$hdr: the example compiles" "$(head -n 15 "$T/cc-$hdr.log")"
	fi
done
check "the public headers were found" test "$n" -ge 8
finish
