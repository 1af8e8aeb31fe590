#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
# audit_live.sh - `jitterscope check` on this machine: a verdict for every check, with the
# machine's real values (THP mode, sched_rt_runtime_us, isolation, the IRQs whose effective
# affinity includes the CPU); the exit status follows the failures; --json is valid; a
# tree captured by scripts/capture-sysroot.sh audits the same; the fixture trees give 0 / 2 / 2.
# A value whose source this machine lacks (no THP, no kernel config) must be a SKIP line.
# Read-only: changes no setting. Exit 0 pass, 77 skip, else fail. JS_BIN: the binary to test
# (make asan: the sanitized one).
# cpu1: shared - it reads the settings and judges the verdicts against them and against the JSON; it measures nothing (scripts/run-tests.sh runs it beside others of its kind, no noise gauge)
# (it stays out of the lane: a measuring test may move an IRQ or rps_cpus while it compares
# the live machine with its captured tree)
set -u
cd "$(dirname "$0")/../.." || exit 1
bin=${JS_BIN:-build/jitterscope}

# (`check` is wired: a broken `check --help` is a failure, no longer a "not wired yet" skip)
if [ ! -x "$bin" ] || ! "$bin" check --help >/dev/null 2>&1; then
	echo "audit_live: FAIL: $bin missing or 'jitterscope check --help' fails" >&2
	exit 1
fi
tmp=$(mktemp -d /tmp/js-audit-live.XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT
errors=0
bad() {
	echo "audit_live: $*" >&2
	errors=$((errors + 1))
}

# in_list CPU LIST - is CPU in the cpulist LIST ("0-3,5")?
in_list() {
	local cpu=$1 part lo hi
	local IFS=,
	for part in $2; do
		lo=${part%-*}
		hi=${part#*-}
		[ -n "$lo" ] && [ "$cpu" -ge "$lo" ] && [ "$cpu" -le "$hi" ] && return 0
	done
	return 1
}

cpu=1
in_list 1 "$(cat /sys/devices/system/cpu/online)" || cpu=0

# 1. the live audit: fast, a verdict per check, a summary, the documented exit status; the
# JSON of the same run (section 3)
start=$(date +%s%N)
"$bin" check --cpu "$cpu" --json "$tmp/a.json" >"$tmp/out" 2>"$tmp/err"
rc=$?
ms=$(( ($(date +%s%N) - start) / 1000000 ))
[ $rc -eq 0 ] || [ $rc -eq 2 ] || bad "check exited $rc: $(cat "$tmp/err")"
[ $ms -lt 2000 ] || bad "check took $ms ms"
summary=$(grep -E '^audit: [0-9]+ pass, [0-9]+ warn, [0-9]+ fail, [0-9]+ skip$' "$tmp/out")
[ -n "$summary" ] || bad "no summary line"
read -r npass nwarn nfail nskip <<<"$(echo "$summary" | tr -cs '0-9' ' ')"
nlines=$(grep -cE '^(PASS|WARN|FAIL|SKIP) ' "$tmp/out")
[ "$nlines" -eq $((npass + nwarn + nfail + nskip)) ] || bad "$nlines check lines vs $summary"
[ "$nlines" -ge 40 ] || bad "only $nlines checks"
if [ "${nfail:-0}" -gt 0 ]; then
	[ $rc -eq 2 ] || bad "$nfail failures but exit $rc"
else
	[ $rc -eq 0 ] || bad "no failure but exit $rc"
fi

# line ID - the check line of ID (for CPU $cpu when per CPU)
line() {
	grep -E "^(PASS|WARN|FAIL|SKIP) +[A-Z]+ +$1 +(cpu$cpu|-) " "$tmp/out"
}
# observed ID - the check line of ID without its "[expected: ...]" part (which names values
# too: " never" and " madvise" are both in thp.enabled's, " -1" in sched_rt_runtime_us's)
observed() {
	line "$1" | sed 's/ *\[expected:.*//'
}

# 2. the real values of this machine; where this machine has no source for one, the check
# must say so (a SKIP line), never a value
notes=""
thp=$(sed -n 's/.*\[\(.*\)\].*/\1/p' /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null)
if [ -n "$thp" ]; then
	observed thp.enabled | grep -qE " $thp\$" || bad "thp.enabled is not '$thp'"
else
	line thp.enabled | grep -q '^SKIP' || bad "no THP mode readable here, yet thp.enabled is not a SKIP"
	notes="$notes; no THP here: thp.enabled skipped"
fi
rt=$(cat /proc/sys/kernel/sched_rt_runtime_us)
observed sched_rt_runtime_us | grep -qE -- " $rt([; ]|\$)" || bad "sched_rt_runtime_us is not $rt"
if [ "$rt" = "-1" ]; then
	line sched_rt_runtime_us | grep -q '^PASS' || bad "sched_rt_runtime_us -1 not a pass"
else
	# the default run is SCHED_OTHER, which RT throttling never touches: low; a FIFO
	# spinner's audit (-P f:N) makes it critical
	line sched_rt_runtime_us | grep -q '^WARN LOW' ||
		bad "sched_rt_runtime_us $rt not a low warn for a SCHED_OTHER run"
	"$bin" check --cpu "$cpu" -P f:1 2>/dev/null | grep -qE "^FAIL CRIT +sched_rt_runtime_us " ||
		bad "sched_rt_runtime_us $rt not a crit fail for check -P f:1"
fi
iso=$(cat /sys/devices/system/cpu/isolated)
if in_list "$cpu" "$iso"; then
	line isolcpus | grep -q '^PASS' || bad "CPU $cpu is isolated but isolcpus does not pass"
else
	line isolcpus | grep -q '^FAIL.*not isolated' || bad "isolcpus should fail (isolated: '$iso')"
fi
# the kernel config where jitterscope looks for it: /proc/config.gz, else /boot/config-RELEASE
hz=""
if [ -r /proc/config.gz ]; then
	hz=$(zcat /proc/config.gz | sed -n 's/^CONFIG_HZ=//p')
elif [ -r "/boot/config-$(uname -r)" ]; then
	hz=$(sed -n 's/^CONFIG_HZ=//p' "/boot/config-$(uname -r)")
fi
if [ -n "$hz" ]; then
	line kernel.hz | grep -q "CONFIG_HZ=$hz " || bad "kernel.hz is not $hz"
else
	line kernel.hz | grep -q '^SKIP' || bad "no CONFIG_HZ readable here, yet kernel.hz is not a SKIP"
	notes="$notes; no kernel config here: kernel.hz skipped"
fi
nirq=0
for d in /proc/irq/[0-9]*; do
	n=${d##*/}
	eff=$(cat "$d/effective_affinity_list" 2>/dev/null) || continue
	name=$(cat "/sys/kernel/irq/$n/actions" 2>/dev/null)
	[ -n "$name" ] && in_list "$cpu" "$eff" || continue
	nirq=$((nirq + 1))
	# (in a guest, a virtio queue vector managed for this vCPU alone is WARN INFO: no
	# guest setting moves it)
	line "irq\\.$n" | grep -qE "^(FAIL|WARN INFO).*$name: effective" || bad "no failing irq.$n ($name) line"
done
if [ $nirq -gt 0 ]; then
	line irq.affinity | grep -q "^FAIL HIGH.*$nirq of" || bad "irq.affinity does not count $nirq IRQs"
else
	line irq.affinity | grep -q '^PASS' || bad "irq.affinity should pass"
fi

# 3. JSON of the same run: valid, and the same checks as the text, one for one
if [ -s "$tmp/a.json" ]; then
	grep -E '^(PASS|WARN|FAIL|SKIP) ' "$tmp/out" | awk '{print tolower($1), $3}' | sort \
		>"$tmp/text.ids"
	python3 - "$tmp/a.json" "$tmp/text.ids" <<-'EOF' || bad "JSON check failed"
	import json, sys
	doc = json.load(open(sys.argv[1]))
	a = doc["audit"]
	checks = a["checks"]
	for c in checks:
	    assert c["verdict"] in ("pass", "warn", "fail", "skip"), c
	    assert c["severity"] in ("info", "low", "med", "high", "crit"), c
	    assert c["id"] and (c["verdict"] != "skip" or c["observed"]), c
	assert sum(a["summary"].values()) == len(checks)
	ids = sorted("%s %s" % (c["verdict"], c["id"]) for c in checks)
	text = open(sys.argv[2]).read().split("\n")[:-1]
	assert ids == text, ("JSON and text differ", len(ids), len(text),
	                     sorted(set(ids) ^ set(text))[:6])
	EOF
else
	bad "check --json wrote nothing"
fi

# 4. a captured tree audits like the live system
if scripts/capture-sysroot.sh "$tmp/cap" >/dev/null; then
	"$bin" check --sysroot "$tmp/cap" --cpu "$cpu" >"$tmp/cap.out" 2>&1
	crc=$?
	[ $crc -eq $rc ] || bad "captured tree exits $crc, live $rc"
	# (the tasks' verdicts are of the moment: a test beside this one may start a task
	# pinned to CPU 1 between the two audits, and where every other task is kept off CPU 1
	# that alone turns tasks.user from a pass to a warn; their lines must be in both)
	ids() {
		grep -E '^(PASS|WARN|FAIL|SKIP) ' "$1" | awk '$3 != "smi" && $3 != "pm_qos" {
			print ($3 ~ /^tasks\./ ? "ANY" : $1), $3, $4 }' | sort -k2
	}
	diff <(ids "$tmp/out") <(ids "$tmp/cap.out") >"$tmp/diff" || bad "captured verdicts differ: $(cat "$tmp/diff")"
else
	bad "capture-sysroot.sh failed"
fi

# 5. fixture trees and a bad --sysroot
"$bin" check --sysroot tests/data/sysroot/tuned --cpu 3 >/dev/null 2>&1
[ $? -eq 0 ] || bad "tuned fixture does not exit 0"
"$bin" check --sysroot tests/data/sysroot/badly-tuned --cpu 3 >/dev/null 2>&1
[ $? -eq 2 ] || bad "badly-tuned fixture does not exit 2"
# the malformed tree's files are broken (their checks skip), but its dev13 IRQ has an
# effective affinity on CPU 3: two failures (irq.affinity, irq.13), exit 2
"$bin" check --sysroot tests/data/sysroot/malformed --cpu 3 >"$tmp/mal.out" 2>&1
r=$?
[ $r -eq 2 ] || bad "malformed fixture exits $r, not 2"
grep -qx 'audit: [0-9]* pass, [0-9]* warn, 2 fail, [0-9]* skip' "$tmp/mal.out" ||
	bad "malformed fixture: $(grep '^audit:' "$tmp/mal.out"), not 2 failures"
"$bin" check --sysroot "$tmp/does-not-exist" --cpu 1 >/dev/null 2>&1
[ $? -ne 0 ] || bad "a missing --sysroot is accepted"

if [ $errors -gt 0 ]; then
	echo "audit_live: $errors problem(s); output:" >&2
	cat "$tmp/out" >&2
	exit 1
fi
echo "audit_live: CPU $cpu: $summary; $nirq IRQs on it; ${ms} ms$notes"
exit 0
