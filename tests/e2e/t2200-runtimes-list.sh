#!/bin/sh
# The provider files of the runtimes Debian ships with SDT notes (share/providers/ruby.d, php.d,
# libvirt.d, sssd.d) against the binaries of this machine: every probe of the binary is declared
# in the file, and `sdtrace list -v` names and types every argument of every site, with as many
# arguments as `readelf -n` shows for that probe. The method/function probes carry their keys
# and the switches they need. A binary that is not installed is skipped loudly; the test skips
# when none is (Debian: libruby3.1, php8.2-cli, libvirt0, sssd-common).
. "$(dirname "$0")/lib.sh"

SHIPPED="$SRC_DIR/share/providers"
need_file "$SDTRACE" "$SHIPPED/ruby.d" "$SHIPPED/php.d" "$SHIPPED/libvirt.d" "$SHIPPED/sssd.d"
need_cmd readelf
# Only the shipped files: not the user's
export XDG_CONFIG_HOME="$T/config"

# The probe names declared in a .d file for provider $2 (one per line, sorted).
declared() {
	awk -v want="$2" '
		/^[ \t]*provider[ \t]/ { prov = $2 }
		prov == want && match($0, /probe[ \t]+[A-Za-z0-9_]+/) {
			s = substr($0, RSTART, RLENGTH); sub(/probe[ \t]+/, "", s); print s
		}' "$1" | sort -u
}

# readelf -n's view of provider $2 in $1: "name nargs" for every site, sorted
readelf_sites() {
	readelf -n "$1" | awk -v want="$2" '
		$1 == "Provider:" { prov = $2 }
		$1 == "Name:" { name = $2 }
		$1 == "Arguments:" && prov == want { print name, NF - 1 }
		$1 == "Arguments" && prov == want { print name, 0 }' | sort
}

# list -v's view: "name nargs" for every site, and every argument line not named and typed
list_sites() {
	awk -v bad="$2" '
		/^[^ ]/ { sub(/.*:%[^:]*:/, ""); name = $0; next }
		/^  site / { if (site) print name0, n; site = 1; n = 0; name0 = name; next }
		/^    arg[0-9]+  / {
			n++
			if ($2 !~ /^[A-Za-z_][A-Za-z0-9_]*:(string|[su](8|16|32|64)|x(8|16|32|64))$/)
				print $0 >bad
		}
		END { if (site) print name0, n }' "$1" | sort
}

checked=0
# check_runtime FILE.d PROVIDER BINARY...
check_runtime() {
	dname=$1
	file=$SHIPPED/$1
	prov=$2
	shift 2
	declared "$file" "$prov" >"$T/declared"
	for bin in "$@"; do
		if [ ! -e "$bin" ]; then
			say "SKIP: '$bin' is not installed: $1 ($prov) not checked against it"
			continue
		fi
		checked=$((checked + 1))
		b=$(basename "$bin")
		"$SDTRACE" list -x "$bin" "%$prov" | sed 's/.*:%[^:]*://' | sort -u >"$T/binary"
		check "$prov: $b has probes" test -s "$T/binary"
		check_eq "$prov: the $(wc -l <"$T/binary") probes of $b are all declared in $dname" \
			"" "$(comm -13 "$T/declared" "$T/binary" | tr '\n' ' ')"
		"$SDTRACE" list -x "$bin" -v "%$prov" >"$T/list" 2>"$T/err"
		check_eq "$prov: list -v -x $b succeeds" 0 $?
		: >"$T/bad"
		list_sites "$T/list" "$T/bad" >"$T/list-sites"
		readelf_sites "$bin" "$prov" >"$T/readelf-sites"
		check_eq "$prov: $b: list -v has every site of readelf -n ($(wc -l <"$T/readelf-sites")), each with its argument count" \
			"" "$(diff "$T/readelf-sites" "$T/list-sites" | head -n 5)"
		check_eq "$prov: $b: every argument is named and typed by $dname" \
			"" "$(head -n 5 "$T/bad")"
		# a size the file cannot give: only a constant operand at one site (ruby's `-4@$0`
		# for a long length), where the note's size is kept
		check_eq "$prov: $b: no argument count differs from $dname" \
			"" "$(grep 'types: not used' "$T/list" | head -n 5)"
		check_eq "$prov: $b: sizes agree, but for constants" \
			"" "$(grep 'types: partly used' "$T/list" | grep -v "argument '-*[0-9]*@\\\$" | head -n 5)"
	done
}

check_runtime ruby.d ruby /usr/lib/x86_64-linux-gnu/libruby-3.1.so.3.1
check_runtime php.d php /usr/bin/php8.2
check_runtime libvirt.d libvirt /usr/lib/x86_64-linux-gnu/libvirt.so.0
SSSD=/usr/lib/x86_64-linux-gnu/sssd
check_runtime sssd.d sssd /usr/libexec/sssd/sssd_be "$SSSD/libsss_util.so" "$SSSD/libsss_ldap_common.so"
[ "$checked" -gt 0 ] || skip "none of libruby3.1, php8.2-cli, libvirt0, sssd-common is installed"

RUBY=/usr/lib/x86_64-linux-gnu/libruby-3.1.so.3.1
if [ -e "$RUBY" ]; then
	"$SDTRACE" list -x "$RUBY" -v '%ruby:method__entry' >"$T/list"
	check "ruby: method__entry's key is its class and method" grep -qx '  key: classname,methodname' "$T/list"
	check "ruby: method__entry needs a TracePoint" grep -q '^  needs: a TracePoint on :call' "$T/list"
	check "ruby: classname is a string" grep -qE '^    arg1  classname:string  ' "$T/list"
	check "ruby: lineno is s32" grep -qE '^    arg4  lineno:s32  ' "$T/list"
fi
if [ -e /usr/bin/php8.2 ]; then
	"$SDTRACE" list -x /usr/bin/php8.2 -v '%php:function__entry' >"$T/list"
	check "php: function__entry's key is its class and function" grep -qx '  key: classname,function_name' "$T/list"
	check "php: function__entry needs USE_ZEND_DTRACE=1" grep -qx "  needs: USE_ZEND_DTRACE=1 in the target's environment" "$T/list"
	check "php: classname is a string" grep -qE '^    arg4  classname:string  ' "$T/list"
fi
finish
