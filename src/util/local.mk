## src/util — small helpers shared by every module (no librdkafka, no curses).
liblagtop_a_SOURCES += \
	src/util/xalloc.c src/util/xalloc.h
