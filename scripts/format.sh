#!/bin/bash
# format.sh - the C sources in the kernel's style, as .clang-format says (docs/DESIGN.md)
#   scripts/format.sh --check   list the files clang-format would change; exit 1 if any
#   scripts/format.sh --fix     rewrite them in place
# The sources: every tracked .c and .h but the generated vmlinux.h. Exit 0 ok, 1 files to
# format, 64 usage, 69 no clang-format.
set -u
cd "$(dirname "$0")/.." || exit 1
mode=${1:-}
case "$mode" in
--check | --fix) ;;
*) echo "usage: scripts/format.sh --check|--fix" >&2; exit 64 ;;
esac
CF=${CLANG_FORMAT:-clang-format}
command -v "$CF" >/dev/null 2>&1 || { echo "format.sh: no $CF (Debian package clang-format)" >&2; exit 69; }

if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	mapfile -t files < <(git ls-files '*.c' '*.h' | grep -v '/vmlinux\.h$')
else
	mapfile -t files < <(find src include bpf tests examples -name '*.[ch]' ! -name vmlinux.h 2>/dev/null | sort)
fi

if [ "$mode" = --fix ]; then
	exec "$CF" -i --style=file "${files[@]}"
fi
# one clang-format for every file (its start-up, per file, was most of the time): it names
# each line it would change; the files among them are those to format
mapfile -t bad < <("$CF" --style=file --dry-run "${files[@]}" 2>&1 |
	sed -n 's/^\([^:]*\):[0-9]*:[0-9]*: warning: code should be clang-formatted.*/\1/p' | sort -u)
for f in "${bad[@]}"; do
	echo "not formatted: $f (scripts/format.sh --fix; see: $CF --style=file $f | diff $f -)"
done
[ ${#bad[@]} -eq 0 ] && echo "format: ${#files[@]} files as .clang-format writes them" && exit 0
echo "format: ${#bad[@]} of ${#files[@]} files not as .clang-format writes them"
exit 1
