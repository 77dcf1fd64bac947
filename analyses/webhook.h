/* Runtime's webhook signatures (docs/formats/runtime.md): a delivery carries
 *   Runtime-Signature: t=<unix seconds>,v1=<hex>[,v1=<hex>…]
 * where each v1 is the hex HMAC-SHA256 of "<t>.<raw body>" keyed with the
 * webhook's secret; during a rotation two v1 values appear (one per secret).
 * A delivery verifies when any v1 matches the HMAC under any of the secrets
 * the caller holds, and its t is within the tolerance of the reference time.
 *
 * Saved deliveries are checked long after they arrived, so "now" says
 * nothing: the reference is the event's own time (its createdAt). A t more
 * than the tolerance before or after it is a signature made for another
 * moment (a replay, or a body that was re-signed) and does not verify. Note
 * that a genuine retry sent later than the tolerance after the event carries
 * a new t and is reported too old as well: a reviewer sees it, with its
 * reason, rather than a silent pass.
 *
 * Secrets are the caller's to find (RUNTIME_WEBHOOK_SECRET, comma-separated):
 * nothing here reads the environment, prints or logs a secret.
 *
 * Ownership: sbx_webhook_secrets holds copies of the secrets, wiped and
 * freed by sbx_webhook_secrets_free. sbx_sig_name returns a static string.
 * Thread-safe: no state besides the arguments. */
#ifndef SBX_WEBHOOK_H
#define SBX_WEBHOOK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* How far (seconds) a signature's t may be from the event's time. */
#define SBX_WEBHOOK_TOLERANCE_S 300

enum sbx_sig {
    SBX_SIG_OK,
    SBX_SIG_NO_HEADER, /* the delivery has no signature header */
    SBX_SIG_MALFORMED, /* no t, a t that is not a number, no v1, or a header that is not text */
    SBX_SIG_MISMATCH,  /* no v1 is the HMAC under any secret */
    SBX_SIG_TOO_OLD,   /* a v1 matches, but t is too far from the event's time: a replay */
    SBX_SIG_UNCHECKED, /* no secret to check with */
};

struct sbx_webhook_secrets {
    unsigned char **key;
    size_t *len;
    size_t n;
};

/* Fills s from a comma-separated list (NULL or empty: none); spaces and tabs
 * around an entry and empty entries are dropped. Returns s->n. */
size_t sbx_webhook_secrets_parse(struct sbx_webhook_secrets *s, const char *list);
void sbx_webhook_secrets_free(struct sbx_webhook_secrets *s);

/* Checks a signature header's value (header == NULL: the header is missing)
 * against body[0..body_len) and the secrets. event_ns is the reference time
 * (ns since the epoch; SBX_TIME_UNKNOWN skips the time check) and tolerance_s
 * the allowed distance. With no secret the result is SBX_SIG_UNCHECKED,
 * whatever the header. off_s (may be NULL) gets t minus the event's time in
 * seconds when a v1 matched and the time was checked, else 0: for
 * SBX_SIG_TOO_OLD, how far from the event the replayed signature was made. */
enum sbx_sig sbx_webhook_verify(const struct sbx_webhook_secrets *s, const char *header,
                                size_t header_len, const char *body, size_t body_len,
                                int64_t event_ns, int64_t tolerance_s, int64_t *off_s);

/* "verified", "no signature header", … (ASCII, static). */
const char *sbx_sig_name(enum sbx_sig r);

/* How a replay is said: "signed 10 min after the event" (off_s: the
 * signature's t minus the event's time, as sbx_webhook_verify gives it),
 * written into the caller's buffer (64 bytes are enough); returns buf. */
char *sbx_webhook_replay_words(int64_t off_s, char *buf, size_t n);

#endif
