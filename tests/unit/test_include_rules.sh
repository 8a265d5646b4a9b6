#!/bin/sh
# test_include_rules.sh — doc/ARCHITECTURE.md's module table, checked on the sources. Each row names a
# path (`src/x/` or a file) and, in its last column, everything the path may include: modules (src's
# directories) and libraries (the names below). Anything else it includes breaks a rule the table states
# (the client layer never draws, the model does no I/O, nothing but src/cli and main.c reaches into cli/,
# ...). The rules are read from the table itself, so the doc and this test cannot drift; and every row's
# checker is first run on planted includes it forbids, so each rule is known to be able to fail.
. "$LT_SRCDIR/tests/lib/tap.sh"
lt_tmpdir

# The libraries a row may name, and the headers that mean them.
LIBRARIES="libc pthreads librdkafka curses libconfig zstd libcurl jansson"
library_of() { # HEADER -> library name, or nothing for libc and the compiler's own headers
	case "$1" in
	librdkafka/*) echo librdkafka ;;
	curses.h | ncurses.h | ncursesw/*) echo curses ;;
	libconfig.h) echo libconfig ;;
	zstd.h | zstd_errors.h | zdict.h) echo zstd ;;
	curl/*) echo libcurl ;;
	jansson.h) echo jansson ;;
	pthread.h) echo pthreads ;;
	esac
}
header_of() { # LIBRARY -> one header that means it
	case "$1" in
	librdkafka) echo librdkafka/rdkafka.h ;; curses) echo curses.h ;; libconfig) echo libconfig.h ;;
	zstd) echo zstd.h ;; libcurl) echo curl/curl.h ;; jansson) echo jansson.h ;; pthreads) echo pthread.h ;;
	esac
}

# rules DOC — one line per row of the module table: PATH ALLOWED...
rules() {
	awk -F'|' '/^\| `src\/[^`]*` \|/ {
		path = $2; gsub(/[ `]/, "", path); sub(/\/$/, "", path)
		allowed = $(NF - 1); gsub(/,/, " ", allowed)
		print path, allowed
	}' "$1"
}

# violations ROOT — every include under ROOT/src that its row does not allow, as FILE:LINE: what.
violations() {
	rules "$1/doc/ARCHITECTURE.md" | while read -r path allowed; do
		self=${path#src/}
		[ -e "$1/$path" ] || { echo "$path: in the table but not in the tree"; continue; }
		grep -rHEn --include='*.c' --include='*.h' '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]' "$1/$path" |
			sed -E "s|^$1/||" | while IFS= read -r hit; do
			name=$(printf '%s\n' "$hit" | sed -E 's/^[^#]*#[[:space:]]*include[[:space:]]*[<"]([^">]*)[">].*/\1/')
			where=${hit%%:*}
			line=$(printf '%s\n' "$hit" | cut -d: -f2)
			case "$hit" in
			*'include "'*)
				module=${name%%/*}
				[ "$module" = "$name" ] && continue # a header beside the file
				[ -d "$1/src/$module" ] || continue # autoconf's config.h and the like
				[ "$module" = "$self" ] && continue
				what=$module ;;
			*) what=$(library_of "$name"); [ -n "$what" ] || continue ;;
			esac
			case " $allowed " in *" $what "*) ;; *) echo "$where:$line: includes $what ($name); its row allows: $allowed" ;; esac
		done
	done
}

rows=$(rules "$LT_SRCDIR/doc/ARCHITECTURE.md")
n_rows=$(printf '%s\n' "$rows" | grep -c .)
plan $((n_rows + 4))

cd "$LT_SRCDIR" || exit 1
modules=$(find src -mindepth 1 -maxdepth 1 -type d ! -name '.*' | sed 's|^src/||' | sort)

# Every module has a row, and every row names only modules and libraries that exist.
missing=""
for m in $modules; do printf '%s\n' "$rows" | grep -q "^src/$m " || missing="$missing $m"; done
is "every directory of src has a row in the module table" "$missing" ""
unknown=""
for word in $(printf '%s\n' "$rows" | cut -d' ' -f2-); do
	case " $modules $LIBRARIES " in *[[:space:]]"$word"[[:space:]]*) ;; *) unknown="$unknown $word" ;; esac
done
is "the table's last column names only modules and libraries ($LIBRARIES)" "$unknown" ""

# Each row's rule, seen failing: a planted file in a scratch tree includes one module and one library the
# row does not allow; the checker must name exactly those two includes.
printf '%s\n' "$rows" >"$LT_TMP/rows"
while read -r path allowed; do
	root="$LT_TMP/planted"
	rm -rf "$root" && mkdir -p "$root/doc" "$root/src"
	cp doc/ARCHITECTURE.md "$root/doc/"
	for m in $modules; do mkdir -p "$root/src/$m"; done
	for f in $(printf '%s\n' "$rows" | cut -d' ' -f1); do [ -d "$f" ] || : >"$root/$f"; done
	self=${path#src/}
	bad_module=$(for m in $modules; do case " $allowed $self " in *" $m "*) ;; *) echo "$m" ;; esac; done | head -n 1)
	bad_library=$(for l in $LIBRARIES; do case " $allowed libc " in *" $l "*) ;; *) echo "$l" ;; esac; done | head -n 1)
	if [ -d "$path" ]; then planted=$path/planted.c; else planted=$path; fi
	: >"$root/$planted"
	want=""
	n=0
	if [ -n "$bad_module" ]; then
		n=$((n + 1)) && printf '#include "%s/planted.h"\n' "$bad_module" >>"$root/$planted"
		want="$planted:$n: includes $bad_module"
	fi
	if [ -n "$bad_library" ]; then
		n=$((n + 1)) && printf '#include <%s>\n' "$(header_of "$bad_library")" >>"$root/$planted"
		want="$want${want:+ }$planted:$n: includes $bad_library"
	fi
	got=$(violations "$root" | sed -E 's/ \(.*//' | tr '\n' ' ' | sed 's/ $//')
	is "$path: the checker finds planted includes its row forbids" "$got" "$want"
done <"$LT_TMP/rows"

is "every include in src is one its row in doc/ARCHITECTURE.md allows" "$(violations "$LT_SRCDIR")" ""
is "no header of ours is named config.h (that name is autoconf's)" \
	"$(find src -name config.h; grep -rHEn --include='*.[ch]' '#[[:space:]]*include[[:space:]]*"config/config\.h' src)" ""
done_testing
