#!/bin/sh
# PHP 8.2 (Debian's php8.2-cli) through share/providers/php.d, `sdtrace record` then `report
# --latency`: function latency by class and function with exact call counts, on a script of
# 1000 method calls, 300 static calls and 200 plain function calls. The Zend engine fires its
# function probes only with USE_ZEND_DTRACE=1 in its environment (php.d's `@sdtrace needs:`
# note, measured there): without it, the 0-hit line names the switch. The request pairs
# request__startup -> request__shutdown (the __startup/__shutdown convention), and an exception
# exception__thrown -> exception__caught (php.d's `@sdtrace pair:` note), counted by class.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/real-lib.sh"
PHP=/usr/bin/php8.2
[ -x "$PHP" ] || skip "'$PHP' is not installed (Debian: php8.2-cli)"
need_tracefs
real_guard "$(readlink -f "$PHP")"
export XDG_CONFIG_HOME="$T/config"
unset USE_ZEND_DTRACE
cd "$T" || exit 1
pids=""

cp "$SRC_DIR/tests/e2e/work/calls.php" calls.php || exit 1

# run NAME CMD...: sdtrace CMD... in the background, waited for; its output in NAME.out/.err
run() {
	out=$1
	shift
	"$SDTRACE" "$@" >"$out.out" 2>"$out.err" &
	p=$!
	pids="$pids $p"
	wait "$p"
	check_eq "$out: sdtrace $1 exits 0" 0 $?
}

# The count of the --by row whose key is $2 in report output $1
row_count() { awk -v k="$2" 'index($0, k) && $1 ~ /^[0-9]+$/ { print $1 }' "$1"; }

USE_ZEND_DTRACE=1 run rec record -o calls.sdt -e '%php:function__*' -e '%php:request__*' \
	-- "$PHP" -n calls.php
"$SDTRACE" report -i calls.sdt --latency --by classname,function_name >lat.out 2>lat.err
check_eq "report --latency --by classname,function_name: exit 0" 0 $?
check "the pair is function__entry -> function__return" \
	grep -q '^php:function  (php:function__entry -> php:function__return)$' lat.out
check_eq "Foo::bar: exactly 1000 calls" 1000 "$(row_count lat.out 'classname=Foo function_name=bar')"
check_eq "Foo::baz: exactly 300 calls" 300 "$(row_count lat.out 'classname=Foo function_name=baz')"
check_eq "top(): exactly 200 calls" 200 "$(row_count lat.out 'classname= function_name=top')"
check "the request pairs request__startup -> request__shutdown" \
	grep -q '^php:request  (php:request__startup -> php:request__shutdown)$' lat.out
check_fails "nothing left unmatched" grep -q 'unmatched:' lat.out

# php.d's `@sdtrace pair:` note: from exception__thrown to exception__caught, by class
cat >exc.php <<'PHPEOF'
<?php
class AErr extends Exception {}
class BErr extends Exception {}
function thrower($i) { if ($i % 2) throw new AErr("a"); throw new BErr("b"); }
for ($i = 0; $i < 100; $i++) {
  try { thrower($i); } catch (Exception $e) { }
}
for ($i = 0; $i < 20; $i++) {
  try { try { throw new AErr("inner"); } finally { } } catch (AErr $e) { }
}
PHPEOF
run exc record -o exc.sdt -e '%php:exception__*' -- "$PHP" -n exc.php
"$SDTRACE" report -i exc.sdt --latency --by classname >exc-lat.out 2>exc-lat.err
check_eq "report --latency --by classname (exceptions): exit 0" 0 $?
check "the pair note pairs exception__thrown -> exception__caught" \
	grep -q '^php:exception  (php:exception__thrown -> php:exception__caught)$' exc-lat.out
check_eq "AErr: 70 thrown and caught" 70 "$(row_count exc-lat.out 'classname=AErr')"
check_eq "BErr: 50 thrown and caught" 50 "$(row_count exc-lat.out 'classname=BErr')"
check_fails "no exception left unmatched" grep -q 'unmatched:' exc-lat.out

# Without USE_ZEND_DTRACE=1: no function probe fires, and the end says why
run plain stat -e '%php:function__entry' -e '%php:request__startup' -- "$PHP" -n calls.php
check_eq "without USE_ZEND_DTRACE: the request still fires once" 1 \
	"$(awk '$2 == "%php:request__startup" { print $1 }' plain.out)"
check "without USE_ZEND_DTRACE: the 0-hit line names the switch" \
	grep -q "^sdtrace: 0 hits: %php:function__entry: needs: USE_ZEND_DTRACE=1 in the target's environment (.*php\.d:[0-9]*)$" plain.err
# shellcheck disable=SC2086
real_unchanged $pids
finish
