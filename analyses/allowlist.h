/* The host allow list (--allow-list FILE): the hosts a run may reach.
 *
 * The file holds one host a line; '#' starts a comment (to the line's end),
 * blank lines are fine. "*.example.com" allows example.com and every name
 * under it; any other entry allows exactly that host. Names compare without
 * regard to ASCII case, a trailing dot, or a port ("host:443",
 * "[2001:db8::1]:443"); an IPv6 address may be written with or without its
 * brackets; international names are compared as given (no punycode
 * conversion). An entry that is not a host (a URL, a path, spaces inside, a
 * '*' that is not a whole first label, an empty label) is an error naming its
 * line.
 *
 * A list is immutable once made: share it between threads freely.
 * Ownership: sbx_allowlist_parse and sbx_allowlist_load return a list the
 * caller frees with sbx_allowlist_free; errors are written into the
 * caller's buffer. */
#ifndef SBX_ALLOWLIST_H
#define SBX_ALLOWLIST_H

#include <stdbool.h>
#include <stddef.h>

struct sbx_allowlist;

/* The list in text[0..len); NULL with "NAME:LINE: reason" in err (name is
 * what messages call the text: the file's path). */
struct sbx_allowlist *sbx_allowlist_parse(const char *text, size_t len, const char *name,
                                          char *err, size_t errsz);
/* The list in the file at path; NULL with "PATH: reason" or
 * "PATH:LINE: reason" in err. */
struct sbx_allowlist *sbx_allowlist_load(const char *path, char *err, size_t errsz);
void sbx_allowlist_free(struct sbx_allowlist *a);

/* Entries the list holds (exact hosts and domains). */
size_t sbx_allowlist_size(const struct sbx_allowlist *a);

/* Whether host[0..len) is on the list; the host is normalised as the
 * entries are (case, trailing dot, port, brackets). */
bool sbx_allowlist_allows(const struct sbx_allowlist *a, const char *host, size_t len);

#endif
