#!/bin/sh
# The default file name sdtrace.data: report reads it without -i; a new recording keeps the
# previous one as sdtrace.data.old (as perf keeps perf.data.old); without one, the error says
# how to make one.
. "$(dirname "$0")/lib.sh"
: "${HELPER_DIR:=$BUILD_DIR/tests/helper}"
WRITE=$HELPER_DIR/sdtrace-test-write
need_file "$WRITE"
mkdir "$T/work" && cd "$T/work" || exit 1

"$SDTRACE" report >out 2>err
check_eq "no sdtrace.data: exit 1" 1 "$?"
check "no sdtrace.data: names it" grep -q "cannot open 'sdtrace.data': No such file or directory" err
check "no sdtrace.data: a hint" grep -q "sdtrace record" err

check "a recording, default name" "$WRITE" ints
check "sdtrace.data was written" test -f sdtrace.data
check_eq "report reads sdtrace.data by default" 4 "$("$SDTRACE" report | wc -l | tr -d ' ')"
check_eq "it is private to its owner (0600, like perf.data)" "600" "$(stat -c %a sdtrace.data)"
check "a second recording" "$WRITE" floats
check "the first is kept as sdtrace.data.old" test -f sdtrace.data.old
check_eq "sdtrace.data is the new one" "test:floats:" "$("$SDTRACE" report | head -n 1 | awk '{print $5}')"
check_eq "-i sdtrace.data.old reads the old one" "test:ints:" \
	"$("$SDTRACE" report -i sdtrace.data.old | head -n 1 | awk '{print $5}')"
check "a third recording" "$WRITE" strings
check_eq "only one .old is kept: the previous" "test:floats:" \
	"$("$SDTRACE" report -i sdtrace.data.old | head -n 1 | awk '{print $5}')"
check_eq "no other files" "sdtrace.data sdtrace.data.old" "$(ls | grep -v '^out$\|^err$' | paste -sd' ')"
check_eq "--input= long form" "test:strings:" "$("$SDTRACE" report --input=sdtrace.data | head -n 1 | awk '{print $5}')"
finish
