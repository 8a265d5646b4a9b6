/* lagtop_run.h — running the real lagtop binary from a cmocka test (shared by the reset tests).
 * Header-only: each test program includes it once. */
#ifndef LAGTOP_TESTS_LAGTOP_RUN_H
#define LAGTOP_TESTS_LAGTOP_RUN_H

#include <dirent.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct run {
	int status; /* exit status, or 128 + signal (137: killed as a hang) */
	char out[32768];
	char err[32768];
};

/* Runs $LAGTOP with args (NULL-terminated), stdout and stderr captured; killed after 30 s. */
static void run_lagtop(struct run *r, const char *const *args)
{
	const char *bin = getenv("LAGTOP");
	assert_non_null(bin);
	int po[2], pe[2];
	assert_int_equal(pipe(po), 0);
	assert_int_equal(pipe(pe), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		const char *argv[64];
		int n = 0;
		argv[n++] = bin;
		for (int i = 0; args[i] && n < 62; i++)
			argv[n++] = args[i];
		argv[n] = NULL;
		dup2(po[1], 1);
		dup2(pe[1], 2);
		close(po[0]);
		close(pe[0]);
		execv(bin, (char *const *)argv);
		_exit(127);
	}
	close(po[1]);
	close(pe[1]);
	size_t no = 0, ne = 0;
	struct pollfd fds[2] = { { po[0], POLLIN, 0 }, { pe[0], POLLIN, 0 } };
	int open_fds = 2;
	time_t deadline = time(NULL) + 30;
	while (open_fds && time(NULL) < deadline) {
		if (poll(fds, 2, 1000) <= 0)
			continue;
		for (int i = 0; i < 2; i++) {
			if (!(fds[i].revents & (POLLIN | POLLHUP)))
				continue;
			char *buf = i ? r->err : r->out;
			size_t *len = i ? &ne : &no;
			ssize_t k = read(fds[i].fd, buf + *len, sizeof r->out - 1 - *len);
			if (k <= 0) {
				close(fds[i].fd);
				fds[i].fd = -1;
				open_fds--;
			} else {
				*len += (size_t)k;
			}
		}
	}
	r->out[no] = r->err[ne] = '\0';
	if (open_fds)
		kill(pid, SIGKILL);
	for (int i = 0; i < 2; i++)
		if (fds[i].fd >= 0)
			close(fds[i].fd);
	int st;
	waitpid(pid, &st, 0);
	r->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static void expect_in(const char *text, const char *needle)
{
	if (!strstr(text, needle))
		fail_msg("'%s' not found in:\n%s", needle, text);
}

/* Backups under STATEDIR/lagtop/backups whose name starts with prefix (a group's "GROUP."). */
static size_t count_backups(const char *statedir, const char *prefix)
{
	char dir[512];
	snprintf(dir, sizeof dir, "%s/lagtop/backups", statedir);
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	size_t n = 0;
	struct dirent *de;
	while ((de = readdir(d)))
		n += strncmp(de->d_name, prefix, strlen(prefix)) == 0;
	closedir(d);
	return n;
}

#endif
