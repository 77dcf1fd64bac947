/* Refused hosts in what network clients print, and hosts named in commands.
 *
 * Each client's refusal message is a named PCRE2 pattern that captures the
 * host: curl, wget, git, ssh, pip/python (urllib3), npm/node, apt. The
 * patterns are compiled once (sbx_netpat_new) and shared read-only between
 * threads; each thread brings its own match data (sbx_netpat_scratch).
 *
 * Texts must be valid UTF-8 (decoded JSON strings are).
 *
 * Ownership: callbacks get pointers into the scanned text, valid only during
 * the call. */
#ifndef SBX_REFUSALS_H
#define SBX_REFUSALS_H

#include <stdbool.h>
#include <stddef.h>

struct sbx_netpat;
struct sbx_netpat_scratch;

struct sbx_netpat *sbx_netpat_new(char *err, size_t errsz);
void sbx_netpat_free(struct sbx_netpat *p);
struct sbx_netpat_scratch *sbx_netpat_scratch_new(const struct sbx_netpat *p);
void sbx_netpat_scratch_free(struct sbx_netpat_scratch *s);

struct sbx_refused_hit {
    const char *host;
    size_t host_len;
    const char *line; /* the whole line of text the message is on */
    size_t line_len;
    const char *client; /* "curl", "wget", … (static) */
};

/* Whether text (raw or JSON-escaped) could hold a refusal message at all: a
 * fast pass, false only when sbx_netpat_refusals would find nothing. */
bool sbx_netpat_might_refuse(const char *text, size_t n);

/* Finds refusal messages in text (decoded output); returns how many. */
size_t sbx_netpat_refusals(const struct sbx_netpat *p, struct sbx_netpat_scratch *s,
                           const char *text, size_t n,
                           void (*cb)(const struct sbx_refused_hit *hit, void *ctx), void *ctx);

/* Hosts of the URLs (scheme://[user@]host) and scp-style git@host: remotes in
 * a command line; returns how many. */
size_t sbx_netpat_hosts(const struct sbx_netpat *p, struct sbx_netpat_scratch *s,
                        const char *text, size_t n,
                        void (*cb)(const char *host, size_t len, void *ctx), void *ctx);

#endif
