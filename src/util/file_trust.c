/* file_trust.c — see file_trust.h. */
#include "util/file_trust.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/errbuf.h"
#include "util/xalloc.h"

static const char *prefix_sep(const char *what)
{
	return what ? " " : "";
}

int ft_check_owner_mode(const char *path, const struct stat *st, char *err, size_t errlen)
{
	uid_t me = geteuid();
	if (st->st_uid != me && st->st_uid != 0)
		return err_set(err, errlen, "refusing %s: owned by uid %u, not by you (uid %u) or root (chown %u %s)",
			       path, (unsigned)st->st_uid, (unsigned)me, (unsigned)me, path);
	if (st->st_mode & S_IWOTH)
		return err_set(err, errlen, "refusing %s: writable by others (chmod go-w %s)", path, path);
	if (st->st_mode & S_IWGRP)
		return err_set(err, errlen, "refusing %s: writable by its group (chmod go-w %s)", path, path);
	return 0;
}

/* The descriptor was opened O_NONBLOCK only so that opening a FIFO cannot block: reads of the regular
 * file it turned out to be are blocking again. */
static void clear_nonblock(int fd)
{
	int fl = fcntl(fd, F_GETFL);
	if (fl >= 0 && (fl & O_NONBLOCK))
		(void)fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
}

int ft_open_read(const char *path, unsigned flags, const char *what, struct stat *st, char *err, size_t errlen)
{
	const char *w = what ? what : "";
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | ((flags & FT_NOFOLLOW) ? O_NOFOLLOW : 0));
	if (fd < 0) {
		if (errno == ELOOP && (flags & FT_NOFOLLOW))
			return err_set(err, errlen, "refusing %s: a symbolic link (name the file itself)", path);
		return err_set(err, errlen, "%s%s%s: %s", w, prefix_sep(what), path, strerror(errno));
	}
	if (fstat(fd, st) != 0) {
		int e = errno;
		close(fd);
		return err_set(err, errlen, "%s%s%s: %s", w, prefix_sep(what), path, strerror(e));
	}
	if (!S_ISREG(st->st_mode)) {
		close(fd);
		return err_set(err, errlen, "%s%s%s: not a regular file", w, prefix_sep(what), path);
	}
	if ((flags & FT_OWNED) && ft_check_owner_mode(path, st, err, errlen) != 0) {
		close(fd);
		return -1;
	}
	clear_nonblock(fd);
	return fd;
}

int ft_check_dir(const char *path, char *err, size_t errlen)
{
	struct stat st;
	if (lstat(path, &st) != 0) {
		int e = errno;
		err_set(err, errlen, "%s: %s", path, strerror(e));
		return e == ENOENT ? 1 : -1;
	}
	if (S_ISLNK(st.st_mode))
		return err_set(err, errlen, "refusing %s: a symbolic link (make it a directory of your own)", path);
	if (!S_ISDIR(st.st_mode))
		return err_set(err, errlen, "refusing %s: not a directory", path);
	return ft_check_owner_mode(path, &st, err, errlen);
}

char *ft_read_all(int fd, const char *path, size_t max, size_t *len, char *err, size_t errlen)
{
	size_t cap = 4096, n = 0;
	char *buf = xmalloc(cap);
	for (;;) {
		if (n + 1 >= cap)
			buf = xgrow(buf, &cap, cap * 2, 1);
		ssize_t r = read(fd, buf + n, cap - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			err_set(err, errlen, "%s: %s", path, strerror(errno));
			break;
		}
		if (r == 0) {
			buf[n] = '\0';
			*len = n;
			return buf;
		}
		n += (size_t)r;
		if (n > max) {
			err_set(err, errlen, "%s is larger than %zu bytes", path, max);
			break;
		}
	}
	explicit_bzero(buf, n);
	free(buf);
	return NULL;
}
