# Shared by the operand-form tests tests/e2e/t150*.sh (sourced after lib.sh): record a test
# program, report --json, compare with what the program says it passed (rec-compare.py).
#
#	forms_run NAME PROG ROUNDS -x BIN -e SPEC...
#	  records PROG ROUNDS with the given options into NAME.data, checks that record exits 0
#	  and says how many events it recorded, writes NAME.json (report --json), NAME.list
#	  (list --json of BIN) and NAME.cmp (rec-compare's line), and passes when every value
#	  is the program's. FORMS_NULLS then holds how many arguments were null.
#
# The engine is the one sdtrace chooses (SDTRACE_ENGINE, where the build has several);
# forms_engine says which one these assertions are for: "tracefs" unless told otherwise.
forms_engine() { printf '%s\n' "${SDTRACE_ENGINE:-tracefs}"; }

forms_run() {
	tn=$1
	prog=$2
	rounds=$3
	shift 3
	need_file "$PROGS_DIR/$prog"
	bin=""
	for a in "$@"; do
		case $a in
		/*) bin=$a ;;
		esac
	done
	"$SDTRACE" list --json -x "$bin" >"$tn.list"
	"$SDTRACE" record -o "$tn.data" "$@" -- "$PROGS_DIR/$prog" "$rounds" >"$tn.out" 2>"$tn.err"
	check_eq "$tn: record exits 0" 0 $?
	n=$(grep -c '^probe ' "$tn.out")
	check_eq "$tn: record says how many it recorded" \
		"sdtrace: $n events recorded in '$tn.data'; the command exited with status 0" \
		"$(grep -v 'left by a killed sdtrace' "$tn.err")"
	"$SDTRACE" report -i "$tn.data" --json >"$tn.json" 2>"$tn.rerr"
	check_eq "$tn: report --json quiet on stderr" "" "$(cat "$tn.rerr")"
	if python3 "$SRC_DIR/tests/e2e/rec-compare.py" --list "$tn.list" "$tn.out" "$tn.json" \
		>"$tn.cmp" 2>&1; then
		pass "$tn: report --json gives every value the program passed ($(cat "$tn.cmp"))"
	else
		fail "$tn: report --json gives every value the program passed" "$(cat "$tn.cmp")"
	fi
	FORMS_NULLS=$(sed -n 's/.*(\([0-9]*\) null).*/\1/p' "$tn.cmp")
}
