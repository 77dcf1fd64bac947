/* Posting with retries that never post twice (see export/send.h). */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "export/send_internal.h"
#include "export/service.h"
#include "base/http.h"

#define LIST_MAX_BODY ((size_t)32 << 20)
#define RATE_DEFAULT_MS 60000 /* GitHub: "wait at least one minute" without a hint */

struct ctx {
    const struct sbx_target *t;
    const struct sbx_service *svc; /* t's */
    const struct sbx_send_env *env;
    const struct sbx_send_opts *o;
    struct sbx_http *http;          /* the listings: one connection kept */
    struct sbx_http_config cfg;
    int64_t wait_max, waited;
    const struct sbx_send_request *secrets; /* whose secrets every message hides */
};

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static bool cancelled(const struct ctx *c)
{
    return c->o->cancel && atomic_load(c->o->cancel);
}

/* Sleeps ms, a tenth of a second at a time; false when cancelled. */
static bool pause_ms(const struct ctx *c, int64_t ms)
{
    int64_t end = now_ms() + ms;
    for (int64_t left; (left = end - now_ms()) > 0;) {
        if (cancelled(c))
            return false;
        struct timespec ts = {0, (long)(left < 100 ? left : 100) * 1000000L};
        nanosleep(&ts, NULL);
    }
    return !cancelled(c);
}

static void say(const struct ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(const struct ctx *c, const char *fmt, ...)
{
    if (!c->o->progress)
        return;
    char line[300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    c->o->progress(c->o->progress_ctx, line);
}

/* res->message = the printable, secret-free form of the formatted text. */
static void set_msg(const struct ctx *c, struct sbx_send_result *res, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void set_msg(const struct ctx *c, struct sbx_send_result *res, const char *fmt, ...)
{
    struct sbx_buf raw = SBX_BUF_INIT, clean = SBX_BUF_INIT;
    va_list ap;
    va_start(ap, fmt);
    sbx_buf_vaddf(&raw, fmt, ap);
    va_end(ap);
    sbx_send_printable(&clean, raw.p, raw.len, sizeof res->message - 8,
                       c->secrets ? (char *const *)c->secrets->secrets : NULL,
                       c->secrets ? 3 : 0);
    snprintf(res->message, sizeof res->message, "%s", clean.p ? clean.p : "");
    sbx_buf_free(&raw);
    sbx_buf_free(&clean);
}

static bool is_rate_limited(const struct sbx_http_response *r)
{
    if (r->status == 429)
        return true;
    if (r->status != 403)
        return false;
    /* GitHub answers its limits with 403 too: primary (remaining 0) and
     * secondary (a Retry-After, or "secondary rate limit" in the message).
     * docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api */
    return r->retry_after || (r->ratelimit_remaining && !strcmp(r->ratelimit_remaining, "0")) ||
           (r->body.p && strcasestr(r->body.p, "rate limit"));
}

static int64_t rate_wait_ms(const struct sbx_http_response *r)
{
    int64_t now = (int64_t)time(NULL);
    int64_t ms = sbx_http_retry_after_ms(r->retry_after, now);
    if (ms >= 0)
        return ms;
    if (r->ratelimit_remaining && !strcmp(r->ratelimit_remaining, "0") && r->ratelimit_reset) {
        char *end;
        long long reset = strtoll(r->ratelimit_reset, &end, 10);
        if (end != r->ratelimit_reset && !*end) {
            int64_t d = reset - now;
            return d <= 0 ? 1000 : (d > 86400 ? 86400000 : d * 1000 + 1000);
        }
    }
    return RATE_DEFAULT_MS;
}

enum outcome { GOT_ANSWER, RATE_OVER, TRANSPORT };

/* One request, rate limits waited out (within the budget). On TRANSPORT,
 * *kind and err say what failed; on RATE_OVER, *kind holds the wait asked. */
static enum outcome exchange(struct ctx *c, struct sbx_http *http,
                             const struct sbx_send_request *q,
                             struct sbx_http_response *resp, enum sbx_http_result *kind,
                             int64_t *asked_ms, char *err, size_t errsz)
{
    const char *const *hdrs = (const char *const *)q->headers;
    struct sbx_http_request req = {.method = q->method, .url = q->url, .bearer = q->bearer,
                                   .headers = hdrs, .body = q->body.p, .body_len = q->body.len};
    for (;;) {
        *kind = sbx_http_do(http, &req, resp, err, errsz);
        if (*kind != SBX_HTTP_DONE)
            return TRANSPORT;
        if (!is_rate_limited(resp))
            return GOT_ANSWER;
        int64_t ms = rate_wait_ms(resp);
        if (c->wait_max < 0 || c->waited + ms > c->wait_max) {
            *asked_ms = ms;
            return RATE_OVER;
        }
        say(c, "rate limited (HTTP %ld): waiting %lld s", resp->status,
            (long long)((ms + 999) / 1000));
        c->waited += ms;
        if (!pause_ms(c, ms)) {
            *kind = SBX_HTTP_CANCELLED;
            snprintf(err, errsz, "cancelled");
            return TRANSPORT;
        }
    }
}

/* 1 found (*url may be NULL; *comment, when asked for, a copy of it), 0 not
 * there, -1 the listing failed (why; *status the HTTP status, 0 without an
 * answer). */
static int look_for_tagged(struct ctx *c, const char *tag, const char *digest, json_t **comment,
                           char **url, char *why, size_t whysz, long *status)
{
    *status = 0;
    unsigned long pages[3] = {0, 0, 0};
    size_t npages = 1;
    for (size_t i = 0; i < npages; i++) {
        struct sbx_send_request q;
        char err[512];
        if (!sbx_send_build_list(c->t, c->env, pages[i], &q, err, sizeof err)) {
            snprintf(why, whysz, "%s", err);
            return -1;
        }
        struct sbx_http_response resp = {0};
        enum sbx_http_result kind;
        int64_t asked = 0;
        enum outcome oc = exchange(c, c->http, &q, &resp, &kind, &asked, err, sizeof err);
        int rc = 0;
        if (oc == TRANSPORT) {
            snprintf(why, whysz, "%s", err);
            rc = -1;
        } else if (oc == RATE_OVER) {
            snprintf(why, whysz, "rate limited for %lld s", (long long)(asked / 1000));
            rc = -1;
        } else if (resp.status < 200 || resp.status > 299) {
            *status = resp.status;
            struct sbx_buf m = SBX_BUF_INIT;
            sbx_send_service_message(&m, resp.body.p, resp.body.len, &q);
            snprintf(why, whysz, "HTTP %ld%s%s", resp.status, m.len ? ": " : "",
                     m.len ? m.p : "");
            sbx_buf_free(&m);
            rc = -1;
        } else {
            unsigned long count = 0;
            if (sbx_send_find_tagged(c->t, c->env, resp.body.p, resp.body.len, tag, digest,
                                     comment, url, &count)) {
                rc = 1;
            } else if (pages[i] == 0 && count && c->svc->more_pages) {
                npages += c->svc->more_pages(count, pages + npages);
            }
        }
        sbx_http_response_free(&resp);
        sbx_send_request_free(&q);
        if (rc)
            return rc;
    }
    return 0;
}

static bool fail(struct sbx_send_result *res)
{
    res->status = SBX_SEND_FAILED;
    return false;
}

static int look_for_marker(struct ctx *c, const char *digest, char **url, char *why,
                           size_t whysz, long *status)
{
    return look_for_tagged(c, "sbxview:", digest, NULL, url, why, whysz, status);
}

/* The edit of an earlier comment: post's body sent to url with method.
 * 1 edited (res filled, url the answer's comment URL, the id from the
 * answer when it gives one); 0 failed (res says why); -1 the comment is
 * gone (404: nothing in res). */
static int send_edit(struct ctx *c, const struct sbx_send_request *post, const char *url,
                     const char *method, struct sbx_send_result *res)
{
    struct sbx_send_request edit = *post;
    edit.method = (char *)method;
    edit.url = (char *)url;
    struct sbx_http_response resp = {0};
    enum sbx_http_result kind;
    int64_t asked = 0;
    char err[512];
    enum outcome oc = exchange(c, c->http, &edit, &resp, &kind, &asked, err, sizeof err);
    res->http_status = resp.status;
    int rc = 0;
    if (oc == TRANSPORT) {
        set_msg(c, res, "editing the earlier comment: %s (an edit can be made again: export once more)", err);
    } else if (oc == RATE_OVER) {
        set_msg(c, res, "editing the earlier comment: rate limited for %lld s", (long long)(asked / 1000));
    } else if (resp.status == 404) {
        rc = -1;
    } else if (resp.status < 200 || resp.status > 299) {
        struct sbx_buf m = SBX_BUF_INIT;
        sbx_send_service_message(&m, resp.body.p, resp.body.len, post);
        set_msg(c, res, "editing the earlier comment: HTTP %ld%s%s", resp.status, m.len ? ": " : "",
                m.len ? m.p : "");
        sbx_buf_free(&m);
    } else {
        res->status = SBX_SEND_EDITED;
        res->url = sbx_send_comment_url(c->t, c->env, resp.body.p, resp.body.len);
        sbx_send_comment_id(resp.body.p, resp.body.len, res->comment_id);
        set_msg(c, res, "edited: the comment this export posted before now holds the review as it is");
        rc = 1;
    }
    if (rc == 0)
        res->status = SBX_SEND_FAILED;
    sbx_http_response_free(&resp);
    return rc;
}

/* The earlier comment of this export (found by its review marker) given the
 * body: true with res filled when it was edited; false with res a failure,
 * or, when *none, no such comment (post as usual). */
static bool edit_earlier(struct ctx *c, const struct sbx_send_request *post,
                         struct sbx_send_result *res, bool *none)
{
    *none = false;
    char why[512] = "";
    char *url = NULL;
    long st = 0;
    json_t *comment = NULL;
    int found = look_for_tagged(c, "sbxview-review:", c->o->review_marker, &comment, &url, why,
                                sizeof why, &st);
    if (found == 0) {
        *none = true;
        return false;
    }
    if (found < 0) {
        set_msg(c, res, "listing the comments: %s: nothing was posted", why);
        return fail(res);
    }
    struct sbx_buf u = SBX_BUF_INIT;
    sbx_buf_adds(&u, post->url);
    const char *method = NULL;
    bool named = c->svc->edit(comment, &u, &method);
    json_decref(comment);
    int rc = 0;
    if (!named) {
        *none = true; /* a comment without an id cannot be edited: post */
    } else if ((rc = send_edit(c, post, u.p, method, res)) < 0) {
        set_msg(c, res, "editing the earlier comment: HTTP 404: it is gone (export once more to post it anew)");
        res->status = SBX_SEND_FAILED;
    } else if (rc > 0) {
        free(res->url); /* the listing's URL of it is as good */
        res->url = url;
        url = NULL;
    }
    free(url);
    sbx_buf_free(&u);
    return rc > 0;
}

/* What the kept comment (o->kept_comment) holds now, read before it is
 * edited: 1 still this export's post (its body holds "sbxview:" + the kept
 * body's marker); 0 not (gone, not an id, rewritten, another one: say
 * says which); -1 it could not be read (res a failure). */
static int kept_still_ours(struct ctx *c, struct sbx_send_result *res)
{
    struct sbx_send_request q;
    char err[512];
    if (!c->o->kept_body) {
        say(c, "no marker was kept to know the comment by: posting a new one");
        return 0;
    }
    if (!sbx_send_build_kept(c->t, c->env, c->o->kept_comment, &q, err, sizeof err)) {
        say(c, "%s: posting a new comment", err);
        return 0;
    }
    struct sbx_http_response resp = {0};
    enum sbx_http_result kind;
    int64_t asked = 0;
    enum outcome oc = exchange(c, c->http, &q, &resp, &kind, &asked, err, sizeof err);
    res->http_status = resp.status;
    int rc = -1;
    if (oc == TRANSPORT) {
        set_msg(c, res, "reading the earlier comment: %s: nothing was posted", err);
    } else if (oc == RATE_OVER) {
        set_msg(c, res, "reading the earlier comment: rate limited for %lld s: nothing was posted",
                (long long)(asked / 1000));
    } else if (resp.status == 404) {
        say(c, "the comment this export posted before is gone: posting a new one");
        rc = 0;
    } else if (resp.status < 200 || resp.status > 299) {
        struct sbx_buf m = SBX_BUF_INIT;
        sbx_send_service_message(&m, resp.body.p, resp.body.len, &q);
        set_msg(c, res, "reading the earlier comment: HTTP %ld%s%s: nothing was posted",
                resp.status, m.len ? ": " : "", m.len ? m.p : "");
        sbx_buf_free(&m);
    } else if (sbx_send_comment_holds(resp.body.p, resp.body.len, "sbxview:", c->o->kept_body)) {
        rc = 1;
    } else {
        say(c, "the comment kept by its id no longer holds this export's marker (rewritten, or "
               "not the one posted): left alone, posting a new one");
        rc = 0;
    }
    if (rc < 0)
        res->status = SBX_SEND_FAILED;
    sbx_http_response_free(&resp);
    sbx_send_request_free(&q);
    return rc;
}

/* The comment whose id the review file kept (o->kept_comment) given the
 * body, once it is known to be still this export's: true when edited;
 * false with res a failure, or, when *gone, there is no such comment of
 * this export any more (post a new one). */
static bool edit_kept(struct ctx *c, const struct sbx_send_request *post,
                      struct sbx_send_result *res, bool *gone)
{
    *gone = false;
    int ours = kept_still_ours(c, res);
    if (ours <= 0) {
        *gone = ours == 0;
        return false;
    }
    struct sbx_buf u = SBX_BUF_INIT;
    sbx_buf_adds(&u, post->url);
    const char *method = NULL;
    int rc = -1;
    if (c->svc->edit_kept(c->o->kept_comment, &u, &method))
        rc = send_edit(c, post, u.p, method, res);
    sbx_buf_free(&u);
    if (rc < 0) {
        say(c, "the comment this export posted before is gone: posting a new one");
        *gone = true; /* deleted since it was read: a new one */
        return false;
    }
    if (rc > 0 && !res->comment_id[0])
        snprintf(res->comment_id, sizeof res->comment_id, "%s", c->o->kept_comment);
    return rc > 0;
}

static const char *transport_word(enum sbx_http_result k)
{
    switch (k) {
    case SBX_HTTP_TIMEOUT: return "no answer in time";
    case SBX_HTTP_CUT: return "the connection broke before the answer was whole";
    case SBX_HTTP_TOO_BIG: return "the answer was too big";
    default: return "the request failed";
    }
}

static bool certain_not_sent(enum sbx_http_result k)
{
    return k == SBX_HTTP_CONNECT || k == SBX_HTTP_TLS || k == SBX_HTTP_REFUSED;
}


static bool run(struct ctx *c, const struct sbx_send_request *post, const char *digest,
                struct sbx_send_result *res)
{
    const char *var = sbx_send_secret_vars(c->t->kind);
    int attempts = c->o->attempts > 0 ? c->o->attempts : 3;
    bool uncertain = false;
    char last[600] = "";
    bool listable = c->svc->list_page != NULL;
    if (!c->o->repost && listable) {
        /* an earlier run whose answer was lost may have posted it already */
        char why[512] = "";
        char *url = NULL;
        long st = 0;
        int found = look_for_marker(c, digest, &url, why, sizeof why, &st);
        res->http_status = st;
        if (found > 0) {
            res->status = SBX_SEND_EXISTED;
            res->url = url;
            set_msg(c, res, "already posted: a comment holds this run's marker");
            return true;
        }
        if (found < 0) {
            set_msg(c, res, "listing the comments: %s%s%s: nothing was posted", why,
                    st == 401 ? ": the credentials were refused: check " : "",
                    st == 401 ? var : "");
            return fail(res);
        }
        if (c->o->review_marker && c->o->review_marker[0] && c->svc->edit) {
            bool none;
            bool edited = edit_earlier(c, post, res, &none);
            if (!none)
                return edited;
        }
        if (c->o->kept_comment && c->o->kept_comment[0] && c->svc->edit_kept) {
            bool gone;
            bool edited = edit_kept(c, post, res, &gone);
            if (!gone)
                return edited;
        }
    }
    for (;;) {
        if (uncertain) {
            if (!listable) {
                set_msg(c, res, "%s; it may have been posted: %s", last, c->svc->unlisted);
                return fail(res);
            }
            say(c, "%s: looking for the comment before posting again", last);
            char why[512] = "";
            char *url = NULL;
            long st = 0;
            int found = look_for_marker(c, digest, &url, why, sizeof why, &st);
            if (found > 0) {
                res->status = SBX_SEND_EXISTED;
                res->url = url;
                set_msg(c, res, "already posted (%s, then found by its marker)", last);
                return true;
            }
            if (found < 0) {
                set_msg(c, res, "%s; it may have been posted, and the comments could not be "
                                "listed to check (%s): not posted again",
                        last, why);
                return fail(res);
            }
            if (res->posts >= attempts) {
                set_msg(c, res, "%s; not posted after %d tries", last, res->posts);
                return fail(res);
            }
            if (!pause_ms(c, 1000LL << (res->posts - 1 < 4 ? res->posts - 1 : 4))) {
                set_msg(c, res, "cancelled; %s, and the comment was not found", last);
                return fail(res);
            }
        }
        struct sbx_http_response resp = {0};
        enum sbx_http_result kind;
        int64_t asked = 0;
        char err[512];
        /* Each post on a new connection: libcurl sends a request again by
         * itself when a kept connection turns out closed before any answer,
         * and a post the server kept before closing would be made twice. */
        struct sbx_http *fresh = sbx_http_new(&c->cfg, err, sizeof err);
        if (!fresh) {
            set_msg(c, res, "%s", err);
            return fail(res);
        }
        res->posts++;
        enum outcome oc = exchange(c, fresh, post, &resp, &kind, &asked, err, sizeof err);
        sbx_http_free(fresh);
        res->http_status = resp.status;
        if (oc == RATE_OVER) {
            set_msg(c, res, "HTTP %ld: rate limited; the service asks to wait %lld s, longer "
                            "than allowed: nothing was posted",
                    resp.status, (long long)((asked + 999) / 1000));
            sbx_http_response_free(&resp);
            return fail(res);
        }
        if (oc == TRANSPORT) {
            sbx_http_response_free(&resp);
            if (kind == SBX_HTTP_CANCELLED) {
                set_msg(c, res, "cancelled%s", res->posts > 1 || uncertain
                                                   ? "" : " (it may have been posted)");
                return fail(res);
            }
            if (certain_not_sent(kind)) {
                set_msg(c, res, "%s: nothing was posted", err);
                return fail(res);
            }
            snprintf(last, sizeof last, "%s (%s)", transport_word(kind), err);
            uncertain = true;
            continue;
        }
        long st = resp.status;
        if (st >= 200 && st <= 299) {
            res->status = SBX_SEND_POSTED;
            res->url = sbx_send_comment_url(c->t, c->env, resp.body.p, resp.body.len);
            sbx_send_comment_id(resp.body.p, resp.body.len, res->comment_id);
            set_msg(c, res, "posted");
            sbx_http_response_free(&resp);
            return true;
        }
        struct sbx_buf m = SBX_BUF_INIT;
        sbx_send_service_message(&m, resp.body.p, resp.body.len, post);
        const char *words = m.len ? m.p : "";
        const char *sep = m.len ? ": " : "";
        if (st >= 500) {
            snprintf(last, sizeof last, "HTTP %ld%s%s", st, sep, words);
            uncertain = true;
        } else if (st >= 300 && st <= 399) {
            struct sbx_buf host = SBX_BUF_INIT;
            if (resp.location)
                sbx_send_url_host(&host, resp.location);
            set_msg(c, res, "HTTP %ld: a redirect%s%s, not followed: nothing was posted", st,
                    host.len ? " to " : "", host.len ? host.p : "");
            sbx_buf_free(&host);
        } else if (st == 401) {
            set_msg(c, res, "HTTP 401%s%s: the credentials were refused: check %s", sep, words,
                    var);
        } else if (st == 403 || st == 404) {
            set_msg(c, res, "HTTP %ld%s%s: check the target and that %s may comment there", st,
                    sep, words, var);
        } else if (st == 413 || st == 422) {
            set_msg(c, res, "HTTP %ld%s%s: the service refused the comment (too long or "
                            "malformed)", st, sep, words);
        } else {
            set_msg(c, res, "HTTP %ld%s%s", st, sep, words);
        }
        sbx_buf_free(&m);
        sbx_http_response_free(&resp);
        if (!uncertain || st < 500)
            return fail(res);
    }
}

bool sbx_send_post(const struct sbx_target *t, const struct sbx_send_env *env,
                   const char *body, size_t len, const char *digest,
                   const struct sbx_send_opts *opts, struct sbx_send_result *res)
{
    static const struct sbx_send_opts none = {0};
    memset(res, 0, sizeof *res);
    struct ctx c = {.t = t, .svc = sbx_service_of(t->kind), .env = env,
                    .o = opts ? opts : &none};
    c.wait_max = c.o->wait_max_ms ? c.o->wait_max_ms : 120000;
    struct sbx_send_request post;
    char err[512];
    if (!sbx_send_build(t, env, body, len, digest, &post, err, sizeof err)) {
        set_msg(&c, res, "%s", err);
        return fail(res);
    }
    c.secrets = &post;
    c.cfg = (struct sbx_http_config){
        .ca_file = env->ca_file,
        .connect_timeout_ms = c.o->connect_timeout_ms,
        .timeout_ms = c.o->timeout_ms > 0 ? c.o->timeout_ms : 30000,
        .max_body = LIST_MAX_BODY,
        .user_agent = "sbxview",
        .cancel = c.o->cancel,
    };
    c.http = sbx_http_new(&c.cfg, err, sizeof err);
    bool ok;
    if (!c.http) {
        set_msg(&c, res, "%s", err);
        ok = fail(res);
    } else {
        ok = run(&c, &post, digest, res);
    }
    sbx_http_free(c.http);
    sbx_send_request_free(&post);
    return ok;
}

void sbx_send_result_free(struct sbx_send_result *res)
{
    free(res->url);
    res->url = NULL;
}
