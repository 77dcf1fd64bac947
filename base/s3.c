#include "base/s3.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <openssl/evp.h>

#include "base/http.h"
#include "base/s3_place.h"

#define EMPTY_SHA256 "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
#define LIST_MAX_BODY ((size_t)16 << 20)
#define WAIT_MAX_MS 20000

struct sbx_s3 {
    struct sbx_http *http;
    char *access_key, *secret_key, *session_token, *region, *endpoint;
    int retries;
    long backoff_ms;
    unsigned long resumed; /* reads resumed with a Range */
};

static char *dup_or_null(const char *s)
{
    return s ? sbx_xstrndup(s, strlen(s)) : NULL;
}

static void wipe_free(char *s)
{
    if (s)
        explicit_bzero(s, strlen(s));
    free(s);
}

struct sbx_s3 *sbx_s3_new(const struct sbx_s3_config *cfg, char *err, size_t errsz)
{
    if (!cfg->access_key || !*cfg->access_key || !cfg->secret_key || !*cfg->secret_key) {
        snprintf(err, errsz, "no S3 credentials (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, "
                             "or a profile in ~/.aws/credentials)");
        return NULL;
    }
    if (cfg->endpoint && strncasecmp(cfg->endpoint, "https://", 8) != 0) {
        snprintf(err, errsz, "the S3 endpoint must be an https:// URL");
        return NULL;
    }
    struct sbx_http_config hc = {.ca_file = cfg->ca_file, .cancel = cfg->cancel,
                                 .max_body = LIST_MAX_BODY};
    struct sbx_http *h = sbx_http_new(&hc, err, errsz);
    if (!h)
        return NULL;
    struct sbx_s3 *s = calloc(1, sizeof *s);
    if (!s)
        abort();
    s->http = h;
    s->access_key = dup_or_null(cfg->access_key);
    s->secret_key = dup_or_null(cfg->secret_key);
    s->session_token = dup_or_null(cfg->session_token);
    s->region = dup_or_null(cfg->region && *cfg->region ? cfg->region : "us-east-1");
    s->endpoint = dup_or_null(cfg->endpoint);
    if (s->endpoint) {
        size_t n = strlen(s->endpoint);
        while (n > 8 && s->endpoint[n - 1] == '/')
            s->endpoint[--n] = '\0';
    }
    s->retries = cfg->retries == 0 ? 4 : cfg->retries < 0 ? 0 : cfg->retries;
    s->backoff_ms = cfg->backoff_ms > 0 ? cfg->backoff_ms : 250;
    return s;
}

void sbx_s3_free(struct sbx_s3 *s)
{
    if (!s)
        return;
    sbx_http_free(s->http);
    free(s->access_key);
    wipe_free(s->secret_key);
    wipe_free(s->session_token);
    free(s->region);
    free(s->endpoint);
    free(s);
}

const char *sbx_s3_region(const struct sbx_s3 *s)
{
    return s->region;
}

/* S3's bucket naming rules: 3 to 63 of a-z 0-9 . -, starting and ending
 * with a letter or digit. */
static bool valid_bucket(const char *b, size_t n)
{
    if (n < 3 || n > 63 || !isalnum((unsigned char)b[0]) || !isalnum((unsigned char)b[n - 1]))
        return false;
    for (size_t i = 0; i < n; i++)
        if (!(islower((unsigned char)b[i]) || isdigit((unsigned char)b[i]) || b[i] == '.' ||
              b[i] == '-'))
            return false;
    return true;
}

bool sbx_s3_parse_url(const char *url, char **bucket, char **key)
{
    *bucket = *key = NULL;
    if (strncmp(url, "s3://", 5) != 0)
        return false;
    const char *b = url + 5, *slash = strchr(b, '/');
    size_t bl = slash ? (size_t)(slash - b) : strlen(b);
    if (!valid_bucket(b, bl))
        return false;
    *bucket = sbx_xstrndup(b, bl);
    *key = sbx_xstrndup(slash ? slash + 1 : "", slash ? strlen(slash + 1) : 0);
    return true;
}

/* The key's path, each byte but the unreserved ones and '/' percent-encoded:
 * the form SigV4's canonical URI takes for S3, so libcurl and the store agree. */
static void add_key_path(struct sbx_buf *u, const char *key)
{
    for (const char *k = key; *k;) {
        const char *slash = strchr(k, '/');
        size_t n = slash ? (size_t)(slash - k) : strlen(k);
        sbx_http_escape(u, k, n);
        k += n;
        if (slash) {
            sbx_buf_addc(u, '/');
            k++;
        }
    }
}

static void build_url(const struct sbx_s3 *s, struct sbx_buf *u, const char *bucket,
                      const char *key)
{
    if (s->endpoint)
        sbx_buf_addf(u, "%s/%s/", s->endpoint, bucket);
    else
        sbx_buf_addf(u, "https://%s.s3.%s.amazonaws.com/", bucket, s->region);
    if (key)
        add_key_path(u, key);
}

static void sha256_hex(const void *data, size_t n, char out[65])
{
    unsigned char md[32];
    unsigned int len = 0;
    EVP_Digest(data, n, md, &len, EVP_sha256(), NULL);
    for (unsigned i = 0; i < 32; i++)
        snprintf(out + 2 * i, 3, "%02x", md[i]);
}

struct call {
    const char *method;
    const char *url;
    const char *const *extra; /* NULL-terminated, may be NULL */
    const void *body;
    size_t body_len;
    size_t max_body;
    /* a GET that can resume: a body cut after some bytes is not retried
     * here but returned (SBX_S3_FAILED, *cut set, those bytes sunk) */
    bool *cut;
    /* a 2xx answer's body goes there (base/http.h) */
    bool (*sink)(void *ctx, long status, const char *data, size_t n, uint64_t at);
    void *sink_ctx;
};

static void sleep_ms(long ms)
{
    if (ms <= 0)
        return;
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

/* The store's error, a line: "403 AccessDenied: Access Denied". */
static void store_error(char *err, size_t errsz, const char *what, long status,
                        const struct sbx_s3_error *e)
{
    if (e->code && strcmp(e->code, "RequestTimeTooSkewed") == 0) {
        snprintf(err, errsz,
                 "%s: this machine's clock is more than 15 minutes off the store's "
                 "(RequestTimeTooSkewed): set the clock right and try again",
                 what);
        return;
    }
    snprintf(err, errsz, "%s: %ld %s%s%s", what, status, e->code ? e->code : "(no error code)",
             e->message ? ": " : "", e->message ? e->message : "");
}

static bool retryable(long status, const struct sbx_s3_error *e)
{
    return status == 500 || status == 503 ||
           (e->code && (strcmp(e->code, "SlowDown") == 0 || strcmp(e->code, "InternalError") == 0));
}

/* The region a wrong-region answer names, or NULL. */
static const char *named_region(const struct sbx_http_response *r, const struct sbx_s3_error *e)
{
    if (r->status != 301 && r->status != 400 && r->status != 307)
        return NULL;
    if (e->code && strcmp(e->code, "PermanentRedirect") != 0 &&
        strcmp(e->code, "AuthorizationHeaderMalformed") != 0 &&
        strcmp(e->code, "TemporaryRedirect") != 0)
        return NULL;
    const char *region = e->region ? e->region : r->bucket_region;
    if (!region || !*region || strlen(region) > 32)
        return NULL;
    for (const char *c = region; *c; c++)
        if (!(islower((unsigned char)*c) || isdigit((unsigned char)*c) || *c == '-'))
            return NULL;
    return region;
}

/* One request with its retries: SBX_S3_OK with *resp holding a 2xx or 304
 * answer; else err says why. build rebuilds the URL after a region change. */
static enum sbx_s3_result perform(struct sbx_s3 *s, const char *what, const char *bucket,
                                  const char *key, const char *query, struct call *c,
                                  struct sbx_http_response *resp, char *err, size_t errsz)
{
    char sig[64], sha[65];
    bool region_moved = false;
    if (c->body_len)
        sha256_hex(c->body, c->body_len, sha);
    else
        memcpy(sha, EMPTY_SHA256, sizeof sha);
    for (int attempt = 0;; attempt++) {
        struct sbx_buf url = SBX_BUF_INIT, shah = SBX_BUF_INIT;
        build_url(s, &url, bucket, key);
        if (query)
            sbx_buf_addf(&url, "?%s", query);
        sbx_buf_addf(&shah, "x-amz-content-sha256: %s", sha);
        const char *headers[8];
        size_t nh = 0;
        headers[nh++] = shah.p;
        for (const char *const *x = c->extra; x && *x && nh < 7; x++)
            headers[nh++] = *x;
        headers[nh] = NULL;
        snprintf(sig, sizeof sig, "aws:amz:%s:s3", s->region);
        struct sbx_http_request req = {
            .method = c->method, .url = url.p, .headers = headers, .body = c->body,
            .body_len = c->body_len, .aws_sigv4 = sig, .aws_key_id = s->access_key,
            .aws_secret = s->secret_key, .aws_token = s->session_token,
            .max_body = c->max_body, .sink = c->sink, .sink_ctx = c->sink_ctx};
        char herr[512];
        enum sbx_http_result r = sbx_http_do(s->http, &req, resp, herr, sizeof herr);
        sbx_buf_free(&url);
        sbx_buf_free(&shah);
        long wait = -1;
        if (r == SBX_HTTP_DONE) {
            if ((resp->status >= 200 && resp->status < 300) || resp->status == 304)
                return SBX_S3_OK;
            struct sbx_s3_error e;
            bool parsed = sbx_s3xml_error(resp->body.p, resp->body.len, &e);
            if (!parsed)
                memset(&e, 0, sizeof e);
            const char *region = named_region(resp, &e);
            if (region && !region_moved && strcmp(region, s->region) != 0) {
                free(s->region);
                s->region = sbx_xstrndup(region, strlen(region));
                region_moved = true;
                sbx_s3xml_error_free(&e);
                attempt--;
                continue;
            }
            if (resp->status == 404) {
                store_error(err, errsz, what, resp->status, &e);
                sbx_s3xml_error_free(&e);
                return SBX_S3_NOT_FOUND;
            }
            if (!retryable(resp->status, &e) || attempt >= s->retries) {
                store_error(err, errsz, what, resp->status, &e);
                if (attempt && retryable(resp->status, &e)) {
                    size_t l = strlen(err);
                    snprintf(err + l, errsz - l, " (after %d tries)", attempt + 1);
                }
                sbx_s3xml_error_free(&e);
                return SBX_S3_FAILED;
            }
            sbx_s3xml_error_free(&e);
            wait = (long)sbx_http_retry_after_ms(resp->retry_after, (int64_t)time(NULL));
        } else if (r == SBX_HTTP_CUT && c->cut && resp->sunk &&
                   (resp->status == 200 || resp->status == 206)) {
            *c->cut = true;
            snprintf(err, errsz, "%s: %s", what, herr);
            return SBX_S3_FAILED;
        } else if ((r == SBX_HTTP_CUT || r == SBX_HTTP_TIMEOUT) && attempt < s->retries) {
            wait = -1;
        } else {
            snprintf(err, errsz, "%s: %s", what, herr);
            return SBX_S3_FAILED;
        }
        long backoff = s->backoff_ms << (attempt < 10 ? attempt : 10);
        if (wait < backoff)
            wait = backoff;
        sleep_ms(wait > WAIT_MAX_MS ? WAIT_MAX_MS : wait);
    }
}

enum sbx_s3_result sbx_s3_list_page(struct sbx_s3 *s, const char *bucket, const char *prefix,
                                    const char *delimiter, const char *token,
                                    struct sbx_s3_page *out, char *err, size_t errsz)
{
    memset(out, 0, sizeof *out);
    char what[256];
    snprintf(what, sizeof what, "listing s3://%s/%s", bucket, prefix ? prefix : "");
    /* the query in SigV4's canonical order (sorted, escaped): libcurl signs
     * it as written */
    struct sbx_buf q = SBX_BUF_INIT;
    if (token) {
        sbx_buf_adds(&q, "continuation-token=");
        sbx_http_escape(&q, token, strlen(token));
        sbx_buf_addc(&q, '&');
    }
    if (delimiter && *delimiter) {
        sbx_buf_adds(&q, "delimiter=");
        sbx_http_escape(&q, delimiter, strlen(delimiter));
        sbx_buf_addc(&q, '&');
    }
    sbx_buf_adds(&q, "list-type=2&prefix=");
    if (prefix)
        sbx_http_escape(&q, prefix, strlen(prefix));
    struct call c = {.method = "GET", .max_body = LIST_MAX_BODY};
    struct sbx_http_response resp = {0};
    enum sbx_s3_result r = perform(s, what, bucket, NULL, q.p, &c, &resp, err, errsz);
    sbx_buf_free(&q);
    if (r != SBX_S3_OK) {
        sbx_http_response_free(&resp);
        return r;
    }
    char why[160];
    if (!sbx_s3xml_list(resp.body.p, resp.body.len, out, why, sizeof why)) {
        snprintf(err, errsz, "%s: the store's answer is not a listing (%s)", what, why);
        sbx_http_response_free(&resp);
        return SBX_S3_FAILED;
    }
    sbx_http_response_free(&resp);
    if (out->truncated && token && strcmp(token, out->next_token) == 0) {
        snprintf(err, errsz, "%s: the store gave the same continuation token twice", what);
        sbx_s3xml_page_free(out);
        return SBX_S3_FAILED;
    }
    return SBX_S3_OK;
}

enum sbx_s3_result sbx_s3_list(struct sbx_s3 *s, const char *bucket, const char *prefix,
                               const char *delimiter, struct sbx_s3_page *out, char *err,
                               size_t errsz)
{
    memset(out, 0, sizeof *out);
    char *token = NULL;
    size_t cap = 0, pcap = 0;
    for (;;) {
        struct sbx_s3_page page;
        enum sbx_s3_result r =
            sbx_s3_list_page(s, bucket, prefix, delimiter, token, &page, err, errsz);
        free(token);
        token = NULL;
        if (r != SBX_S3_OK) {
            sbx_s3xml_page_free(out);
            return r;
        }
        if (out->n + page.n > cap) {
            cap = (out->n + page.n) * 2;
            out->entries = realloc(out->entries, cap * sizeof *out->entries);
        }
        if (out->nprefixes + page.nprefixes > pcap) {
            pcap = (out->nprefixes + page.nprefixes) * 2;
            out->prefixes = realloc(out->prefixes, pcap * sizeof *out->prefixes);
        }
        if ((cap && !out->entries) || (pcap && !out->prefixes))
            abort();
        if (page.n)
            memcpy(out->entries + out->n, page.entries, page.n * sizeof *page.entries);
        if (page.nprefixes)
            memcpy(out->prefixes + out->nprefixes, page.prefixes,
                   page.nprefixes * sizeof *page.prefixes);
        out->n += page.n;
        out->nprefixes += page.nprefixes;
        free(page.entries);
        free(page.prefixes);
        if (!page.truncated) {
            free(page.next_token);
            return SBX_S3_OK;
        }
        token = page.next_token;
    }
}

/* Where one read's bytes go: the caller's sink, each byte at its offset
 * in the part asked ([from, from + len), len 0: to the object's end). got
 * is how many of the part's first bytes are in. */
struct part_out {
    sbx_s3_sink sink;
    void *ctx;
    uint64_t from, len, asked; /* asked: where this request's Range starts */
    uint64_t got;
};

/* base/http's sink: an answer's bytes placed in the part (base/s3_place.h). */
static bool part_sink(void *ctx, long status, const char *data, size_t n, uint64_t at)
{
    struct part_out *o = ctx;
    struct sbx_s3_placed p = sbx_s3_place(o->from, o->len, o->asked, status, at, n);
    if (!p.take)
        return true;
    if (!o->sink(o->ctx, data + p.skip, p.take, p.off))
        return false;
    if (p.off + p.take > o->got)
        o->got = p.off + p.take;
    return true;
}

/* Bytes [from, from + len) of the object (len 0: to its end) to the sink,
 * a cut resumed from where it stopped; see sbx_s3_get. */
static enum sbx_s3_result get_part(struct sbx_s3 *s, const char *bucket, const char *key,
                                   const char *if_none_match, uint64_t from, uint64_t len,
                                   size_t max_body, sbx_s3_sink sink, void *ctx, char **etag,
                                   char *err, size_t errsz)
{
    *etag = NULL;
    char what[256];
    snprintf(what, sizeof what, "reading s3://%s/%s", bucket, key);
    char *first = NULL; /* the ETag of the first part: every later part's */
    struct part_out out = {.sink = sink, .ctx = ctx, .from = from, .len = len};
    enum sbx_s3_result r;
    for (int resumed = 0;; resumed++) {
        /* a body cut short is asked again from where it stopped */
        struct sbx_buf inm = SBX_BUF_INIT, range = SBX_BUF_INIT;
        const char *extra[3] = {NULL, NULL, NULL};
        size_t ne = 0;
        uint64_t at = from + out.got;
        bool ranged = at || len;
        out.asked = at;
        if (ranged) {
            sbx_buf_addf(&range, "Range: bytes=%llu-", (unsigned long long)at);
            if (len)
                sbx_buf_addf(&range, "%llu", (unsigned long long)(from + len - 1));
            extra[ne++] = range.p;
        } else if (if_none_match) {
            sbx_buf_addf(&inm, "If-None-Match: %s", if_none_match);
            extra[ne++] = inm.p;
        }
        bool cut = false;
        struct call c = {.method = "GET", .extra = extra, .max_body = max_body - (size_t)out.got,
                         .cut = &cut, .sink = part_sink, .sink_ctx = &out};
        struct sbx_http_response resp = {0};
        r = perform(s, what, bucket, key, NULL, &c, &resp, err, errsz);
        sbx_buf_free(&inm);
        sbx_buf_free(&range);
        if (r == SBX_S3_OK && resp.status == 304) {
            r = SBX_S3_NOT_MODIFIED;
        } else if (r == SBX_S3_OK || cut) {
            if (!first) {
                first = dup_or_null(resp.etag);
            } else if (!resp.etag || strcmp(resp.etag, first) != 0) {
                snprintf(err, errsz, "%s: the object changed while it was read (its ETag "
                         "differs between the parts of a resumed read)", what);
                r = SBX_S3_FAILED;
                sbx_http_response_free(&resp);
                break;
            }
            if (ranged && resp.status == 200)
                cut = cut && !len; /* a whole object cut: asked again below */
            if (cut && resumed < s->retries) {
                sbx_http_response_free(&resp);
                s->resumed++;
                sleep_ms(s->backoff_ms << (resumed < 10 ? resumed : 10));
                continue;
            }
            if (cut) {
                size_t l = strlen(err);
                snprintf(err + l, errsz - l, " (cut %d times)", resumed + 1);
            } else if (r == SBX_S3_OK && len && out.got != len) {
                snprintf(err, errsz, "%s: the store sent %llu of the %llu bytes asked", what,
                         (unsigned long long)out.got, (unsigned long long)len);
                r = SBX_S3_FAILED;
            }
        }
        sbx_http_response_free(&resp);
        break;
    }
    if (r == SBX_S3_OK)
        *etag = first;
    else
        free(first);
    return r;
}

/* The sink of a read into a buffer: a byte read again (a store that ignored
 * a Range sends the part's start again) replaces the one there. */
static bool buf_sink(void *ctx, const char *data, size_t n, uint64_t off)
{
    struct sbx_buf *b = ctx;
    if (off < b->len) {
        b->len = (size_t)off;
        b->p[b->len] = '\0';
    }
    sbx_buf_add(b, data, n);
    return true;
}

enum sbx_s3_result sbx_s3_get(struct sbx_s3 *s, const char *bucket, const char *key,
                              const char *if_none_match, size_t max_body, struct sbx_buf *body,
                              char **etag, char *err, size_t errsz)
{
    sbx_buf_clear(body);
    enum sbx_s3_result r = get_part(s, bucket, key, if_none_match, 0, 0, max_body, buf_sink, body,
                                    etag, err, errsz);
    if (!body->p)
        sbx_buf_add(body, "", 0);
    return r;
}

enum sbx_s3_result sbx_s3_get_range_to(struct sbx_s3 *s, const char *bucket, const char *key,
                                       uint64_t from, uint64_t len, sbx_s3_sink sink, void *ctx,
                                       char **etag, char *err, size_t errsz)
{
    return get_part(s, bucket, key, NULL, from, len, (size_t)len, sink, ctx, etag, err, errsz);
}

unsigned long sbx_s3_resumed(const struct sbx_s3 *s)
{
    return s->resumed;
}

enum sbx_s3_result sbx_s3_put_if(struct sbx_s3 *s, const char *bucket, const char *key,
                                 const void *data, size_t n, const char *content_type,
                                 const char *if_match, char *err, size_t errsz)
{
    char what[256];
    snprintf(what, sizeof what, "writing s3://%s/%s", bucket, key);
    struct sbx_buf ct = SBX_BUF_INIT, cond = SBX_BUF_INIT;
    sbx_buf_addf(&ct, "Content-Type: %s", content_type ? content_type : "application/octet-stream");
    if (if_match && strcmp(if_match, "*") == 0)
        sbx_buf_adds(&cond, "If-None-Match: *");
    else if (if_match)
        sbx_buf_addf(&cond, "If-Match: %s", if_match);
    const char *extra[] = {ct.p, cond.p, NULL};
    struct call c = {.method = "PUT", .extra = extra, .body = data, .body_len = n,
                     .max_body = 1 << 20};
    struct sbx_http_response resp = {0};
    enum sbx_s3_result r = perform(s, what, bucket, key, NULL, &c, &resp, err, errsz);
    if (r == SBX_S3_FAILED && resp.status == 412)
        r = SBX_S3_PRECONDITION;
    sbx_http_response_free(&resp);
    sbx_buf_free(&ct);
    sbx_buf_free(&cond);
    return r;
}

enum sbx_s3_result sbx_s3_put(struct sbx_s3 *s, const char *bucket, const char *key,
                              const void *data, size_t n, const char *content_type, char *err,
                              size_t errsz)
{
    return sbx_s3_put_if(s, bucket, key, data, n, content_type, NULL, err, errsz);
}
