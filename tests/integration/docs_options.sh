#!/bin/bash
# docs_options.sh - the man page against the option table (jitterscope --list-options, the
# table that drives --help, the refusals and the completion): every option of every command
# is documented, and each command's SYNOPSIS shows exactly the options it takes (but -h,
# --usage, -V, -q, -v, shown for all). No root, no CPU 1.
# cpu1: none - the docs against the option table, measures nothing
. "$(dirname "$0")/lib.bash"

"$JS" --list-options >"$TMP/opts" || fail "--list-options exited $?"
[ "$(wc -l <"$TMP/opts")" -gt 60 ] || fail "--list-options lists $(wc -l <"$TMP/opts") lines"
python3 - "$TMP/opts" "$ROOT/docs/jitterscope.8" <<'PY' || fail "the man page and the option table disagree"
import re, sys
table = {}
for line in open(sys.argv[1]):
    w = line.split()
    table.setdefault(w[0], set()).add(w[1])
man = open(sys.argv[2]).read()
bad = []
def roff(opt):
    return opt.replace("-", "\\-")
for cmd, opts in table.items():
    for o in opts:
        if roff(o) not in man:
            bad.append("%s %s: not in the man page" % (cmd, o))
# the SYNOPSIS blocks of the subcommands
syn = man[man.index(".SH SYNOPSIS"):man.index(".SH DESCRIPTION")]
common = {"--help", "--usage", "--version", "--quiet", "--verbose", "--cpus"}
short = {"-n": "--top", "-c": "--cpu", "-d": "--duration", "-T": "--threshold"}
for cmd in ("check", "report", "diff"):
    m = re.search(r'\.SY "jitterscope %s"\n(.*?)\.YS' % cmd, syn, re.S)
    if not m:
        bad.append("no SYNOPSIS for %s" % cmd)
        continue
    shown = set()
    for o in re.findall(r'^\.OP (\\-\S+)', m.group(1), re.M):
        o = o.replace("\\-", "-")
        shown.add(short.get(o, o))
    for o in shown - table[cmd]:
        bad.append("SYNOPSIS of %s shows %s, which %s refuses" % (cmd, o, cmd))
    for o in table[cmd] - common - shown:
        bad.append("SYNOPSIS of %s lacks %s" % (cmd, o))
for b in bad:
    print("FAIL: " + b, file=sys.stderr)
print("ok: %d options of %d commands documented, %s synopses match the table"
      % (sum(len(v) for v in table.values()), len(table), "3"))
sys.exit(1 if bad else 0)
PY
exit 0
