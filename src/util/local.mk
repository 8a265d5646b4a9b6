## src/util — small helpers shared by every module (no librdkafka, no curses).
liblagtop_a_SOURCES += \
	src/util/xalloc.c src/util/xalloc.h \
	src/util/exit_status.h \
	src/util/utf8.c src/util/utf8.h \
	src/util/sanitize.c src/util/sanitize.h \
	src/util/json.c src/util/json.h \
	src/util/csv.c src/util/csv.h \
	src/util/regex.c src/util/regex.h \
	src/util/timeutil.c src/util/timeutil.h \
	src/util/errbuf.c src/util/errbuf.h \
	src/util/prom.c src/util/prom.h \
	src/util/crc32c.c src/util/crc32c.h \
	src/util/file_trust.c src/util/file_trust.h \
	src/util/strbuf.c src/util/strbuf.h \
	src/util/timeparse.c src/util/timeparse.h \
	src/util/strv.c src/util/strv.h \
	src/util/fileio.c src/util/fileio.h \
	src/util/wrap.c src/util/wrap.h

if HAVE_CMOCKA
UTIL_UNIT_TESTS = tests/unit/test_util_sanitize tests/unit/test_util_json tests/unit/test_util_csv \
	tests/unit/test_util_timeutil tests/unit/test_util_prom tests/unit/test_file_trust tests/unit/test_util_wrap
check_PROGRAMS += $(UTIL_UNIT_TESTS)
TESTS += $(UTIL_UNIT_TESTS)
tests_unit_test_util_sanitize_SOURCES = tests/unit/test_util_sanitize.c
tests_unit_test_util_sanitize_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_util_sanitize_LDADD = $(UNIT_LDADD)
tests_unit_test_util_json_SOURCES = tests/unit/test_util_json.c
tests_unit_test_util_json_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_util_json_LDADD = $(UNIT_LDADD)
tests_unit_test_util_csv_SOURCES = tests/unit/test_util_csv.c
tests_unit_test_util_csv_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_util_csv_LDADD = $(UNIT_LDADD)
tests_unit_test_util_timeutil_SOURCES = tests/unit/test_util_timeutil.c
tests_unit_test_util_timeutil_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_util_timeutil_LDADD = $(UNIT_LDADD)
tests_unit_test_util_prom_SOURCES = tests/unit/test_util_prom.c
tests_unit_test_util_prom_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_util_prom_LDADD = $(UNIT_LDADD)
## the one word-wrapper: blanks and break characters, long words, exact fits, UTF-8 and ASCII mode, any locale
tests_unit_test_util_wrap_SOURCES = tests/unit/test_util_wrap.c
tests_unit_test_util_wrap_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_util_wrap_LDADD = $(UNIT_LDADD)
## the owner and mode rule, FIFOs, state directories; recordings' mode and a decompression bomb
tests_unit_test_file_trust_SOURCES = tests/unit/test_file_trust.c
tests_unit_test_file_trust_CFLAGS = $(UNIT_CFLAGS) $(ZSTD_CFLAGS)
tests_unit_test_file_trust_LDADD = $(UNIT_LDADD) $(ZSTD_LIBS)
endif
