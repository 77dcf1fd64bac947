#include "base/http.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <curl/curl.h>

#define HEADER_VALUE_MAX 1024
#define REDACTED "[redacted]"

struct sbx_http {
    CURL *curl;
    char *ca_file, *user_agent;
    long connect_timeout_ms, timeout_ms;
    size_t max_body, req_max_body;
    void (*trace)(void *ctx, const char *line, size_t len);
    void *trace_ctx;
    const _Atomic bool *cancel;
    char errbuf[CURL_ERROR_SIZE];
    /* during sbx_http_do only */
    const char *token;
    struct sbx_http_response *resp;
    const struct sbx_http_request *req;
    bool too_big, sink_failed;
};

static pthread_once_t global_once = PTHREAD_ONCE_INIT;
static CURLcode global_rc = CURLE_FAILED_INIT;

static void global_init(void)
{
    global_rc = curl_global_init(CURL_GLOBAL_DEFAULT);
}

struct sbx_http *sbx_http_new(const struct sbx_http_config *cfg, char *err, size_t errsz)
{
    pthread_once(&global_once, global_init);
    if (global_rc != CURLE_OK) {
        snprintf(err, errsz, "libcurl: %s", curl_easy_strerror(global_rc));
        return NULL;
    }
    CURL *curl = curl_easy_init();
    if (!curl) {
        snprintf(err, errsz, "libcurl could not be set up");
        return NULL;
    }
    struct sbx_http *h = sbx_xcalloc(1, sizeof *h);
    h->curl = curl;
    if (cfg->ca_file)
        h->ca_file = sbx_xstrndup(cfg->ca_file, strlen(cfg->ca_file));
    const char *ua = cfg->user_agent ? cfg->user_agent : "sbxview";
    h->user_agent = sbx_xstrndup(ua, strlen(ua));
    h->connect_timeout_ms = cfg->connect_timeout_ms > 0 ? cfg->connect_timeout_ms : 10000;
    h->timeout_ms = cfg->timeout_ms > 0 ? cfg->timeout_ms : 60000;
    h->max_body = cfg->max_body ? cfg->max_body : SBX_HTTP_MAX_BODY_DEFAULT;
    h->trace = cfg->trace;
    h->trace_ctx = cfg->trace_ctx;
    h->cancel = cfg->cancel;
    return h;
}

void sbx_http_free(struct sbx_http *h)
{
    if (!h)
        return;
    curl_easy_cleanup(h->curl);
    free(h->ca_file);
    free(h->user_agent);
    free(h);
}

void sbx_http_response_free(struct sbx_http_response *resp)
{
    sbx_buf_free(&resp->body);
    free(resp->retry_after);
    free(resp->request_id);
    free(resp->location);
    free(resp->content_type);
    free(resp->ratelimit_remaining);
    free(resp->ratelimit_reset);
    free(resp->etag);
    free(resp->bucket_region);
    memset(resp, 0, sizeof *resp);
}

static void clear_headers(struct sbx_http_response *r)
{
    free(r->retry_after);
    free(r->request_id);
    free(r->location);
    free(r->content_type);
    free(r->ratelimit_remaining);
    free(r->ratelimit_reset);
    free(r->etag);
    free(r->bucket_region);
    r->retry_after = r->request_id = r->location = r->content_type = NULL;
    r->ratelimit_remaining = r->ratelimit_reset = r->etag = r->bucket_region = NULL;
}

static size_t on_body(char *data, size_t size, size_t n, void *ctx)
{
    struct sbx_http *h = ctx;
    size_t len = size * n;
    long status = 0;
    bool sink = h->req->sink && curl_easy_getinfo(h->curl, CURLINFO_RESPONSE_CODE, &status) ==
                                    CURLE_OK && status >= 200 && status < 300;
    uint64_t have = sink ? h->resp->sunk : h->resp->body.len;
    if (len > h->req_max_body - have) {
        h->too_big = true;
        return 0; /* aborts the transfer */
    }
    if (!sink) {
        sbx_buf_add(&h->resp->body, data, len);
    } else if (h->req->sink(h->req->sink_ctx, status, data, len, have)) {
        h->resp->sunk += len;
    } else {
        h->sink_failed = true;
        return 0;
    }
    return len;
}

/* Keeps the few headers callers act on. A status line starts a new set: the
 * headers of an interim 1xx response are not the final response's. */
static size_t on_header(char *data, size_t size, size_t n, void *ctx)
{
    struct sbx_http *h = ctx;
    size_t len = size * n;
    if (len >= 5 && memcmp(data, "HTTP/", 5) == 0) {
        clear_headers(h->resp);
        return len;
    }
    const char *colon = memchr(data, ':', len);
    if (!colon)
        return len;
    size_t nlen = (size_t)(colon - data);
    static const struct {
        const char *name;
        size_t off;
    } wanted[] = {
        {"retry-after", offsetof(struct sbx_http_response, retry_after)},
        {"x-request-id", offsetof(struct sbx_http_response, request_id)},
        {"location", offsetof(struct sbx_http_response, location)},
        {"content-type", offsetof(struct sbx_http_response, content_type)},
        {"x-ratelimit-remaining", offsetof(struct sbx_http_response, ratelimit_remaining)},
        {"x-ratelimit-reset", offsetof(struct sbx_http_response, ratelimit_reset)},
        {"etag", offsetof(struct sbx_http_response, etag)},
        {"x-amz-bucket-region", offsetof(struct sbx_http_response, bucket_region)},
    };
    for (size_t i = 0; i < sizeof wanted / sizeof *wanted; i++) {
        if (strlen(wanted[i].name) != nlen || strncasecmp(data, wanted[i].name, nlen) != 0)
            continue;
        const char *v = colon + 1, *end = data + len;
        while (v < end && (*v == ' ' || *v == '\t'))
            v++;
        while (end > v && (end[-1] == '\r' || end[-1] == '\n' || end[-1] == ' ' ||
                           end[-1] == '\t'))
            end--;
        size_t vlen = (size_t)(end - v);
        if (vlen > HEADER_VALUE_MAX)
            vlen = HEADER_VALUE_MAX;
        char **slot = (char **)((char *)h->resp + wanted[i].off);
        free(*slot);
        *slot = sbx_xstrndup(v, vlen);
    }
    return len;
}

static const char *find_ci(const char *s, size_t n, const char *word)
{
    size_t wl = strlen(word);
    for (size_t i = 0; i + wl <= n; i++)
        if (strncasecmp(s + i, word, wl) == 0)
            return s + i;
    return NULL;
}

void sbx_http_redact(struct sbx_buf *out, const char *s, size_t n, const char *token)
{
    const char *auth = find_ci(s, n, "authorization");
    size_t keep = auth ? (size_t)(auth - s) + strlen("authorization") : n;
    size_t tl = token ? strlen(token) : 0;
    for (size_t i = 0; i < keep;) {
        if (tl && i + tl <= n && memcmp(s + i, token, tl) == 0) {
            sbx_buf_adds(out, REDACTED);
            i += tl;
        } else {
            sbx_buf_addc(out, s[i++]);
        }
    }
    if (auth)
        sbx_buf_adds(out, ": " REDACTED);
}

static void trace_line(struct sbx_http *h, char prefix, const char *s, size_t n)
{
    struct sbx_buf b = SBX_BUF_INIT;
    sbx_buf_addc(&b, prefix);
    sbx_buf_addc(&b, ' ');
    sbx_http_redact(&b, s, n, h->token);
    h->trace(h->trace_ctx, b.p, b.len);
    explicit_bzero(b.p, b.cap);
    sbx_buf_free(&b);
}

static bool cancelled(const struct sbx_http *h)
{
    return h->cancel && atomic_load(h->cancel);
}

static int on_xfer(void *ctx, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal,
                   curl_off_t ulnow)
{
    (void)dltotal, (void)dlnow, (void)ultotal, (void)ulnow;
    return cancelled(ctx); /* non-zero aborts the transfer */
}

static int on_debug(CURL *curl, curl_infotype type, char *data, size_t size, void *ctx)
{
    (void)curl;
    struct sbx_http *h = ctx;
    char prefix;
    switch (type) {
    case CURLINFO_TEXT: prefix = '*'; break;
    case CURLINFO_HEADER_OUT: prefix = '>'; break;
    case CURLINFO_HEADER_IN: prefix = '<'; break;
    default: return 0; /* bodies and TLS records are never traced */
    }
    const char *p = data, *end = data + size;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *stop = nl ? nl : end;
        const char *e = stop;
        if (e > p && e[-1] == '\r')
            e--;
        if (e > p)
            trace_line(h, prefix, p, (size_t)(e - p));
        p = nl ? nl + 1 : end;
    }
    return 0;
}

static bool has_control(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7f)
            return true;
    return false;
}

static enum sbx_http_result classify(CURLcode rc)
{
    switch (rc) {
    case CURLE_OPERATION_TIMEDOUT: return SBX_HTTP_TIMEOUT;
    case CURLE_PARTIAL_FILE:
    case CURLE_RECV_ERROR:
    case CURLE_SEND_ERROR:
    case CURLE_GOT_NOTHING:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM: return SBX_HTTP_CUT;
    case CURLE_FILESIZE_EXCEEDED: return SBX_HTTP_TOO_BIG;
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_CIPHER:
    case CURLE_SSL_CACERT_BADFILE:
    case CURLE_SSL_ISSUER_ERROR:
    case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
    case CURLE_SSL_INVALIDCERTSTATUS:
    case CURLE_SSL_CRL_BADFILE:
    case CURLE_SSL_SHUTDOWN_FAILED:
    case CURLE_SSL_ENGINE_INITFAILED:
    case CURLE_USE_SSL_FAILED: return SBX_HTTP_TLS;
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_RESOLVE_PROXY:
    case CURLE_COULDNT_CONNECT: return SBX_HTTP_CONNECT;
    case CURLE_UNSUPPORTED_PROTOCOL:
    case CURLE_URL_MALFORMAT: return SBX_HTTP_REFUSED;
    case CURLE_ABORTED_BY_CALLBACK: return SBX_HTTP_CANCELLED;
    default: return SBX_HTTP_ERROR;
    }
}

/* The slist's copies of the header lines hold the token: wipe them too. */
static void wipe_headers(struct curl_slist *l)
{
    for (struct curl_slist *i = l; i; i = i->next)
        explicit_bzero(i->data, strlen(i->data));
    curl_slist_free_all(l);
}

static bool set_options(struct sbx_http *h, const struct sbx_http_request *req,
                        struct curl_slist *headers)
{
    CURL *c = h->curl;
    const char *method = req->method ? req->method : "GET";
    bool ok = curl_easy_setopt(c, CURLOPT_URL, req->url) == CURLE_OK &&
              curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "https") == CURLE_OK &&
              curl_easy_setopt(c, CURLOPT_REDIR_PROTOCOLS_STR, "https") == CURLE_OK &&
              curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L) == CURLE_OK &&
              curl_easy_setopt(c, CURLOPT_SSL_VERIFYPEER, 1L) == CURLE_OK &&
              curl_easy_setopt(c, CURLOPT_SSL_VERIFYHOST, 2L) == CURLE_OK &&
              (!h->ca_file || (curl_easy_setopt(c, CURLOPT_CAINFO, h->ca_file) == CURLE_OK &&
                               curl_easy_setopt(c, CURLOPT_CAPATH, NULL) == CURLE_OK)) &&
              /* HTTP/2 where the server offers it by ALPN, else HTTP/1.1; a
               * transfer waits for a connection it can share over starting one */
              curl_easy_setopt(c, CURLOPT_HTTP_VERSION, (long)CURL_HTTP_VERSION_2TLS) == CURLE_OK &&
              curl_easy_setopt(c, CURLOPT_PIPEWAIT, 1L) == CURLE_OK &&
              curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L) == CURLE_OK &&
              curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, h->connect_timeout_ms) == CURLE_OK &&
              curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, h->timeout_ms) == CURLE_OK &&
              curl_easy_setopt(c, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)h->req_max_body) ==
                  CURLE_OK &&
              curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body) == CURLE_OK &&
              curl_easy_setopt(c, CURLOPT_WRITEDATA, h) == CURLE_OK &&
              curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, on_header) == CURLE_OK &&
              curl_easy_setopt(c, CURLOPT_HEADERDATA, h) == CURLE_OK &&
              curl_easy_setopt(c, CURLOPT_ERRORBUFFER, h->errbuf) == CURLE_OK &&
              curl_easy_setopt(c, CURLOPT_USERAGENT, h->user_agent) == CURLE_OK &&
              (!h->cancel || (curl_easy_setopt(c, CURLOPT_XFERINFOFUNCTION, on_xfer) == CURLE_OK &&
                              curl_easy_setopt(c, CURLOPT_XFERINFODATA, h) == CURLE_OK &&
                              curl_easy_setopt(c, CURLOPT_NOPROGRESS, 0L) == CURLE_OK)) &&
              curl_easy_setopt(c, CURLOPT_HTTPHEADER, headers) == CURLE_OK;
    if (ok && req->aws_sigv4)
        ok = curl_easy_setopt(c, CURLOPT_AWS_SIGV4, req->aws_sigv4) == CURLE_OK &&
             curl_easy_setopt(c, CURLOPT_USERNAME, req->aws_key_id) == CURLE_OK &&
             curl_easy_setopt(c, CURLOPT_PASSWORD, req->aws_secret) == CURLE_OK;
    if (!ok)
        return false;
    if (strcmp(method, "GET") == 0) {
        ok = curl_easy_setopt(c, CURLOPT_HTTPGET, 1L) == CURLE_OK;
    } else {
        ok = curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)req->body_len) ==
                 CURLE_OK &&
             curl_easy_setopt(c, CURLOPT_POSTFIELDS, req->body ? req->body : "") == CURLE_OK &&
             (strcmp(method, "POST") == 0 ||
              curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, method) == CURLE_OK);
    }
    if (ok && h->trace)
        ok = curl_easy_setopt(c, CURLOPT_DEBUGFUNCTION, on_debug) == CURLE_OK &&
             curl_easy_setopt(c, CURLOPT_DEBUGDATA, h) == CURLE_OK &&
             curl_easy_setopt(c, CURLOPT_VERBOSE, 1L) == CURLE_OK;
    return ok;
}

/* Writes "what: detail" into err with every occurrence of the token cut out. */
static void set_err(struct sbx_http *h, char *err, size_t errsz, const char *what,
                    const char *detail)
{
    struct sbx_buf b = SBX_BUF_INIT;
    sbx_buf_adds(&b, what);
    if (detail && *detail) {
        size_t dl = strlen(detail);
        while (dl && (detail[dl - 1] == '\n' || detail[dl - 1] == '\r'))
            dl--;
        sbx_buf_adds(&b, ": ");
        sbx_buf_add(&b, detail, dl);
    }
    size_t tl = h->token ? strlen(h->token) : 0;
    size_t o = 0;
    for (size_t i = 0; i < b.len && o + 1 < errsz;) {
        if (tl && i + tl <= b.len && memcmp(b.p + i, h->token, tl) == 0) {
            size_t r = strlen(REDACTED);
            if (o + r >= errsz)
                break;
            memcpy(err + o, REDACTED, r);
            o += r;
            i += tl;
        } else {
            err[o++] = b.p[i++];
        }
    }
    if (errsz)
        err[o] = '\0';
    sbx_buf_free(&b);
}

/* Appends "name value" to *headers, the line built in a buffer that is
 * wiped after (it holds a credential); false when it could not. */
static bool add_secret_header(struct curl_slist **headers, const char *name, const char *value)
{
    struct sbx_buf line = SBX_BUF_INIT;
    sbx_buf_adds(&line, name);
    sbx_buf_adds(&line, value);
    struct curl_slist *l = curl_slist_append(*headers, line.p);
    explicit_bzero(line.p, line.cap);
    sbx_buf_free(&line);
    if (l)
        *headers = l;
    return l != NULL;
}


enum sbx_http_result sbx_http_do(struct sbx_http *h, const struct sbx_http_request *req,
                                 struct sbx_http_response *resp, char *err, size_t errsz)
{
    /* the body's memory is kept, emptied: a caller reading many large bodies
     * into one response does not fault in fresh pages for each */
    struct sbx_buf keep = resp->body;
    resp->body = (struct sbx_buf)SBX_BUF_INIT;
    sbx_http_response_free(resp);
    sbx_buf_clear(&keep);
    resp->body = keep;
    h->token = req->bearer ? req->bearer : req->aws_token;
    h->req_max_body = req->max_body ? req->max_body : h->max_body;
    enum sbx_http_result result = SBX_HTTP_REFUSED;
    if (!req->url || strncasecmp(req->url, "https://", 8) != 0) {
        set_err(h, err, errsz, "refused: only https:// URLs are used", NULL);
        goto out;
    }
    if ((req->bearer && has_control(req->bearer)) || has_control(req->url) ||
        (req->aws_sigv4 && (!req->aws_key_id || !req->aws_secret || has_control(req->aws_sigv4) ||
                            has_control(req->aws_key_id) || has_control(req->aws_secret) ||
                            (req->aws_token && has_control(req->aws_token))))) {
        set_err(h, err, errsz, "refused: a control character in the URL or the token", NULL);
        goto out;
    }
    if (cancelled(h)) {
        set_err(h, err, errsz, "cancelled", NULL);
        result = SBX_HTTP_CANCELLED;
        goto out;
    }
    struct curl_slist *headers = NULL;
    bool ok = true;
    if (req->bearer)
        ok = add_secret_header(&headers, "Authorization: Bearer ", req->bearer);
    if (ok && req->aws_sigv4 && req->aws_token)
        ok = add_secret_header(&headers, "x-amz-security-token: ", req->aws_token);
    for (const char *const *x = req->headers; ok && x && *x; x++) {
        if (has_control(*x)) {
            wipe_headers(headers);
            set_err(h, err, errsz, "refused: a control character in a header", NULL);
            goto out;
        }
        struct curl_slist *l = curl_slist_append(headers, *x);
        ok = l != NULL;
        headers = l ? l : headers;
    }
    /* a body goes at once, without waiting for "100 Continue" (not when
     * signing: libcurl would sign the empty Expect it does not send) */
    if (ok && !req->aws_sigv4 && (req->body_len || (req->method && strcmp(req->method, "GET") != 0))) {
        struct curl_slist *l = curl_slist_append(headers, "Expect:");
        ok = l != NULL;
        headers = l ? l : headers;
    }
    /* a fresh set of options each time; the live connection is kept */
    curl_easy_reset(h->curl);
    h->errbuf[0] = '\0';
    h->resp = resp;
    h->req = req;
    h->too_big = h->sink_failed = false;
    if (!ok || !set_options(h, req, headers)) {
        wipe_headers(headers);
        curl_easy_reset(h->curl);
        set_err(h, err, errsz, "libcurl refused an option (too old a libcurl?)", NULL);
        result = SBX_HTTP_ERROR;
        goto out;
    }
    CURLcode rc = curl_easy_perform(h->curl);
    /* a body cut short still had its status line (an S3 read resumes it) */
    curl_easy_getinfo(h->curl, CURLINFO_RESPONSE_CODE, &resp->status);
    long version = 0;
    curl_easy_getinfo(h->curl, CURLINFO_HTTP_VERSION, &version);
    resp->version = version == CURL_HTTP_VERSION_2_0 ? 2 : version == CURL_HTTP_VERSION_3 ? 3
                    : version ? 1 : 0;
    wipe_headers(headers);
    /* the handle must not point at the wiped list or the caller's strings */
    curl_easy_reset(h->curl);
    if (h->too_big) {
        char what[96];
        snprintf(what, sizeof what, "the response is over %zu bytes", h->max_body);
        set_err(h, err, errsz, what, NULL);
        result = SBX_HTTP_TOO_BIG;
        goto out;
    }
    if (h->sink_failed) {
        set_err(h, err, errsz, "the body could not be taken where it goes", NULL);
        result = SBX_HTTP_ERROR;
        goto out;
    }
    if (rc != CURLE_OK) {
        result = classify(rc);
        if (result == SBX_HTTP_TOO_BIG) {
            char what[96];
            snprintf(what, sizeof what, "the response is over %zu bytes", h->max_body);
            set_err(h, err, errsz, what, NULL);
        } else if (result == SBX_HTTP_CANCELLED) {
            set_err(h, err, errsz, "cancelled", NULL);
        } else {
            set_err(h, err, errsz, curl_easy_strerror(rc), h->errbuf);
        }
        goto out;
    }
    if (!resp->body.p)
        sbx_buf_add(&resp->body, "", 0);
    result = SBX_HTTP_DONE;
out:
    h->token = NULL;
    h->resp = NULL;
    h->req = NULL;
    return result;
}

int64_t sbx_http_retry_after_ms(const char *value, int64_t now_s)
{
    const int64_t day_ms = 86400 * (int64_t)1000;
    if (!value)
        return -1;
    while (*value == ' ' || *value == '\t')
        value++;
    size_t n = strlen(value);
    while (n && (value[n - 1] == ' ' || value[n - 1] == '\t'))
        n--;
    if (!n)
        return -1;
    size_t digits = 0;
    while (digits < n && value[digits] >= '0' && value[digits] <= '9')
        digits++;
    if (digits == n) {
        int64_t s = 0;
        for (size_t i = 0; i < n && s <= 86400; i++)
            s = s * 10 + (value[i] - '0');
        return s > 86400 ? day_ms : s * 1000;
    }
    char date[128];
    if (n >= sizeof date)
        return -1;
    memcpy(date, value, n);
    date[n] = '\0';
    time_t t = curl_getdate(date, NULL);
    if (t == (time_t)-1)
        return -1;
    int64_t d = (int64_t)t - now_s;
    if (d <= 0)
        return 0;
    return d > 86400 ? day_ms : d * 1000;
}

void sbx_http_escape(struct sbx_buf *out, const char *s, size_t n)
{
    static const char hex[] = "0123456789ABCDEF";
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
            c == '-' || c == '.' || c == '_' || c == '~') {
            sbx_buf_addc(out, (char)c);
        } else {
            char e[3] = {'%', hex[c >> 4], hex[c & 15]};
            sbx_buf_add(out, e, 3);
        }
    }
}
