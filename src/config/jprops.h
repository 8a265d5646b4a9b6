/* jprops.h — Java .properties text (java.util.Properties.load), as kafka-consumer-groups reads its
 * --command-config file, and the sasl.jaas.config value inside it. Pure: text in, pairs out.
 *
 * The format: logical lines made of natural lines (\n, \r or \r\n) joined where a line ends in an odd
 * number of backslashes (the next line's leading blanks dropped); blank lines and lines whose first
 * non-blank character is '#' or '!' are comments; the key runs to the first unescaped '=', ':' or blank,
 * then blanks, at most one '=' or ':', and blanks again are skipped; the rest is the value. Escapes:
 * \t \n \r \f, \uXXXX (any other "\c" is c). Bytes are ISO-8859-1, as Properties.load(InputStream) reads
 * them; keys and values come out in UTF-8. A later key replaces an earlier one, as in Java.
 */
#ifndef LAGTOP_CONFIG_JPROPS_H
#define LAGTOP_CONFIG_JPROPS_H

#include <stddef.h>

struct jprops {
	size_t n;
	char **keys;
	char **values;
	int *lines; /* the (first natural) line of each pair, for messages */
};

/* Parses len bytes of text. Returns 0, or -1 with a one-line error naming the line (a malformed \uXXXX
 * escape, the only error Java's parser knows). props is always safe to jprops_free. */
int jprops_parse(const char *text, size_t len, struct jprops *props, char *err, size_t errlen);
void jprops_free(struct jprops *props);                              /* wipes the values (they may hold passwords) */
const char *jprops_get(const struct jprops *props, const char *key); /* NULL when absent */

/* One JAAS login module entry, as sasl.jaas.config holds it:
 *     org.apache.kafka.common.security.scram.ScramLoginModule required username="u" password="p";
 * module and flag, then name=value options (values quoted with "..." and backslash escapes, or bare words),
 * ended by ';'. */
struct jaas_entry {
	char *module;
	char *flag;
	size_t n;
	char **names;
	char **values;
};

/* Returns 0, or -1 with a one-line error that never quotes a value (they hold passwords). */
int jaas_parse(const char *text, struct jaas_entry *e, char *err, size_t errlen);
void jaas_free(struct jaas_entry *e);
const char *jaas_get(const struct jaas_entry *e, const char *name);

#endif
