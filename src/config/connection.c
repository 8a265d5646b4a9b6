/* connection.c — see connection.h. */
#include "config/connection.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

static bool key_is(const char *have, const char *key, size_t keylen)
{
	return strlen(have) == keylen && strncmp(have, key, keylen) == 0;
}

bool connection_is_bootstrap_key(const char *key, size_t keylen)
{
	return key_is(LT_BOOTSTRAP_PROPERTY, key, keylen);
}

void connection_set(struct lt_connection *c, const char *key, size_t keylen, const char *value)
{
	if (connection_is_bootstrap_key(key, keylen)) {
		free(c->bootstrap);
		c->bootstrap = xstrdup(value);
		return;
	}
	for (size_t i = 0; i < c->n_props; i++) {
		if (key_is(c->prop_keys[i], key, keylen)) {
			explicit_bzero(c->prop_values[i], strlen(c->prop_values[i]));
			free(c->prop_values[i]);
			c->prop_values[i] = xstrdup(value);
			return;
		}
	}
	c->prop_keys = xrealloc(c->prop_keys, (c->n_props + 2) * sizeof *c->prop_keys);
	c->prop_values = xrealloc(c->prop_values, (c->n_props + 2) * sizeof *c->prop_values);
	c->prop_keys[c->n_props] = xstrndup(key, keylen);
	c->prop_values[c->n_props] = xstrdup(value);
	c->n_props++;
	c->prop_keys[c->n_props] = c->prop_values[c->n_props] = NULL; /* NULL-terminated, as librdkafka lists are */
}

bool connection_has(const struct lt_connection *c, const char *key, size_t keylen)
{
	for (size_t i = 0; i < c->n_props; i++)
		if (key_is(c->prop_keys[i], key, keylen))
			return true;
	return false;
}

const char *connection_name(const struct lt_connection *c)
{
	if (c->name)
		return c->name;
	return c->bootstrap && *c->bootstrap ? c->bootstrap : "-";
}

void connection_copy(struct lt_connection *dst, const struct lt_connection *src)
{
	memset(dst, 0, sizeof *dst);
	dst->name = src->name ? xstrdup(src->name) : NULL;
	dst->bootstrap = src->bootstrap ? xstrdup(src->bootstrap) : NULL;
	for (size_t i = 0; i < src->n_props; i++)
		connection_set(dst, src->prop_keys[i], strlen(src->prop_keys[i]), src->prop_values[i]);
}

void connection_free(struct lt_connection *c)
{
	for (size_t i = 0; i < c->n_props; i++) {
		free(c->prop_keys[i]);
		explicit_bzero(c->prop_values[i], strlen(c->prop_values[i]));
		free(c->prop_values[i]);
	}
	free(c->prop_keys);
	free(c->prop_values);
	free(c->name);
	free(c->bootstrap);
	memset(c, 0, sizeof *c);
}
