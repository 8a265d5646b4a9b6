## src/record — recording files (doc/RECORDING.md): the snapshot codec (pure), the file writer with
## rotation and the reader with its index (POSIX files, zstd). No curses, no librdkafka.
liblagtop_a_SOURCES += \
	src/record/codec.c src/record/codec.h \
	src/record/rangecoder.c src/record/rangecoder.h \
	src/record/file.c src/record/record.h \
	src/record/at.c

if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_record
TESTS += tests/unit/test_record
tests_unit_test_record_SOURCES = tests/unit/test_record.c
tests_unit_test_record_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_record_LDADD = $(UNIT_LDADD)
## a version 1 recording made before version 2 (tests/unit/test_record.c, reads_version_1)
EXTRA_DIST += tests/unit/data/record-v1.rec
## the range coder of version 2's residual columns
check_PROGRAMS += tests/unit/test_rangecoder
TESTS += tests/unit/test_rangecoder
tests_unit_test_rangecoder_SOURCES = tests/unit/test_rangecoder.c
tests_unit_test_rangecoder_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_rangecoder_LDADD = $(UNIT_LDADD)
endif
