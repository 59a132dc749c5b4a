#!/bin/sh
# The operand forms no uprobe fetcharg expresses, written by hand into the notes so that they are
# there whatever the compiler chooses (tests/progs/prog-asm.h): indexed addresses
# (prog-forms-indexed: -8@(%rdi,%rsi,8), -8@-8(%rdi,%rsi,8), -4@4(%rdi,%rsi,8), -8@(%rdi,%rcx),
# -8@g_arr(,%rsi,8), -8@g_arr+8(,%rsi,8)), thread-local variables read in two threads
# (prog-forms-tls: -8@%fs:t_long@tpoff, -4@%fs:t_int@tpoff) and an assembler-local label
# (8@$.Lforms_label), each between register arguments.
#  - list gives every form with its reason;
#  - under the tracefs engine the indexed and thread-local arguments are recorded as null, the
#    report's header gives the reason of each, and the other arguments of the same probes are
#    the program's values; under another engine (SDTRACE_ENGINE) they must all be the values;
#  - the label is unavailable under every engine: no table keeps its address.
# uprobe_events is left as it was.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/forms-lib.sh"
need_tracefs
need_cmd python3
uprobes_guard "^[p-r]:[^ ]+ $PROGS_DIR/"
cd "$T" || exit 1
P=$PROGS_DIR
need_file "$P/prog-forms-indexed" "$P/prog-forms-tls"
IDX="unavailable: indexed address (base + index * scale): no uprobe fetcharg adds two registers"

# list: the forms and their reasons
"$SDTRACE" list -v -x "$P/prog-forms-indexed" >idx.list.txt 2>&1
"$SDTRACE" list -v -x "$P/prog-forms-tls" >tls.list.txt 2>&1
for a in '-8@(%rdi,%rsi,8)' '-8@-8(%rdi,%rsi,8)' '-4@4(%rdi,%rsi,8)' '-8@(%rdi,%rcx)' \
	'-8@g_arr(,%rsi,8)' '-8@g_arr+8(,%rsi,8)'; do
	if grep -F -- " $a " idx.list.txt | grep -qF -- "$IDX"; then
		pass "list: $a, $IDX"
	else
		fail "list: $a, $IDX" "$(cat idx.list.txt)"
	fi
done
while IFS='|' read -r spec why; do
	if grep -F -- " $spec " tls.list.txt | grep -qF -- "$why"; then
		pass "list: $spec, $why"
	else
		fail "list: $spec, $why" "$(cat tls.list.txt)"
	fi
done <<'LIST'
-8@%fs:t_long@tpoff|unavailable: thread-local variable 't_long': its address is not known to uprobes
-4@%fs:t_int@tpoff|unavailable: thread-local variable 't_int': its address is not known to uprobes
8@$.Lforms_label|unavailable: '.Lforms_label' is an assembler-local label: no symbol table keeps its address
LIST
check_eq "list: the register arguments are fetched" \
	"%dx:s64 %ax:s64 %dx:s64 %ax:s64 %dx:s64 %dx:s64 %cx:s64" \
	"$(cat idx.list.txt tls.list.txt | grep -o '%[a-z]*:s64$' | tr '\n' ' ' | sed 's/ $//')"

forms_run idx prog-forms-indexed 4 -x "$P/prog-forms-indexed" -e '%indexed:*'
idx_nulls=$FORMS_NULLS
forms_run tls prog-forms-tls 3 -x "$P/prog-forms-tls" -e '%tls:*'
tls_nulls=$FORMS_NULLS
if [ "$(forms_engine)" = tracefs ]; then
	# 4 rounds x (4 indexed of base + 2 of symbol); 2 threads x 3 rounds x (2 TLS + the label)
	check_eq "tracefs: the indexed arguments are null, the others the values" 24 "$idx_nulls"
	check_eq "tracefs: the thread-local arguments and the label are null" 18 "$tls_nulls"
	"$SDTRACE" report -i idx.data --header >idx.txt 2>&1
	"$SDTRACE" report -i tls.data --header >tls.txt 2>&1
	check "tracefs: the header gives the indexed reason" \
		grep -qF -- "#   arg2 -8@(%rdi,%rsi,8): $IDX" idx.txt
	check "tracefs: the header gives the thread-local reason" \
		grep -qF -- "#   arg2 -8@%fs:t_long@tpoff: unavailable: thread-local variable 't_long'" tls.txt
	check "tracefs: the text report marks them" grep -q "arg2=<unavailable> arg3=<unavailable>" tls.txt
else
	check_eq "$(forms_engine): the indexed arguments are the values" 0 "$idx_nulls"
	check_eq "$(forms_engine): the thread-local arguments are the values (only the label null)" \
		6 "$tls_nulls"
fi

uprobes_unchanged
finish
