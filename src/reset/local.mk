## src/reset — offset reset planning, pure C (no I/O, no clocks): targets, scope, clamping, CSV, the guard.
liblagtop_a_SOURCES += \
	src/reset/plan.c src/reset/plan.h \
	src/reset/csv.c src/reset/csv.h \
	src/reset/render.c src/reset/render.h

if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_reset_time tests/unit/test_reset_plan tests/unit/test_reset_csv
TESTS += tests/unit/test_reset_time tests/unit/test_reset_plan tests/unit/test_reset_csv
tests_unit_test_reset_time_SOURCES = tests/unit/test_reset_time.c
tests_unit_test_reset_time_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_reset_time_LDADD = $(UNIT_LDADD)
tests_unit_test_reset_plan_SOURCES = tests/unit/test_reset_plan.c
tests_unit_test_reset_plan_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_reset_plan_LDADD = $(UNIT_LDADD)
tests_unit_test_reset_csv_SOURCES = tests/unit/test_reset_csv.c
tests_unit_test_reset_csv_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_reset_csv_LDADD = $(UNIT_LDADD)
endif
