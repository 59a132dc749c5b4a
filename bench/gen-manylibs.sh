#!/bin/sh
# Generate, into DIR (kept between runs), a program linked against N small shared libraries
# (libml0.so .. libml<N-1>.so, each one function; libml<N/2>.so also fires the SDT probe
# manylibs:hit), for the cost of resolution by the target (b70-target.sh).
#	DIR/manylibs [PIDFILE]: calls every library once, writes its pid to PIDFILE, then fires
#	manylibs:hit once a second until killed.
# usage: gen-manylibs.sh DIR [N]      (N default 100; rebuilt only when missing)
set -eu
dir=$1
n=${2:-100}
[ -x "$dir/manylibs" ] && [ -e "$dir/.n$n" ] && exit 0
rm -rf "$dir"
mkdir -p "$dir/src"
probe=$((n / 2))
i=0
libs=""
calls=""
decls=""
while [ "$i" -lt "$n" ]; do
	if [ "$i" -eq "$probe" ]; then
		printf '#include <sys/sdt.h>\nint ml%d(int x) { STAP_PROBE1(manylibs, hit, x); return x + %d; }\n' \
			"$i" "$i" >"$dir/src/ml$i.c"
	else
		printf 'int ml%d(int x) { return x + %d; }\n' "$i" "$i" >"$dir/src/ml$i.c"
	fi
	gcc -O1 -g -fPIC -shared -Wl,-soname,libml$i.so -o "$dir/libml$i.so" "$dir/src/ml$i.c"
	libs="$libs -lml$i"
	decls="${decls}int ml$i(int);
"
	calls="${calls}	s += ml$i(s);
"
	i=$((i + 1))
done
cat >"$dir/src/main.c" <<CEOF
#include <stdio.h>
#include <unistd.h>
$decls
int main(int argc, char **argv)
{
	int s = 0;

$calls
	if (argc > 1) {
		FILE *f = fopen(argv[1], "w");

		if (f) {
			fprintf(f, "%d\n", (int)getpid());
			fclose(f);
		}
	}
	for (;;) {
		ml$probe(s);
		sleep(1);
	}
	return s;
}
CEOF
gcc -O1 -g -o "$dir/manylibs" "$dir/src/main.c" -L"$dir" $libs -Wl,-rpath,"$dir"
touch "$dir/.n$n"
