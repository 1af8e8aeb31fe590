# format_check.sh - every C source as .clang-format (the kernel's style) writes it, through
# scripts/format.sh --check. Skips without clang-format; under CI=true that fails, since
# scripts/install-deps.sh installs it.
. "$(dirname "$0")/../lib/lib.bash"
need_cmd clang-format clang-format
"$ROOT/scripts/format.sh" --check
