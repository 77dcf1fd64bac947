/* The app's state: data, the visible rows, filter and search. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/evid.h"
#include "query/query.h"
#include "app/app_internal.h"
#include "app/app_review.h"
#include "app/keymap.h"
#include "app/list_window.h"
#include "app/view.h"

void sbx_app_init(struct sbx_app *a, const struct sbx_app_opts *opts, int cols, int rows)
{
    memset(a, 0, sizeof *a);
    a->opts = *opts;
    a->cols = cols;
    a->rows = rows;
    sbx_doc_init(&a->doc, cols, opts->ascii);
}

static size_t hit_at_or_after(const struct sbx_app *a, size_t pos);

/* The index of the first of the ascending positions v[0..n) that is at or
 * after pos (n when none). */
static size_t first_at_or_after(const uint32_t *v, size_t n, size_t pos)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (v[mid] < pos)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static void drop_search(struct sbx_app *a)
{
    sbx_query_free(a->search);
    a->search = NULL;
    free(a->hits);
    a->hits = NULL;
    a->nhits = 0;
    a->look.find = NULL;
}

void sbx_app_free(struct sbx_app *a)
{
    sbx_app_cancel(a, false);
    sbx_app_export_free(a);
    sbx_app_review_free(a);
    drop_search(a);
    free(a->search_text);
    sbx_query_free(a->filter);
    free(a->filter_text);
    free(a->vis);
    free(a->slines);
    sbx_doc_free(&a->doc);
    sbx_buf_free(&a->input);
    sbx_buf_free(&a->out);
    sbx_buf_free(&a->write_text);
    free(a->write_path);
    sbx_rows_look_free(&a->look);
    sbx_app_lists_free(a);
    memset(a, 0, sizeof *a);
}

size_t sbx_app_count(const struct sbx_app *a)
{
    if (!a->tl)
        return 0;
    return a->vis ? a->nvis : a->tl->n;
}

size_t sbx_app_pos(const struct sbx_app *a, size_t i)
{
    return a->vis ? a->vis[i] : i;
}

const struct sbx_event *sbx_app_event(const struct sbx_app *a, size_t i)
{
    if (i >= sbx_app_count(a))
        return NULL;
    return sbx_tl_at(a->tl, sbx_app_pos(a, i));
}


size_t sbx_app_row_of(const struct sbx_app *a, const struct sbx_event *e, bool exact)
{
    if (!a->tl || !e)
        return SIZE_MAX;
    size_t pos = sbx_timeline_position(a->tl, e);
    size_t row = a->vis ? first_at_or_after(a->vis, a->nvis, pos) : pos;
    size_t n = sbx_app_count(a);
    if (row >= n)
        return exact || !n ? SIZE_MAX : n - 1;
    if (exact && sbx_app_event(a, row) != e)
        return SIZE_MAX;
    return row;
}

void sbx_app_select(struct sbx_app *a, size_t i)
{
    sbx_list_select(&a->cur, &a->top, i, sbx_app_count(a), (size_t)sbx_app_body(a));
}

bool sbx_app_at_end(const struct sbx_app *a)
{
    size_t n = sbx_app_count(a);
    return !n || a->cur + 1 >= n;
}

void sbx_app_message(struct sbx_app *a, bool error, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(a->msg, sizeof a->msg, fmt, ap);
    va_end(ap);
    a->msg_error = error;
}

void sbx_app_set_progress(struct sbx_app *a, const char *text)
{
    snprintf(a->progress, sizeof a->progress, "%s", text ? text : "");
}

static bool serious(uint32_t f)
{
    return f & SBX_F_SERIOUS;
}

static bool shown_by_mode(int mode, uint32_t f)
{
    return mode == 0 || (mode == 1 && (f & ~(uint32_t)SBX_F_BAD_FIELD)) || (mode == 2 && serious(f));
}

/* Shows the rows the filter found (or all, or the findings subset), keeping
 * the selection on the event it was on, or the nearest one after it. */
static void filter_landed(struct sbx_app *a, uint32_t *vis, size_t nvis, bool all,
                          const struct sbx_event *keep)
{
    if (!all && !vis) /* nothing matched: an empty list, not "no filter" */
        vis = sbx_xmalloc(sizeof *vis);
    free(a->vis);
    a->vis = all ? NULL : vis;
    a->nvis = all ? 0 : nvis;
    if (all)
        free(vis);
    size_t row = keep ? sbx_app_row_of(a, keep, false) : 0;
    a->top = 0;
    sbx_app_select(a, row == SIZE_MAX ? 0 : row);
    if (a->filter && !sbx_app_count(a))
        sbx_app_message(a, false, "no event matches the filter (& then Enter clears it)");
    if (a->search) /* matches are counted within what shows */
        sbx_app_search_again(a);
}

void sbx_app_job_finished(struct sbx_app *a, struct sbx_app_job *j)
{
    if (j->kind == SBX_JOB_FILTER) {
        /* the selection may have moved while the filter ran: keep it where it is now */
        filter_landed(a, j->out, j->n, false, sbx_app_event(a, a->cur));
        j->out = NULL;
    } else {
        free(a->hits);
        a->hits = j->out;
        a->nhits = j->n;
        j->out = NULL;
        if (j->jump)
            sbx_app_search_landed(a, j->jump < 0);
    }
}

void sbx_app_apply_filter(struct sbx_app *a)
{
    const struct sbx_event *keep = sbx_app_event(a, a->cur);
    sbx_app_cancel(a, false);
    if (!a->tl)
        return;
    uint32_t *subset = NULL;
    size_t nsubset = 0;
    /* records matched to a wrapper command, and a second log's account of
     * an event, are folded into the row they witness (its detail shows
     * them): only what the wrapper never ran stands on its own */
    bool fold = a->sum && (a->sum->cross.records || a->sum->witness.n);
    if (a->findings_mode || fold || a->range_on) {
        subset = sbx_xmalloc((a->tl->n ? a->tl->n : 1) * sizeof *subset);
        for (size_t i = 0; i < a->tl->n; i++) {
            const struct sbx_event *e = sbx_tl_at(a->tl, i);
            if (shown_by_mode(a->findings_mode, e->findings) &&
                (!a->range_on || sbx_range_overlaps(&a->range, e)) &&
                !(fold && (sbx_crosscheck_is_matched_record(&a->sum->cross, e) ||
                           sbx_witness_is_second(&a->sum->witness, e))))
                subset[nsubset++] = (uint32_t)i;
        }
    }
    if (!a->filter) {
        filter_landed(a, subset, nsubset, !(a->findings_mode || fold || a->range_on), keep);
        return;
    }
    sbx_app_start_job(a, SBX_JOB_FILTER, a->filter, subset, subset, nsubset, 0);
}

/* since:14:20 means 14:20 on the day the run started, in the zone shown. */
static struct sbx_query_time run_day(const struct sbx_app *a)
{
    int64_t t = a->sum ? a->sum->start : SBX_TIME_UNKNOWN;
    for (size_t i = 0; a->tl && t == SBX_TIME_UNKNOWN && i < a->tl->n; i++)
        t = sbx_tl_at(a->tl, i)->start; /* unknown times sort first */
    return (struct sbx_query_time){sbx_query_day_start(t, a->opts.local), a->opts.local};
}

bool sbx_app_set_filter(struct sbx_app *a, const char *text)
{
    if (!text || !*text) {
        sbx_query_free(a->filter);
        a->filter = NULL;
        free(a->filter_text);
        a->filter_text = NULL;
        sbx_app_apply_filter(a);
        return true;
    }
    char err[256];
    struct sbx_query_time day = run_day(a);
    struct sbx_query *q = a->tl ? sbx_query_compile(SBX_QUERY_FILTER, text, strlen(text), &day,
                                                    err, sizeof err)
                                : NULL;
    if (!q) {
        sbx_app_message(a, true, "filter: %s", a->tl ? err : "nothing loaded yet");
        return false;
    }
    sbx_query_free(a->filter);
    a->filter = q;
    if (a->filter_text != text) {
        free(a->filter_text);
        a->filter_text = sbx_xstrndup(text, strlen(text));
    }
    sbx_app_apply_filter(a);
    return true;
}

static bool query_find(const void *ctx, const char *s, size_t n, size_t from, size_t *b, size_t *e)
{
    return sbx_query_find(ctx, s, n, from, b, e);
}

bool sbx_app_set_search(struct sbx_app *a, const char *text, bool back, int jump)
{
    char err[256];
    if (!a->tl) {
        sbx_app_message(a, true, "search: nothing loaded yet");
        return false;
    }
    struct sbx_query_time day = run_day(a);
    struct sbx_query *q = sbx_query_compile(SBX_QUERY_SEARCH, text, strlen(text), &day, err,
                                            sizeof err);
    if (!q) {
        sbx_app_message(a, true, "search: %s", err);
        return false;
    }
    char *keep = sbx_xstrndup(text, strlen(text));
    sbx_app_cancel(a, false);
    sbx_app_export_free(a);
    drop_search(a);
    free(a->search_text);
    a->search_text = keep;
    a->search = q;
    a->search_back = back;
    a->look.find = query_find;
    a->look.find_ctx = q;
    sbx_app_start_job(a, SBX_JOB_SEARCH, q, NULL, a->vis, a->vis ? a->nvis : 0, jump);
    return true;
}

void sbx_app_search_again(struct sbx_app *a)
{
    free(a->hits);
    a->hits = NULL;
    a->nhits = 0;
    sbx_app_start_job(a, SBX_JOB_SEARCH, a->search, NULL, a->vis, a->vis ? a->nvis : 0, 0);
}

void sbx_app_search_landed(struct sbx_app *a, bool back)
{
    if (sbx_app_view(a)->document && (sbx_app_view(a)->keys & SBX_KEYS_SEARCH)) {
        sbx_app_search_doc(a, back, false, false);
        return;
    }
    /* the first match from the selection on, in the search's direction */
    const struct sbx_event *here = sbx_app_event(a, a->cur);
    size_t pos = here ? sbx_app_pos(a, a->cur) : 0;
    size_t h = hit_at_or_after(a, pos);
    char x[32];
    if (h < a->nhits && a->hits[h] == pos)
        sbx_app_message(a, false, "%s event%s", sbx_thousands(a->nhits, x),
                        a->nhits == 1 ? " matches" : "s match");
    else
        sbx_app_next_match(a, back);
}

/* The first hit at or after position pos (a->nhits when none). */
static size_t hit_at_or_after(const struct sbx_app *a, size_t pos)
{
    return first_at_or_after(a->hits, a->nhits, pos);
}

void sbx_app_next_match(struct sbx_app *a, bool back)
{
    if (!a->search) {
        sbx_app_message(a, true, "no search yet: / then a pattern");
        return;
    }
    if (!a->nhits) {
        sbx_app_message(a, true, "pattern not found: %s", a->search_text);
        return;
    }
    size_t pos = sbx_app_count(a) ? sbx_app_pos(a, a->cur) : 0;
    size_t h = hit_at_or_after(a, pos);
    bool wrapped = false;
    if (!back) {
        if (h < a->nhits && a->hits[h] == pos)
            h++;
        if (h >= a->nhits) {
            h = 0;
            wrapped = true;
        }
    } else {
        if (h == 0) {
            h = a->nhits - 1;
            wrapped = true;
        } else {
            h--;
        }
    }
    const struct sbx_event *e = sbx_tl_at(a->tl, a->hits[h]);
    sbx_app_select(a, sbx_app_row_of(a, e, false));
    char x[32], y[32];
    sbx_app_message(a, false, "match %s of %s%s", sbx_thousands(h + 1, x), sbx_thousands(a->nhits, y),
                    wrapped ? (back ? " (from the end)" : " (from the top)") : "");
}

void sbx_app_goto_event(struct sbx_app *a, const struct sbx_event *e)
{
    if (!e || !a->tl)
        return;
    size_t row = sbx_app_row_of(a, e, true);
    if (row == SIZE_MAX) {
        a->findings_mode = 0;
        sbx_app_set_filter(a, NULL);
        sbx_app_message(a, false, "filter cleared to show the event");
        row = sbx_app_row_of(a, e, true);
    }
    a->view = SBX_VIEW_TIMELINE;
    if (row != SIZE_MAX)
        sbx_app_select(a, row);
}

/* The event in tl that is the same record as old (same file, same line). */
static const struct sbx_event *same_record(const struct sbx_timeline *old_tl,
                                           const struct sbx_event *old, const struct sbx_timeline *tl)
{
    const char *path = old_tl->sources[old->source].path;
    for (size_t s = 0; s < tl->nsources; s++) {
        if (strcmp(tl->sources[s].path, path) != 0)
            continue;
        uint32_t line = sbx_ev_line_no(old);
        size_t pos = sbx_timeline_position_at(tl, old->start, (uint32_t)s, line);
        if (pos < tl->n && sbx_tl_at(tl, pos)->source == s && sbx_ev_line_no(sbx_tl_at(tl, pos)) == line)
            return sbx_tl_at(tl, pos);
        return pos < tl->n ? sbx_tl_at(tl, pos) : tl->n ? sbx_tl_at(tl, tl->n - 1) : NULL;
    }
    return NULL;
}

/* What matters first: a run opens on its heaviest finding (the earliest
 * event that has it), and says so. */
static void open_on_heaviest(struct sbx_app *a)
{
    size_t n = sbx_app_count(a);
    for (size_t w = 0; w < sbx_nfindings; w++) {
        uint32_t bit = sbx_findings[w].bit;
        if (bit == SBX_F_BAD_FIELD)
            continue;
        for (size_t i = 0; i < n; i++) {
            if (!(sbx_app_event(a, i)->findings & bit))
                continue;
            struct sbx_buf words = SBX_BUF_INIT;
            sbx_findings_words(bit, &words);
            a->top = i > 2 ? i - 2 : 0; /* a little of what came before, in sight */
            sbx_app_select(a, i);
            sbx_app_message(a, false, "the heaviest finding: %s (] [ next and previous, s summary)",
                            words.p);
            sbx_buf_free(&words);
            return;
        }
    }
}

/* --goto: the event with that id, once the data holds it (a preview may not
 * have come to it yet). */
static void go_to_id(struct sbx_app *a, const char *id)
{
    const struct sbx_event *e = sbx_event_by_id(a->tl, id, strlen(id));
    if (!e) {
        if (!a->preview) {
            a->goto_done = true;
            sbx_app_message(a, true, "--goto: no event has the id %s", id);
        }
        return;
    }
    a->goto_done = true;
    size_t row = sbx_app_row_of(a, e, true);
    if (row == SIZE_MAX) {
        sbx_app_message(a, true, "--goto: event %s is hidden by the filter", id);
        return;
    }
    a->top = row > 2 ? row - 2 : 0;
    sbx_app_select(a, row);
    sbx_app_message(a, false, "event %s", id);
}

void sbx_app_set_data(struct sbx_app *a, struct sbx_timeline *tl, struct sbx_summary *sum,
                      bool preview)
{
    bool first = !a->tl;
    const struct sbx_event *keep = sbx_app_event(a, a->cur);
    /* on the last row as it was: a followed timeline has grown already (as less +F) */
    size_t had = a->vis ? a->nvis : a->tl_events;
    bool at_end = a->tl && a->cur + 1 >= had;
    const struct sbx_event *detail = a->view == SBX_VIEW_DETAIL ? keep : NULL;
    const struct sbx_event *mapped = keep && a->tl != tl ? same_record(a->tl, keep, tl) : keep;
    if (a->tl != tl) {
        for (size_t i = 0; i < sizeof a->marks / sizeof a->marks[0]; i++)
            a->marks[i] = a->marks[i] ? same_record(a->tl, a->marks[i], tl) : NULL;
        for (size_t i = 0; i < 2; i++)
            a->range_rows[i] = a->range_on && tl ? same_record(a->tl, a->range_rows[i], tl) : NULL;
        a->range_first = a->range_first && tl ? same_record(a->tl, a->range_first, tl) : NULL;
    }
    sbx_app_cancel(a, false);
    sbx_rows_look_free(&a->look);
    a->tl = tl;
    a->tl_events = tl ? tl->n : 0;
    a->sum = sum;
    a->preview = preview;
    sbx_rows_look_init(&a->look, tl, sum, a->opts.local);
    sbx_app_review_look(a);
    if (a->search) {
        a->look.find = query_find;
        a->look.find_ctx = a->search;
    }
    /* select the same event among all rows; the filter then keeps it */
    free(a->vis);
    a->vis = NULL;
    a->nvis = 0;
    a->cur = a->top = 0;
    free(a->hits);
    a->hits = NULL;
    a->nhits = 0;
    size_t row = mapped ? sbx_app_row_of(a, mapped, false) : 0;
    sbx_app_select(a, row == SIZE_MAX ? 0 : row);
    bool range = sbx_app_range_remake(a); /* the clocks may have moved */
    if (a->filter_text) {
        /* since: and until: are read against the run's first day, which may have moved */
        char *text = a->filter_text;
        a->filter_text = NULL;
        if (!sbx_app_set_filter(a, text))
            sbx_app_set_filter(a, NULL);
        free(text);
    } else if (a->findings_mode || range || (sum && (sum->cross.records || sum->witness.n))) {
        sbx_app_apply_filter(a); /* folds what is witnessed twice, as sbx_app_apply_filter says */
    } else if (a->search) {
        sbx_app_search_again(a);
    }
    if (at_end && a->following) /* the newest row, among those the filter shows */
        sbx_app_select(a, sbx_app_count(a) ? sbx_app_count(a) - 1 : 0);
    if (a->view == SBX_VIEW_DETAIL && detail && sbx_app_event(a, a->cur) != mapped)
        a->view = SBX_VIEW_TIMELINE;
    if (first && a->opts.open_on_finding && !a->following)
        open_on_heaviest(a);
    if (a->opts.goto_id && !a->goto_done && tl)
        go_to_id(a, a->opts.goto_id);
    sbx_app_lists_reload(a);
    sbx_app_rebuild_doc(a);
}

void sbx_app_resize(struct sbx_app *a, int cols, int rows)
{
    a->cols = cols;
    a->rows = rows;
    sbx_app_rebuild_doc(a);
    sbx_app_select(a, a->cur);
    sbx_app_list_fix(a);
}
