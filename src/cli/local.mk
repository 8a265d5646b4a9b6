## src/cli — the command line: option table and the non-interactive modes (--once, resets).
liblagtop_a_SOURCES += \
	src/cli/options.c src/cli/options.h src/cli/modes.h \
	src/cli/target.c src/cli/target.h \
	src/cli/output.c src/cli/output.h \
	src/cli/once.c \
	src/cli/kcg.c src/cli/kcg.h \
	src/cli/reset_cmd.c

if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_output
TESTS += tests/unit/test_output
tests_unit_test_output_SOURCES = tests/unit/test_output.c
tests_unit_test_output_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_output_LDADD = $(UNIT_LDADD)
endif

TESTS += tests/integration/test_once_errors.sh
EXTRA_DIST += tests/integration/test_once_errors.sh
TESTS += tests/integration/test_once_sim.py
EXTRA_DIST += tests/integration/test_once_sim.py

TESTS += tests/integration/test_reset_cli_errors.sh
EXTRA_DIST += tests/integration/test_reset_cli_errors.sh
