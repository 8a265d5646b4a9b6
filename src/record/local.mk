## src/record — recording files (doc/RECORDING.md): the snapshot codec (pure), the file writer with
## rotation and the reader with its index (POSIX files, zstd). No curses, no librdkafka.
liblagtop_a_SOURCES += \
	src/record/codec.c src/record/codec.h \
	src/record/file.c src/record/record.h \
	src/record/at.c

if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_record tests/unit/test_record_at
TESTS += tests/unit/test_record tests/unit/test_record_at
tests_unit_test_record_SOURCES = tests/unit/test_record.c
tests_unit_test_record_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_record_LDADD = $(UNIT_LDADD)
tests_unit_test_record_at_SOURCES = tests/unit/test_record_at.c
tests_unit_test_record_at_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_record_at_LDADD = $(UNIT_LDADD)
## recordings of versions 1 and 2 (earlier builds): refused with one line naming the version; one of
## version 3 an earlier build wrote: replayed exactly
EXTRA_DIST += tests/unit/data/record-v1.rec tests/unit/data/record-v2.rec tests/unit/data/record-v3.rec
endif
