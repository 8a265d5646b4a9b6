/* regex.c — see regex.h. */
#include "config.h"

#include "util/regex.h"

#include "util/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CAP (REGEX_MAX_COST + 1L)

static long mul(long a, long b)
{
	return a > CAP / (b ? b : 1) ? CAP : a * b;
}

static long add(long a, long b)
{
	return a + b > CAP ? CAP : a + b;
}

/* After an atom: its quantifier (ERE: *, +, ?, {m}, {m,}, {m,n}). Several in a row ("b*++") are
 * undefined in POSIX and take glibc exponential time ("b*++++++*+++++++": 69 s): refused. */
static long quantified(const char **pp, long atom)
{
	const char *p = *pp;
	for (int nq = 0;; nq++) {
		if (nq == 1 && (*p == '*' || *p == '?' || *p == '+' || (*p == '{' && p[1] >= '0' && p[1] <= '9'))) {
			*pp = p;
			return CAP;
		}
		if (*p == '*' || *p == '?') {
			p++;
		} else if (*p == '+') {
			atom = mul(atom, 2);
			p++;
		} else if (*p == '{' && p[1] >= '0' && p[1] <= '9') {
			char *end;
			long m = strtol(p + 1, &end, 10), n = m;
			if (*end == ',') {
				n = end[1] >= '0' && end[1] <= '9' ? strtol(end + 1, &end, 10) : (m + 1);
				if (*end == ',')
					end++;
			}
			if (*end != '}')
				break;
			long b = n > m ? n : m;
			atom = mul(atom, b < 1 ? 1 : (b > CAP ? CAP : b));
			p = end + 1;
		} else {
			break;
		}
	}
	*pp = p;
	return atom;
}

/* A sequence of alternatives up to ')' or the end. */
static long cost_seq(const char **pp, int depth)
{
	const char *p = *pp;
	long total = 0;
	while (*p && total < CAP) {
		long atom = 1;
		if (*p == ')') {
			if (depth > 0)
				break;
			p++;
		} else if (*p == '(') {
			p++;
			atom = add(cost_seq(&p, depth + 1), 1);
			if (*p == ')')
				p++;
		} else if (*p == '[') {
			p++;
			if (*p == '^')
				p++;
			if (*p == ']')
				p++;
			while (*p && *p != ']') {
				if (*p == '[' && (p[1] == ':' || p[1] == '.' || p[1] == '=')) {
					const char *close = strchr(p + 2, ']');
					p = close ? close : p + strlen(p) - 1;
				}
				p++;
			}
			if (*p)
				p++;
		} else if (*p == '\\' && p[1]) {
			p += 2;
		} else {
			p++;
		}
		total = add(total, quantified(&p, atom));
	}
	*pp = p;
	return total;
}

long regex_cost(const char *pattern)
{
	const char *p = pattern;
	return cost_seq(&p, 0);
}

int regex_compile(regex_t *re, const char *pattern, int cflags, char *why, size_t whylen)
{
	if (regex_cost(pattern) > REGEX_MAX_COST) {
		snprintf(why, whylen, "too complex: quantifiers in a row, or {m,n} repetitions too large or nested");
		return -1;
	}
	int rc = regcomp(re, pattern, cflags);
	if (rc != 0) {
		regerror(rc, re, why, whylen);
		return -1;
	}
	return 0;
}

char *regex_for_exact(const char *id)
{
	size_t n = strlen(id);
	char *re = xmalloc(2 * n + 3), *w = re;
	*w++ = '^';
	for (const char *p = id; *p; p++) {
		if (strchr(".[]()*+?{}|^$\\", *p))
			*w++ = '\\';
		*w++ = *p;
	}
	*w++ = '$';
	*w = '\0';
	return re;
}
