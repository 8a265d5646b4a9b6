## src/ui — the dashboard. The only module that includes curses (and only in tui.c, screen.c, keys.c, mouse.c,
## theme_curses.c, term_check.c, input.c, filter_ui.c, clusters_ui.c, draw_bench.c, and reset_dialog.c for its key codes); layout.c and theme.c are plain C so they are unit
## tested without a terminal.
liblagtop_a_SOURCES += \
	src/ui/ui.h src/ui/tui.h src/ui/tui.c src/ui/input.c \
	src/ui/list_state.c src/ui/ui_state.c src/ui/filter_ui.c src/ui/clusters_ui.c src/ui/columns_ui.c src/ui/draw_bench.c \
	src/ui/source.h src/ui/source_fixed.c src/ui/source_collector.c \
	src/ui/source_record.c src/ui/source_replay.c src/ui/replay.h src/ui/replay_keys.c \
	src/ui/screen.c \
	src/ui/keys.h src/ui/keys.c src/ui/peek_ui.c \
	src/ui/reset_dialog.h src/ui/reset_dialog.c src/ui/reset_worker.h src/ui/reset_worker.c src/ui/reset_ui.c \
	src/ui/layout.h src/ui/layout.c \
	src/ui/theme.h src/ui/theme.c src/ui/theme_curses.c \
	src/ui/term_check.c \
	src/ui/topic_ui.c src/ui/marks_ui.c src/ui/mouse.c

if HAVE_CMOCKA
UI_UNIT_TESTS = tests/unit/test_ui_layout tests/unit/test_ui_keys tests/unit/test_ui_theme tests/unit/test_ui_state \
	tests/unit/test_ui_reset tests/unit/test_ui_draw
check_PROGRAMS += $(UI_UNIT_TESTS)
TESTS += $(UI_UNIT_TESTS)
tests_unit_test_ui_layout_SOURCES = tests/unit/test_ui_layout.c
tests_unit_test_ui_layout_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_ui_layout_LDADD = $(UNIT_LDADD)
tests_unit_test_ui_keys_SOURCES = tests/unit/test_ui_keys.c
tests_unit_test_ui_keys_CFLAGS = $(UNIT_CFLAGS) $(CURSES_CFLAGS)
tests_unit_test_ui_keys_LDADD = $(UNIT_LDADD)
tests_unit_test_ui_theme_SOURCES = tests/unit/test_ui_theme.c
tests_unit_test_ui_theme_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_ui_theme_LDADD = $(UNIT_LDADD)
tests_unit_test_ui_state_SOURCES = tests/unit/test_ui_state.c
tests_unit_test_ui_state_CFLAGS = $(UNIT_CFLAGS) $(CURSES_CFLAGS)
tests_unit_test_ui_state_LDADD = $(UNIT_LDADD)
tests_unit_test_ui_reset_SOURCES = tests/unit/test_ui_reset.c
tests_unit_test_ui_reset_CFLAGS = $(UNIT_CFLAGS) $(CURSES_CFLAGS)
tests_unit_test_ui_reset_LDADD = $(UNIT_LDADD)
tests_unit_test_ui_draw_SOURCES = tests/unit/test_ui_draw.c
tests_unit_test_ui_draw_CFLAGS = $(UNIT_CFLAGS) $(CURSES_CFLAGS)
tests_unit_test_ui_draw_LDADD = $(UNIT_LDADD)
endif

## The terminal tests: the real binary inside a private tmux server, against tui_fixture (a
## simulated cluster with a fixed picture).
check_PROGRAMS += tests/tui/tui_fixture
tests_tui_tui_fixture_SOURCES = tests/tui/tui_fixture.c
tests_tui_tui_fixture_LDADD = $(LT_LIBS)
TUI_TESTS = tests/tui/test_dashboard.sh tests/tui/test_terminal.sh tests/tui/test_frozen.sh \
	tests/tui/test_clusters.sh tests/tui/test_errors.sh tests/tui/test_demo.sh tests/tui/test_reset.sh \
	tests/tui/test_reset_async.sh tests/tui/test_reset_wrap.sh
## D: deletes behind the reset dialog's guard, preview and typed confirmation
TUI_TESTS += tests/tui/test_delete.sh
## the topic view, marks, the mouse and htop's function keys
TUI_TESTS += tests/tui/test_views.sh
## 80x24: sorting by the columns on screen, scrolling after a resize
TUI_TESTS += tests/tui/test_fit.sh
## 80x24: POSITION beside COMMITTED and LOG-END; the column setup (F2) saved to the file; the sort chooser (F6)
TUI_TESTS += tests/tui/test_columns.sh
## --replay FILE: the dashboard on a recording, its keys; --record with the dashboard
TUI_TESTS += tests/tui/test_replay.sh
## what a refresh could not read: the top bar's count and the e popup's causes
TUI_TESTS += tests/tui/test_unread_tui.sh
TUI_TESTS += tests/tui/test_stale_tui.sh
TUI_TESTS += tests/tui/test_reset_80.sh
## v: the record popup (a hostile record on the sim)
TUI_TESTS += tests/tui/test_peek.sh
TESTS += $(TUI_TESTS)
EXTRA_DIST += $(TUI_TESTS)

## Offscreen draw benchmark (not run by make check): bench/bench_ui_draw [ROWS [COLS LINES [FRAMES]]]
noinst_PROGRAMS += bench/bench_ui_draw
bench_bench_ui_draw_SOURCES = bench/bench_ui_draw.c
bench_bench_ui_draw_LDADD = $(LT_LIBS)
