/* The timeline: one row per event that shows, the selection, the run's
 * findings counted in the header. */
#include <string.h>

#include "base/numfmt.h"
#include "base/timefmt.h"
#include "app/app_headline.h"
#include "app/app_internal.h"
#include "app/keymap.h"
#include "app/view.h"
#include "render/sanitize.h"
#include "render/untrusted.h"

static void header(struct sbx_app *a, struct sbx_buf *h, int cols, const char *dot)
{
    char b[64], d[32];
    const struct sbx_summary *s = a->sum;
    if (a->preview)
        sbx_headline_part(h, cols, dot, "PREVIEW of the first lines");
    if (s && s->start != SBX_TIME_UNKNOWN) {
        if (sbx_summary_span_ns(s) >= 0)
            sbx_headline_part(h, cols, dot, "%s, %s", sbx_stamp(s->start, a->opts.local, b),
                              sbx_duration_text(sbx_summary_span_ns(s), SBX_DUR_WORDS, d));
        else
            sbx_headline_part(h, cols, dot, "%s", sbx_stamp(s->start, a->opts.local, b));
    }
    if (!s) {
        if (a->tl)
            sbx_headline_part(h, cols, dot, "%s events", sbx_thousands(a->tl->n, b));
        return;
    }
    /* the findings first, heaviest first, as the rows rank them */
    if (s->account_inside)
        sbx_headline_part(h, cols, dot, "%s account change%s FROM INSIDE",
                          sbx_thousands(s->account_inside, b), s->account_inside == 1 ? "" : "s");
    if (s->ngaps)
        sbx_headline_part(h, cols, dot, "%s possibly removed from the log", sbx_thousands(s->ngaps, b));
    if (s->cross.noutside)
        sbx_headline_part(h, cols, dot, "%s outside the wrapper", sbx_thousands(s->cross.noutside, b));
    if (s->cross.nmissing)
        sbx_headline_part(h, cols, dot, "%s missing from the record",
                          sbx_thousands(s->cross.nmissing, b));
    if (s->nrefused)
        sbx_headline_part(h, cols, dot, "%s refused", sbx_thousands(s->nrefused, b));
    if (s->denied_connections)
        sbx_headline_part(h, cols, dot, "%s connection%s denied",
                          sbx_thousands(s->denied_connections, b),
                          s->denied_connections == 1 ? "" : "s");
    if (s->nunlisted)
        sbx_headline_part(h, cols, dot, "%s unlisted", sbx_thousands(s->nunlisted, b));
    if (s->system[SBX_ADDED].n + s->system[SBX_CHANGED].n + s->system[SBX_REMOVED].n)
        sbx_headline_part(h, cols, dot, "system files changed");
    if (s->nsecrets) {
        size_t n = sbx_summary_distinct_secrets(s);
        sbx_headline_part(h, cols, dot, "%s secret%s", sbx_thousands(n, b), n == 1 ? "" : "s");
    }
    if (s->hash_mismatched) {
        /* the command it is: its program, and how many others */
        const char *prog = s->nhash_mismatches ? sbx_str(a->tl, s->hash_mismatches[0]->u.cmd.program) : "";
        struct sbx_buf name = SBX_BUF_INIT; /* log text: redacted, made safe, cut */
        sbx_untrusted_cstr(&name, prog, SBX_SAN_ONE_LINE | (a->opts.ascii ? SBX_SAN_ASCII : 0), 24);
        if (name.len)
            sbx_headline_part(h, cols, dot, "%s hash mismatch%s (%.*s%s)", sbx_thousands(s->hash_mismatched, b),
                              s->hash_mismatched == 1 ? "" : "es", (int)name.len, name.p,
                              s->hash_mismatched == 1 ? "" : ", ...");
        else
            sbx_headline_part(h, cols, dot, "%s hash mismatch%s", sbx_thousands(s->hash_mismatched, b),
                              s->hash_mismatched == 1 ? "" : "es");
        sbx_buf_free(&name);
    }
    if (s->failed)
        sbx_headline_part(h, cols, dot, "%s failed", sbx_thousands(s->failed, b));
    /* last: the status line counts the rows too */
    if (a->tl)
        sbx_headline_part(h, cols, dot, "%s events", sbx_thousands(a->tl->n, b));
}

static void draw(struct sbx_app *a, struct sbx_grid *g)
{
    int h = sbx_app_body(a);
    size_t n = sbx_app_count(a);
    for (int r = 0; r < h; r++) {
        size_t i = a->top + (size_t)r;
        if (i >= n) {
            sbx_grid_fill(g, 1 + r, 0, g->cols, SBX_STYLE_NORMAL);
            continue;
        }
        sbx_draw_event_row(g, 1 + r, &a->look, sbx_app_event(a, i), i == a->cur);
    }
    if (!n) {
        const char *why = !a->tl ? (a->progress[0] ? "Loading..." : "Nothing loaded.")
                          : a->tl->n ? "No event matches (& then Enter clears the filter; f cycles findings)."
                                     : "No events in this run.";
        sbx_grid_text(g, 2, 2, g->cols, SBX_STYLE_NOTE, why, strlen(why));
    }
}

static void place(const struct sbx_app *a, size_t *cur, size_t *n)
{
    *cur = a->cur;
    *n = sbx_app_count(a);
}

static void move(struct sbx_app *a, long delta, bool to_end)
{
    size_t n = sbx_app_count(a);
    if (!n)
        return;
    if (to_end) {
        sbx_app_select(a, delta < 0 ? 0 : n - 1);
        return;
    }
    long cur = (long)a->cur + delta;
    if (cur < 0)
        cur = 0;
    if (cur >= (long)n)
        cur = (long)n - 1;
    /* a page keeps the selection's place on the screen, as less does */
    long h = sbx_app_body(a);
    if (delta >= h / 2 || delta <= -(h / 2)) {
        long top = (long)a->top + delta;
        long max_top = (long)n > h ? (long)n - h : 0;
        a->top = (size_t)(top < 0 ? 0 : top > max_top ? max_top : top);
    }
    sbx_app_select(a, (size_t)cur);
}

/* The wheel scrolls the rows; the selection stays in sight. */
static void wheel(struct sbx_app *a, long d)
{
    long top = (long)a->top + d, n = (long)sbx_app_count(a), h = sbx_app_body(a);
    long max_top = n > h ? n - h : 0;
    a->top = (size_t)(top < 0 ? 0 : top > max_top ? max_top : top);
    if (a->cur < a->top)
        a->cur = a->top;
    if (a->cur >= a->top + (size_t)h)
        a->cur = a->top + (size_t)h - 1;
}

static void click(struct sbx_app *a, int row, bool twice)
{
    size_t i = a->top + (size_t)(row - 1);
    if (i >= sbx_app_count(a))
        return;
    sbx_app_select(a, i);
    if (twice)
        sbx_app_open_detail(a);
}

static void enter(struct sbx_app *a)
{
    if (sbx_app_count(a))
        sbx_app_open_detail(a);
}

const struct sbx_view_ops sbx_view_timeline = {
    .name = "timeline",
    .keys = SBX_KEYS_MOVE | SBX_KEYS_ALWAYS | SBX_KEYS_BACK | SBX_KEYS_GOTO | SBX_KEYS_OPEN | SBX_KEYS_SEARCH |
            SBX_KEYS_EVENTS | SBX_KEYS_EXPORT | SBX_KEYS_REVIEW |
            SBX_KEYS_COPY,
    .header = header,
    .draw = draw,
    .place = place,
    .move = move,
    .wheel = wheel,
    .click = click,
    .enter = enter,
};
