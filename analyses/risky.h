/* Risky command patterns (docs/risky-commands.md): a command line read with
 * the shell's quoting (model/shell.h) and each simple command tried against
 * the rules, one finding kind each: SBX_F_PIPED_TO_SHELL,
 * SBX_F_METADATA_ENDPOINT, SBX_F_HOSTS_REDIRECT, SBX_F_PERSISTENCE,
 * SBX_F_LOG_TAMPERING, SBX_F_TLS_OFF, SBX_F_CREDENTIAL_READ,
 * SBX_F_URL_INSTALL (SBX_F_RISKY, all of them). A quick look for the words
 * every rule needs comes first, so an ordinary command is never tokenized.
 *
 * Ownership: a scanner is the caller's (sbx_risky_scanner_new, _free); one
 * per thread. It copies the log names it is given. The reasons written into
 * a struct sbx_risky_why are sbxview's words with the log's text they quote
 * (a path, a host): hostile, unredacted, unsanitised. */
#ifndef SBX_RISKY_H
#define SBX_RISKY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/findings.h"

#define SBX_F_RISKY                                                                            \
    (SBX_F_PIPED_TO_SHELL | SBX_F_METADATA_ENDPOINT | SBX_F_HOSTS_REDIRECT | SBX_F_PERSISTENCE | \
     SBX_F_LOG_TAMPERING | SBX_F_TLS_OFF | SBX_F_CREDENTIAL_READ | SBX_F_URL_INSTALL)

enum { SBX_RISKY_WHY_MAX = 200 };

/* The first reason found for each kind, by its rank among the risky rows. */
struct sbx_risky_why {
    uint32_t kinds;
    char why[8][SBX_RISKY_WHY_MAX];
};

struct sbx_risky_scanner;

/* logs: the names of the run's own logs (basenames, e.g. "agent-run.jsonl"),
 * whose removal, truncation or rewrite is log tampering; may be NULL. */
struct sbx_risky_scanner *sbx_risky_scanner_new(const char *const *logs, size_t nlogs);
void sbx_risky_scanner_free(struct sbx_risky_scanner *s);

/* The risky kinds of the command line cmd[0..n); why (may be NULL) gets the
 * first reason of each (why->kinds is the result too). */
uint32_t sbx_risky_command(struct sbx_risky_scanner *s, const char *cmd, size_t n,
                           struct sbx_risky_why *why);

/* The work the last sbx_risky_command on s did: the bytes read and
 * written while reading the line, its words, commands and redirections,
 * and each word a rule read. It grows linearly with the line whatever it
 * holds; the tests check that instead of timing. */
size_t sbx_risky_work(const struct sbx_risky_scanner *s);

/* The prefilter alone: false when no rule can fire on text[0..n). It may
 * be given a command's JSON-escaped bytes as stored when they hold no \u
 * escape (removing quotes and backslashes, as it does, never takes a
 * needle's letters away). sbx_risky_command runs it first. */
bool sbx_risky_might(struct sbx_risky_scanner *s, const char *text, size_t n);

/* The slot of one risky kind in struct sbx_risky_why (0..7). */
size_t sbx_risky_slot(uint32_t kind);

/* Whether host[0..n) (lower case, no port; an IPv6 address bare or in
 * brackets) is a cloud metadata endpoint. */
bool sbx_risky_metadata_host(const char *host, size_t n);

/* Hosts-file text (lines "ADDRESS NAME…", '#' comments): whether a line maps
 * a registry, source or API host (the table in docs/risky-commands.md, or a
 * name under one); the first such line is written into why (cut). */
bool sbx_risky_hosts_text(const char *text, size_t n, char *why, size_t whysz);

#endif
