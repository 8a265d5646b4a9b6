/* file_trust.h — opening the files lagtop acts on without trusting another user, and without hanging.
 *
 * What another user can write, lagtop must not read as its own: a configuration file can run a command
 * (librdkafka's sasl.kerberos.kinit.cmd), a backup is committed by --undo. So, as ssh does with its
 * files, such a file must be owned by the user (or root) and not writable by its group or others, and a
 * directory lagtop keeps state in must be a real directory (not a symbolic link) with the same owner and
 * mode. Every file is opened with O_NONBLOCK and refused unless it is a regular file before it is read,
 * so a FIFO named by mistake (or planted) cannot block lagtop.
 *
 * Errors are one line that names the file and the fix:
 *   "refusing /x/lagtop.conf: writable by others (chmod go-w /x/lagtop.conf)"
 */
#ifndef LAGTOP_UTIL_FILE_TRUST_H
#define LAGTOP_UTIL_FILE_TRUST_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

enum ft_flags {
	FT_OWNED = 1u,    /* owned by the user or root, not writable by group or others */
	FT_NOFOLLOW = 2u, /* the last component must not be a symbolic link */
};

/* Opens path for reading (O_NONBLOCK, then blocking again; O_CLOEXEC) and refuses anything but a regular
 * file, and with FT_OWNED a file another user could have written. `what` prefixes the errors of open
 * and fstat ("--command-config /x: No such file or directory"; NULL: none); a refusal names the path alone. Returns the
 * descriptor with *st filled, or -1 with err. */
int ft_open_read(const char *path, unsigned flags, const char *what, struct stat *st, char *err, size_t errlen);

/* The owner and mode rule alone, on a stat of path (for a file or a directory). 0, or -1 with err. */
int ft_check_owner_mode(const char *path, const struct stat *st, char *err, size_t errlen);

/* A directory lagtop keeps state in: lstat, so a symbolic link is refused, then a directory that passes
 * ft_check_owner_mode. Returns 0, 1 when it does not exist (err says so), or -1 with err. */
int ft_check_dir(const char *path, char *err, size_t errlen);

/* Reads all of fd (at most max bytes; more is an error naming path) into a NUL-terminated buffer.
 * Returns it (length in *len), or NULL with err. */
char *ft_read_all(int fd, const char *path, size_t max, size_t *len, char *err, size_t errlen);

#endif
