/* fileio.c — see fileio.h. */
#include "util/fileio.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/errbuf.h"
#include "util/xalloc.h"

int fd_write_all(int fd, const void *p, size_t n)
{
	const char *b = p;
	while (n) {
		ssize_t w = write(fd, b, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (w == 0)
				errno = EIO;
			return -1;
		}
		b += w;
		n -= (size_t)w;
	}
	return 0;
}

static int mkdir_one(const char *path, char *err, size_t errlen)
{
	if (mkdir(path, 0700) == 0 || errno == EEXIST) {
		struct stat st;
		if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
			return err_set(err, errlen, "%s is not a directory", path);
		return 0;
	}
	return err_set(err, errlen, "cannot create %s: %s", path, strerror(errno));
}

int mkdir_p(const char *dir, char *err, size_t errlen)
{
	char *path = xstrdup(dir);
	int rc = 0;
	for (size_t i = 1; path[i] && rc == 0; i++) {
		if (path[i] != '/')
			continue;
		path[i] = '\0';
		rc = mkdir_one(path, err, errlen);
		path[i] = '/';
	}
	if (rc == 0)
		rc = mkdir_one(path, err, errlen);
	free(path);
	return rc;
}
