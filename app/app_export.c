/* e: export the summary from the terminal. A prompt for the target, then
 * the exact request (or file) in a scrollable view, sent only on y or
 * Enter, on a thread of its own so the interface stays live; the result,
 * the comment's URL or why not, in the status line. The body carries the
 * run's review and the send uses and keeps what the review file holds of
 * earlier posts, through the same export/posted.h as `sbxview export`. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "export/body.h"
#include "export/output.h"
#include "export/posted.h"
#include "export/review_write.h"
#include "export/send.h"
#include "export/target.h"
#include "importers/review.h"
#include "app/app_internal.h"
#include "app/app_review.h"

struct sbx_app_export {
    struct sbx_target target;
    char name[160];
    char digest[SBX_DIGEST_HEX];
    struct sbx_buf body;        /* as built for the target */
    struct sbx_body_info info;  /* of body: what a post keeps */
    /* the run's review as read when the export was prepared, and where it
     * lives; earlier is this export's last post it keeps (borrowed), or NULL */
    struct sbx_review review;
    struct sbx_app_review_place place;
    const struct sbx_review_post *earlier;
    bool to_store; /* the review is in the store: the post's line goes through its outbox */
    int64_t at;    /* when the send ended */
    bool kept_ok;
    char kept_err[600];
    struct sbx_buf shown;       /* what the preview shows */
    char note[200];             /* a line above it: a variable not set */
    enum sbx_view back;
    struct sbx_send_env env;
    /* the send */
    bool sent, running, threaded;
    pthread_t tid;
    _Atomic bool finished, cancel;
    struct sbx_send_result res;
    bool file_ok;
    char file_err[512];
};

void sbx_app_review_place_free(struct sbx_app_review_place *p)
{
    for (size_t i = 0; i < p->nread; i++)
        free(p->read[i]);
    free(p->write);
    free(p->author);
    memset(p, 0, sizeof *p);
}

static void free_export(struct sbx_app_export *x)
{
    sbx_target_free(&x->target);
    sbx_buf_free(&x->body);
    sbx_buf_free(&x->shown);
    sbx_send_result_free(&x->res);
    sbx_review_free(&x->review);
    sbx_app_review_place_free(&x->place);
    free(x);
}

static void drop(struct sbx_app *a)
{
    struct sbx_app_export *x = a->exp;
    if (!x)
        return;
    if (x->running) {
        atomic_store(&x->cancel, true);
        if (x->threaded)
            pthread_join(x->tid, NULL);
    }
    free_export(x);
    a->exp = NULL;
}

void sbx_app_export_free(struct sbx_app *a) { drop(a); }

bool sbx_app_export_busy(const struct sbx_app *a) { return a->exp && a->exp->running; }

const char *sbx_app_export_name(const struct sbx_app *a) { return a->exp ? a->exp->name : ""; }

enum sbx_view sbx_app_export_back(const struct sbx_app *a)
{
    return a->exp ? a->exp->back : SBX_VIEW_TIMELINE;
}

void sbx_app_export_prompt(struct sbx_app *a)
{
    if (!a->opts.exports) {
        sbx_app_message(a, false, "exports are off here");
        return;
    }
    if (sbx_app_export_busy(a)) {
        sbx_app_message(a, false, "still sending to %s (Esc stops)", a->exp->name);
        return;
    }
    if (!a->tl || !a->sum || a->preview) {
        sbx_app_message(a, true, "the run is still loading: export when it is whole");
        return;
    }
    sbx_app_review_poll(a);
    if (sbx_app_review_reading(a)) { /* an earlier post it holds would be missed */
        sbx_app_message(a, true, "the review in the store is not read yet (or could not be): export once it is in");
        return;
    }
    a->prompt = 'e';
    sbx_buf_clear(&a->input);
    /* the last target again, to send to the same place or correct it */
    if (a->exp && a->exp->name[0])
        sbx_buf_adds(&a->input, a->exp->name);
}

static bool build(struct sbx_app *a, struct sbx_app_export *x, char *err, size_t errsz)
{
    const int jira_api = 3;
    struct sbx_export_digests d;
    sbx_export_digests(a->tl, &d);
    const char **paths = NULL;
    size_t npaths = a->opts.ninputs;
    if (a->opts.inputs) {
        paths = (const char **)a->opts.inputs;
    } else {
        npaths = a->tl->nsources;
        paths = sbx_xcalloc(npaths ? npaths : 1, sizeof *paths);
        for (size_t i = 0; i < npaths; i++)
            paths[i] = a->tl->sources[i].path;
    }
    /* the review as it is now: an earlier export from here or from
     * `sbxview export` may have kept a post since the run was opened. In
     * the store, the interface's copy (read at the start and at each
     * write), never the cache's folder: the post is kept there too */
    if (sbx_app_review_in_store(a)) {
        sbx_app_review_copy(a, &x->review);
        x->to_store = true;
        x->place.author = sbx_xstrndup(a->rv->author, strlen(a->rv->author));
    } else if (a->opts.review_place &&
        a->opts.review_place(a->opts.review_place_ctx, a->tl, (const char *const *)paths, npaths,
                            &x->place)) {
        for (size_t i = 0; i < x->place.nread; i++) {
            char rerr[512];
            if (!sbx_review_read_file(&x->review, x->place.read[i], rerr, sizeof rerr))
                snprintf(x->note, sizeof x->note, "%.190s", rerr);
        }
    }
    struct sbx_review_state rst;
    sbx_review_state_make(&x->review, &rst);
    if (a->opts.services)
        x->env = *a->opts.services;
    x->env.jira_api = jira_api;
    struct sbx_body_opts bo = {
        .kind = sbx_target_body_kind(x->target.kind, jira_api),
        .limit = sbx_target_limit(x->target.kind),
        .paths = (const char *const *)paths,
        .npaths = npaths,
        .review = &x->review,
        .review_state = &rst,
    };
    bool ok = sbx_export_body_kept(a->tl, a->sum, &d, &bo, &x->review, &x->target, &x->env, false,
                                   &x->body, &x->info, &x->earlier, err, errsz);
    if (ok) /* the marker the body ends with, which a repeat looks for */
        snprintf(x->digest, sizeof x->digest, "%s", x->info.marker);
    sbx_review_state_free(&rst);
    if (!a->opts.inputs)
        free(paths);
    sbx_export_digests_free(&d);
    if (!ok)
        return false;
    if (!sbx_target_posts(&x->target)) {
        sbx_buf_addf(&x->shown, "write %zu bytes to %s\n\n", x->body.len, x->target.path);
        sbx_buf_add(&x->shown, x->body.p, x->body.len);
        return true;
    }
    /* a dry preview needs no credentials: a missing one shows masked, noted */
    struct sbx_send_env shown_env = x->env;
    const char *unset[4];
    size_t nunset = sbx_send_placeholders(&x->target, &shown_env, unset, 4);
    if (nunset == 1 && !strstr(unset[0], "URL")) /* a credential: the words its refusal uses */
        snprintf(x->note, sizeof x->note, "%s is not set: sending will fail until it is.",
                 sbx_send_secret_vars(x->target.kind));
    else if (nunset) /* a URL too: each one named */
        snprintf(x->note, sizeof x->note, "%s%s%s%s%s%s%s not set: sending will fail until %s.",
                 unset[0], nunset > 1 ? ", " : "", nunset > 1 ? unset[1] : "",
                 nunset > 2 ? ", " : "", nunset > 2 ? unset[2] : "", nunset > 3 ? ", ..." : "",
                 nunset > 1 ? " are" : " is", nunset > 1 ? "they are" : "it is");
    struct sbx_send_request r;
    if (!sbx_send_build(&x->target, &shown_env, x->body.p, x->body.len, x->digest, &r, err,
                        errsz))
        return false;
    /* the request's line and headers as sent, then the comment's text
     * itself rather than its JSON string, which is one unreadable line */
    struct sbx_buf req = SBX_BUF_INIT;
    sbx_send_format(&req, &r);
    size_t head = req.len;
    const char *blank = memmem(req.p, req.len, "\n\n", 2);
    if (blank)
        head = (size_t)(blank - req.p) + 1;
    sbx_buf_add(&x->shown, req.p, head);
    sbx_buf_free(&req);
    bool wrapped = sbx_send_body_is_text(bo.kind);
    sbx_buf_addf(&x->shown, "\n%s (%zu bytes):\n\n", wrapped ? "body: {\"body\": TEXT} with TEXT"
                                                             : "body, as sent",
                 r.body.len);
    sbx_buf_add(&x->shown, x->body.p, x->body.len);
    sbx_send_request_free(&r);
    return true;
}

void sbx_app_export_prepare(struct sbx_app *a, const char *target)
{
    if (!*target)
        return;
    if (sbx_app_export_busy(a)) {
        sbx_app_message(a, false, "still sending to %s (Esc stops)", a->exp->name);
        return;
    }
    struct sbx_app_export *x = sbx_xcalloc(1, sizeof *x);
    char err[600];
    if (!sbx_target_parse(target, &x->target, err, sizeof err)) {
        sbx_app_message(a, true, "export: %s", err);
        free(x);
        return;
    }
    if (!sbx_target_format(&x->target, x->name, sizeof x->name))
        snprintf(x->name, sizeof x->name, "%s:", sbx_target_kind_name(x->target.kind));
    sbx_review_init(&x->review);
    if (!build(a, x, err, sizeof err)) {
        sbx_app_message(a, true, "export to %s: %s", x->name, err);
        free_export(x);
        return;
    }
    drop(a);
    a->exp = x;
    x->back = a->view == SBX_VIEW_HELP ? a->back_to : a->view;
    a->view = SBX_VIEW_EXPORT;
    a->doc_top = 0;
    sbx_app_rebuild_doc(a);
}

void sbx_app_export_build_doc(struct sbx_app *a)
{
    struct sbx_doc *d = &a->doc;
    struct sbx_app_export *x = a->exp;
    if (!x)
        return;
    sbx_doc_addf(d, SBX_STYLE_HEADING, "Export to %s", x->name);
    sbx_doc_end_line(d);
    sbx_doc_adds(d, SBX_STYLE_NORMAL,
                 !sbx_target_posts(&x->target)
                     ? "This is the file that will be written. y or Enter writes it; q or Esc "
                       "cancels."
                     : "This is the exact request that will be sent, the credentials masked. "
                       "y or Enter sends it; q or Esc cancels.");
    sbx_doc_end_line(d);
    if (x->note[0]) {
        sbx_doc_adds(d, SBX_STYLE_ERROR, x->note);
        sbx_doc_end_line(d);
    }
    sbx_doc_end_line(d);
    /* the body holds log text: shown inert, as everywhere */
    sbx_doc_untrusted(d, SBX_STYLE_NORMAL, x->shown.p ? x->shown.p : "", x->shown.len, false);
    sbx_doc_end_line(d);
}

static void *run(void *arg)
{
    struct sbx_app_export *x = arg;
    if (!sbx_target_posts(&x->target)) {
        x->file_ok = sbx_write_output(x->target.path, x->body.p, x->body.len, x->file_err,
                                      sizeof x->file_err);
    } else {
        struct sbx_send_opts o = {.cancel = &x->cancel,
                                  .review_marker = x->info.review_marker[0] ? x->info.review_marker
                                                                            : NULL};
        sbx_export_kept_opts(x->earlier, &o);
        sbx_send_post(&x->target, &x->env, x->body.p, x->body.len, x->digest, &o, &x->res);
        struct timespec now;
        clock_gettime(CLOCK_REALTIME, &now);
        x->at = (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
        if (!x->to_store)
            x->kept_ok = sbx_export_keep_post(x->place.write, x->place.make_dirs, &x->target,
                                              &x->env, &x->info, &x->res,
                                              x->place.author ? x->place.author : "", x->at,
                                              x->kept_err, sizeof x->kept_err);
    }
    atomic_store(&x->finished, true);
    return NULL;
}

void sbx_app_export_send(struct sbx_app *a)
{
    struct sbx_app_export *x = a->exp;
    if (!x || x->running)
        return;
    if (x->sent) {
        sbx_app_message(a, false, "already done: e exports again");
        return;
    }
    x->sent = x->running = true;
    atomic_init(&x->finished, false);
    atomic_init(&x->cancel, false);
    a->view = x->back;
    if (a->view != SBX_VIEW_TIMELINE)
        sbx_app_rebuild_doc(a);
    if (a->opts.background && pthread_create(&x->tid, NULL, run, x) == 0) {
        x->threaded = true;
        sbx_app_message(a, false, "sending to %s (Esc stops)", x->name);
        return;
    }
    run(x);
    sbx_app_export_poll(a);
}

/* The post's line queued for the review in the store, as a key's
 * operation is (its outbox says when a write fails, and keeps it). */
static void keep_in_store(struct sbx_app *a, struct sbx_app_export *x)
{
    struct sbx_review_post p;
    x->kept_ok = true;
    if (!sbx_export_posted(&x->target, &x->env, &x->info, &x->res,
                           x->place.author ? x->place.author : "", x->at, &p))
        return;
    if (!sbx_app_review_in_store(a)) {
        x->kept_ok = false;
        snprintf(x->kept_err, sizeof x->kept_err, "the review in the store is no longer open");
    } else {
        struct sbx_buf line = SBX_BUF_INIT;
        sbx_review_post_line(&p, &line);
        sbx_app_review_queue(a, line.p, line.len);
        sbx_buf_free(&line);
    }
    sbx_review_post_free(&p);
}

bool sbx_app_export_poll(struct sbx_app *a)
{
    struct sbx_app_export *x = a->exp;
    if (!x || !x->running || !atomic_load(&x->finished))
        return false;
    if (x->threaded)
        pthread_join(x->tid, NULL);
    x->running = x->threaded = false;
    if (!sbx_target_posts(&x->target)) {
        if (x->file_ok)
            sbx_app_message(a, false, "wrote %s (%zu bytes)", x->target.path, x->body.len);
        else
            sbx_app_message(a, true, "export: %s", x->file_err);
        return true;
    }
    const struct sbx_send_result *r = &x->res;
    if (x->to_store)
        keep_in_store(a, x);
    if (!x->kept_ok && r->status != SBX_SEND_FAILED) {
        sbx_app_message(a, true, "sent to %s, but not kept in the review file, so the next "
                                 "export cannot find it: %s", x->name, x->kept_err);
        return true;
    }
    switch (r->status) {
    case SBX_SEND_POSTED:
        if (r->url)
            sbx_app_message(a, false, "posted: %s", r->url);
        else
            sbx_app_message(a, false, "posted to %s", x->name);
        break;
    case SBX_SEND_EXISTED:
        sbx_app_message(a, false, "already on %s, not posted again: %s", x->name,
                        r->url ? r->url : "(no URL given)");
        break;
    case SBX_SEND_EDITED:
        sbx_app_message(a, false, "edited on %s: %s", x->name, r->url ? r->url : "(no URL given)");
        break;
    case SBX_SEND_FAILED:
        sbx_app_message(a, true, "export to %s: %s", x->name, r->message);
        break;
    }
    return true;
}

void sbx_app_export_cancel(struct sbx_app *a)
{
    if (sbx_app_export_busy(a))
        atomic_store(&a->exp->cancel, true);
}
