/* An argument vector kept as JSON (sandboxio's "argv", ["curl","-fsS","x"])
 * shown as the command line a person would type: the words joined by
 * spaces, each quoted for a POSIX shell only when it needs it.
 *
 * Quoting: a word of letters, digits and @%+=:,./-_ (and bytes >= 0x80) is
 * written as it is, and so are runs of exactly three '*' (sandboxio's mark
 * of a redacted value: `***`, `--token=***`); an empty word is ''. Any other
 * word is put in '…' ('\'' for a quote inside), or in "…" when it holds a
 * single quote that "…" keeps literally (no " $ ` and no backslash before
 * one of those, a backslash or a newline). Control characters stay as they
 * are (inside the quotes): sanitise before display.
 *
 * Owns nothing; no state: safe from any thread. */
#ifndef SBX_ARGV_H
#define SBX_ARGV_H

#include <stdbool.h>
#include <stddef.h>

/* How many bytes sbx_argv_format may write for json of n bytes. */
#define SBX_ARGV_MAX(n) (4 * (size_t)(n) + 1)

/* Writes the command line of the JSON array of strings json[0..n) (spaces
 * around the tokens allowed) to dst, which holds SBX_ARGV_MAX(n) bytes and
 * may not overlap json. Returns its length (not NUL-terminated), or
 * (size_t)-1 when json is not exactly one array of strings (dst's contents
 * are then unspecified). */
size_t sbx_argv_format(const char *json, size_t n, char *dst);

/* Whether word w[0..n) is written without quotes (the rule above). */
bool sbx_argv_word_plain(const char *w, size_t n);

#endif
