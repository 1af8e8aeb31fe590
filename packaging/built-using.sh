#!/bin/sh
# built-using.sh LINK-FLAGS... - the Debian source packages whose static archives a link with
# these flags takes (each -lNAME's libNAME.a, and the C library and libgcc every static link
# takes), as a Built-Using field's value: "glibc (= 2.36-9+deb12u14), libbpf (= 1:1.1.0-1)".
# make deb writes it into the package's control file: the static binary carries their code,
# so a fix in one of them reaches it only through a rebuild. Exit 1 when an archive is not
# found or belongs to no package.
set -eu
CC=${CC:-cc}
paths=
for a in "$($CC -print-file-name=libc.a)" "$($CC -print-libgcc-file-name)" $(
	for f in "$@"; do
		case "$f" in -l*) $CC -print-file-name="lib${f#-l}.a" ;; esac
	done); do
	p=$(realpath -e "$a") || { echo "built-using.sh: no $a" >&2; exit 1; }
	paths="$paths $p"
done
# one dpkg -S for all (each call reads every package's file list); it fails if one has none
# shellcheck disable=SC2086
owners=$(dpkg -S $paths) || { echo "built-using.sh: an archive belongs to no package" >&2; exit 1; }
owners=$(echo "$owners" | sed 's/: .*//' | tr ', ' '\n\n' | sort -u)
# shellcheck disable=SC2086
dpkg-query -W -f='${source:Package} (= ${source:Version})\n' $owners | sort -u |
	paste -sd, - | sed 's/,/, /g'
