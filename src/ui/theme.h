/* theme.h — colour roles, themes (libconfig files) and glyph sets.
 *
 * Every colour on the screen is a role (UI_ROLES below, one X-macro list: name, the built-in dark
 * theme's colours and attributes, and the monochrome attributes). A theme file names roles and gives
 * each fg/bg/attrs; roles it leaves out keep the built-in default. Parsing is plain C (libconfig);
 * only theme_apply() touches curses.
 *
 *   # themes/light.conf
 *   name = "light";
 *   roles = {
 *     header = { fg = "white"; bg = "blue"; attrs = [ "bold" ]; };
 *     status-stop = { fg = "red"; attrs = [ "bold", "underline" ]; };
 *   };
 *
 * Colours: default, black, red, green, yellow, blue, magenta, cyan, white, bright-<colour>, or a
 * number 0-255. Attributes: bold, dim, reverse, underline.
 */
#ifndef LAGTOP_UI_THEME_H
#define LAGTOP_UI_THEME_H

#include <stdbool.h>
#include <stddef.h>

enum { UI_A_BOLD = 1, UI_A_DIM = 2, UI_A_REVERSE = 4, UI_A_UNDERLINE = 8 };
enum {
	UI_C_DEFAULT = -1,
	UI_C_BLACK = 0,
	UI_C_RED,
	UI_C_GREEN,
	UI_C_YELLOW,
	UI_C_BLUE,
	UI_C_MAGENTA,
	UI_C_CYAN,
	UI_C_WHITE
};

/* clang-format off */
/*        id                name                fg             bg            attrs          monochrome attrs */
#define UI_ROLES(X)                                                                                             \
	X(NORMAL,           "normal",           UI_C_DEFAULT, UI_C_DEFAULT, 0,            0)                    \
	X(TOP_BAR,          "top-bar",          UI_C_BLACK,   UI_C_CYAN,    0,            UI_A_REVERSE)         \
	X(TOP_BAR_ALERT,    "top-bar-alert",    UI_C_WHITE,   UI_C_RED,     UI_A_BOLD,    UI_A_BOLD)            \
	X(KEY_BAR_KEY,      "key-bar-key",      UI_C_WHITE,   UI_C_DEFAULT, UI_A_BOLD,    UI_A_BOLD)            \
	X(KEY_BAR_LABEL,    "key-bar-label",    UI_C_BLACK,   UI_C_CYAN,    0,            UI_A_REVERSE)         \
	X(PANE_TITLE,       "pane-title",       UI_C_CYAN,    UI_C_DEFAULT, UI_A_BOLD,    UI_A_BOLD)            \
	X(HEADER,           "header",           UI_C_BLACK,   UI_C_GREEN,   0,            UI_A_REVERSE)         \
	X(HEADER_SORT,      "header-sort",      UI_C_BLACK,   UI_C_CYAN,    UI_A_BOLD,    UI_A_BOLD)            \
	X(CURSOR,           "cursor",           UI_C_BLACK,   UI_C_CYAN,    0,            UI_A_REVERSE)         \
	X(CURSOR_UNFOCUSED, "cursor-unfocused", UI_C_BLACK,   UI_C_WHITE,   0,            UI_A_UNDERLINE)       \
	X(STATUS_UNKNOWN,   "status-unknown",   UI_C_DEFAULT, UI_C_DEFAULT, 0,            0)                    \
	X(STATUS_OK,        "status-ok",        UI_C_GREEN,   UI_C_DEFAULT, 0,            0)                    \
	X(STATUS_WARN,      "status-warn",      UI_C_YELLOW,  UI_C_DEFAULT, 0,            UI_A_BOLD)            \
	X(STATUS_REWIND,    "status-rewind",    UI_C_MAGENTA, UI_C_DEFAULT, 0,            UI_A_BOLD)            \
	X(STATUS_STALL,     "status-stall",     UI_C_RED,     UI_C_DEFAULT, 0,            UI_A_BOLD)            \
	X(STATUS_STOP,      "status-stop",      UI_C_RED,     UI_C_DEFAULT, UI_A_BOLD,    UI_A_BOLD | UI_A_UNDERLINE) \
	X(STALE,            "stale",            UI_C_DEFAULT, UI_C_DEFAULT, UI_A_DIM,     UI_A_DIM)             \
	X(FILTER,           "filter",           UI_C_YELLOW,  UI_C_DEFAULT, UI_A_BOLD,    UI_A_BOLD)            \
	X(MESSAGE,          "message",          UI_C_YELLOW,  UI_C_DEFAULT, 0,            UI_A_BOLD)            \
	X(POPUP,            "popup",            UI_C_WHITE,   UI_C_BLUE,    0,            0)                    \
	X(POPUP_TITLE,      "popup-title",      UI_C_YELLOW,  UI_C_BLUE,    UI_A_BOLD,    UI_A_BOLD | UI_A_REVERSE) \
	X(SPARKLINE,        "sparkline",        UI_C_CYAN,    UI_C_DEFAULT, 0,            0)
/* clang-format on */

typedef enum {
#define UI_ROLE_ENUM(id, name, fg, bg, attrs, mono) UI_ROLE_##id,
	UI_ROLES(UI_ROLE_ENUM)
#undef UI_ROLE_ENUM
		UI_ROLE__COUNT
} ui_role;

struct ui_style {
	short fg, bg;   /* UI_C_* or 0-255 */
	unsigned attrs; /* UI_A_* */
};

struct ui_theme {
	char name[64];
	bool mono; /* attributes only, no colours */
	struct ui_style style[UI_ROLE__COUNT];
};

const char *role_name(ui_role r);

/* The built-in themes: "default" (dark) and "mono". */
void theme_builtin(struct ui_theme *t, bool mono);

/* Reads a theme file over the built-in default. -1 with a one-line error naming the file, line and
 * what was wrong (unknown role, colour or attribute, syntax error). */
int theme_parse_file(const char *path, struct ui_theme *t, char *err, size_t errlen);

/* The themes one can switch between: built-ins plus *.conf files from the directories given (later
 * directories override earlier ones by name). Order: default, light, high-contrast, the others by
 * name, mono last. */
struct ui_theme_list {
	size_t n;
	struct ui_theme_entry {
		char *name;
		char *path; /* NULL: built-in */
	} * e;
};
void theme_list_scan(struct ui_theme_list *l, const char *const *dirs, size_t n_dirs);
void theme_list_free(struct ui_theme_list *l);
/* Index of a theme by name, -1 if none. */
int theme_list_find(const struct ui_theme_list *l, const char *name);
/* Loads entry i into t (built-in or file). */
int theme_list_load(const struct ui_theme_list *l, size_t i, struct ui_theme *t, char *err, size_t errlen);

/* The directories searched, in override order: themes/ next to the program (a build in the source
 * tree), pkgdatadir/themes, $LAGTOP_THEMES_DIR, then the user's $XDG_CONFIG_HOME/lagtop/themes (or
 * ~/.config/lagtop/themes). Returns how many were written (strings owned by the caller). */
size_t theme_dirs(char **dirs, size_t max);

/* Glyphs: UTF-8 or ASCII. */
struct ui_glyphs {
	const char *spark[8]; /* lowest to highest */
	const char *sort_asc, *sort_desc;
	const char *ellipsis;
	const char *vbar;
	int ellipsis_width;
};
const struct ui_glyphs *glyphs_get(bool ascii);
/* True when the current locale's character set is UTF-8 (nl_langinfo(CODESET)). */
bool locale_is_utf8(void);

/* Curses side (theme_curses.c): installs the colour pairs and fills the attribute per role.
 * With color false (no colours, NO_COLOR, --no-color) the theme's monochrome attributes are used. */
void theme_apply(const struct ui_theme *t, bool color);
/* The curses attribute of a role after theme_apply (an attr_t, as unsigned long). */
unsigned long theme_attr(ui_role r);

#endif
