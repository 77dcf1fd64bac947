/* One call to Runtime's API: retries, waits, and the API's error shape. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "importers/fetch/fetch_internal.h"

#define SERVER_TEXT_MAX 300

static int64_t mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Sleeps ms in slices, so that a cancel is seen within 100 ms; false when
 * cancelled. */
static bool sleep_ms(int64_t ms, const _Atomic bool *cancel)
{
    while (ms > 0) {
        if (cancel && atomic_load(cancel))
            return false;
        int64_t slice = ms < 100 ? ms : 100;
        struct timespec ts = {0, (long)slice * 1000000};
        while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
        }
        ms -= slice;
    }
    return !(cancel && atomic_load(cancel));
}

/* Copies b into err, cutting out every occurrence of key. */
static void copy_redacted(char *err, size_t errsz, const struct sbx_buf *b, const char *key)
{
    static const char mark[] = "[redacted]";
    size_t kl = key ? strlen(key) : 0, o = 0;
    if (!errsz)
        return;
    for (size_t i = 0; i < b->len && o + 1 < errsz;) {
        if (kl && i + kl <= b->len && memcmp(b->p + i, key, kl) == 0) {
            if (o + sizeof mark - 1 >= errsz)
                break;
            memcpy(err + o, mark, sizeof mark - 1);
            o += sizeof mark - 1;
            i += kl;
        } else {
            err[o++] = b->p[i++];
        }
    }
    err[o] = '\0';
}

void sbx_fetch_fail(struct sbx_fetch_call *c, const char *where, const char *fmt, ...)
{
    struct sbx_buf b = SBX_BUF_INIT;
    sbx_buf_addf(&b, "%s: ", where);
    va_list ap;
    va_start(ap, fmt);
    sbx_buf_vaddf(&b, fmt, ap);
    va_end(ap);
    copy_redacted(c->err, c->errsz, &b, c->opts->api_key);
    sbx_buf_free(&b);
}

/* At most SERVER_TEXT_MAX bytes of the server's s, never cutting a UTF-8
 * sequence in two (the caller sanitises what is left). */
static void add_server_text(struct sbx_buf *b, const char *s)
{
    size_t n = strlen(s);
    if (n > SERVER_TEXT_MAX) {
        n = SERVER_TEXT_MAX;
        while (n && ((unsigned char)s[n] & 0xC0) == 0x80)
            n--;
        sbx_buf_add(b, s, n);
        sbx_buf_adds(b, "...");
        return;
    }
    sbx_buf_add(b, s, n);
}

static const char *str_member(json_t *o, const char *key)
{
    return json_string_value(json_object_get(o, key));
}

/* "HTTP 401 unauthorized: message (hint: …) [request req_…]" from the API's
 * error shape {"error": {code, status, message, hint, details, requestId}}. */
static void describe_status(struct sbx_buf *b, const struct sbx_http_response *r)
{
    sbx_buf_addf(b, "HTTP %ld", r->status);
    json_error_t jerr;
    json_t *root = json_loadb(r->body.p ? r->body.p : "", r->body.len, JSON_REJECT_DUPLICATES,
                              &jerr);
    json_t *e = json_object_get(root, "error");
    const char *code = str_member(e, "code"), *msg = str_member(e, "message"),
               *hint = str_member(e, "hint"), *rid = str_member(e, "requestId");
    if (code) {
        sbx_buf_addc(b, ' ');
        add_server_text(b, code);
    }
    if (msg && *msg) {
        sbx_buf_adds(b, ": ");
        add_server_text(b, msg);
    } else {
        sbx_buf_adds(b, " (no error message from the API)");
    }
    if (hint && *hint) {
        sbx_buf_adds(b, " (hint: ");
        add_server_text(b, hint);
        sbx_buf_addc(b, ')');
    }
    if (!rid)
        rid = r->request_id;
    if (rid && *rid) {
        sbx_buf_adds(b, " [request ");
        add_server_text(b, rid);
        sbx_buf_addc(b, ']');
    }
    json_decref(root);
}

bool sbx_fetch_get(struct sbx_fetch_call *c, const char *url, const char *where,
                   const struct sbx_fetch_progress *what, struct sbx_http_response *resp,
                   json_t **root)
{
    const struct sbx_fetch_opts *o = c->opts;
    struct sbx_http_request req = {
        .method = "GET",
        .url = url,
        .bearer = o->api_key,
        .headers = (const char *const[]){"Accept: application/json", NULL},
    };
    int64_t start = mono_ms(), delay = o->backoff_ms;
    int retries = o->retries;
    char herr[512];
    *root = NULL;
    for (;;) {
        enum sbx_http_result r = sbx_http_do(c->http, &req, resp, herr, sizeof herr);
        struct sbx_buf why = SBX_BUF_INIT;
        int64_t wait = -1;
        if (r == SBX_HTTP_DONE && resp->status == 200) {
            json_error_t jerr;
            *root = json_loadb(resp->body.p, resp->body.len, JSON_REJECT_DUPLICATES, &jerr);
            if (!*root) {
                sbx_fetch_fail(c, where, "the response is not JSON (line %d, column %d: %s)",
                               jerr.line, jerr.column, jerr.text);
                return false;
            }
            if (!json_is_object(*root)) {
                json_decref(*root);
                *root = NULL;
                sbx_fetch_fail(c, where, "the response is not a JSON object");
                return false;
            }
            return true;
        }
        if (r == SBX_HTTP_DONE) {
            long st = resp->status;
            if (st >= 300 && st < 400) {
                sbx_buf_addf(&why, "HTTP %ld: a redirect", st);
                if (resp->location) {
                    sbx_buf_adds(&why, " to ");
                    add_server_text(&why, resp->location);
                }
                sbx_buf_adds(&why, ", not followed (is the API's URL right?)");
            } else {
                describe_status(&why, resp);
                if (st == 429 || st == 503) {
                    int64_t ra = sbx_http_retry_after_ms(resp->retry_after, (int64_t)time(NULL));
                    wait = ra > delay ? ra : delay;
                } else if (st >= 500 && retries > 0) {
                    retries--;
                    wait = delay;
                } else if (st >= 500 && o->retries > 0) {
                    sbx_buf_addf(&why, " (after %d retries)", o->retries);
                }
            }
        } else {
            sbx_buf_adds(&why, herr);
            if (r == SBX_HTTP_CUT && retries > 0) {
                retries--;
                wait = delay;
            } else if (r == SBX_HTTP_CUT && o->retries > 0) {
                sbx_buf_addf(&why, " (after %d retries)", o->retries);
            }
        }
        if (wait < 0) {
            sbx_fetch_fail(c, where, "%s", why.p);
            sbx_buf_free(&why);
            return false;
        }
        int64_t elapsed = mono_ms() - start;
        if (elapsed + wait > o->deadline_ms) {
            sbx_fetch_fail(c, where, "%s; gave up: waiting %lld ms more would pass the %g s deadline",
                           why.p, (long long)wait, (double)o->deadline_ms / 1000);
            sbx_buf_free(&why);
            return false;
        }
        sbx_buf_free(&why);
        if (o->progress) {
            struct sbx_fetch_progress p = *what;
            p.wait_ms = wait;
            p.status = r == SBX_HTTP_DONE ? resp->status : 0;
            o->progress(o->progress_ctx, &p);
        }
        if (!sleep_ms(wait, o->cancel)) {
            sbx_fetch_fail(c, where, "cancelled");
            return false;
        }
        delay = delay > o->deadline_ms / 2 ? o->deadline_ms : delay * 2;
    }
}
