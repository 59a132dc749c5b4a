#!/bin/sh
# Following the command's exec chain: a shell-script shim (`exec "$REAL" "$@"`), an `env`
# wrapper and `sh -c 'prog; prog'` (fork + exec) run the program with probes; every hit is
# recorded, the one fired as the very first thing main() does included, although the
# command's own executable has no probes (before: "no SDT event matches"). With -x naming the
# program while the shim execs a copy of it (another inode: what a pyenv shim does), the copy is
# armed at its exec (before: 0 events, exit 0). --no-follow keeps the old behaviour.
# uprobe_events is left as it was.
# A semaphore-gated probe in an image met at its exec (a shim runs prog-semaphore) has its
# semaphore raised before the image runs (ref_ctr_offset): every round's hit is recorded.
# Both engines (e2e/ and e2e-bpf/): the BPF engine arms what it meets as tracefs does, and
# --engine=bpf is no longer refused for it (before: "the BPF engine does not arm files met
# during the run").
. "$(dirname "$0")/lib.sh"
need_tracefs
P=$PROGS_DIR
F=$P/prog-follow
need_file "$F"
cd "$T" || exit 1
uprobes_guard "^[p-r]:[^ ]+ ($PROGS_DIR|$T)/"

exec_shim shim.sh "$F"
cp "$F" "$T/copy"
exec_shim shim-copy.sh "$T/copy"

# events FILE: the recorded events, "name: args", in order
events() { "$SDTRACE" report -i "$1" | sed 's/.*: \(follow[a-z_]*:[a-z]*\): /\1: /'; }
expect() {
	printf 'follow:first: arg1=%s\n' "$1"
	i=0
	while [ "$i" -lt "$1" ]; do
		printf 'follow:tick: arg1=%s\n' "$i"
		i=$((i + 1))
	done
}

# each case with a cache of its own: what one run cached would resolve the next one's specs
export SDTRACE_CACHE_DIR="$T/cache-shim"
"$SDTRACE" record -o shim.data -e '%follow:*' -- ./shim.sh 3 >shim.out 2>shim.err
check_eq "shim: exit status" 0 $?
check_eq "shim: every hit, the first instruction's too" "$(expect 3)" "$(events shim.data)"
check "shim: the end says a binary was armed during the run" \
	grep -q "1 binary armed during the run" shim.err

export SDTRACE_CACHE_DIR="$T/cache-env"
"$SDTRACE" record -o env.data -e '%follow:*' -- env FOO=1 "$F" 4 >env.out 2>env.err
check_eq "env: exit status" 0 $?
check_eq "env: every hit" "$(expect 4)" "$(events env.data)"

export SDTRACE_CACHE_DIR="$T/cache-sh"
"$SDTRACE" record -o sh.data -e '%follow:*' -- sh -c "$F 2; $F 3; exit 7" >sh.out 2>sh.err
check_eq "sh -c: the command's exit status" 7 $?
check_eq "sh -c: both runs recorded" "$(expect 2; expect 3)" "$(events sh.data)"

export SDTRACE_CACHE_DIR="$T/cache-copy"
"$SDTRACE" record -o copy.data -x "$F" -e '%follow:*' -- ./shim-copy.sh 2 >copy.out 2>copy.err
check_eq "-x PROG, the shim execs a copy: exit status" 0 $?
check_eq "-x PROG, the shim execs a copy: the copy is armed" "$(expect 2)" "$(events copy.data)"
check "-x PROG, a copy: the events name the copy" \
	sh -c "'$SDTRACE' report -i copy.data --header | grep -q '$T/copy'"

"$SDTRACE" record --no-follow -o nf.data -x "$F" -e '%follow:*' -- ./shim-copy.sh 2 \
	>nf.out 2>nf.err
check_eq "--no-follow: exit status" 0 $?
check "--no-follow: the copy is not armed" grep -q "0 events recorded" nf.err
export SDTRACE_CACHE_DIR="$T/cache-nf2"
"$SDTRACE" record --no-follow -o nf2.data -e '%follow:*' -- ./shim.sh 2 >nf2.out 2>nf2.err
check_eq "--no-follow, nothing matched: an error" 1 $?
check "--no-follow: the help says what following is" \
	sh -c "'$SDTRACE' record --help | grep -q -- '--no-follow'"

# A semaphore-gated probe in the image exec'd: raised at the exec stop, every round recorded.
S=$P/prog-semaphore
need_file "$S"
exec_shim shim-sem.sh "$S"
export SDTRACE_CACHE_DIR="$T/cache-sem"
"$SDTRACE" record -o sem.data -e '%sem:first' -- ./shim-sem.sh 3 >sem.out 2>sem.err
check_eq "semaphore, a shim: exit status" 0 $?
check_eq "semaphore, a shim: raised from the first round" \
	"$(printf 'sem:first: arg1=%s\n' 0 1 2)" \
	"$("$SDTRACE" report -i sem.data | sed 's/.*: \(sem:[a-z]*\): /\1: /')"
check_eq "semaphore, a shim: the program saw it raised" 3 "$(grep -c '^probe sem:first' sem.out)"

# Both engines by name: --engine=bpf follows (before: refused), auto records it all the same.
if "$SDTRACE" record --engine=bpf -o bprobe.data -x "$F" -e '%follow:first' -- "$F" 0 \
	>/dev/null 2>bprobe.err; then
	for e in bpf auto; do
		export SDTRACE_CACHE_DIR="$T/cache-$e"
		"$SDTRACE" record --engine=$e -o $e.data -e '%follow:*' -- ./shim.sh 2 \
			>$e.out 2>$e.err
		check_eq "--engine=$e, a shim: exit status" 0 $?
		check_eq "--engine=$e, a shim: every hit" "$(expect 2)" "$(events $e.data)"
	done
else
	say "NOTE: the BPF engine cannot run here ($(head -n 1 bprobe.err)): its case is skipped"
fi

# An instrumented command that matches nothing still fails at once (nothing runs).
"$SDTRACE" record -o bad.data -e '%nosuch:event' -- "$F" 1 >bad.out 2>bad.err
check_eq "an instrumented command matching nothing: exit 1" 1 $?
check_eq "and it did not run" "" "$(cat bad.out)"

uprobes_unchanged
finish
