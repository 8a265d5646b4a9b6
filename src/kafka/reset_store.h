/* reset_store.h — the files a reset leaves behind: backups of committed offsets and the audit log.
 *
 * Layout (XDG): $XDG_STATE_HOME/lagtop/ (default ~/.local/state/lagtop/), created 0700:
 *   backups/<group>.<yyyyMMddTHHmmss.SSSZ>.csv   the group's committed offsets before a commit, in
 *                                                kafka-consumer-groups' 3-column form (mode 0600)
 *   audit.log                                    one line per executed or refused --execute (0600)
 *   locks/<group>.<cluster hash>.lock            flock'ed while a reset, delete or undo of the group on
 *                                                that cluster runs; holds the holder's pid
 * Group names are percent-encoded in file names (anything outside [A-Za-z0-9._-]), so any group id is safe.
 * Files are created with O_EXCL|O_NOFOLLOW and fsync'ed; a backup that cannot be written completely is
 * removed and reported, and the caller must not commit.
 * No librdkafka here: plain POSIX files, callable from any thread.
 */
#ifndef LAGTOP_KAFKA_RESET_STORE_H
#define LAGTOP_KAFKA_RESET_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "reset/plan.h"

/* The state directory (creating it and backups/ when create is non-zero). 0 or -1 with err. */
int reset_store_dir(char *out, size_t len, int create, char *err, size_t errlen);

/* Writes csv as a new backup of group taken at now_ms; the path goes to path_out. */
int reset_backup_write(const char *group, int64_t now_ms, const char *csv, char *path_out, size_t pathlen, char *err,
		       size_t errlen);

/* The newest backup of group: 0 with its path, 1 if there is none, -1 on error. */
int reset_backup_newest(const char *group, char *path_out, size_t pathlen, char *err, size_t errlen);

/* Appends one line (a newline is added) to audit.log. */
int reset_audit_append(const char *line, char *err, size_t errlen);

/* Reads a whole (small) file. NULL with err on failure or when larger than max bytes. */
char *reset_file_read(const char *path, size_t max, char *err, size_t errlen);

/* The --undo request: a --from-file request for group built from its newest backup. 0, 1 if there is no
 * backup (err says so), -1 on error. path_out receives the backup's path. */
int reset_undo_request(const char *group, lt_reset_request *rq, char *path_out, size_t pathlen, char *err,
		       size_t errlen);

/* The --undo request from the backup at path (--undo G --backup FILE, or the one the undo chose). */
int reset_undo_request_from(const char *group, const char *path, lt_reset_request *rq, char *err, size_t errlen);

/* When the backup at path was taken, from its file name ("2026-11-29T10:00:00.123Z"). 0, or -1 when the name
 * has no stamp (a backup named with --backup may be any file). */
int reset_backup_taken(const char *path, char *out, size_t len);

/* Takes the lock of group on cluster without waiting: 0 with *fd_out held (release it with
 * reset_unlock_group), 1 when another process holds it (err names its pid), -1 with err when the lock file
 * cannot be made (then nothing may be committed: two resets could interleave). */
int reset_lock_group(const char *cluster, const char *group, int *fd_out, char *err, size_t errlen);
void reset_unlock_group(int fd);

/* The audit log's last max bytes ("" when there is none yet), or NULL with err. */
char *reset_audit_read(size_t max, char *err, size_t errlen);

#endif
