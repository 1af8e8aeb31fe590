#!/bin/bash
# docs_options.sh - the docs against the option table (jitterscope --list-options, the table
# that drives --help, the refusals and the completion). No root, no CPU 1: nothing measures.
#  - man page (docs/jitterscope.8): every option of every command, long and short, has an
#    entry (a .TP tag) under OPTIONS, and no entry names an option the binary lacks; each
#    command's SYNOPSIS shows exactly the options it takes (but -h, --usage, -V, -q, -v,
#    shown for all).
#  - docs/USAGE.md, the reference: every option, long and short, is in the option column of
#    its options table; the table names no option the binary lacks.
#  - README.md keeps a shorter table ("the options used most"), so the rule there is: it
#    names no option the binary lacks, and each long option it names is in USAGE.md's table.
#  - README.md and docs/*.md: each command line in their code blocks (`jitterscope check
#    [--plan]`...) uses options that command takes (up to a `--`: CMD's own words).
# "Names" means the options in the table's code spans that start with a dash (so `pahole
# --btf_encode_detached` in a meaning is not one). Each failure names the option and the doc.
# cpu1: none - the docs against the option table, measures nothing
. "$(dirname "$0")/../lib/lib.bash"

"$JS" --list-options >"$TMP/opts" || fail "--list-options exited $?"
[ "$(wc -l <"$TMP/opts")" -gt 60 ] || fail "--list-options lists $(wc -l <"$TMP/opts") lines"
cd "$ROOT" || fail "no $ROOT"
python3 - "$TMP/opts" <<'PY' || fail "the docs and the option table disagree"
import glob, re, sys
table = {}                                  # command: its options, long and short
for line in open(sys.argv[1]):
    w = line.split()
    table.setdefault(w[0], set()).add(w[1])
    if len(w) > 2 and re.fullmatch(r"-[A-Za-z]", w[2]):
        table[w[0]].add(w[2])
known = set().union(*table.values())
bad = []

def opts_in(text):
    """the options a piece of text names: --long and -s words"""
    return re.findall(r"(?<![\w./-])(--?[A-Za-z][\w-]*)", text)

# --- the man page
man = open("docs/jitterscope.8").read()
plain = lambda s: re.sub(r"\\f[RBIP]", " ", s).replace("\\-", "-")
section = man[man.index(".SH OPTIONS"):man.index(".SH OUTPUT")]
tags = set()
for tag in re.findall(r"^\.TP\n(.*)$", section, re.M):
    tags.update(opts_in(plain(tag)))
for o in sorted(tags - known):
    bad.append("docs/jitterscope.8: an OPTIONS entry names %s, which jitterscope lacks" % o)
for o in sorted(known - tags):
    bad.append("docs/jitterscope.8: no OPTIONS entry for %s" % o)
syn = man[man.index(".SH SYNOPSIS"):man.index(".SH DESCRIPTION")]
common = {"--help", "--usage", "--version", "--quiet", "--verbose", "--cpus",
          "-h", "-V", "-q", "-v"}
short = {"-n": "--top", "-c": "--cpu", "-d": "--duration", "-T": "--threshold"}
for cmd in ("check", "report", "diff"):
    m = re.search(r'\.SY "jitterscope %s"\n(.*?)\.YS' % cmd, syn, re.S)
    if not m:
        bad.append("docs/jitterscope.8: no SYNOPSIS for %s" % cmd)
        continue
    shown = set()
    for o in re.findall(r'^\.OP (\\-\S+)', m.group(1), re.M):
        o = o.replace("\\-", "-")
        shown.add(short.get(o, o))
    longs = {o for o in table[cmd] if o.startswith("--")}
    for o in shown - table[cmd]:
        bad.append("docs/jitterscope.8: SYNOPSIS of %s shows %s, which %s refuses" % (cmd, o, cmd))
    for o in longs - common - shown:
        bad.append("docs/jitterscope.8: SYNOPSIS of %s lacks %s" % (cmd, o))

# --- the Markdown options tables: | option | meaning |
def options_table(doc):
    """(option column's options, every option the table names) of DOC's options table"""
    lines = open(doc).read().split("\n")
    head = [i for i, l in enumerate(lines) if re.match(r"\|\s*option\s*\|\s*meaning\s*\|", l)]
    if len(head) != 1:
        bad.append("%s: %d options tables (| option | meaning |), not 1" % (doc, len(head)))
        return set(), set()
    column, named = set(), set()
    for row in lines[head[0] + 2:]:
        if not row.startswith("|"):
            break
        cells = re.split(r"(?<!\\)\|", row)[1:-1]
        for i, cell in enumerate(cells):
            for span in re.findall(r"`([^`]+)`", cell):
                if span.startswith("-"):
                    found = opts_in(span.replace("\\|", "|"))
                    named.update(found)
                    if i == 0:
                        column.update(found)
    return column, named

usage_col, usage_named = options_table("docs/USAGE.md")
readme_col, readme_named = options_table("README.md")
for doc, named in (("docs/USAGE.md", usage_named), ("README.md", readme_named)):
    for o in sorted(named - known):
        bad.append("%s: its options table names %s, which jitterscope lacks" % (doc, o))
for o in sorted(known - usage_col):
    bad.append("docs/USAGE.md: %s is not in its options table" % o)
for o in sorted({o for o in readme_named & known if o.startswith("--")} - usage_col):
    bad.append("README.md names %s, which docs/USAGE.md's options table lacks" % o)

# --- command lines in the code blocks of every Markdown doc: each command's options
lines = 0
for doc in ["README.md"] + sorted(glob.glob("docs/*.md")):
    text = open(doc).read()
    for block in re.findall(r"^```[^\n]*\n(.*?)^```", text, re.S | re.M):
        for line in block.split("\n"):
            m = re.match(r"\s*(?:[#$] )?(?:sudo )?(?:\S*/)?jitterscope(?: (.*)|$)", line)
            if not m or not m.group(1):
                continue
            lines += 1
            words = re.split(r"\s{2,}|;|\|(?!\w)", m.group(1))[0].split()
            words = words[:words.index("--")] if "--" in words else words  # -- CMD: its own
            cmd = words[0] if words and words[0] in table else "measure"
            for o in opts_in(" ".join(words)):
                if o not in table[cmd]:
                    bad.append("%s: '%s' uses %s, which %s does not take"
                               % (doc, line.strip(), o, cmd))

for b in bad:
    print("FAIL: " + b, file=sys.stderr)
if bad:
    sys.exit(1)
print("ok: %d options of %d commands; the man page, docs/USAGE.md (%d named), README.md "
      "(%d named) and %d command lines of the docs' code blocks agree with them"
      % (len(known), len(table), len(usage_named), len(readme_named), lines))
PY
exit 0
