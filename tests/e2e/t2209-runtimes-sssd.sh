#!/bin/sh
# SSSD 2.8 (Debian's sssd-common and sssd-proxy) through share/providers/sssd.d: a real sssd,
# started by the test with a proxy domain (id_provider = proxy over libnss_files: the users of
# /etc/passwd), in a private mount namespace so that it disturbs nothing of the machine's: a
# tmpfs on /var/lib/sss (its databases and sockets), /etc/sssd and /run (its pid file), its
# config file in $T. `getent -s sss` asks the sss NSS module directly (no nsswitch.conf change),
# in the same namespace; a user not yet in sssd's cache makes the NSS responder send the data
# provider an "Account" request (a files domain would not: its responder answers from the cache
# and never asks the provider, "The entries in the files domain are up-to-date").
# `sdtrace record -a` of sssd_be's %sssd:dp_req_*, then `report --latency --by dp_req_name`: a
# pair per request, keyed by the request's name ("Account #N"), exactly the requests that
# sssd's own debug log says it handled.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/real-lib.sh"
SSSD=/usr/sbin/sssd
BE=/usr/libexec/sssd/sssd_be
[ -x "$SSSD" ] && [ -x "$BE" ] || skip "'$SSSD' or '$BE' is not installed (Debian: sssd-common)"
need_file /usr/lib/x86_64-linux-gnu/sssd/libsss_proxy.so
need_file /usr/lib/x86_64-linux-gnu/libnss_sss.so.2
need_cmd unshare
need_cmd getent
need_tracefs
real_guard "$BE"
export XDG_CONFIG_HOME="$T/config"
cd "$T" || exit 1
pids=""

# users of /etc/passwd to look up (never root: sssd filters it), and one that does not exist
users=$(awk -F: '$3 > 0 && $3 < 60000 { print $1 }' /etc/passwd | head -n 5 | tr '\n' ' ')
[ -n "$users" ] || skip "no user other than root in /etc/passwd"
cat >sssd.conf <<'EOF'
[sssd]
services = nss
domains = px

[domain/px]
id_provider = proxy
proxy_lib_name = files
auth_provider = none
EOF
chmod 600 sssd.conf
# run in the namespace: start sssd, wait for its NSS socket, look every user up, stop it
cat >ns.sh <<EOF
set -u
mount -t tmpfs sdtrace-t2209 /var/lib/sss &&
	mkdir -p /var/lib/sss/db /var/lib/sss/pipes/private /var/lib/sss/mc /var/lib/sss/pubconf &&
	mount -t tmpfs sdtrace-t2209 /etc/sssd && mount -t tmpfs sdtrace-t2209 /run || exit 3
$SSSD -i -c $T/sssd.conf --logger=stderr -d 0x0400 >$T/sssd.log 2>&1 &
sp=\$!
n=0
until [ -S /var/lib/sss/pipes/nss ] && grep -q 'Subdomains #1\]: Request removed' $T/sssd.log; do
	n=\$((n + 1))
	[ \$n -gt 300 ] && { echo "sssd never started"; kill \$sp; exit 4; }
	kill -0 \$sp 2>/dev/null || { echo "sssd exited"; exit 4; }
	sleep 0.1
done
for u in $users sdtrace-no-such-user; do
	getent -s sss passwd "\$u" >>$T/getent.out
	echo "\$u \$?" >>$T/getent.rc
done
kill -TERM \$sp
wait \$sp
exit 0
EOF

"$SDTRACE" record -a -o s.sdt -e "$BE:%sssd:dp_req_*" >rec.out 2>rec.err &
rp=$!
pids="$pids $rp"
at_exit "kill -INT $rp 2>/dev/null"
armed "$rp" "$BE" || fail "sdtrace armed" "$(cat rec.err)"
timeout 120 unshare --mount --propagation private sh ns.sh >ns.out 2>&1
check_eq "sssd ran in its namespace and stopped (ns.sh: $(tail -n 3 ns.out | tr '\n' ' '))" 0 $?
# the requests sssd's log says its data provider started ("Account #2" and so on), and those
# it says a handler finished: the proxy domain has no subdomains handler, so its start-up
# "Subdomains #1" request is started and dropped, never done (no dp_req_done)
reqs() { grep -o "DP Request \[[^]]*\]: $1" sssd.log | sed 's/^DP Request \[\(.*\)\]: .*/\1/' | sort; }
reqs 'REQ_TRACE: New request' >log.started
reqs 'Request handler finished' >log.reqs
nacct=$(grep -c '^Account #' log.reqs)
nusers=$(echo $users | wc -w)
check "sssd's log: an Account request per user looked up, and one for the missing user ($nacct, $nusers users)" \
	[ "$nacct" -ge "$((nusers + 1))" ]
for u in $users; do
	check "getent -s sss passwd $u through sssd: found" grep -qx "$u 0" getent.rc
done
check "getent -s sss passwd of a missing user: not found" grep -qx "sdtrace-no-such-user 2" getent.rc

kill -INT "$rp"
wait "$rp"
check_eq "sdtrace record -a: exit 0" 0 $?
"$SDTRACE" report -i s.sdt --latency --by dp_req_name >lat.out 2>lat.err
check_eq "report --latency --by dp_req_name: exit 0" 0 $?
check "the pair is dp_req_send -> dp_req_done" \
	grep -q '^sssd:dp_req  (sssd:dp_req_send -> sssd:dp_req_done)$' lat.out
# the rows of the pair: one per request name, each one request
sed -n 's/^ *1 .* dp_req_name=\(.*\)$/\1/p' lat.out | sort >sdt.reqs
check "a row per request that sssd's log says was handled, keyed by its name ($(wc -l <log.reqs) requests)" \
	cmp -s log.reqs sdt.reqs
[ "$_failed" = 0 ] || say "log: $(tr '\n' ',' <log.reqs); report: $(tr '\n' ',' <sdt.reqs)"
check "the pair counts every request handled" grep -q "^  count $(wc -l <log.reqs) " lat.out
say "sssd:dp_req:$(grep -m 1 '^  count ' lat.out)"
nopen=$(($(wc -l <log.started) - $(wc -l <log.reqs)))
if [ "$nopen" -gt 0 ]; then
	check "unmatched: the $nopen started and never handled (sssd's log: $(comm -23 log.started log.reqs | tr '\n' ','))" \
		grep -q "unmatched: $nopen starts (never ended), 0 " lat.out
else
	check_fails "no request left unmatched" grep -q 'unmatched: ' lat.out
fi
# shellcheck disable=SC2086
real_unchanged $pids
finish
