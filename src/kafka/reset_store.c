/* reset_store.c — backups and the audit log (see reset_store.h). */
#include "kafka/reset_store.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/errbuf.h"
#include "util/file_trust.h"
#include "util/fileio.h"
#include "util/timeparse.h"
#include "util/xalloc.h"

#define BACKUP_MAX_BYTES (64u << 20)

int reset_store_dir(char *out, size_t len, int create, char *err, size_t errlen)
{
	const char *xdg = getenv("XDG_STATE_HOME");
	const char *home = getenv("HOME");
	int n;
	/* XDG: a relative XDG_STATE_HOME is invalid and must be ignored */
	if (xdg && xdg[0] == '/') {
		n = snprintf(out, len, "%s/lagtop", xdg);
	} else if (home && home[0] == '/') {
		n = snprintf(out, len, "%s/.local/state/lagtop", home);
	} else {
		return err_set(err, errlen,
			       "neither XDG_STATE_HOME nor HOME is set to an absolute path: nowhere to "
			       "keep backups");
	}
	if (n < 0 || (size_t)n + sizeof "/backups/" + 300 > len)
		return err_set(err, errlen, "state directory path too long");
	char tmp[4096];
	snprintf(tmp, sizeof tmp, "%s/backups", out);
	if (create && mkdir_p(tmp, err, errlen) != 0)
		return -1;
	/* What is in here is committed by --undo and read as the record of what was done: the directory and
	 * backups/ must be the user's own, real directories (a link to, or a directory writable by, another
	 * user would let that user choose the offsets restored). Missing ones are fine when not creating. */
	int rc = ft_check_dir(out, err, errlen);
	if (rc == 0)
		rc = ft_check_dir(tmp, err, errlen);
	return rc < 0 ? -1 : 0;
}

/* The longest encoded group id kept in a backup's file name: with ".<stamp>-NN.csv" the name stays far
 * below NAME_MAX (255). A longer one is cut and given a hash of the whole id, so long ids (or short ones
 * that grow threefold when percent-encoded, like most non-ASCII names) can still be backed up. */
#define ENC_NAME_MAX 160

static uint64_t fnv1a64(const char *s)
{
	uint64_t h = 14695981039346656037ULL;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		h ^= *p;
		h *= 1099511628211ULL;
	}
	return h;
}

/* Percent-encodes a group id for a file name ('~' never appears in an encoding, so a hashed name cannot
 * equal a plain one). out must hold ENC_NAME_MAX + 1 bytes. */
static void encode_group(const char *group, char *out, size_t len)
{
	size_t o = 0;
	bool cut = false;
	for (const unsigned char *p = (const unsigned char *)group; *p; p++) {
		char e[4];
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_' ||
		    *p == '-' || (*p == '.' && p != (const unsigned char *)group))
			snprintf(e, sizeof e, "%c", *p);
		else
			snprintf(e, sizeof e, "%%%02X", *p);
		size_t el = strlen(e);
		if (o + el > ENC_NAME_MAX || o + el >= len) {
			cut = true;
			break;
		}
		memcpy(out + o, e, el);
		o += el;
	}
	if (cut) {
		/* back off to leave room for "~" and 16 hex digits, never inside a %XX escape */
		while (o > ENC_NAME_MAX - 17 || (o >= 1 && out[o - 1] == '%') || (o >= 2 && out[o - 2] == '%'))
			o--;
		snprintf(out + o, len - o, "~%016llx", (unsigned long long)fnv1a64(group));
		return;
	}
	out[o] = '\0';
}

static void fsync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
}

int reset_backup_write(const char *group, int64_t now_ms, const char *csv, char *path_out, size_t pathlen, char *err,
		       size_t errlen)
{
	char dir[4096], enc[1024], when[40];
	if (reset_store_dir(dir, sizeof dir, 1, err, errlen))
		return -1;
	encode_group(group, enc, sizeof enc);
	reset_format_time(now_ms, when, sizeof when);
	/* 2026-11-29T10:00:00.123Z -> 20261129T100000.123Z: sorts by time, no ':' in the name */
	char stamp[32];
	size_t k = 0;
	for (const char *p = when; *p && k + 1 < sizeof stamp; p++)
		if (*p != '-' && *p != ':')
			stamp[k++] = *p;
	stamp[k] = '\0';

	for (int attempt = 0; attempt < 100; attempt++) {
		char suffix[8] = "";
		if (attempt)
			snprintf(suffix, sizeof suffix, "-%02d", attempt);
		int n = snprintf(path_out, pathlen, "%s/backups/%s.%s%s.csv", dir, enc, stamp, suffix);
		if (n < 0 || (size_t)n >= pathlen)
			return err_set(err, errlen, "backup path too long");
		int fd = open(path_out, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd < 0 && errno == EEXIST)
			continue;
		if (fd < 0)
			return err_set(err, errlen, "cannot create backup %s: %s", path_out, strerror(errno));
		if (fd_write_all(fd, csv, strlen(csv)) != 0 || fsync(fd) != 0) {
			int e = errno;
			close(fd);
			unlink(path_out);
			return err_set(err, errlen, "cannot write backup %s: %s", path_out, strerror(e));
		}
		if (close(fd) != 0) {
			int e = errno;
			unlink(path_out);
			return err_set(err, errlen, "cannot write backup %s: %s", path_out, strerror(e));
		}
		char bdir[4200];
		snprintf(bdir, sizeof bdir, "%s/backups", dir);
		fsync_dir(bdir);
		return 0;
	}
	return err_set(err, errlen, "cannot create a unique backup file name in %s/backups", dir);
}

int reset_backup_newest(const char *group, char *path_out, size_t pathlen, char *err, size_t errlen)
{
	char dir[4096], enc[1024], bdir[4200];
	if (reset_store_dir(dir, sizeof dir, 0, err, errlen))
		return -1;
	encode_group(group, enc, sizeof enc);
	snprintf(bdir, sizeof bdir, "%s/backups", dir);
	DIR *d = opendir(bdir);
	if (!d) {
		if (errno == ENOENT) {
			err_set(err, errlen, "no backup of group '%s' in %s", group, bdir);
			return 1;
		}
		return err_set(err, errlen, "cannot read %s: %s", bdir, strerror(errno));
	}
	size_t el = strlen(enc);
	char best[512] = "";
	int best_seq = -1;
	struct dirent *de;
	while ((de = readdir(d))) {
		const char *name = de->d_name;
		size_t nl = strlen(name);
		/* <enc>.<8 digits>T<6 digits>.<3 digits>Z[-NN].csv: the stamp's exact shape right after "<enc>."
		 * keeps group "g" from matching the backups of group "g.x". */
		if (nl <= el + 1 || strncmp(name, enc, el) != 0 || name[el] != '.' || nl < 4 ||
		    strcmp(name + nl - 4, ".csv") != 0)
			continue;
		const char *st = name + el + 1;
		size_t sl = nl - el - 1 - 4;
		if (!(sl == 20 || sl == 23) || st[8] != 'T' || st[15] != '.' || st[19] != 'Z')
			continue;
		bool shape = true;
		for (size_t i = 0; i < 19; i++)
			if (i != 8 && i != 15 && (st[i] < '0' || st[i] > '9'))
				shape = false;
		/* "-NN": the NNth file written in the same millisecond, newer than the one without a suffix */
		int seq = 0;
		if (sl == 23) {
			if (st[20] != '-' || st[21] < '0' || st[21] > '9' || st[22] < '0' || st[22] > '9')
				shape = false;
			else
				seq = (st[21] - '0') * 10 + (st[22] - '0');
		}
		if (!shape || nl >= sizeof best)
			continue;
		int c = best[0] ? strncmp(st, best + el + 1, 19) : 1;
		if (c > 0 || (c == 0 && seq > best_seq)) {
			snprintf(best, sizeof best, "%s", name);
			best_seq = seq;
		}
	}
	closedir(d);
	if (!best[0]) {
		err_set(err, errlen, "no backup of group '%s' in %s", group, bdir);
		return 1;
	}
	int n = snprintf(path_out, pathlen, "%s/%s", bdir, best);
	if (n < 0 || (size_t)n >= pathlen)
		return err_set(err, errlen, "backup path too long");
	return 0;
}

int reset_audit_append(const char *line, char *err, size_t errlen)
{
	char dir[4096], path[4200];
	if (reset_store_dir(dir, sizeof dir, 1, err, errlen))
		return -1;
	snprintf(path, sizeof path, "%s/audit.log", dir);
	int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, 0600);
	if (fd < 0)
		return err_set(err, errlen, "cannot open %s: %s", path, strerror(errno));
	/* A log that already existed may not be a regular file at all (a FIFO planted there would block us),
	 * or another user's (who could have written lines into it): refuse both. One of our own that is wider
	 * than 0600 (an older build, a copy, a umask accident) is tightened, since it names groups, users and
	 * hosts; another user's file is never chmod-ed. */
	struct stat st;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return err_set(err, errlen, "%s is not a regular file", path);
	}
	if (st.st_uid != geteuid()) {
		close(fd);
		return err_set(err, errlen, "refusing %s: owned by uid %u, not by you (uid %u); move it away", path,
			       (unsigned)st.st_uid, (unsigned)geteuid());
	}
	if ((st.st_mode & 077) && fchmod(fd, 0600) != 0) {
		int e = errno;
		close(fd);
		return err_set(err, errlen, "cannot make %s private (mode 0600): %s", path, strerror(e));
	}
	char *s = xasprintf("%s\n", line);
	int rc = fd_write_all(fd, s, strlen(s)) == 0 && fsync(fd) == 0 ? 0 : -1;
	int e = errno;
	free(s);
	close(fd);
	if (rc)
		return err_set(err, errlen, "cannot append to %s: %s", path, strerror(e));
	return 0;
}

/* Whether path names a file in the state directory's backups/ (held to the owner rule when read). */
static bool in_backups(const char *path)
{
	char dir[4096], e[256];
	if (reset_store_dir(dir, sizeof dir, 0, e, sizeof e) != 0)
		return false;
	size_t n = strlen(dir);
	return strncmp(path, dir, n) == 0 && strncmp(path + n, "/backups/", 9) == 0;
}

char *reset_file_read(const char *path, size_t max, char *err, size_t errlen)
{
	/* a regular file (a FIFO would block); a backup must be the user's own: --undo commits it */
	struct stat st;
	int fd = ft_open_read(path, in_backups(path) ? FT_OWNED | FT_NOFOLLOW : 0, "Unable to read file", &st, err,
			      errlen);
	if (fd < 0)
		return NULL;
	size_t n = 0;
	char *buf = ft_read_all(fd, path, max, &n, err, errlen);
	close(fd);
	if (!buf)
		return NULL;
	if (strlen(buf) != n) {
		err_set(err, errlen, "%s contains a NUL byte: not a CSV file", path);
		free(buf);
		return NULL;
	}
	return buf;
}

int reset_undo_request_from(const char *group, const char *path, lt_reset_request *rq, char *err, size_t errlen)
{
	char *text = reset_file_read(path, BACKUP_MAX_BYTES, err, errlen);
	if (!text)
		return -1;
	char e2[512];
	int rc_init = reset_request_init(rq, group, LT_RESET_FILE, path, 0, e2, sizeof e2);
	rq->from_backup = true; /* "pay,2,": the partition had no commit, restored by deleting it */
	if (rc_init || reset_request_load_csv(rq, text, e2, sizeof e2)) {
		err_set(err, errlen, "backup %s: %s", path, e2);
		free(text);
		return -1;
	}
	free(text);
	return 0;
}

int reset_undo_request(const char *group, lt_reset_request *rq, char *path_out, size_t pathlen, char *err,
		       size_t errlen)
{
	int rc = reset_backup_newest(group, path_out, pathlen, err, errlen);
	if (rc)
		return rc;
	return reset_undo_request_from(group, path_out, rq, err, errlen);
}

int reset_backup_taken(const char *path, char *out, size_t len)
{
	/* ".../<enc>.20261129T100000.123Z[-NN].csv": the stamp is the 20 characters after the last '.' that
	 * precedes the Z (a group's encoding may hold dots itself) */
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	size_t n = strlen(base);
	const char *z = NULL;
	for (size_t i = 20; i < n; i++)
		if (base[i] == 'Z' && base[i - 4] == '.' && base[i - 11] == 'T' && base[i - 20] == '.')
			z = base + i;
	if (!z)
		return -1;
	const char *st = z - 19;
	snprintf(out, len, "%.4s-%.2s-%.2sT%.2s:%.2s:%.2s.%.3sZ", st, st + 4, st + 6, st + 9, st + 11, st + 13,
		 st + 16);
	return 0;
}

/* ---- the lock of one group on one cluster ---- */

/* <state>/locks/<encoded group>.<hash of the cluster's name>.lock */
static int lock_path(const char *cluster, const char *group, char *out, size_t len, char *err, size_t errlen)
{
	char dir[4096], enc[1024];
	if (reset_store_dir(dir, sizeof dir, 1, err, errlen))
		return -1;
	char ldir[4200];
	snprintf(ldir, sizeof ldir, "%s/locks", dir);
	if (mkdir_p(ldir, err, errlen))
		return -1;
	encode_group(group, enc, sizeof enc);
	int n = snprintf(out, len, "%s/%s.%016llx.lock", ldir, enc, (unsigned long long)fnv1a64(cluster));
	if (n < 0 || (size_t)n >= len)
		return err_set(err, errlen, "lock path too long");
	return 0;
}

/* The pid the holder wrote into the lock file; 0 when it cannot be read (the holder may be writing it). */
static long lock_holder_pid(int fd)
{
	for (int attempt = 0; attempt < 20; attempt++) {
		char buf[32] = "";
		ssize_t r = pread(fd, buf, sizeof buf - 1, 0);
		long pid = r > 0 ? strtol(buf, NULL, 10) : 0;
		if (pid > 0)
			return pid;
		struct timespec ts = { 0, 10 * 1000 * 1000 };
		nanosleep(&ts, NULL);
	}
	return 0;
}

int reset_lock_group(const char *cluster, const char *group, int *fd_out, char *err, size_t errlen)
{
	char path[4400];
	*fd_out = -1;
	if (lock_path(cluster, group, path, sizeof path, err, errlen))
		return -1;
	int fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, 0600);
	if (fd < 0)
		return err_set(err, errlen, "cannot open the lock %s: %s", path, strerror(errno));
	struct stat st;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return err_set(err, errlen, "the lock %s is not a regular file", path);
	}
	/* never wait: a second operator learns at once who holds the group, rather than hanging behind a
	 * commit that may itself be waiting for a broker */
	if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
		int e = errno;
		if (e != EWOULDBLOCK) {
			close(fd);
			return err_set(err, errlen, "cannot lock %s: %s", path, strerror(e));
		}
		long pid = lock_holder_pid(fd);
		close(fd);
		char who[48] = "pid unknown";
		if (pid > 0)
			snprintf(who, sizeof who, "pid %ld", pid);
		err_set(err, errlen,
			"group '%s' on cluster '%s' is being changed by another lagtop (%s): nothing was done; try "
			"again when it has finished",
			group, cluster, who);
		return 1;
	}
	char pid[32];
	int n = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
	if (ftruncate(fd, 0) != 0 || pwrite(fd, pid, (size_t)n, 0) != n) {
		int e = errno;
		close(fd);
		return err_set(err, errlen, "cannot write the lock %s: %s", path, strerror(e));
	}
	*fd_out = fd;
	return 0;
}

void reset_unlock_group(int fd)
{
	if (fd >= 0)
		close(fd); /* closing the only descriptor releases the flock */
}

char *reset_audit_read(size_t max, char *err, size_t errlen)
{
	char dir[4096], path[4200];
	if (reset_store_dir(dir, sizeof dir, 0, err, errlen))
		return NULL;
	snprintf(path, sizeof path, "%s/audit.log", dir);
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		if (errno == ENOENT)
			return xstrdup("");
		err_set(err, errlen, "cannot read %s: %s", path, strerror(errno));
		return NULL;
	}
	struct stat st;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		err_set(err, errlen, "%s is not a regular file", path);
		return NULL;
	}
	/* a long-lived log: its tail holds the newest lines, which are the ones asked for */
	off_t from = st.st_size > (off_t)max ? st.st_size - (off_t)max : 0;
	size_t want = (size_t)(st.st_size - from), n = 0;
	char *buf = xmalloc(want + 1);
	while (n < want) {
		ssize_t r = pread(fd, buf + n, want - n, from + (off_t)n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	buf[n] = '\0';
	return buf;
}
