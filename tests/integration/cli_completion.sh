#!/bin/bash
# cli_completion.sh - the bash completion that `jitterscope --completion bash` generates from
# the option table: sourced in bash, each command's COMPREPLY holds its own options and not
# the others', a value list (--by) and the subcommands complete; make install puts it (with
# docs/FLEET.md and jitterscope-capture-sysroot) under PREFIX. No root, no CPU 1.
# cpu1: none - the generated completion, measures nothing
. "$(dirname "$0")/../lib/lib.bash"

"$JS" --completion bash >"$TMP/comp.bash" || fail "--completion bash exited $?"
bash -n "$TMP/comp.bash" || fail "the completion script is not valid bash"

# complete WORD... - COMPREPLY, a word a line, for the command line WORD... (the last word
# is the one completed), as bash would call the function
complete_words() {
	bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		complete -p jitterscope >/dev/null || exit 3
		_jitterscope; printf "%s\n" "${COMPREPLY[@]}"' _ "$TMP/comp.bash" jitterscope "$@"
}
has() { grep -qx -- "$2" <<<"$1" || fail "completing '$3' offers no $2: $(echo $1)"; }
hasnt() { grep -qx -- "$2" <<<"$1" && fail "completing '$3' offers $2"; return 0; }

r=$(complete_words check --) || fail "check --: exit $?"
for o in --cpu --sysroot --json --help; do has "$r" "$o" "check --"; done
for o in --html --duration --pid --budget --alpha; do hasnt "$r" "$o" "check --"; done
r=$(complete_words report run.json --)
for o in --html --prom --hgrm --folded --json --budget --top --by; do has "$r" "$o" "report --"; done
for o in --gaps --trace --cpu --alpha; do hasnt "$r" "$o" "report --"; done
r=$(complete_words diff a.json b.json --f)
[ "$r" = --fail-on ] || fail "diff --f completes to '$r', not --fail-on"
# -- CMD: the words after -- are the command's (a command name first, then its own)
r=$(complete_words --cpu 1 -- s)
has "$r" sh "--cpu 1 -- s"
hasnt "$r" --cpu "--cpu 1 -- s"
r=$(complete_words -- sh --c)
hasnt "$r" --cpu "-- sh --c"
r=$(complete_words --)
for o in --cpu --duration --pid --json --gaps --spike-dir --completion; do has "$r" "$o" "--"; done
for o in --sysroot --alpha --test-hook --probe-toggle; do hasnt "$r" "$o" "--"; done
r=$(complete_words report x.json --by c)
[ "$r" = cgroup ] || fail "--by c completes to '$r', not cgroup"
r=$(complete_words --clock l)
[ "$r" = lfence ] || fail "--clock l completes to '$r'"
r=$(complete_words -d '')
[ -z "$r" ] || fail "-d offers '$r' (a value: nothing)"
r=$(complete_words ch)
[ "$r" = check ] || fail "'ch' completes to '$r', not check"
mkdir "$TMP/dd" && touch "$TMP/dd/run.json"
r=$(complete_words report "$TMP/dd/r")
[ "$r" = "$TMP/dd/run.json" ] || fail "report's file completes to '$r'"
echo "ok: completion of check, report, diff and a measurement's options, values, files"

# make install: the completion, FLEET.md and the sysroot capture script
need_cmd make make
make -s -C "$ROOT" install DESTDIR="$TMP/root" PREFIX=/usr >"$TMP/make.log" 2>&1 ||
	fail "make install: $(tail -5 "$TMP/make.log")"
c=$TMP/root/usr/share/bash-completion/completions/jitterscope
cmp -s "$c" "$TMP/comp.bash" || fail "make install put no (or another) completion at $c"
[ -r "$TMP/root/usr/share/doc/jitterscope/FLEET.md" ] || fail "make install: no FLEET.md"
[ -x "$TMP/root/usr/bin/jitterscope-capture-sysroot" ] ||
	fail "make install: no jitterscope-capture-sysroot"
echo "ok: make install: the completion, FLEET.md, jitterscope-capture-sysroot"
exit 0
