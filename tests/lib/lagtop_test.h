/* lagtop_test.h — what the C tests share, in one header of static inline functions (a program uses the
 * parts it needs, the rest costs nothing):
 *  - every program: test_block_fixture_signals() for the fixture programs that sigwait();
 *    fuzz_input_file(), the input of a libFuzzer harness as a private file;
 *    LT_FUZZ_SUPPRESS_LIBCONFIG_LEAKS, a harness's LeakSanitizer suppression of libconfig's own leak;
 *    LT_FUZZ_LIBCONFIG_HARNESS, the whole entry point of a harness for a libconfig file format;
 *  - cmocka tests (this header included after <cmocka.h>): a private folder per test (test_dir_*,
 *    test_folder_*, test_write_file; test_config_load_text after "config/config_file.h"), the project's
 *    own files (test_source_file), a KIP-848 group in a snapshot (test_add_kip848_group, after "model/snapshot.h"),
 *    --once's output of a snapshot (test_render, after "cli/output.h"), whole files
 * (test_read_file, test_write_bytes, test_file_size, test_put_le), test_fd_readable, test_bail_out_blocked_on_fifo (a
 * SIGALRM handler), test_argv (a command line from a va_list), test_options_ok (one parsed, after "cli/options.h"),
 * test_sleep_ms, running the real lagtop binary
 * (run_lagtop, expect_in, expect_all_in, count_backups) and a raw Kafka client for byte-level tests of the simulated
 * cluster (raw_*: one request at a time, request header v1 (v2 for flexible versions), raw_put_join_body and
 * raw_put_member_head for group requests, response header v0 (v1: with tags); every surprise fails the running test);
 * test_mono_ms, and rdk_conf_set, rdk_group_member_conf, rdk_admin_*, rdk_consumer_subscribed, rdk_event_wait and
 * rdk_listed_offsets when <librdkafka/rdkafka.h> was included first, test_group_add_range_member after "sim/cluster.h",
 * test_ui_keys (keys pressed on the dashboard) after "ui/ui.h". The tests include it as
 * "../lib/lagtop_test.h". */
#ifndef LAGTOP_TESTS_LAGTOP_TEST_H
#define LAGTOP_TESTS_LAGTOP_TEST_H

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sim/sim.h"
#include "sim/wire.h"

/* ----------------------------------------------------------------------------------- fixture programs */

/* The signals a fixture program is driven by (SIGTERM and SIGINT end it, SIGUSR1 and SIGUSR2 are its own
 * commands) into set, blocked in this thread and so in every thread it starts later: one sigwait() on set,
 * in main, receives them all. */
static inline void test_block_fixture_signals(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGUSR1);
	sigaddset(set, SIGUSR2);
	pthread_sigmask(SIG_BLOCK, set, NULL);
}

/* ------------------------------------------------------------------------------------- fuzz harnesses */

/* libconfig 1.5 leaks its scanner's string buffer on some syntax errors (an unterminated string after a
 * NUL byte): not ours, and harmless for lagtop, which exits on a bad file. One harness-wide definition. */
#define LT_FUZZ_SUPPRESS_LIBCONFIG_LEAKS                                                                               \
	const char *__lsan_default_suppressions(void);                                                                 \
	const char *__lsan_default_suppressions(void)                                                                  \
	{                                                                                                              \
		return "leak:libconfig.so\n";                                                                          \
	}

/* The harness's input written to a private temp file (made once per process, named after tag, removed
 * at exit), the way a user's file is read: its path. */
static inline char *lt_fuzz_path(void)
{
	static char path[64];
	return path;
}

static inline void lt_fuzz_path_remove(void)
{
	if (lt_fuzz_path()[0])
		unlink(lt_fuzz_path());
}

static inline const char *fuzz_input_file(const char *tag, const uint8_t *data, size_t size)
{
	char *path = lt_fuzz_path();
	if (!path[0]) {
		snprintf(path, 64, "/tmp/lagtop-fuzz-%s.XXXXXX", tag);
		int fd = mkstemp(path);
		if (fd < 0)
			abort();
		close(fd);
		atexit(lt_fuzz_path_remove);
	}
	FILE *f = fopen(path, "wb");
	if (!f)
		abort();
	fwrite(data, 1, size, f);
	fclose(f);
	return path;
}

/* A libconfig file's input (the config and theme harnesses): NULL, to skip the input, when it is over 64 KiB
 * or has an @include (which would read other files: a long run could find "@include \"/dev/zero\""),
 * else fuzz_input_file()'s path. */
static inline const char *fuzz_libconfig_file(const char *tag, const uint8_t *data, size_t size)
{
	static const char include[] = "@include";
	if (size > 1 << 16)
		return NULL;
	for (size_t i = 0; i + sizeof include - 1 <= size; i++)
		if (memcmp(data + i, include, sizeof include - 1) == 0)
			return NULL;
	return fuzz_input_file(tag, data, size);
}

/* The harness of a libconfig file format: the leak suppression and libFuzzer's entry point, which hands
 * check() the path of each input fuzz_libconfig_file() writes (with the bytes, for other parsers);
 * check() aborts when a property breaks. */
#define LT_FUZZ_LIBCONFIG_HARNESS(tag, check)                                                                          \
	LT_FUZZ_SUPPRESS_LIBCONFIG_LEAKS                                                                               \
	int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);                                                  \
	int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)                                                   \
	{                                                                                                              \
		const char *path = fuzz_libconfig_file(tag, data, size);                                               \
		if (path)                                                                                              \
			check(path, data, size);                                                                       \
		return 0;                                                                                              \
	}

#ifdef cmocka_unit_test
/* ------------------------------------------------------------------------- a private folder per test */

/* A fresh folder $TMPDIR/lagtop-<what>.XXXXXX (a cmocka setup): 0, or -1 if it could not be made. */
static inline int test_dir_make(char *dir, size_t n, const char *what)
{
	snprintf(dir, n, "%s/lagtop-%s.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", what);
	return mkdtemp(dir) ? 0 : -1;
}

/* The folder and all in it removed (a cmocka teardown): 0, or -1. */
static inline int test_dir_remove(const char *dir)
{
	char cmd[600];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

/* A fresh folder (test_dir_make) that lagtop takes for its state and configuration folders, so no user
 * configuration leaks into a test and backups and audit stay private: 0, or -1. */
static inline int test_state_dir_make(char *dir, size_t n, const char *what)
{
	if (test_dir_make(dir, n, what) != 0)
		return -1;
	setenv("XDG_STATE_HOME", dir, 1);
	setenv("XDG_CONFIG_HOME", dir, 1);
	unsetenv("LAGTOP_CONFIG");
	return 0;
}

/* A fresh folder (test_dir_make) as $HOME, with no configuration named by the environment: 0, or -1. */
static inline int test_home_make(char *dir, size_t n, const char *what)
{
	if (test_dir_make(dir, n, what) != 0)
		return -1;
	unsetenv("LAGTOP_CONFIG");
	unsetenv("XDG_CONFIG_HOME");
	setenv("HOME", dir, 1);
	return 0;
}

/* text written to dir/rel (its folders made, 0700) with mode: the malloc'd path. */
static inline char *test_write_file(const char *dir, const char *rel, const char *text, mode_t mode)
{
	size_t n = strlen(dir) + strlen(rel) + 2;
	char *path = malloc(n);
	assert_non_null(path);
	snprintf(path, n, "%s/%s", dir, rel);
	for (char *p = path + strlen(dir) + 1; (p = strchr(p, '/')) != NULL; p++) {
		*p = '\0';
		mkdir(path, 0700);
		*p = '/';
	}
	FILE *fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
	assert_int_equal(chmod(path, mode), 0);
	return path;
}

/* One private folder for a whole program (or each test): test_folder, made by the cmocka setup
 * test_folder_setup (test_dir_make) or test_home_setup (test_home_make: also $HOME), removed by
 * test_folder_teardown. */
static char test_folder[256] __attribute__((unused));

static inline int test_folder_setup(void **state)
{
	(void)state;
	return test_dir_make(test_folder, sizeof test_folder, "test");
}

static inline int test_home_setup(void **state)
{
	(void)state;
	return test_home_make(test_folder, sizeof test_folder, "home");
}

static inline int test_folder_teardown(void **state)
{
	(void)state;
	return test_dir_remove(test_folder);
}

#ifdef LAGTOP_MODEL_SNAPSHOT_H
/* A consumer-protocol (KIP-848) group described through the classic API added to s (this part is there when
 * "model/snapshot.h" came first): in state st, its members unreadable, one partition fx-orders/1 committed
 * at 650 of 0..1000 (lag 350). */
static inline lt_group *test_add_kip848_group(lt_snapshot *s, const char *name, lt_group_state st)
{
	lt_group *g = snapshot_add_group(s, name);
	g->state = st;
	g->type = LT_GTYPE_CONSUMER;
	g->members_unreadable = true;
	lt_partition *p = group_add_partition(g, "fx-orders", 1);
	p->log_start = 0, p->committed = 650, p->log_end = 1000, p->has_lag = true, p->lag = 350;
	g->total_lag = 350;
	return g;
}
#endif

#ifdef LAGTOP_CLI_OUTPUT_H
enum test_format { TEST_JSON, TEST_CSV, TEST_TABLE, TEST_PROMETHEUS };

/* s as --once prints it in format (this part is there when "cli/output.h" came first): malloc'd text.
 * noinline: gcc 12 at -O2 inlines this and then warns -Wdangling-pointer about the memstream buffer
 * (a false positive: fclose() has published buf before it is returned). */
__attribute__((noinline, unused)) static char *test_render(enum test_format format, const lt_snapshot *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	if (format == TEST_JSON)
		assert_int_equal(output_json(f, s), 0);
	else if (format == TEST_CSV)
		assert_int_equal(output_csv(f, s), 0);
	else if (format == TEST_TABLE)
		output_table(f, s);
	else
		assert_int_equal(output_prometheus(f, s), 0);
	fclose(f);
	return buf;
}
#endif

#ifdef LAGTOP_CONFIG_CONFIG_FILE_H
/* text written to test_folder/t.conf (0600) and loaded as a configuration file (this part is there when
 * "config/config_file.h" came first): config_load_file's result, err filled; the malloc'd path in
 * *path_out unless path_out is NULL. */
static inline int test_config_load_text(struct lt_config *cfg, const char *text, char *err, size_t errlen,
					char **path_out)
{
	char *path = test_write_file(test_folder, "t.conf", text, 0600);
	err[0] = '\0';
	int rc = config_load_file(cfg, path, NULL, err, errlen);
	if (path_out)
		*path_out = path;
	else
		free(path);
	return rc;
}
#endif

#ifdef LAGTOP_UI_UI_H
/* Each character of k pressed on the dashboard u, then its rows rebuilt if the keys asked for it and u
 * marked clean, as the main loop would before it draws (this part is there when "ui/ui.h" came first). */
static inline void test_ui_keys(struct ui *u, const char *k)
{
	for (; *k; k++)
		ui_on_key(u, (unsigned char)*k);
	if (u->dirty & UI_DIRTY_ROWS)
		ui_rebuild_rows(u);
	u->dirty = 0;
}
#endif

/* ---------------------------------------------------------------------------------------- whole files */

/* The file at path, whole: malloc'd, with a NUL after its bytes, their count in *len (len may be NULL);
 * a file that cannot be opened fails the test naming it. */
static inline char *test_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		fail_msg("%s: cannot open", path);
	size_t cap = 1 << 16, n = 0, got;
	char *buf = malloc(cap);
	assert_non_null(buf);
	while ((got = fread(buf + n, 1, cap - 1 - n, f)) > 0) {
		n += got;
		if (n == cap - 1) {
			buf = realloc(buf, cap *= 2);
			assert_non_null(buf);
		}
	}
	fclose(f);
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

/* The project's file rel (a path from the top of the source tree: $LT_SRCDIR, else the current folder),
 * whole: malloc'd (the man page and documents that tests hold the code to). */
static inline char *test_source_file(const char *rel)
{
	const char *srcdir = getenv("LT_SRCDIR");
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", srcdir ? srcdir : ".", rel);
	return test_read_file(path, NULL);
}

/* n bytes written to path, which is made (0600) or emptied first. */
static inline void test_write_bytes(const char *path, const void *bytes, size_t n)
{
	FILE *f = fopen(path, "wb");
	if (!f)
		fail_msg("%s: cannot create", path);
	assert_int_equal(fwrite(bytes, 1, n, f), n);
	fclose(f);
}

/* The size of the file at path; -1 when there is none. */
static inline long test_file_size(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

/* v stored little-endian in the n bytes at p (a header field of a file format under test). */
static inline void test_put_le(unsigned char *p, uint64_t v, int n)
{
	for (int i = 0; i < n; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

/* Whether fd is readable within ms milliseconds (0: whether it is now). */
static inline bool test_fd_readable(int fd, int ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	return poll(&p, 1, ms) == 1 && (p.revents & POLLIN);
}

/* A SIGALRM handler for a test that would block forever where a file is a FIFO (opened, the open waits for
 * a writer): TAP's "Bail out!" and the end of the program, not a hung `make check`. */
static inline void test_bail_out_blocked_on_fifo(int sig)
{
	(void)sig;
	static const char msg[] = "Bail out! blocked on a FIFO\n";
	(void)!write(1, msg, sizeof msg - 1);
	_exit(1);
}

/* The command line "lagtop" and ap's arguments up to its NULL (at most 30), NULL-terminated in argv: argc. */
static inline int test_argv(char *argv[32], va_list ap)
{
	int argc = 0;
	argv[argc++] = (char *)"lagtop";
	for (char *a; (a = va_arg(ap, char *)) != NULL && argc < 31;)
		argv[argc++] = a;
	argv[argc] = NULL;
	return argc;
}

#ifdef LAGTOP_CLI_OPTIONS_H
/* The command line (after "lagtop", NULL-terminated) parsed into o, which the caller frees; the test fails
 * with options_parse's error when it refuses it (this part is there when "cli/options.h" came first). */
static inline void test_options_ok(struct lt_options *o, ...)
{
	char *argv[32];
	va_list ap;
	va_start(ap, o);
	int argc = test_argv(argv, ap);
	va_end(ap);
	char err[512] = "";
	if (options_parse(o, argc, argv, err, sizeof err) != 0)
		fail_msg("refused: %s", err);
}
#endif

/* Waits ms milliseconds (a retry's pause, or letting a clock move). */
static inline void test_sleep_ms(long ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);
}

/* --------------------------------------------------------------------------- running the lagtop binary */

struct run {
	int status; /* exit status, or 128 + signal (137: killed as a hang) */
	char out[32768];
	char err[32768];
};

/* Runs $LAGTOP with args (NULL-terminated), stdout and stderr captured; killed after 30 s. */
static inline void run_lagtop(struct run *r, const char *const *args)
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

static inline void expect_in(const char *text, const char *needle)
{
	if (!strstr(text, needle))
		fail_msg("'%s' not found in:\n%s", needle, text);
}

/* Every one of needles (NULL-terminated) is in text. */
static inline void expect_all_in(const char *text, const char *const *needles)
{
	for (; *needles; needles++)
		expect_in(text, *needles);
}

/* The file at path holds exactly want (a short file: a backup, an export). */
static inline void expect_file_text(const char *path, const char *want)
{
	FILE *f = fopen(path, "r");
	if (!f)
		fail_msg("%s: cannot open", path);
	char got[4096] = "";
	size_t n = fread(got, 1, sizeof got - 1, f);
	got[n] = '\0';
	fclose(f);
	assert_string_equal(got, want);
}

/* Backups under STATEDIR/lagtop/backups whose name starts with prefix (a group's "GROUP."). */
static inline size_t count_backups(const char *statedir, const char *prefix)
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

/* ------------------------------------------------------------- a raw Kafka client for the simulated cluster */

struct raw_conn {
	int fd;
	int32_t corr;
};

static inline struct raw_conn raw_connect(sim_cluster *c, int node_id)
{
	struct raw_conn r = { socket(AF_INET, SOCK_STREAM, 0), 0 };
	assert_true(r.fd >= 0);
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)sim_broker_port(c, node_id)) };
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(connect(r.fd, (struct sockaddr *)&a, sizeof a), 0);
	return r;
}

static inline void raw_close(struct raw_conn *r)
{
	close(r->fd);
	r->fd = -1;
}

/* The body of a JoinGroup request v1-v4 from a new member (empty member id): group, timeout_ms as both the
 * session and the rebalance timeout, and one protocol, "range", of protocol_type with its metadata. */
static inline void raw_put_join_body(struct wire_buf *b, const char *group, int32_t timeout_ms,
				     const char *protocol_type, const void *meta, int32_t len)
{
	wire_put_str(b, group, false);
	wire_put_i32(b, timeout_ms);
	wire_put_i32(b, timeout_ms);
	wire_put_str(b, "", false);
	wire_put_str(b, protocol_type, false);
	wire_put_array(b, 1, false);
	wire_put_str(b, "range", false);
	wire_put_bytes(b, meta, len, false);
}

/* The fields SyncGroup, Heartbeat and OffsetCommit requests (their non-flexible versions) start with: group,
 * the member's generation and id, and when with_instance_id (SyncGroup and Heartbeat v3+, OffsetCommit v7+)
 * a null group instance id (a dynamic member). */
static inline void raw_put_member_head(struct wire_buf *b, const char *group, int32_t generation, const char *member,
				       bool with_instance_id)
{
	wire_put_str(b, group, false);
	wire_put_i32(b, generation);
	wire_put_str(b, member, false);
	if (with_instance_id)
		wire_put_str(b, NULL, false);
}

/* Sends one request; flex selects request header v2 (tags after the client id). */
static inline void raw_send(struct raw_conn *r, int16_t key, int16_t ver, bool flex, const struct wire_buf *body)
{
	struct wire_buf f;
	wire_buf_init(&f);
	wire_put_i32(&f, 0);
	wire_put_i16(&f, key);
	wire_put_i16(&f, ver);
	wire_put_i32(&f, ++r->corr);
	wire_put_str(&f, "raw-test", false);
	wire_put_tags(&f, flex);
	wire_put_raw(&f, body->data, body->len);
	wire_patch_i32(&f, 0, (int32_t)(f.len - 4));
	assert_int_equal(send(r->fd, f.data, f.len, MSG_NOSIGNAL), (ssize_t)f.len);
	wire_buf_free(&f);
}

/* Reads n bytes; false on EOF, a reset or 10 s of silence. */
static inline bool raw_read(int fd, void *p, size_t n)
{
	size_t got = 0;
	while (got < n) {
		struct pollfd pf = { fd, POLLIN, 0 };
		if (poll(&pf, 1, 10000) != 1)
			return false;
		ssize_t k = recv(fd, (char *)p + got, n - got, 0);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return false;
		got += (size_t)k;
	}
	return true;
}

/* Receives the answer to the last request: checks the correlation id, skips the header's tags when flex
 * (every flexible API but ApiVersions); the body goes to *body (caller frees), rd reads it. */
static inline void raw_recv(struct raw_conn *r, bool flex, struct wire_buf *body, struct wire_rd *rd)
{
	uint8_t hdr[8];
	assert_true(raw_read(r->fd, hdr, 8));
	uint32_t len = (uint32_t)hdr[0] << 24 | (uint32_t)hdr[1] << 16 | (uint32_t)hdr[2] << 8 | hdr[3];
	int32_t corr = (int32_t)((uint32_t)hdr[4] << 24 | (uint32_t)hdr[5] << 16 | (uint32_t)hdr[6] << 8 | hdr[7]);
	assert_int_equal(corr, r->corr);
	assert_true(len >= 4 && len < (1u << 24));
	wire_buf_init(body);
	body->data = malloc(len - 4 + 1);
	body->len = body->cap = len - 4;
	assert_true(raw_read(r->fd, body->data, len - 4));
	wire_rd_init(rd, body->data, body->len);
	wire_tags_skip(rd, flex);
}

/* One request, one answer. */
static inline void raw_call(struct raw_conn *r, int16_t key, int16_t ver, bool flex, const struct wire_buf *req,
			    struct wire_buf *body, struct wire_rd *rd)
{
	raw_send(r, key, ver, flex, req);
	raw_recv(r, flex, body, rd);
}

/* The whole body was read, and nothing was wrong with it. */
static inline void raw_end(struct wire_rd *rd, struct wire_buf *body)
{
	assert_false(rd->err);
	assert_int_equal(wire_rd_left(rd), 0);
	wire_buf_free(body);
}

/* True when the peer closed the connection without answering. */
static inline bool raw_closed(struct raw_conn *r)
{
	uint8_t b[64];
	struct pollfd pf = { r->fd, POLLIN, 0 };
	if (poll(&pf, 1, 10000) != 1)
		return false;
	ssize_t k = recv(r->fd, b, sizeof b, 0);
	return k == 0 || (k < 0 && errno == ECONNRESET);
}

/* A string field equals s (NULL: a null string). */
static inline void raw_expect_str(struct wire_rd *rd, bool flex, const char *s)
{
	struct wire_str w = wire_str(rd, flex);
	assert_false(rd->err);
	if (!s) {
		assert_int_equal(w.len, -1);
		return;
	}
	char got[512];
	snprintf(got, sizeof got, "%.*s", w.len < 0 ? 0 : (int)w.len, w.p ? w.p : "");
	assert_string_equal(got, s);
}

/* A string field copied into out. */
static inline void raw_str(struct wire_rd *rd, bool flex, char *out, size_t n)
{
	struct wire_str w = wire_str(rd, flex);
	snprintf(out, n, "%.*s", w.len < 0 ? 0 : (int)w.len, w.p ? w.p : "");
}
/* Milliseconds on the monotonic clock, for deadlines and durations inside a test. */
static inline int64_t test_mono_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

#ifdef RD_KAFKA_VERSION
/* One librdkafka property set (this part is there when <librdkafka/rdkafka.h> came first); a refused one
 * fails the test naming it. */
static inline void rdk_conf_set(rd_kafka_conf_t *conf, const char *k, const char *v)
{
	char err[256];
	if (rd_kafka_conf_set(conf, k, v, err, sizeof err) != RD_KAFKA_CONF_OK)
		fail_msg("conf %s=%s: %s", k, v, err);
}

/* The configuration of a group member that a test's cluster changes reach quickly: on bootstrap, in group
 * as client_id, a session of 6 s, from the earliest offset when nothing is committed, Fetch held at most
 * 100 ms, only librdkafka's errors logged. The caller adds the rest (heartbeat, commits, callbacks). */
static inline rd_kafka_conf_t *rdk_group_member_conf(const char *bootstrap, const char *group, const char *client_id)
{
	const char *const props[][2] = {
		{ "bootstrap.servers", bootstrap },
		{ "group.id", group },
		{ "client.id", client_id },
		{ "session.timeout.ms", "6000" },
		{ "auto.offset.reset", "earliest" },
		{ "fetch.wait.max.ms", "100" },
		{ "log_level", "3" },
	};
	rd_kafka_conf_t *conf = rd_kafka_conf_new();
	for (size_t i = 0; i < sizeof props / sizeof props[0]; i++)
		rdk_conf_set(conf, props[i][0], props[i][1]);
	return conf;
}

/* A client handle for Admin API calls on bootstrap (socket_timeout_ms: NULL for librdkafka's default)
 * and the queue its results arrive on; a failure fails the test. rdk_admin_close() frees both. */
static inline void rdk_admin_open(const char *bootstrap, const char *socket_timeout_ms, rd_kafka_t **rk,
				  rd_kafka_queue_t **q)
{
	char err[256];
	rd_kafka_conf_t *conf = rd_kafka_conf_new();
	rdk_conf_set(conf, "bootstrap.servers", bootstrap);
	if (socket_timeout_ms)
		rdk_conf_set(conf, "socket.timeout.ms", socket_timeout_ms);
	*rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, err, sizeof err);
	if (!*rk)
		fail_msg("rd_kafka_new: %s", err);
	*q = rd_kafka_queue_new(*rk);
}

static inline void rdk_admin_close(rd_kafka_t *rk, rd_kafka_queue_t *q)
{
	rd_kafka_queue_destroy(q);
	rd_kafka_destroy(rk);
}

/* A consumer made from conf (which it takes), subscribed to topic; the test fails if it cannot be. */
static inline rd_kafka_t *rdk_consumer_subscribed(rd_kafka_conf_t *conf, const char *topic)
{
	char err[256];
	rd_kafka_t *rk = rd_kafka_new(RD_KAFKA_CONSUMER, conf, err, sizeof err);
	if (!rk)
		fail_msg("consumer: %s", err);
	rd_kafka_poll_set_consumer(rk);
	rd_kafka_topic_partition_list_t *sub = rd_kafka_topic_partition_list_new(1);
	rd_kafka_topic_partition_list_add(sub, topic, RD_KAFKA_PARTITION_UA);
	assert_int_equal(rd_kafka_subscribe(rk, sub), RD_KAFKA_RESP_ERR_NO_ERROR);
	rd_kafka_topic_partition_list_destroy(sub);
	return rk;
}

/* The partitions of ev, a ListConsumerGroupOffsets result for one group, which must carry no error. */
static inline const rd_kafka_topic_partition_list_t *rdk_listed_offsets(rd_kafka_event_t *ev)
{
	size_t n;
	const rd_kafka_group_result_t **g =
		rd_kafka_ListConsumerGroupOffsets_result_groups(rd_kafka_event_ListConsumerGroupOffsets_result(ev), &n);
	assert_int_equal(n, 1);
	assert_null(rd_kafka_group_result_error(g[0]));
	return rd_kafka_group_result_partitions(g[0]);
}

/* The next event on q within ms milliseconds: it must come, be of type, and carry no error (named). */
static inline rd_kafka_event_t *rdk_event_wait(rd_kafka_queue_t *q, rd_kafka_event_type_t type, int ms)
{
	rd_kafka_event_t *ev = rd_kafka_queue_poll(q, ms);
	assert_non_null(ev);
	assert_int_equal(rd_kafka_event_type(ev), type);
	if (rd_kafka_event_error(ev))
		fail_msg("%s: %s", rd_kafka_event_name(ev), rd_kafka_event_error_string(ev));
	return ev;
}
#endif

#ifdef LAGTOP_KAFKA_COLLECTOR_H
/* One refresh of col (this part is there when "kafka/collector.h" came first): its snapshot, or the test
 * fails with the collector's error. */
static inline lt_snapshot *collector_refresh_or_fail(lt_collector *col)
{
	char err[512] = "";
	lt_snapshot *s = NULL;
	if (collector_refresh_once(col, &s, err, sizeof err) != 0)
		fail_msg("refresh: %s", err);
	return s;
}
#endif

#ifdef LAGTOP_SIM_CLUSTER_H
/* g made a consumer group on the range assignor, with one member "m-1" (of client_id) subscribed to the n
 * topics (this part is there when "sim/cluster.h" came first): the member. */
static inline struct sim_member *test_group_add_range_member(struct sim_group *g, const char *client_id,
							     const char *const *topics, int n)
{
	free(g->protocol_type);
	g->protocol_type = strdup("consumer");
	free(g->protocol_name);
	g->protocol_name = strdup("range");
	int32_t len;
	uint8_t *sub = sim_consumer_subscription_encode(topics, n, &len);
	struct sim_member *m = sim_member_new("m-1", client_id, NULL);
	sim_member_add_protocol(m, "range", sub, len);
	free(sub);
	sim_group_add_member(g, m);
	return m;
}
#endif

/* ---------------------------------------------------------------------------- the in-process sim */

/* A simulated cluster of brokers nodes playing scenario, started (or the test fails). */
static inline sim_cluster *test_sim_start(int brokers, const char *scenario)
{
	char err[256] = "";
	struct sim_options o = { .brokers = brokers, .port = 0, .scenario = scenario };
	sim_cluster *c = sim_new(&o, err, sizeof err);
	if (!c || sim_start(c) < 0)
		fail_msg("sim: %s", err);
	return c;
}

/* A started sim of brokers nodes (scenario "empty") with topic of partitions partitions, count records
 * appended to each (stamped from first_ts_ms, step_ms apart), or the test fails. */
static inline sim_cluster *test_sim_with_topic(int brokers, const char *topic, int partitions, int64_t count,
					       int64_t first_ts_ms, int64_t step_ms)
{
	char err[256] = "";
	sim_cluster *c = test_sim_start(brokers, "empty");
	if (sim_create_topic(c, topic, partitions, err, sizeof err) != 0)
		fail_msg("sim_create_topic %s: %s", topic, err);
	for (int p = 0; p < partitions; p++)
		if (sim_append(c, topic, p, count, first_ts_ms, step_ms, err, sizeof err) != 0)
			fail_msg("sim_append %s/%d: %s", topic, p, err);
	return c;
}

/* The cmocka group teardown of a program whose group setup left its sim in *state. */
static inline int test_sim_teardown(void **state)
{
	sim_free(*state);
	return 0;
}

/* The running test fails with what and err unless rc is 0 (a sim control call). */
static inline void sim_must(int rc, const char *what, const char *err)
{
	if (rc != 0)
		fail_msg("%s: %s", what, err);
}

/* A member that joins group (consuming pay-0, client id late-joiner) as soon as the coordinator has
 * answered more OffsetFetch requests than fetch_before: a thread (pthread_create with sim_join_on_fetch)
 * that makes a member appear between a guard's look and what follows it. */
struct sim_joiner {
	sim_cluster *sim;
	const char *group;
	uint64_t fetch_before;
	volatile int done;
	char id[128];
};

static inline void *sim_join_on_fetch(void *arg)
{
	struct sim_joiner *j = arg;
	char err[256];
	uint64_t counts[SIM_COUNT_KEYS + 1];
	for (int i = 0; i < 20000; i++) {
		sim_counts(j->sim, counts, false);
		if (counts[9] > j->fetch_before) { /* 9 = OffsetFetch */
			const int32_t parts[] = { 0 };
			struct sim_member_assignment a = { "pay", parts, 1 };
			struct sim_member_spec m = { .client_id = "late-joiner", .assignment = &a, .nassignment = 1 };
			sim_add_member(j->sim, j->group, &m, j->id, sizeof j->id, err, sizeof err);
			j->done = 1;
			return NULL;
		}
		usleep(500);
	}
	return NULL;
}

#endif /* cmocka_unit_test */

#endif
