## src/model — pure C: snapshot, history rings, lag, rates, time lag, status, columns, sort, filter.
## No I/O, no librdkafka, no curses.
liblagtop_a_SOURCES += \
	src/model/snapshot.c src/model/snapshot.h \
	src/model/group_view.c src/model/group_view.h \
	src/model/model.h src/model/model_int.h \
	src/model/history.c src/model/lag.c src/model/rates.c src/model/timelag.c \
	src/model/status.c src/model/enrich.c \
	src/model/columns.h src/model/colkey.h src/model/columns.c src/model/colset.c src/model/rows.c \
	src/model/filter.c src/model/format.c \
	src/model/topic_view.h src/model/topic_view.c src/model/markset.h src/model/markset.c \
	src/model/peek.h src/model/peek.c src/model/record_ts.h src/model/record_ts.c

if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_model_lag tests/unit/test_model_history tests/unit/test_model_columns \
	tests/unit/test_group_view tests/unit/test_topic_view tests/unit/test_markset tests/unit/test_peek
TESTS += tests/unit/test_model_lag tests/unit/test_model_history tests/unit/test_model_columns \
	tests/unit/test_group_view tests/unit/test_topic_view tests/unit/test_markset tests/unit/test_peek
tests_unit_test_model_lag_SOURCES = tests/unit/test_model_lag.c
tests_unit_test_model_lag_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_model_lag_LDADD = $(UNIT_LDADD)
tests_unit_test_model_history_SOURCES = tests/unit/test_model_history.c
tests_unit_test_model_history_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_model_history_LDADD = $(UNIT_LDADD)
tests_unit_test_model_columns_SOURCES = tests/unit/test_model_columns.c
tests_unit_test_model_columns_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_model_columns_LDADD = $(UNIT_LDADD)
tests_unit_test_group_view_SOURCES = tests/unit/test_group_view.c
tests_unit_test_group_view_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_group_view_LDADD = $(UNIT_LDADD)
tests_unit_test_topic_view_SOURCES = tests/unit/test_topic_view.c
tests_unit_test_topic_view_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_topic_view_LDADD = $(UNIT_LDADD)
tests_unit_test_markset_SOURCES = tests/unit/test_markset.c
tests_unit_test_markset_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_markset_LDADD = $(UNIT_LDADD)
tests_unit_test_peek_SOURCES = tests/unit/test_peek.c
tests_unit_test_peek_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_peek_LDADD = $(UNIT_LDADD)
endif
