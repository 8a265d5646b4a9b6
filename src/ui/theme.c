/* theme.c — colour roles, theme files (libconfig), the theme list and glyph sets. No curses here:
 * theme_curses.c turns a parsed theme into colour pairs. */
#include "config.h"

#include "ui/theme.h"

#include <dirent.h>
#include <langinfo.h>
#include <libconfig.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/file_trust.h"
#include "util/xalloc.h"

static const char *const role_names[] = {
#define UI_ROLE_NAME(id, name, fg, bg, attrs, mono) [UI_ROLE_##id] = name,
	UI_ROLES(UI_ROLE_NAME)
#undef UI_ROLE_NAME
};

static const struct ui_style default_styles[] = {
#define UI_ROLE_DEF(id, name, fg, bg, attrs, mono) [UI_ROLE_##id] = { fg, bg, attrs },
	UI_ROLES(UI_ROLE_DEF)
#undef UI_ROLE_DEF
};

static const unsigned mono_attrs[] = {
#define UI_ROLE_MONO(id, name, fg, bg, attrs, mono) [UI_ROLE_##id] = mono,
	UI_ROLES(UI_ROLE_MONO)
#undef UI_ROLE_MONO
};

const char *role_name(ui_role r)
{
	return r < UI_ROLE__COUNT ? role_names[r] : "?";
}

void theme_builtin(struct ui_theme *t, bool mono)
{
	memset(t, 0, sizeof *t);
	snprintf(t->name, sizeof t->name, "%s", mono ? "mono" : "default");
	t->mono = mono;
	for (int r = 0; r < UI_ROLE__COUNT; r++) {
		t->style[r] = default_styles[r];
		if (mono)
			t->style[r] = (struct ui_style){ UI_C_DEFAULT, UI_C_DEFAULT, mono_attrs[r] };
	}
}

static const char *const colour_names[] = { "black", "red", "green", "yellow", "blue", "magenta", "cyan", "white" };

static int parse_colour(const config_setting_t *s, short *out)
{
	if (config_setting_type(s) == CONFIG_TYPE_INT) {
		int v = config_setting_get_int(s);
		if (v < -1 || v > 255)
			return -1;
		*out = (short)v;
		return 0;
	}
	if (config_setting_type(s) != CONFIG_TYPE_STRING)
		return -1;
	const char *name = config_setting_get_string(s);
	int bright = 0;
	if (strcasecmp(name, "default") == 0) {
		*out = UI_C_DEFAULT;
		return 0;
	}
	if (strncasecmp(name, "bright-", 7) == 0) {
		bright = 8;
		name += 7;
	}
	for (int i = 0; i < 8; i++)
		if (strcasecmp(name, colour_names[i]) == 0) {
			*out = (short)(i + bright);
			return 0;
		}
	return -1;
}

static const struct {
	const char *name;
	unsigned bit;
} attr_names[] = {
	{ "bold", UI_A_BOLD },
	{ "dim", UI_A_DIM },
	{ "reverse", UI_A_REVERSE },
	{ "underline", UI_A_UNDERLINE },
};

static int parse_attr(const char *name, unsigned *bits)
{
	for (size_t i = 0; i < sizeof attr_names / sizeof attr_names[0]; i++)
		if (strcasecmp(name, attr_names[i].name) == 0) {
			*bits |= attr_names[i].bit;
			return 0;
		}
	return -1;
}

static int role_by_name(const char *name)
{
	for (int r = 0; r < UI_ROLE__COUNT; r++)
		if (strcmp(role_names[r], name) == 0)
			return r;
	return -1;
}

static int bad(char *err, size_t errlen, const char *path, const config_setting_t *s, const char *what,
	       const char *name)
{
	snprintf(err, errlen, "theme %s:%d: %s '%s'", path, s ? config_setting_source_line(s) : 0, what, name);
	return -1;
}

static int parse_role(const char *path, config_setting_t *rs, struct ui_style *st, char *err, size_t errlen)
{
	const char *rname = config_setting_name(rs);
	if (!config_setting_is_group(rs))
		return bad(err, errlen, path, rs, "expected { fg = ...; bg = ...; attrs = [...]; } for role", rname);
	for (int i = 0; i < config_setting_length(rs); i++) {
		config_setting_t *f = config_setting_get_elem(rs, (unsigned)i);
		const char *key = config_setting_name(f);
		if (strcmp(key, "fg") == 0 || strcmp(key, "bg") == 0) {
			short c;
			if (parse_colour(f, &c) != 0) {
				char what[96];
				snprintf(what, sizeof what,
					 "bad colour for %s.%s (a name, default, bright-NAME or 0-255)", rname, key);
				const char *shown = config_setting_type(f) == CONFIG_TYPE_STRING
							    ? config_setting_get_string(f)
							    : "?";
				return bad(err, errlen, path, f, what, shown);
			}
			if (key[0] == 'f')
				st->fg = c;
			else
				st->bg = c;
		} else if (strcmp(key, "attrs") == 0) {
			if (!config_setting_is_array(f) && !config_setting_is_list(f))
				return bad(err, errlen, path, f, "expected a list of attributes for", rname);
			unsigned bits = 0;
			for (int j = 0; j < config_setting_length(f); j++) {
				const char *a = config_setting_get_string_elem(f, j);
				if (!a || parse_attr(a, &bits) != 0)
					return bad(err, errlen, path, f,
						   "unknown attribute (bold, dim, reverse, underline)", a ? a : "?");
			}
			st->attrs = bits;
		} else {
			return bad(err, errlen, path, f, "unknown field (fg, bg, attrs)", key);
		}
	}
	return 0;
}

int theme_parse_file(const char *path, struct ui_theme *t, char *err, size_t errlen)
{
	config_t cfg;
	int rc = -1;

	theme_builtin(t, false);
	config_init(&cfg);
	/* opened by lagtop, not libconfig: a FIFO named as a theme is refused, not waited on */
	struct stat st;
	char why[300];
	int fd = ft_open_read(path, 0, NULL, &st, why, sizeof why);
	if (fd < 0)
		snprintf(err, errlen, "theme: cannot read the file %s", why);
	FILE *fp = fd >= 0 ? fdopen(fd, "r") : NULL;
	if (fd >= 0 && !fp)
		close(fd);
	if (!fp || !config_read(&cfg, fp)) {
		if (fp && config_error_type(&cfg) == CONFIG_ERR_FILE_IO)
			snprintf(err, errlen, "theme %s: cannot read the file", path);
		else if (fp)
			snprintf(err, errlen, "theme %s:%d: %s", path, config_error_line(&cfg),
				 config_error_text(&cfg));
		else if (fd >= 0)
			snprintf(err, errlen, "theme %s: cannot read the file", path);
		if (fp)
			fclose(fp);
		goto out;
	}
	fclose(fp);
	config_setting_t *root = config_root_setting(&cfg);
	for (int i = 0; i < config_setting_length(root); i++) {
		config_setting_t *s = config_setting_get_elem(root, (unsigned)i);
		const char *key = config_setting_name(s);
		if (strcmp(key, "name") == 0) {
			if (config_setting_type(s) != CONFIG_TYPE_STRING) {
				bad(err, errlen, path, s, "expected a string for", "name");
				goto out;
			}
			snprintf(t->name, sizeof t->name, "%s", config_setting_get_string(s));
		} else if (strcmp(key, "roles") == 0) {
			if (!config_setting_is_group(s)) {
				bad(err, errlen, path, s, "expected a group { role = {...}; } for", "roles");
				goto out;
			}
			for (int j = 0; j < config_setting_length(s); j++) {
				config_setting_t *rs = config_setting_get_elem(s, (unsigned)j);
				int r = role_by_name(config_setting_name(rs));
				if (r < 0) {
					bad(err, errlen, path, rs, "unknown colour role", config_setting_name(rs));
					goto out;
				}
				if (parse_role(path, rs, &t->style[r], err, errlen) != 0)
					goto out;
			}
		} else {
			bad(err, errlen, path, s, "unknown setting (name, roles)", key);
			goto out;
		}
	}
	rc = 0;
out:
	config_destroy(&cfg);
	return rc;
}

/* ---- the theme list ---- */

static void list_put(struct ui_theme_list *l, const char *name, const char *path)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->e[i].name, name) == 0) {
			free(l->e[i].path);
			l->e[i].path = xstrdup(path);
			return;
		}
	l->e = xrealloc(l->e, (l->n + 1) * sizeof *l->e);
	l->e[l->n].name = xstrdup(name);
	l->e[l->n].path = xstrdup(path);
	l->n++;
}

static int rank(const char *name)
{
	static const char *const first[] = { "default", "light", "high-contrast" };
	for (int i = 0; i < 3; i++)
		if (strcmp(name, first[i]) == 0)
			return i;
	return strcmp(name, "mono") == 0 ? 4 : 3;
}

static int entry_cmp(const void *a, const void *b)
{
	const struct ui_theme_entry *x = a, *y = b;
	int rx = rank(x->name), ry = rank(y->name);
	return rx != ry ? rx - ry : strcmp(x->name, y->name);
}

void theme_list_scan(struct ui_theme_list *l, const char *const *dirs, size_t n_dirs)
{
	memset(l, 0, sizeof *l);
	list_put(l, "default", NULL);
	list_put(l, "mono", NULL);
	for (size_t d = 0; d < n_dirs; d++) {
		DIR *dir = dirs[d] ? opendir(dirs[d]) : NULL;
		if (!dir)
			continue;
		struct dirent *de;
		while ((de = readdir(dir)) != NULL) {
			size_t len = strlen(de->d_name);
			if (de->d_name[0] == '.' || len <= 5 || strcmp(de->d_name + len - 5, ".conf") != 0)
				continue;
			char *name = xstrndup(de->d_name, len - 5);
			char *path = xasprintf("%s/%s", dirs[d], de->d_name);
			list_put(l, name, path);
			free(name);
			free(path);
		}
		closedir(dir);
	}
	qsort(l->e, l->n, sizeof *l->e, entry_cmp);
}

void theme_list_free(struct ui_theme_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->e[i].name);
		free(l->e[i].path);
	}
	free(l->e);
	memset(l, 0, sizeof *l);
}

int theme_list_find(const struct ui_theme_list *l, const char *name)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->e[i].name, name) == 0)
			return (int)i;
	return -1;
}

int theme_list_load(const struct ui_theme_list *l, size_t i, struct ui_theme *t, char *err, size_t errlen)
{
	if (i >= l->n) {
		snprintf(err, errlen, "no theme number %zu", i);
		return -1;
	}
	if (!l->e[i].path) {
		theme_builtin(t, strcmp(l->e[i].name, "mono") == 0);
		return 0;
	}
	if (theme_parse_file(l->e[i].path, t, err, errlen) != 0)
		return -1;
	/* the list's name (from the file name) is what --theme and `t` use */
	snprintf(t->name, sizeof t->name, "%s", l->e[i].name);
	return 0;
}

size_t theme_dirs(char **dirs, size_t max)
{
	size_t n = 0;
	const char *env = getenv("LAGTOP_THEMES_DIR");
	const char *xdg = getenv("XDG_CONFIG_HOME");
	const char *home = getenv("HOME");

	/* next to the program: `./configure && make && ./lagtop` in the source tree finds themes/ */
	char exe[4096];
	ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (len > 0 && n < max) {
		exe[len] = '\0';
		char *slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			dirs[n++] = xasprintf("%s/themes", exe);
		}
	}
	if (n < max)
		dirs[n++] = xstrdup(PKGDATADIR "/themes");
	if (env && *env && n < max)
		dirs[n++] = xstrdup(env);
	if (xdg && *xdg && n < max)
		dirs[n++] = xasprintf("%s/lagtop/themes", xdg);
	else if (home && *home && n < max)
		dirs[n++] = xasprintf("%s/.config/lagtop/themes", home);
	return n;
}

/* ---- glyphs ---- */

static const struct ui_glyphs utf8_glyphs = {
	.spark = { "\u2581", "\u2582", "\u2583", "\u2584", "\u2585", "\u2586", "\u2587", "\u2588" },
	.sort_asc = "\u25b2",
	.sort_desc = "\u25bc",
	.ellipsis = "\u2026",
	.vbar = "\u2502",
	.ellipsis_width = 1,
};

static const struct ui_glyphs ascii_glyphs = {
	.spark = { "_", ".", "-", "~", "=", "+", "*", "#" },
	.sort_asc = "^",
	.sort_desc = "v",
	.ellipsis = "~",
	.vbar = "|",
	.ellipsis_width = 1,
};

const struct ui_glyphs *glyphs_get(bool ascii)
{
	return ascii ? &ascii_glyphs : &utf8_glyphs;
}

bool locale_is_utf8(void)
{
	const char *cs = nl_langinfo(CODESET);
	return cs && (strcasecmp(cs, "UTF-8") == 0 || strcasecmp(cs, "utf8") == 0);
}
