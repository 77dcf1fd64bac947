/* The compare view: loading the two runs, moving, the output diff. */
#include "app/app_cmp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "importers/load.h"
#include "analyses/compare/compare.h"
#include "analyses/secrets/secrets.h"
#include "app/app_cmp_internal.h"
#include "app/keys.h"
#include "app/list_window.h"

static bool load_run(struct sbx_cmp_side *s, const struct sbx_cmp_input *in,
                     const struct sbx_allowlist *allow, const struct sbx_app_opts *opts, char *err,
                     size_t errsz)
{
    s->name = sbx_xstrndup(in->name, strlen(in->name));
    sbx_timeline_init(&s->tl);
    const char *paths[1] = {in->path}, *names[1] = {in->source};
    struct sbx_load_report rep = {0};
    const struct sbx_format *fmts[1] = {in->fmt};
    struct sbx_load_opts lo = {.threads = opts->threads, .formats = fmts, .names = names,
                               .import = opts->import};
    size_t loaded = sbx_load_paths(&s->tl, paths, 1, &lo, &rep);
    bool ok = loaded > 0;
    if (!ok) {
        snprintf(err, errsz, "%s", rep.nerrors ? rep.errors[0] : "nothing in it could be read");
    } else {
        struct sbx_summary_opts so = {.threads = opts->threads, .allow = allow,
                                      .unread = rep.unread, .nunread = rep.nunread,
                                      .skews = opts->skews, .nskews = opts->nskews};
        ok = s->summarized = sbx_summarize(&s->tl, &so, &s->sum, err, errsz);
    }
    sbx_load_report_free(&rep);
    if (ok && s->sum.patterns)
        s->scratch = sbx_secrets_scratch_new(s->sum.patterns);
    return ok;
}

static void side_free(struct sbx_cmp_side *s)
{
    sbx_secrets_scratch_free(s->scratch);
    if (s->summarized)
        sbx_summary_free(&s->sum);
    sbx_timeline_free(&s->tl);
    sbx_buf_free(&s->text);
    sbx_buf_free(&s->red);
    free(s->name);
}

struct sbx_cmpview *sbx_cmpview_open(const struct sbx_cmp_input *a, const struct sbx_cmp_input *b,
                                     const struct sbx_allowlist *allow,
                                     const struct sbx_app_opts *opts, int cols, int rows,
                                     char *err, size_t errsz)
{
    struct sbx_cmpview *v = sbx_xcalloc(1, sizeof *v);
    v->opts = *opts;
    v->cols = cols;
    v->rows = rows;
    char why[256];
    if (!load_run(&v->side[0], a, allow, opts, why, sizeof why)) {
        snprintf(err, errsz, "A (%s): %s", a->name, why);
        side_free(&v->side[0]);
        free(v);
        return NULL;
    }
    if (!load_run(&v->side[1], b, allow, opts, why, sizeof why)) {
        snprintf(err, errsz, "B (%s): %s", b->name, why);
        side_free(&v->side[0]);
        side_free(&v->side[1]);
        free(v);
        return NULL;
    }
    sbx_compare(&v->side[0].tl, &v->side[0].sum, &v->side[1].tl, &v->side[1].sum, &v->cmp);
    sbx_doc_init(&v->doc, cols, opts->ascii);
    /* open on the first difference: what matters first */
    for (size_t i = 0; i < v->cmp.nrows; i++) {
        if (v->cmp.rows[i].kind != SBX_CMP_SAME) {
            sbx_cmpview_select(v, i);
            break;
        }
    }
    return v;
}

void sbx_cmpview_free(struct sbx_cmpview *v)
{
    if (!v)
        return;
    sbx_compare_free(&v->cmp);
    side_free(&v->side[0]);
    side_free(&v->side[1]);
    sbx_doc_free(&v->doc);
    free(v);
}

size_t sbx_cmpview_body(const struct sbx_cmpview *v)
{
    /* header, run-level line, column titles (wide) or the selected pair's
     * three lines (narrow), status */
    int fixed = sbx_cmpview_wide(v) ? 4 : 6;
    return v->rows > fixed ? (size_t)(v->rows - fixed) : 1;
}

void sbx_cmpview_select(struct sbx_cmpview *v, size_t i)
{
    sbx_list_select(&v->cur, &v->top, i, v->cmp.nrows, sbx_cmpview_body(v));
}

void sbx_cmpview_resize(struct sbx_cmpview *v, int cols, int rows)
{
    v->cols = cols;
    v->rows = rows;
    if (v->diff)
        sbx_cmpview_diff_doc(v);
    sbx_cmpview_select(v, v->cur);
}

bool sbx_cmpview_showing_diff(const struct sbx_cmpview *v)
{
    return v && v->diff;
}

void sbx_cmpview_next_diff(struct sbx_cmpview *v, bool back)
{
    size_t n = v->cmp.nrows;
    for (size_t k = 1; k <= n; k++) {
        size_t i = back ? (v->cur + n - k) % n : (v->cur + k) % n;
        if (v->cmp.rows[i].kind == SBX_CMP_SAME)
            continue;
        if (i == v->cur)
            break;
        bool wrapped = back ? i > v->cur : i < v->cur;
        sbx_cmpview_select(v, i);
        snprintf(v->msg, sizeof v->msg, "%s%s", sbx_cmp_kind_name(v->cmp.rows[i].kind),
                 wrapped ? (back ? " (from the end)" : " (from the top)") : "");
        return;
    }
    snprintf(v->msg, sizeof v->msg, "no %sdifference", n && v->cmp.rows[v->cur].kind != SBX_CMP_SAME ? "other " : "");
}

void sbx_cmpview_move(struct sbx_cmpview *v, long delta, bool to_end)
{
    if (v->diff) {
        long h = v->rows > 2 ? v->rows - 2 : 1;
        long max = (long)v->doc.nrows > h ? (long)v->doc.nrows - h : 0;
        long top = to_end ? (delta < 0 ? 0 : max) : (long)v->doc_top + delta;
        v->doc_top = (size_t)(top < 0 ? 0 : top > max ? max : top);
        return;
    }
    if (!v->cmp.nrows)
        return;
    if (to_end) {
        sbx_cmpview_select(v, delta < 0 ? 0 : v->cmp.nrows - 1);
        return;
    }
    long cur = (long)v->cur + delta;
    sbx_cmpview_select(v, (size_t)(cur < 0 ? 0 : cur));
}

long sbx_cmpview_page(const struct sbx_cmpview *v)
{
    return v->diff ? (v->rows > 2 ? v->rows - 2 : 1) : (long)sbx_cmpview_body(v);
}

void sbx_cmpview_mouse(struct sbx_cmpview *v, int key, int mrow)
{
    if (key == SBX_KEY_WHEEL_UP || key == SBX_KEY_WHEEL_DOWN) {
        sbx_cmpview_move(v, key == SBX_KEY_WHEEL_UP ? -3 : 3, false);
        return;
    }
    int first = sbx_cmpview_wide(v) ? 3 : 2;
    if (!v->diff && mrow >= first && (size_t)(mrow - first) < sbx_cmpview_body(v)) {
        sbx_cmpview_select(v, v->top + (size_t)(mrow - first));
        if (key == SBX_KEY_DOUBLE_CLICK)
            sbx_cmpview_open_diff(v);
    }
}

void sbx_cmpview_close_diff(struct sbx_cmpview *v)
{
    v->diff = false;
}

void sbx_cmpview_message(struct sbx_cmpview *v, const char *text)
{
    snprintf(v->msg, sizeof v->msg, "%s", text);
}
