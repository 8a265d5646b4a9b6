/* save_columns.c — writes the dashboard's column choices (F2) into the configuration file: the root group
 * `panes` is replaced as text, so every other line of the file (comments, order, spacing) stays as the user
 * wrote it, and the result is read back and compared with the original before it replaces the file
 * (config_save_columns, config_file.h). */
#include "config/config_file.h"

#include <errno.h>
#include <fcntl.h>
#include <libconfig.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/errbuf.h"
#include "util/fileio.h"
#include "util/xalloc.h"

#define MAX_FILE (1024 * 1024) /* as the loader's limit */

/* ---- finding the root-level `panes = { ... };` in the text ---- */

/* Skips a comment or string starting at p; returns where it ends, or p when none starts there. */
static const char *skip_comment_or_string(const char *p)
{
	if (*p == '#' || (p[0] == '/' && p[1] == '/'))
		return p + strcspn(p, "\n");
	if (p[0] == '/' && p[1] == '*') {
		const char *e = strstr(p + 2, "*/");
		return e ? e + 2 : p + strlen(p);
	}
	if (*p == '"') {
		for (p++; *p && *p != '"'; p++)
			if (*p == '\\' && p[1])
				p++;
		return *p ? p + 1 : p;
	}
	return p;
}

static bool name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
	       c == '*';
}

/* The span [*start, *end) of the root setting `panes` through its closing ';' (and the line's end), if any. */
static bool find_panes(const char *text, size_t *start, size_t *end)
{
	int depth = 0;
	bool in_panes = false, opened = false;
	for (const char *p = text; *p;) {
		const char *q = skip_comment_or_string(p);
		if (q != p) {
			p = q;
			continue;
		}
		if (!in_panes && depth == 0 && strncmp(p, "panes", 5) == 0 && !name_char(p[5]) &&
		    (p == text || !name_char(p[-1]))) {
			in_panes = true;
			opened = false;
			const char *line = p;
			while (line > text && (line[-1] == ' ' || line[-1] == '\t'))
				line--;
			*start = (size_t)(line - text);
			p += 5;
			continue;
		}
		if (*p == '{' || *p == '[' || *p == '(') {
			depth++;
			opened = true;
		} else if (*p == '}' || *p == ']' || *p == ')') {
			depth--;
		}
		p++;
		if (in_panes && opened && depth == 0) {
			p += strspn(p, " \t");
			if (*p == ';' || *p == ',')
				p++;
			p += strspn(p, " \t");
			if (*p == '\n')
				p++;
			*end = (size_t)(p - text);
			return true;
		}
	}
	return false;
}

/* ---- the new group ---- */

static char *panes_block(const lt_colset sets[LT_ROW_KINDS])
{
	char *out = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&out, &len);
	bool any = false;
	for (unsigned k = 0; k < LT_ROW_KINDS; k++) {
		lt_colset def;
		colset_default((lt_row_kind)k, &def);
		if (colset_equal(&sets[k], &def))
			continue;
		if (!any)
			fputs("panes = {\n    # the dashboard's columns (F2): each pane's shown columns in order; "
			      "lagtop "
			      "rewrites this group\n",
			      m);
		any = true;
		const char *names[LT_COL__COUNT];
		size_t n = colset_names(&sets[k], names, LT_COL__COUNT);
		fprintf(m, "    %s = { columns = [ ", row_kind_name((lt_row_kind)k));
		for (size_t i = 0; i < n; i++)
			fprintf(m, "%s\"%s\"", i ? ", " : "", names[i]);
		fputs(" ]; };\n", m);
	}
	if (any)
		fputs("};\n", m);
	fclose(m);
	return out;
}

/* ---- reading back ---- */

static bool parse(config_t *cf, const char *text)
{
	config_init(cf);
	locale_t c_loc = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
	locale_t old_loc = c_loc ? uselocale(c_loc) : (locale_t)0;
	int ok = config_read_string(cf, text);
	if (c_loc) {
		uselocale(old_loc);
		freelocale(c_loc);
	}
	return ok == CONFIG_TRUE;
}

static bool same_setting(const config_setting_t *a, const config_setting_t *b);

static bool same_children(const config_setting_t *a, const config_setting_t *b, bool skip_panes)
{
	int na = config_setting_length(a), nb = config_setting_length(b);
	int ia = 0, ib = 0;
	for (;;) {
		while (skip_panes && ia < na &&
		       strcmp(config_setting_name(config_setting_get_elem(a, (unsigned)ia)), "panes") == 0)
			ia++;
		while (skip_panes && ib < nb &&
		       strcmp(config_setting_name(config_setting_get_elem(b, (unsigned)ib)), "panes") == 0)
			ib++;
		if (ia == na || ib == nb)
			return ia == na && ib == nb;
		if (!same_setting(config_setting_get_elem(a, (unsigned)ia++),
				  config_setting_get_elem(b, (unsigned)ib++)))
			return false;
	}
}

static bool same_setting(const config_setting_t *a, const config_setting_t *b)
{
	const char *na = config_setting_name(a), *nb = config_setting_name(b);
	if (config_setting_type(a) != config_setting_type(b) || (na || nb) != (na && nb) || (na && strcmp(na, nb)))
		return false;
	switch (config_setting_type(a)) {
	case CONFIG_TYPE_GROUP:
	case CONFIG_TYPE_ARRAY:
	case CONFIG_TYPE_LIST: return same_children(a, b, false);
	case CONFIG_TYPE_INT:
	case CONFIG_TYPE_INT64: return config_setting_get_int64(a) == config_setting_get_int64(b);
	case CONFIG_TYPE_FLOAT: return config_setting_get_float(a) == config_setting_get_float(b);
	case CONFIG_TYPE_BOOL: return config_setting_get_bool(a) == config_setting_get_bool(b);
	case CONFIG_TYPE_STRING: return strcmp(config_setting_get_string(a), config_setting_get_string(b)) == 0;
	default: return true;
	}
}

char *config_splice_columns(const char *text, const lt_colset sets[LT_ROW_KINDS], char *err, size_t errlen)
{
	if (strstr(text, "@include")) {
		err_set(err, errlen, "it uses @include (edit panes by hand there)");
		return NULL;
	}
	config_t before, after;
	if (!parse(&before, text)) {
		err_set(err, errlen, "line %d: %s", config_error_line(&before), config_error_text(&before));
		config_destroy(&before);
		return NULL;
	}
	size_t start = strlen(text), end = start;
	bool had = find_panes(text, &start, &end);
	char *block = panes_block(sets);
	char *out;
	if (had)
		out = xasprintf("%.*s%s%s", (int)start, text, block, text + end);
	else
		out = xasprintf("%s%s%s", text, *text && text[strlen(text) - 1] != '\n' && *block ? "\n" : "", block);
	free(block);
	/* the new text must read back exactly as the old outside `panes` */
	bool ok = parse(&after, out);
	if (!ok)
		err_set(err, errlen, "the rewritten file would not read back (line %d: %s)", config_error_line(&after),
			config_error_text(&after));
	else if (!same_children(config_root_setting(&before), config_root_setting(&after), true)) {
		err_set(err, errlen, "the rewritten file would read differently outside panes");
		ok = false;
	}
	config_destroy(&before);
	config_destroy(&after);
	if (!ok) {
		free(out);
		return NULL;
	}
	return out;
}

/* ---- the file ---- */

static char *read_small(int fd, char *err, size_t errlen)
{
	char *buf = xmalloc(MAX_FILE + 1);
	size_t n = 0;
	for (;;) {
		ssize_t r = read(fd, buf + n, MAX_FILE + 1 - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			err_set(err, errlen, "cannot read it: %s", strerror(errno));
			free(buf);
			return NULL;
		}
		if (r == 0)
			break;
		n += (size_t)r;
		if (n > MAX_FILE) {
			err_set(err, errlen, "it is over 1 MiB");
			free(buf);
			return NULL;
		}
	}
	buf[n] = '\0';
	if (strlen(buf) != n) {
		err_set(err, errlen, "it holds a NUL byte");
		free(buf);
		return NULL;
	}
	return buf;
}

/* Writes text beside path and renames it over path, with mode. */
static int replace_file(const char *path, const char *text, mode_t mode, char *err, size_t errlen)
{
	char *tmp = xasprintf("%s.tmp-XXXXXX", path);
	int fd = mkstemp(tmp);
	if (fd < 0) {
		err_set(err, errlen, "cannot write beside it: %s", strerror(errno));
		free(tmp);
		return -1;
	}
	int rc = 0;
	if (fchmod(fd, mode & 07777) != 0 || fd_write_all(fd, text, strlen(text)) != 0 || fsync(fd) != 0) {
		err_set(err, errlen, "cannot write %s: %s", tmp, strerror(errno));
		rc = -1;
	}
	if (close(fd) != 0 && rc == 0) {
		err_set(err, errlen, "cannot write %s: %s", tmp, strerror(errno));
		rc = -1;
	}
	if (rc == 0 && rename(tmp, path) != 0) {
		err_set(err, errlen, "cannot replace it: %s", strerror(errno));
		rc = -1;
	}
	if (rc != 0)
		unlink(tmp);
	free(tmp);
	return rc;
}

/* mkdir -p of path's directory, the directories made 0700. */
static int make_parents(const char *path, char *err, size_t errlen)
{
	char *dir = xstrdup(path);
	char *slash = strrchr(dir, '/');
	int rc = 0;
	if (slash && slash != dir) {
		*slash = '\0';
		rc = mkdir_p(dir, err, errlen);
	}
	free(dir);
	return rc;
}
int config_save_columns_new(const char *path, const lt_colset sets[LT_ROW_KINDS], char *err, size_t errlen)
{
	if (!path)
		return err_set(err, errlen, "no configuration file was read, and HOME is not set to make one");
	if (make_parents(path, err, errlen) != 0)
		return -1;
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0 && errno == EEXIST)
		return config_save_columns(path, sets, err, errlen);
	if (fd < 0)
		return err_set(err, errlen, "cannot make %s: %s", path, strerror(errno));
	char *block = panes_block(sets);
	char *text =
		xasprintf("# lagtop.conf (lagtop(1), CONFIGURATION); made by the dashboard's column setup\n%s", block);
	int rc = fd_write_all(fd, text, strlen(text)) == 0 && fsync(fd) == 0 ? 0 : -1;
	if (rc != 0)
		err_set(err, errlen, "cannot write %s: %s", path, strerror(errno));
	if (close(fd) != 0 && rc == 0)
		rc = err_set(err, errlen, "cannot write %s: %s", path, strerror(errno));
	if (rc != 0)
		unlink(path);
	free(block);
	free(text);
	return rc;
}

int config_save_columns(const char *path, const lt_colset sets[LT_ROW_KINDS], char *err, size_t errlen)
{
	char why[300] = "";
	struct stat st;
	int rc = -1;
	if (!path) {
		err_set(err, errlen, "no configuration file was read to save them to");
		return -1;
	}
	if (lstat(path, &st) != 0)
		snprintf(why, sizeof why, "%s", strerror(errno));
	else if (S_ISLNK(st.st_mode))
		snprintf(why, sizeof why, "it is a symbolic link");
	else if (!S_ISREG(st.st_mode))
		snprintf(why, sizeof why, "it is not a regular file");
	if (!why[0]) {
		int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
		char *text = fd < 0 ? NULL : read_small(fd, why, sizeof why);
		if (fd < 0)
			snprintf(why, sizeof why, "%s", strerror(errno));
		else
			close(fd);
		char *out = text ? config_splice_columns(text, sets, why, sizeof why) : NULL;
		if (out)
			rc = replace_file(path, out, st.st_mode, why, sizeof why);
		if (text)
			explicit_bzero(text, strlen(text));
		free(text);
		if (out)
			explicit_bzero(out, strlen(out));
		free(out);
	}
	if (rc != 0)
		err_set(err, errlen, "cannot save them to %s: %s", path, why);
	return rc;
}
