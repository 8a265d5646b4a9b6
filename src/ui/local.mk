## src/ui — the dashboard. The only module that includes curses (tui.c, screen.c, keys.c,
## theme_curses.c); layout.c and theme.c are plain C so they are unit tested without a terminal.
## (The loop, screen and keys are wired into the build once the model's columns land.)
liblagtop_a_SOURCES += \
	src/ui/layout.h src/ui/layout.c \
	src/ui/theme.h src/ui/theme.c src/ui/theme_curses.c

if HAVE_CMOCKA
UI_UNIT_TESTS = tests/unit/test_ui_layout tests/unit/test_ui_theme
check_PROGRAMS += $(UI_UNIT_TESTS)
TESTS += $(UI_UNIT_TESTS)
tests_unit_test_ui_layout_SOURCES = tests/unit/test_ui_layout.c
tests_unit_test_ui_layout_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_ui_layout_LDADD = $(UNIT_LDADD)
tests_unit_test_ui_theme_SOURCES = tests/unit/test_ui_theme.c
tests_unit_test_ui_theme_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_ui_theme_LDADD = $(UNIT_LDADD)
endif

## The terminal tests' cluster: a simulated cluster with a fixed picture (tests/tui/tui_fixture.c).
check_PROGRAMS += tests/tui/tui_fixture
tests_tui_tui_fixture_SOURCES = tests/tui/tui_fixture.c
tests_tui_tui_fixture_LDADD = $(LT_LIBS)
