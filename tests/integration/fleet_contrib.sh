#!/bin/bash
# fleet_contrib.sh - contrib/ checked without measuring (about 2 s; no root needed):
#  - jitterscope.service passes `systemd-analyze verify` (no output: it only warns on a bad
#    value), its ExecStart options are today's jitterscope options or the continuous mode's
#    coming ones (and a coming one that exists now fails: drop its COMING notes), its
#    capabilities are the tested set, CPUAffinity holds the measured and housekeeping CPUs,
#    --prom is under ReadWritePaths;
#  - prometheus-rules.yml passes `promtool check rules` and `promtool test rules
#    prometheus-rules.test.yml`;
#  - daemonset.yaml's structure (python3-yaml): selector, hostPID, capabilities (the unit's,
#    privileged false), the BTF and cgroup mounts, no debugfs/tracefs, ports, env;
#  - every metric named by the dashboard, the rules and docs/FLEET.md is a family of
#    docs/OUTPUTS.md (the live check of each expression: fleet_prometheus.sh).
# cpu1: none - checks contrib/ files, measures nothing
. "$(dirname "$0")/../lib/lib.bash"
need_cmd systemd-analyze systemd
need_cmd promtool prometheus
python3 -c 'import yaml' 2>/dev/null || missing python3-yaml "no python3 yaml module"
[ -x "$JS" ] || fail "no $JS: build first"
note() { echo "fleet_contrib: $*"; }
C=$ROOT/contrib

# the unit as installed would run the build's binary; no man page is installed here
sed "s|/usr/local/bin/jitterscope|$JS|" "$C/jitterscope.service" >"$TMP/jitterscope.service"
systemd-analyze verify --man=no "$TMP/jitterscope.service" >"$TMP/verify.out" 2>&1 ||
	{ cat "$TMP/verify.out" >&2; fail "systemd-analyze verify exited $?"; }
[ ! -s "$TMP/verify.out" ] || { cat "$TMP/verify.out" >&2; fail "systemd-analyze verify warned"; }
# the check fails on a broken unit (it only warns, so the warning must be caught)
sed 's/^ProtectSystem=strict/ProtectSystem=strikt/' "$TMP/jitterscope.service" >"$TMP/bad.service"
systemd-analyze verify --man=no "$TMP/bad.service" >"$TMP/bad.out" 2>&1
grep -q strikt "$TMP/bad.out" || fail "systemd-analyze verify did not warn on a bad value"
exposure=$(systemd-analyze security --offline=true "$TMP/jitterscope.service" 2>/dev/null |
	sed -n 's/.*Overall exposure level for jitterscope.service: \([0-9.]*\).*/\1/p')
note "jitterscope.service: systemd-analyze verify clean, exposure ${exposure:-?}"

promtool check rules "$C/prometheus-rules.yml" >"$TMP/rules.out" 2>&1 ||
	{ cat "$TMP/rules.out" >&2; fail "promtool check rules failed"; }
(cd "$C" && promtool test rules prometheus-rules.test.yml) >"$TMP/rtest.out" 2>&1 ||
	{ cat "$TMP/rtest.out" >&2; fail "promtool test rules failed"; }
note "prometheus-rules.yml: $(sed -n 's/.*SUCCESS: //p' "$TMP/rules.out"), promtool test rules ok"

python3 "$ROOT/tests/lib/fleet_lib.py" static "$ROOT" "$JS" ||
	fail "contrib/ or docs/FLEET.md (above)"
note "PASS"
exit 0
