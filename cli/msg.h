/* What the command line says on stderr: every message starts with the
 * program and the sub-command it is about ("sbxview: ", "sbxview summary: "),
 * is redacted and sanitised (it may quote paths and values from logs), and
 * under a locale that is not UTF-8 is ASCII only (base/asciifold.h, then
 * the sanitiser's ASCII mode). Usage errors are GNU's: one line naming the
 * bad option or value, then "Try 'sbxview --help' for more information.",
 * and exit status 2. Internal to cli/.
 *
 * Ownership: nothing to free; sbx_msg_prog's string is static or valid
 * until the next sbx_msg_set_command. Not thread-safe: main sets the
 * command once, before anything runs. */
#ifndef SBX_CLI_MSG_H
#define SBX_CLI_MSG_H

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

#include "base/buf.h"

/* The sub-command messages are about (NULL: the review, "sbxview"). */
void sbx_msg_set_command(const char *name);
/* "sbxview" or "sbxview NAME". */
const char *sbx_msg_prog(void);
/* Whether stderr must be ASCII only: the locale's character set is not UTF-8. */
bool sbx_msg_ascii(void);

/* "PROG: MSG" on stderr, MSG redacted, sanitised and folded as above.
 * Safe from several threads (a fetch behind the interface warns from its
 * pool). */
void sbx_warn(const char *msg);
/* While held (the interface has the terminal), warnings are kept, in
 * order; sbx_msg_hold(false) writes them out. */
void sbx_msg_hold(bool hold);
void sbx_errf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* msg as sbx_warn writes it (without the prefix), appended to out. */
void sbx_msg_text(struct sbx_buf *out, const char *msg);

/* A usage error: "PROG: MSG", then the line that points to --help.
 * Returns the usage exit status (2). */
int sbx_usage_errorf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "PROG: invalid WHAT 'VALUE' (expected EXPECTED)" and the --help line;
 * returns 2. */
int sbx_bad_value(const char *what, const char *value, const char *expected);
/* What getopt_long returned for a bad option ('?' or ':' with opterr 0 and
 * an optstring starting "-:" or ":"), told as GNU tells it: unrecognized,
 * ambiguous, taking no argument, or wanting one. Returns 2. */
int sbx_bad_option(int c, char **argv, const struct option *longopts);
/* The few lines bare `sbxview` prints: the forms, then the --help line. */
void sbx_short_usage(FILE *to);

#endif
