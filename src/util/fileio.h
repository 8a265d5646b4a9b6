/* fileio.h — writing files: every byte written, and directories made on the way (mkdir -p). The configuration
 * file's column save, the reset backups and audit log, and recordings share these. */
#ifndef LAGTOP_UTIL_FILEIO_H
#define LAGTOP_UTIL_FILEIO_H

#include <stddef.h>

/* Writes all n bytes of p to fd, carrying on after a short write or EINTR. 0, or -1 with errno set (EIO when
 * the write wrote nothing). */
int fd_write_all(int fd, const void *p, size_t n);

/* mkdir -p: dir and each missing directory above it, made 0700 (existing ones are left as they are). 0, or -1
 * with a one-line err naming the directory that could not be made or is something else. */
int mkdir_p(const char *dir, char *err, size_t errlen);

#endif
