/* test_file_trust.c — nothing another user could have written is trusted, and nothing hangs: the owner and
 * mode rule, FIFOs refused without blocking, symbolic links, state directories (src/util/file_trust.c);
 * recordings created private and a decompression bomb refused before its memory is allocated
 * (src/record/file.c). Files owned by another user need root (chown to nobody); without it those checks
 * skip with one line, and fail under CI=true. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "../lib/lagtop_test.h"
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "record/record.h"
#include "util/crc32c.h"
#include "util/file_trust.h"
#include "util/xalloc.h"
#include "../lib/cmocka_main.h"

#define NOBODY 65534

static char *make_file(const char *name, const char *text, mode_t mode)
{
	return test_write_file(test_folder, name, text, mode);
}

/* Gives path to nobody; false (after a one-line skip, or a failure under CI=true) when not root. */
static bool give_to_nobody(const char *path)
{
	if (geteuid() == 0)
		return lchown(path, NOBODY, NOBODY) == 0;
	if (getenv("CI") && strcmp(getenv("CI"), "true") == 0)
		fail_msg("files owned by another user need root (CI=true)");
	printf("# skip: files owned by another user need root\n");
	return false;
}

static void owner_and_mode_rule(void **state)
{
	(void)state;
	char err[512];
	struct stat st;
	char *p = make_file("own.conf", "x\n", 0644);
	int fd = ft_open_read(p, FT_OWNED, NULL, &st, err, sizeof err);
	assert_true(fd >= 0);
	/* the descriptor is blocking again for the reader */
	assert_int_equal(fcntl(fd, F_GETFL) & O_NONBLOCK, 0);
	close(fd);

	chmod(p, 0664);
	assert_int_equal(ft_open_read(p, FT_OWNED, NULL, &st, err, sizeof err), -1);
	char *want = xasprintf("refusing %s: writable by its group (chmod go-w %s)", p, p);
	assert_string_equal(err, want);
	free(want);
	chmod(p, 0646);
	assert_int_equal(ft_open_read(p, FT_OWNED, NULL, &st, err, sizeof err), -1);
	want = xasprintf("refusing %s: writable by others (chmod go-w %s)", p, p);
	assert_string_equal(err, want);
	free(want);
	/* without FT_OWNED only the kind of file matters */
	fd = ft_open_read(p, 0, NULL, &st, err, sizeof err);
	assert_true(fd >= 0);
	close(fd);

	chmod(p, 0644);
	if (give_to_nobody(p)) {
		assert_int_equal(ft_open_read(p, FT_OWNED, NULL, &st, err, sizeof err), -1);
		assert_non_null(strstr(err, "owned by uid 65534, not by you"));
		/* root's own files are trusted, like ssh's */
		assert_int_equal(lchown(p, 0, 0), 0);
		fd = ft_open_read(p, FT_OWNED, NULL, &st, err, sizeof err);
		assert_true(fd >= 0);
		close(fd);
	}
	free(p);
}

static void fifo_and_links_refused_without_blocking(void **state)
{
	(void)state;
	char err[512];
	struct stat st;
	char *fifo = xasprintf("%s/fifo", test_folder);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	signal(SIGALRM, test_bail_out_blocked_on_fifo);
	alarm(5);
	assert_int_equal(ft_open_read(fifo, FT_OWNED, "--command-config", &st, err, sizeof err), -1);
	alarm(0);
	char *want = xasprintf("--command-config %s: not a regular file", fifo);
	assert_string_equal(err, want);
	free(want);

	char *target = make_file("real", "x\n", 0600), *link = xasprintf("%s/link", test_folder);
	assert_int_equal(symlink(target, link), 0);
	assert_int_equal(ft_open_read(link, FT_OWNED | FT_NOFOLLOW, NULL, &st, err, sizeof err), -1);
	want = xasprintf("refusing %s: a symbolic link (name the file itself)", link);
	assert_string_equal(err, want);
	free(want);
	free(fifo);
	free(target);
	free(link);
}

static void directories(void **state)
{
	(void)state;
	char err[512];
	char *d = xasprintf("%s/state", test_folder), *link = xasprintf("%s/state-link", test_folder);
	assert_int_equal(ft_check_dir(d, err, sizeof err), 1);
	assert_int_equal(mkdir(d, 0700), 0);
	assert_int_equal(ft_check_dir(d, err, sizeof err), 0);
	assert_int_equal(symlink(d, link), 0);
	assert_int_equal(ft_check_dir(link, err, sizeof err), -1);
	assert_non_null(strstr(err, "a symbolic link"));
	chmod(d, 0777);
	assert_int_equal(ft_check_dir(d, err, sizeof err), -1);
	char *want = xasprintf("refusing %s: writable by others (chmod go-w %s)", d, d);
	assert_string_equal(err, want);
	free(want);
	chmod(d, 0700);
	if (give_to_nobody(d)) {
		assert_int_equal(ft_check_dir(d, err, sizeof err), -1);
		assert_non_null(strstr(err, "owned by uid 65534"));
	}
	free(d);
	free(link);
}

static void recordings_are_private(void **state)
{
	(void)state;
	char err[512];
	char *path = xasprintf("%s/r.lagrec", test_folder);
	mode_t old = umask(022);
	rec_writer_opts o = { 0 };
	rec_writer *w = rec_writer_open(path, &o, err, sizeof err);
	umask(old);
	assert_non_null(w);
	struct stat st;
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	assert_int_equal(rec_writer_close(w, err, sizeof err), 0);
	free(path);
}

/* 1 GiB of zeros as one zstd frame that declares its size: about 32 KB. */
static unsigned char *zero_bomb(size_t *len)
{
	const size_t total = 1u << 30, chunk = 1u << 20;
	ZSTD_CCtx *c = ZSTD_createCCtx();
	assert_int_equal(ZSTD_isError(ZSTD_CCtx_setPledgedSrcSize(c, total)), 0);
	size_t cap = 1u << 20, n = 0;
	unsigned char *out = xmalloc(cap), *zeros = xcalloc(1, chunk);
	for (size_t done = 0; done < total; done += chunk) {
		ZSTD_inBuffer in = { zeros, chunk, 0 };
		ZSTD_EndDirective end = done + chunk == total ? ZSTD_e_end : ZSTD_e_continue;
		size_t left;
		do {
			ZSTD_outBuffer ob = { out + n, cap - n, 0 };
			left = ZSTD_compressStream2(c, &ob, &in, end);
			assert_int_equal(ZSTD_isError(left), 0);
			n += ob.pos;
			assert_true(n < cap);
		} while (in.pos < in.size || (end == ZSTD_e_end && left != 0));
	}
	ZSTD_freeCCtx(c);
	free(zeros);
	*len = n;
	return out;
}

/* doc/RECORDING.md's layout: the file header, then one keyframe whose frame header says 1 GiB. */
static void decompression_bomb_refused_before_allocating(void **state)
{
	(void)state;
	size_t zlen;
	unsigned char *z = zero_bomb(&zlen);
	assert_true(zlen < 64 * 1024);
	unsigned char fh[32] = "LAGTOPRC", h[24] = { 'K' };
	fh[8] = 3;   /* version */
	fh[10] = 32; /* header length */
	fh[12] = 17; /* keyframe every */
	test_put_le(fh + 28, crc32c(fh, 28), 4);
	test_put_le(h + 4, (uint32_t)zlen, 4);
	h[8] = 1; /* time */
	test_put_le(h + 16, 1u << 30, 4);
	test_put_le(h + 20, crc32c_update(crc32c_update(0, h, 20), z, zlen), 4);
	char *path = xasprintf("%s/bomb.lagrec", test_folder);
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(fh, 1, 32, f), 32);
	assert_int_equal(fwrite(h, 1, 24, f), 24);
	assert_int_equal(fwrite(z, 1, zlen, f), zlen);
	fclose(f);
	free(z);

	char err[512];
	rec_reader *r = rec_reader_open(path, err, sizeof err);
	assert_non_null(r);
	struct rusage before, after;
	getrusage(RUSAGE_SELF, &before);
	lt_snapshot *s = rec_reader_get(r, 0, err, sizeof err);
	getrusage(RUSAGE_SELF, &after);
	assert_null(s);
	assert_non_null(strstr(err, "is not believable"));
	/* the 1 GiB was never written into (ru_maxrss is in KiB) */
	long grew_mib = (after.ru_maxrss - before.ru_maxrss) / 1024;
	printf("# peak RSS grew %ld MiB while reading the bomb\n", grew_mib);
	assert_true(grew_mib < 64);
	rec_reader_close(r);
	free(path);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test_setup_teardown(owner_and_mode_rule, test_folder_setup, test_folder_teardown),
	cmocka_unit_test_setup_teardown(fifo_and_links_refused_without_blocking, test_folder_setup,
					test_folder_teardown),
	cmocka_unit_test_setup_teardown(directories, test_folder_setup, test_folder_teardown),
	cmocka_unit_test_setup_teardown(recordings_are_private, test_folder_setup, test_folder_teardown),
	cmocka_unit_test_setup_teardown(decompression_bomb_refused_before_allocating, test_folder_setup,
					test_folder_teardown),
};

LT_TEST_MAIN(NULL, NULL)
