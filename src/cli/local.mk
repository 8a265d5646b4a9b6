## src/cli — the command line: option table, the one place it is combined with the configuration file
## (target.c), and every mode (--once, resets, deletes, -X, the dashboard on a live or simulated cluster).
liblagtop_a_SOURCES += \
	src/cli/options.c src/cli/options.h src/cli/modes.h \
	src/cli/target.c src/cli/target.h \
	src/cli/xmodes.c \
	src/cli/dashboard.c src/cli/demo.c \
	src/cli/output.c src/cli/output.h \
	src/cli/output_prom.c \
	src/cli/once.c src/cli/unread.c src/cli/unread.h \
	src/cli/kcg.c src/cli/kcg.h \
	src/cli/reset_cmd.c src/cli/cmd_common.h \
	src/cli/delete_cmd.c src/cli/peek_cmd.c \
	src/cli/record_cmd.c src/cli/replay.c src/cli/replay_once.c

if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_output
TESTS += tests/unit/test_output
tests_unit_test_output_SOURCES = tests/unit/test_output.c
tests_unit_test_output_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_output_LDADD = $(UNIT_LDADD)
check_PROGRAMS += tests/unit/test_output_monitoring
TESTS += tests/unit/test_output_monitoring
tests_unit_test_output_monitoring_SOURCES = tests/unit/test_output_monitoring.c
tests_unit_test_output_monitoring_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_output_monitoring_LDADD = $(UNIT_LDADD)
endif

TESTS += tests/integration/test_once_errors.sh
EXTRA_DIST += tests/integration/test_once_errors.sh
TESTS += tests/integration/test_once_sim.py
EXTRA_DIST += tests/integration/test_once_sim.py
TESTS += tests/integration/test_timelag_sim.py
EXTRA_DIST += tests/integration/test_timelag_sim.py
TESTS += tests/integration/test_peek_sim.py
EXTRA_DIST += tests/integration/test_peek_sim.py

## monitoring: Prometheus output against the JSON of the same refresh, status honesty, --fail-on
check_PROGRAMS += tests/integration/once_formats
tests_integration_once_formats_SOURCES = tests/integration/once_formats.c
tests_integration_once_formats_LDADD = $(LT_LIBS)
TESTS += tests/integration/test_once_monitoring.py
EXTRA_DIST += tests/integration/test_once_monitoring.py

TESTS += tests/integration/test_reset_cli_errors.sh
EXTRA_DIST += tests/integration/test_reset_cli_errors.sh

## --delete / --delete-offsets on the sim: guard, backup first, audit, partial failure, undo, usage errors
TESTS += tests/integration/test_delete_sim.py
EXTRA_DIST += tests/integration/test_delete_sim.py

## the configuration file and the command line combined (target.c), and the connection type
if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_target
TESTS += tests/unit/test_target
tests_unit_test_target_SOURCES = tests/unit/test_target.c
tests_unit_test_target_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_target_LDADD = $(UNIT_LDADD)
endif
## --record --headless and --replay --once on the sim: each replayed moment equals the JSON printed when it was recorded
TESTS += tests/integration/test_record_sim.py
EXTRA_DIST += tests/integration/test_record_sim.py
