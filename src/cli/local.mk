## src/cli — the command line: option table and the non-interactive modes (--once, resets).
liblagtop_a_SOURCES += \
	src/cli/options.c src/cli/options.h src/cli/modes.h \
	src/cli/target.c src/cli/target.h \
	src/cli/output.c src/cli/output.h \
	src/cli/once.c \
	src/cli/pending.c \
	src/cli/reset_cmd.c
