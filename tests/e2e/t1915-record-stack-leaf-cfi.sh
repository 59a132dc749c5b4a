#!/bin/sh
# record -g (frame pointers; both engines: e2e/ and e2e-bpf/) at prog-stack-leaf's stack:leaf,
# 7 rounds of main -> outer -> inner, where inner is a leaf that gcc -O2 -fno-omit-frame-pointer
# gives no frame: objdump -d shows no `push %rbp` / `mov %rsp,%rbp` in inner (checked below), and
# the probe is at inner+0. There %rbp is still outer's, so the frame-pointer walk goes from inner
# to main and loses outer (perf and bpftrace give main;inner). Issue #33: the recording also keeps
# the user stack pointer and the words at it, and the report unwinds the first frame by the
# file's CFI (.eh_frame: the return address at the stack pointer) and puts outer back. The
# folded stacks are exactly main;outer;inner 7 times (no main;inner), and report -g too, and
# report --json's "stack" (report -g's ips) and "frames" (the folded names).
. "$(dirname "$0")/lib.sh"
P=$PROGS_DIR/prog-stack-leaf
need_file "$P"
need_tracefs
need_cmd objdump
uprobes_guard
cd "$T" || exit 1

# the premise: inner sets up no frame (its code up to its ret has no push %rbp or mov %rsp,%rbp)
objdump -d --no-show-raw-insn "$P" | awk '/^[0-9a-f]+ <inner>:/ {on = 1; next} on && /^$/ {exit}
	on' >inner.s
check "objdump: inner is there" grep -q ret inner.s
check "objdump: inner has no frame setup" sh -c '! grep -Eq "push +%rbp|mov +%rsp,%rbp" inner.s'
check "objdump: outer has a frame" sh -c "objdump -d --no-show-raw-insn '$P' |
	awk '/<outer>:/ {on = 1; next} on && /^\$/ {exit} on' | grep -Eq 'mov +%rsp,%rbp'"

"$SDTRACE" record -g -o g.sdt -e '%stack:leaf' -- "$P" 7 >/dev/null 2>r.err
check_eq "record -g: exit 0" 0 $?
"$SDTRACE" report --format=folded -i g.sdt >f.txt 2>f.err
check_eq "report --format=folded: exit 0" 0 $?
check_eq "one distinct stack" 1 "$(wc -l <f.txt)"
check "stack:leaf;...;main;outer;inner 7" grep -Eq '^stack:leaf;([^;]+;)*main;outer;inner 7$' f.txt
check "no main;inner" sh -c '! grep -q "main;inner" f.txt'

"$SDTRACE" report -g -i g.sdt >g.txt 2>g.err
check_eq "report -g: exit 0" 0 $?
TAB=$(printf '\t')
for fn in inner outer main; do
	check_eq "report -g: $fn in each of the 7 stacks" 7 \
		"$(grep -c "^$TAB *[0-9a-f]* $fn+0x[0-9a-f]* ($P)$" g.txt)"
done
check "report -g: inner, outer, main in that order" python3 -c '
import re
names = [m.group(1) for m in re.finditer(r"^\t *[0-9a-f]+ (\w+)\+0x", open("g.txt").read(), re.M)]
i = names.index("inner")
assert names[i:i + 3] == ["inner", "outer", "main"], names
'

# one answer: report --json's "stack" is report -g's ips and "frames" the folded names, leaf
# first (it was the raw walk: main;inner)
"$SDTRACE" report --json -i g.sdt >g.json 2>j.err
check_eq "report --json: exit 0" 0 $?
check "report --json: 7 stacks, report -g's ips, the folded frames (inner, outer, main)" python3 -c '
import json, re
text = [[int(x, 16) for x in re.findall(r"^\t *([0-9a-f]+) ", b, re.M)]
	for b in open("g.txt").read().split("\n\n") if "\t" in b]
folded = open("f.txt").read().split(" ")[0].split(";")[1:][::-1]
ev = [json.loads(l) for l in open("g.json")]
assert len(ev) == 7 and len(text) == 7, (len(ev), len(text))
for e, t in zip(ev, text):
	assert [int(x, 16) for x in e["stack"]] == t, (e["stack"], t)
	assert e["frames"] == folded, (e["frames"], folded)
	i = e["frames"].index("inner")
	assert e["frames"][i:i + 3] == ["inner", "outer", "main"], e["frames"]
	assert len(e["stack"]) >= 3
'
uprobes_unchanged
finish
