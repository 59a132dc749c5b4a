#!/bin/sh
# An entry's `elf` copied across file systems keeps the holes of a sparse file (before: a 2 GiB
# sparse ELF of 28 KiB of data was copied as 2 GiB), and one entry copies at most 1 GiB of data:
# more is refused with the file, its size and the limit named, and nothing is created.
# The binaries sit on a tmpfs of the test's own, the cache on the file system of $T.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/cache-lib.sh"

need_root
need_cmd cmp du
S=$T/src
mkdir -p "$S"
if mount -t tmpfs -o size=3g,mode=0755 sdtrace-t0222 "$S" 2>/dev/null; then
	at_exit "umount '$S'"
else
	skip "cannot mount a tmpfs on '$S'"
fi
[ "$(stat -c %d "$S")" != "$(stat -c %d "$T")" ] || skip "'$S' is on the file system of '$T'"

build_prog "$S/prog"
mkbuilds "$S/prog" "$S/b" 2 9 # two builds: each file its own entry
# 2 GiB: the program, a hole to 1 GiB, 8 KiB of data, a hole to the end
cp "$S/b/bin-0000" "$S/sparse"
truncate -s 1G "$S/sparse"
head -c 8192 /dev/urandom | dd of="$S/sparse" bs=4096 seek=262144 conv=notrunc status=none
truncate -s 2G "$S/sparse"
check "the sparse file holds less than 1 MiB of data" test "$(du -k "$S/sparse" | cut -f1)" -lt 1024

check "a sparse file: cached" sdt cache add "$S/sparse"
elf=$(find "$T/sdt" -path '*sparse/*/elf')
check "a sparse file: copied (not linked) to elf" test -f "$elf" -a "$(stat -c %h "$elf")" = 1
check_eq "a sparse file: the copy has the same size" 2147483648 "$(stat -c %s "$elf")"
check "a sparse file: the copy has the same bytes" cmp "$S/sparse" "$elf"
kb=$(du -k "$elf" | cut -f1)
check "a sparse file: the copy is sparse too ($kb KiB on disk)" test "$kb" -lt 1024
check "a sparse file: the entry is sound" sdt cache check
check_eq "a sparse file: found by its events" "$S/sparse:%h4cache:ev1" "$(sdt list '%h4cache:ev1')"

# 1100 MiB of data: more than an entry may copy
cp "$S/b/bin-0001" "$S/dense"
dd if=/dev/zero of="$S/dense" bs=1M seek=1 count=1100 conv=notrunc status=none
sdt cache add "$S/dense" >"$T/out" 2>"$T/err"
check_eq "1100 MiB of data: refused" 1 "$?"
msg="cannot cache '$S/dense' in '.*': its copy would take 1153[0-9]* bytes (of 1154[0-9]*),"
msg="$msg more than the limit of 1073741824 per entry: add it with --no-copy"
check "1100 MiB of data: the message names the file, its size and the limit" grep -q "$msg" "$T/err"
check_eq "1100 MiB of data: nothing of it in the cache" "" "$(find "$T/sdt" -path '*dense*')"
check "1100 MiB of data: the cache is sound" sdt cache check
check "1100 MiB of data: cached with --no-copy" sdt cache add --no-copy "$S/dense"
check_eq "1100 MiB of data: --no-copy wrote no elf" "" "$(find "$T/sdt" -path '*dense/*/elf')"
finish
