/* sbx_http: a small, careful HTTPS client over libcurl for talking to APIs
 * (fetching Runtime's records; posting a summary to a ticket later).
 *
 * What it guarantees for every request (docs/hostile-inputs.md, "HTTPS"):
 *   - https only, also for redirects; redirects are never followed (a 3xx
 *     comes back as a response for the caller to refuse);
 *   - certificate and host name verification always on (ca_file can name a
 *     private CA to trust instead of the system's; nothing switches it off);
 *   - connect and total timeouts; the response body capped at max_body bytes;
 *   - HTTP/2 where the server offers it over TLS (ALPN), else HTTP/1.1;
 *   - a bearer token goes only into the Authorization header — never into a
 *     URL, an error message or the trace, where it is redacted;
 *   - libcurl's verbose trace only through cfg.trace, with Authorization
 *     redacted (libcurl prints it, twice over HTTP/2) and no body bytes.
 * Proxies from the usual environment variables are honoured, as by curl(1).
 *
 * A client keeps its connection between requests (pages of one listing reuse
 * it). One client is used by one thread at a time; separate clients share
 * nothing but libcurl's one-time global initialisation.
 *
 * Ownership: sbx_http_new's client is freed by sbx_http_free; a response's
 * body and header copies belong to the caller (sbx_http_response_free);
 * request strings are only borrowed for the call; error messages go into the
 * caller's buffer and may quote the server's or the TLS library's words
 * (printable or not): sanitise before display. */
#ifndef SBX_HTTP_H
#define SBX_HTTP_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"

#define SBX_HTTP_MAX_BODY_DEFAULT ((size_t)64 << 20)

struct sbx_http_config {
    const char *ca_file;     /* NULL: the system's CAs; else trust only this PEM file's */
    long connect_timeout_ms; /* 0: 10 s */
    long timeout_ms;         /* the whole request, 0: 60 s */
    size_t max_body;         /* 0: SBX_HTTP_MAX_BODY_DEFAULT */
    const char *user_agent;  /* NULL: "sbxview" */
    /* Non-NULL: libcurl's verbose trace, one line per call (no newline),
     * prefixed "* " (info), "> " (sent header) or "< " (received header),
     * Authorization and the token redacted. The text is the server's and
     * libcurl's: sanitise it before display. */
    void (*trace)(void *ctx, const char *line, size_t len);
    void *trace_ctx;
    /* Optional: set (from any thread or a signal handler) to stop a request
     * within about a second. */
    const _Atomic bool *cancel;
};

struct sbx_http;

/* NULL with a reason in err when libcurl cannot be set up. */
struct sbx_http *sbx_http_new(const struct sbx_http_config *cfg, char *err, size_t errsz);
void sbx_http_free(struct sbx_http *h);

struct sbx_http_request {
    const char *method;          /* NULL or "GET"; "POST", "PATCH", "PUT", "DELETE" */
    const char *url;             /* an https:// URL, already escaped */
    const char *bearer;          /* NULL, or the token for "Authorization: Bearer" */
    const char *const *headers;  /* NULL, or extra "Name: value" lines, NULL-terminated */
    const char *body;            /* sent when body_len > 0 or method is not GET */
    size_t body_len;
    /* AWS SigV4 by libcurl (CURLOPT_AWS_SIGV4, e.g. "aws:amz:REGION:s3"):
     * the key id and secret go to libcurl as user name and password (never
     * into the URL); the session token, if any, is sent as
     * x-amz-security-token and redacted as the bearer token is. */
    const char *aws_sigv4, *aws_key_id, *aws_secret, *aws_token;
    size_t max_body;             /* 0: the client's max_body */
    /* Optional: the body of a 2xx answer goes to sink as it arrives, not
     * into resp->body (the other answers' bodies, a store's error, still
     * go there): status is the answer's, at how many of its body's bytes
     * came before data. The bytes reach the sink before the call returns
     * and before anything else of the answer is judged: a failed request's
     * bytes are the caller's to throw away. The sink returns false to stop
     * the transfer (SBX_HTTP_ERROR). max_body caps what it is given. */
    bool (*sink)(void *ctx, long status, const char *data, size_t n, uint64_t at);
    void *sink_ctx;
};

enum sbx_http_result {
    SBX_HTTP_DONE,      /* a whole response arrived (whatever its status code) */
    SBX_HTTP_TIMEOUT,   /* the connect or the total timeout passed */
    SBX_HTTP_CUT,       /* the connection broke before the response was whole */
    SBX_HTTP_TOO_BIG,   /* the body was over max_body (the rest was not read) */
    SBX_HTTP_TLS,       /* TLS failed: certificate, host name, handshake */
    SBX_HTTP_CONNECT,   /* the host could not be resolved or connected to */
    SBX_HTTP_REFUSED,   /* the URL is not https:// or is malformed: nothing was sent */
    SBX_HTTP_CANCELLED, /* *cfg.cancel was set */
    SBX_HTTP_ERROR,     /* anything else */
};

struct sbx_http_response {
    long status;             /* the HTTP status code; 0 without a response */
    int version;             /* what it came over: 1 (HTTP/1.x), 2, 3; 0 without a response */
    struct sbx_buf body;     /* the body (NUL-terminated), at most max_body bytes */
    uint64_t sunk;           /* with a request's sink: the body's bytes it was given */
    /* Header values (NULL when absent), each cut to 1 KiB, as received. */
    char *retry_after, *request_id /* x-request-id */, *location, *content_type;
    /* Rate limits (GitHub, GitLab): x-ratelimit-remaining, x-ratelimit-reset. */
    char *ratelimit_remaining, *ratelimit_reset;
    /* S3: etag, x-amz-bucket-region. */
    char *etag, *bucket_region;
};

/* Sends req and reads the response into *resp (which the caller zeroes
 * before the first use and frees after the last; a response passed again is
 * emptied, its body's memory reused). Anything but
 * SBX_HTTP_DONE comes with a one-line reason in err. */
enum sbx_http_result sbx_http_do(struct sbx_http *h, const struct sbx_http_request *req,
                                 struct sbx_http_response *resp, char *err, size_t errsz);
void sbx_http_response_free(struct sbx_http_response *resp);

/* A Retry-After value (delta-seconds, or an HTTP date compared with now_s,
 * the current Unix time) as milliseconds to wait: 0 for a date in the past,
 * -1 when value is NULL or neither form; at most a day. */
int64_t sbx_http_retry_after_ms(const char *value, int64_t now_s);

/* The trace's redaction of one line, appended to out: everything after the
 * word "authorization" (any case: a header, or libcurl's HTTP/2 note
 * "[authorization: Bearer …]") becomes ": [redacted]", and so does every
 * occurrence of token (if not NULL) before it. */
void sbx_http_redact(struct sbx_buf *out, const char *s, size_t n, const char *token);

/* Appends s[0..n) to out percent-encoded: every byte but A-Z a-z 0-9 - . _ ~
 * becomes %XX, so the result is safe in a query value or a path segment. */
void sbx_http_escape(struct sbx_buf *out, const char *s, size_t n);

#endif
