## src/model — pure C: snapshot, history rings, lag, rates, time lag, status, columns, sort, filter.
## No I/O, no librdkafka, no curses.
liblagtop_a_SOURCES += \
	src/model/snapshot.c src/model/snapshot.h
