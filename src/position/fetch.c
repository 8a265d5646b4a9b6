/* fetch.c — position sources' bytes: libcurl for URLs, read(2) for files (fetch.h). */
#include "position/fetch.h"

#include <curl/curl.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/timeutil.h"
#include "util/xalloc.h"

bool pos_location_is_url(const char *location)
{
	return !strncmp(location, "http://", 7) || !strncmp(location, "https://", 8);
}

void pos_fetch_clear(lt_pos_fetch *f)
{
	free(f->body);
	f->body = NULL;
	f->len = 0;
}

static void read_file(lt_pos_fetch *f, size_t max_bytes)
{
	/* O_NONBLOCK: a FIFO named by mistake must not hang the collector (it is refused below) */
	int fd = open(f->location, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		snprintf(f->status, sizeof f->status, "cannot read: %s", strerror(errno));
		return;
	}
	struct stat st;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		snprintf(f->status, sizeof f->status, "not a regular file");
		close(fd);
		return;
	}
	f->mtime_ms = (int64_t)st.st_mtim.tv_sec * 1000 + st.st_mtim.tv_nsec / 1000000;
	if ((uint64_t)st.st_size > max_bytes) {
		snprintf(f->status, sizeof f->status, "too large: %lld bytes, over %zu", (long long)st.st_size,
			 max_bytes);
		close(fd);
		return;
	}
	size_t cap = (size_t)st.st_size + 1, len = 0;
	char *buf = xmalloc(cap + 1);
	for (;;) { /* the file may grow while it is read: never past max_bytes */
		ssize_t r = read(fd, buf + len, cap - len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			snprintf(f->status, sizeof f->status, "cannot read: %s", strerror(errno));
			free(buf);
			close(fd);
			return;
		}
		if (r == 0)
			break;
		len += (size_t)r;
		if (len > max_bytes) {
			snprintf(f->status, sizeof f->status, "too large: over %zu bytes", max_bytes);
			free(buf);
			close(fd);
			return;
		}
		if (len == cap) { /* it grew since fstat */
			cap += cap / 2 + 4096;
			buf = xrealloc(buf, cap + 1);
		}
	}
	close(fd);
	buf[len] = '\0';
	f->body = buf;
	f->len = len;
}

struct transfer {
	lt_pos_fetch *f;
	CURL *easy;
	size_t cap, max_bytes;
	bool too_large;
	char errbuf[CURL_ERROR_SIZE];
};

static size_t on_data(char *ptr, size_t size, size_t nmemb, void *ud)
{
	struct transfer *t = ud;
	size_t n = size * nmemb;
	if (t->f->len + n > t->max_bytes) {
		t->too_large = true;
		return 0; /* aborts the transfer: CURLE_WRITE_ERROR */
	}
	if (t->f->len + n + 1 > t->cap) {
		size_t cap = t->cap;
		t->f->body = xgrow(t->f->body, &cap, t->f->len + n + 1, 1);
		t->cap = cap;
	}
	memcpy(t->f->body + t->f->len, ptr, n);
	t->f->len += n;
	t->f->body[t->f->len] = '\0';
	return n;
}

static pthread_once_t curl_once = PTHREAD_ONCE_INIT;
static void curl_init(void)
{
	curl_global_init(CURL_GLOBAL_DEFAULT);
}

static void finish(struct transfer *t, CURLcode rc, int timeout_ms)
{
	lt_pos_fetch *f = t->f;
	long http = 0;
	curl_easy_getinfo(t->easy, CURLINFO_RESPONSE_CODE, &http);
	if (t->too_large)
		snprintf(f->status, sizeof f->status, "too large: over %zu bytes", t->max_bytes);
	else if (rc == CURLE_FILESIZE_EXCEEDED)
		snprintf(f->status, sizeof f->status, "too large: over %zu bytes (Content-Length)", t->max_bytes);
	else if (rc == CURLE_OPERATION_TIMEDOUT)
		snprintf(f->status, sizeof f->status, "timeout after %d ms", timeout_ms);
	else if (rc == CURLE_COULDNT_CONNECT || rc == CURLE_COULDNT_RESOLVE_HOST || rc == CURLE_COULDNT_RESOLVE_PROXY)
		snprintf(f->status, sizeof f->status, "unreachable: %.150s",
			 t->errbuf[0] ? t->errbuf : curl_easy_strerror(rc));
	else if (rc != CURLE_OK)
		snprintf(f->status, sizeof f->status, "failed: %.150s",
			 t->errbuf[0] ? t->errbuf : curl_easy_strerror(rc));
	else if (http < 200 || http > 299)
		snprintf(f->status, sizeof f->status, "HTTP %ld", http);
	if (f->status[0])
		pos_fetch_clear(f);
	else if (!f->body)
		f->body = xstrdup(""); /* an empty 200 */
}

void pos_fetch_all(lt_pos_fetch *f, size_t n, int timeout_ms, int64_t deadline_ms, size_t max_bytes, const bool *stop)
{
	size_t n_urls = 0;
	for (size_t i = 0; i < n; i++) {
		f[i].body = NULL;
		f[i].len = 0;
		f[i].mtime_ms = -1;
		f[i].status[0] = '\0';
		if (pos_location_is_url(f[i].location))
			n_urls++;
		else
			read_file(&f[i], max_bytes);
	}
	if (!n_urls)
		return;
	pthread_once(&curl_once, curl_init);
	int64_t now = now_mono_ms();
	long budget = timeout_ms;
	if (deadline_ms > 0 && deadline_ms - now < budget)
		budget = deadline_ms - now > 1 ? (long)(deadline_ms - now) : 1;
	CURLM *multi = curl_multi_init();
	struct transfer *t = xcalloc(n_urls, sizeof *t);
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		if (!pos_location_is_url(f[i].location))
			continue;
		struct transfer *x = &t[k++];
		x->f = &f[i];
		x->max_bytes = max_bytes;
		x->easy = curl_easy_init();
		curl_easy_setopt(x->easy, CURLOPT_URL, f[i].location);
		curl_easy_setopt(x->easy, CURLOPT_PROTOCOLS_STR, "http,https");
		curl_easy_setopt(x->easy, CURLOPT_NOSIGNAL, 1L); /* threads: no SIGALRM for DNS timeouts */
		curl_easy_setopt(x->easy, CURLOPT_TIMEOUT_MS, budget);
		curl_easy_setopt(x->easy, CURLOPT_CONNECTTIMEOUT_MS, budget);
		curl_easy_setopt(x->easy, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)max_bytes);
		curl_easy_setopt(x->easy, CURLOPT_ACCEPT_ENCODING,
				 ""); /* gzip if offered; the limit counts decoded bytes */
		curl_easy_setopt(x->easy, CURLOPT_USERAGENT, "lagtop");
		curl_easy_setopt(x->easy, CURLOPT_WRITEFUNCTION, on_data);
		curl_easy_setopt(x->easy, CURLOPT_WRITEDATA, x);
		curl_easy_setopt(x->easy, CURLOPT_ERRORBUFFER, x->errbuf);
		curl_easy_setopt(x->easy, CURLOPT_PRIVATE, x);
		curl_multi_add_handle(multi, x->easy);
	}
	int running = 1;
	while (running) {
		curl_multi_perform(multi, &running);
		CURLMsg *m;
		int left;
		while ((m = curl_multi_info_read(multi, &left))) {
			if (m->msg != CURLMSG_DONE)
				continue;
			struct transfer *x;
			curl_easy_getinfo(m->easy_handle, CURLINFO_PRIVATE, (char **)&x);
			finish(x, m->data.result, (int)budget);
			curl_multi_remove_handle(multi, x->easy);
			curl_easy_cleanup(x->easy);
			x->easy = NULL;
		}
		if (!running)
			break;
		if (stop && __atomic_load_n(stop, __ATOMIC_RELAXED))
			break;
		curl_multi_poll(multi, NULL, 0, 100, NULL); /* 100 ms slices: the stop flag is seen in time */
	}
	for (size_t i = 0; i < n_urls; i++) { /* what is left was stopped */
		if (!t[i].easy)
			continue;
		pos_fetch_clear(t[i].f);
		snprintf(t[i].f->status, sizeof t[i].f->status, "stopped");
		curl_multi_remove_handle(multi, t[i].easy);
		curl_easy_cleanup(t[i].easy);
	}
	free(t);
	curl_multi_cleanup(multi);
}
