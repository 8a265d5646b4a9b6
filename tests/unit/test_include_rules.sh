#!/bin/sh
# test_include_rules.sh — the include graph of doc/ARCHITECTURE.md ("may include"), checked on the sources:
# the command line depends on the rest, never the reverse (nothing outside src/cli and src/main.c includes
# cli/); config/ includes neither kafka/ nor ui/; only src/kafka includes rdkafka.h and only src/ui curses;
# and the configuration file's header is not called config.h (autoconf's is). The checker is first run on a
# planted violation, so the test is known to be able to fail.
. "$LT_SRCDIR/tests/tap.sh"
plan 7
lt_tmpdir

# includes DIR PATTERN [EXCEPT] — the #include lines of DIR's .c/.h files that match PATTERN (an extended
# regex on the included name), leaving out files whose path matches EXCEPT.
includes() {
	grep -rEn --include='*.c' --include='*.h' "^[[:space:]]*#[[:space:]]*include[[:space:]]*[<\"]($2)" "$1" |
		{ if [ -n "${3:-}" ]; then grep -Ev "^($3)"; else cat; fi; }
}

mkdir -p "$LT_TMP/src/config" "$LT_TMP/src/cli"
printf '#include "cli/options.h"\n' >"$LT_TMP/src/config/bad.c"
printf '#include "cli/options.h"\n' >"$LT_TMP/src/cli/fine.c"
is "the checker finds a planted cli/ include outside src/cli" \
	"$(cd "$LT_TMP" && includes src 'cli/' 'src/cli/|src/main\.c')" 'src/config/bad.c:1:#include "cli/options.h"'

cd "$LT_SRCDIR" || exit 1
is "nothing outside src/cli and src/main.c includes cli/" "$(includes src 'cli/' 'src/cli/|src/main\.c')" ""
is "src/config includes neither kafka/ nor ui/ nor model/" "$(includes src/config 'kafka/|ui/|model/')" ""
is "src/kafka includes no ui/" "$(includes src/kafka 'ui/')" ""
is "only src/kafka includes rdkafka.h" "$(includes src 'librdkafka/' 'src/kafka/')" ""
is "only src/ui includes curses" "$(includes src 'n?curses\.h' 'src/ui/')" ""
is "no header of ours is named config.h (that name is autoconf's)" \
	"$(find src -name config.h; includes src 'config/config\.h')" ""
done_testing
