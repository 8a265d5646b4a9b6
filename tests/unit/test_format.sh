#!/bin/sh
# test_format.sh — every C source follows .clang-format. The formatter is pinned to Debian 12's clang-format
# 14 (autogen.sh --install-deps installs it): another major version formats some constructs differently, so
# elsewhere the test says which version it found instead of failing on its opinions. `make format` rewrites
# the files in place; a table that reads better aligned by hand sits between clang-format off/on comments.
. "$LT_SRCDIR/tests/lib/tap.sh"
cf=${CLANG_FORMAT:-clang-format}
command -v "$cf" >/dev/null 2>&1 || missing_prereq "clang-format (Debian package clang-format)"
ver=$("$cf" --version | sed -n 's/.*version \([0-9][0-9]*\)\..*/\1/p')
[ "$ver" = 14 ] || missing_prereq "clang-format 14 (Debian 12's), found version ${ver:-unknown}"
plan 2
lt_tmpdir
style="--style=file:$LT_SRCDIR/.clang-format"

# unformatted FILE... — the files clang-format would change
unformatted() {
	for f in "$@"; do
		"$cf" "$style" "$f" | cmp -s - "$f" || echo "$f"
	done
}

printf 'int  f(void){return 0;}\n' >"$LT_TMP/planted.c"
is "the checker finds a planted misformatted file" "$(unformatted "$LT_TMP/planted.c")" "$LT_TMP/planted.c"

cd "$LT_SRCDIR" || exit 1
bad=$(unformatted $(find src bench tests -name '*.[ch]' -not -path 'tests/kafka/cache/*' | sort))
is "every C file under src, bench and tests follows .clang-format (make format fixes them)" "$bad" ""
done_testing
