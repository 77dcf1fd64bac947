/* sbx_secrets: finds credential-shaped strings in command lines and output,
 * masks them for display and redacts them for exports.
 *
 * Contract
 * - The scanned text may be plain or still JSON-escaped (a literal backslash-n
 *   for a newline): a backslash always ends a token, and `\n`, `\"` before a
 *   token or inside a PEM body are understood.
 * - Prefix kinds (github-token … jwt, private-key) are recognised by their
 *   literal prefix and shape. Context kinds (authorization-header, password,
 *   token-assignment, url-password, aws-secret-key) by the key or header that
 *   precedes the value; only the value is reported ("password=" is not).
 *   When a context value is itself a prefix-kind token, the prefix kind wins.
 * - Placeholders are never reported: for context kinds, a value that starts
 *   with `$ < % { [`, is one repeated character, contains `***`, `xxxx`,
 *   `${`, `{{`, `<`, `>`, `...`, "changeme", "placeholder", "redact" or
 *   "your", is a placeholder word (password, secret, token, example, null,
 *   true, …), or is a code reference (`self.password`, `get_token(`,
 *   `GITHUB_TOKEN` as a value). Substrings never excuse an otherwise
 *   credential-shaped value: AWS's documented key
 *   `wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY` IS reported (agents paste it
 *   and real logs carry it; "EXAMPLE" is not a placeholder word by itself).
 *   Prefix kinds need their body to look random: Shannon entropy at least
 *   min(3.0, log2(len) - 1) bits per char, so `ghp_xxxx…` is not reported
 *   (JWTs and private keys excepted: their structure is decisive).
 * - Entropy floor for context values: min(3.5, log2(len) - 0.6) bits per
 *   char (a string of len distinct chars has log2(len) bits, so 3.5 applies
 *   from 20 chars on). After a password key or in a URL (strong context) it
 *   is 0.3 lower and at most 3.0, so a passphrase ("correct horse battery",
 *   3.27 bits) counts. Minimum lengths: 6 for password and url-password, 8
 *   for the others. So "password123" after `--password=` IS reported (it is
 *   the credential used: 3.28 bits >= 2.56); "password", "changeme",
 *   "xxxxxxxx", "aaaa1111" (2.0 bits), "testtest" are not.
 * - Values: a quoted value runs to its closing quote (spaces allowed); an
 *   unquoted one stops at a space, quote, backslash, shell punctuation,
 *   "=" or ":" (a trailing base64 "=" padding is kept), at most 512 bytes.
 *   Only printable ASCII is ever part of a secret.
 * - Clipped tokens: the recorder keeps the head and tail of long output with
 *   `\n[...]\n` between. A prefix-kind token whose body was cut still counts
 *   when its prefix and at least 8 body characters remain and the cut body
 *   is followed by the end of the text or the clip marker (plain or
 *   JSON-escaped); the hit carries SBX_SECRET_HIT_CUT. A PEM private key
 *   runs to its END line, or, with no END line, to the end of its base64
 *   body (which ends at the end of the text or the clip marker); an END
 *   line whose BEGIN was clipped away is reported with the body before it.
 * - Work is linear in the text size: a prefilter (SIMD on x86: AVX2 or
 *   SSSE3, chosen at run time) finds candidate positions from a 64 Ki-entry
 *   table of two-byte anchors, a literal check and a memoised character-run
 *   check reject most, and only then a PCRE2 pattern (JIT, anchored,
 *   possessive, match-limited) confirms within a bounded window. A 64 KiB
 *   hostile line costs milliseconds; see sbx_secrets_scratch_work().
 *
 * Masks (for display; exports use sbx_secrets_redact): the recognisable
 * prefix, an ellipsis "…" (U+2026), and the last 2 characters: `ghp_…AB`.
 * Prefix-less kinds show `…AB`. When the part after the prefix is shorter
 * than 12 characters no tail is shown: `ghp_…` or, without a prefix,
 * `[redacted]`. A private key shows its BEGIN line and, if present, its END
 * line: `-----BEGIN RSA PRIVATE KEY-----…-----END RSA PRIVATE KEY-----`.
 * A mask only ever copies bytes from the secret's start and end.
 *
 * Threads: an sbx_secrets is built once and then only read, so one can be
 * shared by any number of threads; each thread needs its own scratch.
 *
 * Ownership: sbx_secrets_new() returns an object the caller frees with
 * sbx_secrets_free(); sbx_secrets_scratch_new() one freed with
 * sbx_secrets_scratch_free(). sbx_secret_kind_name() returns a static
 * string (nothing to free). Hits passed to a callback are valid during the
 * call only. Text is never modified or kept. */
#ifndef SBX_SECRETS_H
#define SBX_SECRETS_H

#include <stdbool.h>
#include <stddef.h>

#include "base/buf.h"

/* Kind numbers; the names (sbx_secret_kind_name) are part of the JSON output
 * contract and never change. */
enum sbx_secret_kind {
    SBX_SECRET_GITHUB_TOKEN,
    SBX_SECRET_GITLAB_TOKEN,
    SBX_SECRET_AWS_ACCESS_KEY_ID,
    SBX_SECRET_AWS_SECRET_KEY,
    SBX_SECRET_SLACK_TOKEN,
    SBX_SECRET_SLACK_WEBHOOK,
    SBX_SECRET_OPENAI_KEY,
    SBX_SECRET_ANTHROPIC_KEY,
    SBX_SECRET_STRIPE_KEY,
    SBX_SECRET_GOOGLE_API_KEY,
    SBX_SECRET_HUGGINGFACE_TOKEN,
    SBX_SECRET_NPM_TOKEN,
    SBX_SECRET_PRIVATE_KEY,
    SBX_SECRET_JWT,
    SBX_SECRET_AUTHORIZATION_HEADER,
    SBX_SECRET_PASSWORD,
    SBX_SECRET_TOKEN_ASSIGNMENT,
    SBX_SECRET_URL_PASSWORD,
    SBX_SECRET_KIND_COUNT
};

/* Hit flag: only part of the secret is in the text (cut by the recorder's
 * clip or the end of the text, or a PEM key without its BEGIN or END). */
#define SBX_SECRET_HIT_CUT 1u

/* Room for any mask, NUL included. */
#define SBX_SECRET_MASK_MAX 256

struct sbx_secrets;         /* compiled patterns; read-only once built */
struct sbx_secrets_scratch; /* per-thread match data */

/* The secret's bytes within the scanned text: the value only. */
struct sbx_secret_hit {
    unsigned kind; /* enum sbx_secret_kind */
    size_t off, len;
    unsigned flags; /* SBX_SECRET_HIT_* */
};

/* NULL and a message in err (if errsz > 0) on failure. */
struct sbx_secrets *sbx_secrets_new(char *err, size_t errsz);
/* The same with flags: SBX_SECRETS_PORTABLE uses the plain C prefilter
 * instead of SIMD (AVX2 or SSSE3, picked at run time on x86); results are
 * identical, only slower. For tests and benchmarks. */
#define SBX_SECRETS_PORTABLE 1u
struct sbx_secrets *sbx_secrets_new_with(unsigned flags, char *err, size_t errsz);
void sbx_secrets_free(struct sbx_secrets *s);

struct sbx_secrets_scratch *sbx_secrets_scratch_new(const struct sbx_secrets *s);
void sbx_secrets_scratch_free(struct sbx_secrets_scratch *sc);

/* Finds the secrets in text[0..n) (which need not be NUL-terminated) and
 * calls cb (if not NULL) for each, in order of offset, never overlapping.
 * Returns the number found. */
size_t sbx_secrets_scan(const struct sbx_secrets *s, struct sbx_secrets_scratch *sc,
                        const char *text, size_t n,
                        void (*cb)(const struct sbx_secret_hit *hit, void *ctx), void *ctx);

/* Bytes examined by the last sbx_secrets_scan() with this scratch (the
 * prefilter's pass plus every window and run looked at after it): an upper
 * bound on the scan's work, so tests can check it stays linear in the text
 * size without timing anything. */
size_t sbx_secrets_scratch_work(const struct sbx_secrets_scratch *sc);

/* "github-token" etc.; "unknown" for a number out of range. */
const char *sbx_secret_kind_name(unsigned kind);
size_t sbx_secret_kind_count(void);

/* The masked form of a secret's bytes into out (always NUL-terminated when
 * cap > 0; truncated to cap - 1 bytes, never inside the "…"). Returns the
 * number of bytes written, NUL excluded. */
size_t sbx_secret_mask(unsigned kind, const char *secret, size_t n, char *out, size_t cap);

/* Appends text to out with every secret replaced by its mask. Every other
 * occurrence in the same text of a secret found there (8+ bytes) is
 * replaced too (e.g. a password echoed later), for at least the first 64
 * distinct secrets (more on small texts: up to 16 MiB of searching).
 * Touching or overlapping spans share one mask. Where a mask would itself
 * show a found secret (inside a long prefix) or could join the text around
 * it into one ("[redacted]" next to a secret with a bracket), a bare "…"
 * is written instead: the output never contains a searched secret of 9+
 * bytes. Text without a capital letter (a host name, lowered) is searched
 * in its upper-case form too, and what is found there is masked, lowered:
 * an AWS key id lowered is the key id still. Uses a temporary n-byte map.
 * Returns the number of masks written. */
size_t sbx_secrets_redact(const struct sbx_secrets *s, struct sbx_secrets_scratch *sc,
                          const char *text, size_t n, struct sbx_buf *out);

/* The same with the process's shared patterns, for every output of log text
 * (render/untrusted.h, the unread reasons): compiled on first use, safe from
 * any thread (each gets its own scratch, freed when the thread ends). The
 * patterns are static: never freed. A build whose patterns do not compile
 * aborts rather than print text unredacted. */
const struct sbx_secrets *sbx_secrets_shared(void);
size_t sbx_secrets_redact_any(const char *text, size_t n, struct sbx_buf *out);

/* Helpers the scanner uses, public for tests and for callers that want the
 * same judgement: Shannon entropy of bytes in bits per byte (0 for n == 0);
 * the floor a context value of len bytes must reach, min(3.5,
 * log2(len) - 0.6) (prefix-kind bodies need min(3.0, floor - 0.4)); and
 * whether a context value is a placeholder (see the contract above). */
double sbx_secret_entropy(const char *s, size_t n);
double sbx_secret_entropy_floor(size_t len);
bool sbx_secret_is_placeholder(const char *value, size_t n);

#endif
