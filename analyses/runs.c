#include "analyses/runs.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/buf.h"
#include "analyses/secrets/secrets.h"
#include "analyses/runs_more.h"
#include "analyses/summary.h"
#include "model/review.h"
#include "model/timeline.h"

void sbx_runs_init(struct sbx_runs *r, const char *root)
{
    memset(r, 0, sizeof *r);
    r->root = sbx_xstrndup(root, strlen(root));
}

void sbx_runs_add(struct sbx_runs *r, const char *name, const char *path)
{
    r->rows = sbx_xrealloc(r->rows, (r->n + 1) * sizeof *r->rows);
    struct sbx_run_row *row = &r->rows[r->n++];
    memset(row, 0, sizeof *row);
    row->name = sbx_xstrndup(name, strlen(name));
    row->path = sbx_xstrndup(path, strlen(path));
    row->start = row->end = SBX_TIME_UNKNOWN;
    atomic_init(&row->state, SBX_RUN_PENDING);
}

void sbx_runs_free(struct sbx_runs *r)
{
    for (size_t i = 0; i < r->n; i++) {
        free(r->rows[i].name);
        free(r->rows[i].path);
        free(r->rows[i].source);
    }
    free(r->rows);
    free(r->root);
    sbx_runs_more_free(r->more);
    memset(r, 0, sizeof *r);
}

void sbx_runs_set_source(struct sbx_runs *r, size_t i, const char *source)
{
    free(r->rows[i].source);
    r->rows[i].source = source ? sbx_xstrndup(source, strlen(source)) : NULL;
}

void sbx_runs_sources_under(struct sbx_runs *r, const char *root_name)
{
    size_t n = strlen(root_name);
    bool slash = n && root_name[n - 1] == '/';
    for (size_t i = 0; i < r->n; i++) {
        struct sbx_buf b = SBX_BUF_INIT;
        sbx_buf_addf(&b, "%s%s%s/", root_name, slash ? "" : "/", r->rows[i].name);
        free(r->rows[i].source);
        r->rows[i].source = b.p;
    }
}

const char *sbx_run_row_source(const struct sbx_run_row *row)
{
    return row->source ? row->source : row->path;
}

static const char *const col_names[] = {
#define SBX_RUN_COL_NAME(e, name) name,
    SBX_RUN_COLS(SBX_RUN_COL_NAME)
#undef SBX_RUN_COL_NAME
};

const char *sbx_run_col_name(enum sbx_run_col c)
{
    return (unsigned)c < SBX_RUN_NCOLS ? col_names[c] : NULL;
}

int sbx_run_col_by_name(const char *name)
{
    for (int c = 0; c < SBX_RUN_NCOLS; c++)
        if (strcmp(col_names[c], name) == 0)
            return c;
    return -1;
}

/* e's program label, redacted, then cut to fit out (never inside a
 * character); a NUL byte as '?'. */
static void label_of(const struct sbx_timeline *tl, const struct sbx_event *e, char *out, size_t size)
{
    const char *p = sbx_str(tl, e->u.cmd.program);
    struct sbx_buf red = SBX_BUF_INIT;
    sbx_secrets_redact_any(p, strlen(p), &red);
    size_t n = red.len < size ? red.len : size - 1;
    while (n < red.len && n > 0 && ((unsigned char)red.p[n] & 0xc0) == 0x80)
        n--;
    for (size_t k = 0; k < n; k++)
        out[k] = red.p[k] ? red.p[k] : '?';
    out[n] = '\0';
    sbx_buf_free(&red);
}

void sbx_run_row_fill(struct sbx_runs *r, size_t i, const struct sbx_timeline *tl,
                      const struct sbx_summary *sum)
{
    struct sbx_run_row *row = &r->rows[i];
    row->start = sum->start;
    row->end = sum->end;
    row->count[SBX_RUN_SANDBOXES] = sum->nsandboxes;
    row->count[SBX_RUN_COMMANDS] = sum->commands;
    row->count[SBX_RUN_FAILED] = sum->failed;
    row->count[SBX_RUN_REFUSED] = sum->nrefused;
    row->count[SBX_RUN_OUTSIDE] = sum->cross.noutside + sum->ngaps; /* a removed line's record is outside the log too */
    row->count[SBX_RUN_ACCOUNT] = sum->naccount;
    row->count[SBX_RUN_SECRETS] = sbx_summary_distinct_secrets(sum);
    row->mismatches = sum->nhash_mismatches;
    row->mismatch[0] = '\0';
    if (sum->nhash_mismatches)
        label_of(tl, sum->hash_mismatches[0], row->mismatch, sizeof row->mismatch);
    /* each count column, and the finding kind whose sources tell it */
    static const struct {
        enum sbx_run_col col;
        uint32_t kind;
    } needs[] = {
        {SBX_RUN_COMMANDS, SBX_F_FAILED},          {SBX_RUN_FAILED, SBX_F_FAILED},
        {SBX_RUN_REFUSED, SBX_F_REFUSED_HOST},     {SBX_RUN_OUTSIDE, SBX_F_OUTSIDE_WRAPPER},
        {SBX_RUN_ACCOUNT, SBX_F_ACCOUNT_CHANGE},   {SBX_RUN_SECRETS, SBX_F_SECRET},
    };
    row->known = 1u << SBX_RUN_SANDBOXES | 1u << SBX_RUN_REVIEW | 1u << SBX_RUN_VERDICT;
    for (size_t k = 0; k < sizeof needs / sizeof needs[0]; k++)
        if (sum->checkable & needs[k].kind)
            row->known |= 1u << needs[k].col;
    row->events = tl->n;
    uint32_t f = 0;
    for (size_t k = 0; k < tl->n; k++)
        f |= sbx_tl_at(tl, k)->findings;
    row->findings = f;
    atomic_store_explicit(&row->state, SBX_RUN_READY, memory_order_release);
    atomic_fetch_add(&r->done, 1);
}

void sbx_run_row_review(struct sbx_runs *r, size_t i, const struct sbx_review_state *st)
{
    struct sbx_run_row *row = &r->rows[i];
    row->count[SBX_RUN_REVIEW] = st ? (size_t)sbx_review_progress_of(st) : SBX_REVIEW_NOT_REVIEWED;
    row->count[SBX_RUN_VERDICT] = st && st->verdict ? (size_t)sbx_verdict_rank(st->verdict->state) : 0;
}

const char *sbx_run_row_review_word(const struct sbx_run_row *row)
{
    return sbx_review_progress_name((enum sbx_review_progress)row->count[SBX_RUN_REVIEW]);
}

const char *sbx_run_row_verdict_word(const struct sbx_run_row *row)
{
    const char *v = sbx_verdict_of_rank((int)row->count[SBX_RUN_VERDICT]);
    return v ? v : "";
}

void sbx_run_row_set(struct sbx_runs *r, size_t i, const struct sbx_run_row *v)
{
    struct sbx_run_row *row = &r->rows[i];
    row->start = v->start;
    row->end = v->end;
    for (int c = 0; c < SBX_RUN_LOG_END; c++)
        row->count[c] = v->count[c];
    row->known = v->known;
    row->events = v->events;
    row->findings = v->findings;
    memcpy(row->mismatch, v->mismatch, sizeof row->mismatch);
    row->mismatches = v->mismatches;
    atomic_store_explicit(&row->state, SBX_RUN_READY, memory_order_release);
    atomic_fetch_add(&r->done, 1);
}

void sbx_run_row_fail(struct sbx_runs *r, size_t i, const char *why)
{
    struct sbx_run_row *row = &r->rows[i];
    snprintf(row->why, sizeof row->why, "%s", why ? why : "not read");
    atomic_store_explicit(&row->state, SBX_RUN_UNREADABLE, memory_order_release);
    atomic_fetch_add(&r->done, 1);
}

int64_t sbx_run_row_value(const struct sbx_run_row *row, enum sbx_run_col c)
{
    switch (c) {
    case SBX_RUN_NAME: return -1;
    case SBX_RUN_START: return row->start == SBX_TIME_UNKNOWN ? -1 : row->start;
    case SBX_RUN_DURATION:
        return row->start == SBX_TIME_UNKNOWN || row->end == SBX_TIME_UNKNOWN ? -1
                                                                              : row->end - row->start;
    default:
        return (unsigned)c < SBX_RUN_NCOLS && (row->known & (1u << c)) ? (int64_t)row->count[c] : -1;
    }
}

/* ---- the filter ---- */

/* Words for the runs list's count columns; any other finding word is
 * model/findings.h's, held by a run with an event that has the bit. */
static const struct {
    const char *word;
    enum sbx_run_col col; /* must be non-zero */
} count_words[] = {
    {"failed", SBX_RUN_FAILED},   {"refused", SBX_RUN_REFUSED}, {"outside", SBX_RUN_OUTSIDE},
    {"account", SBX_RUN_ACCOUNT}, {"secret", SBX_RUN_SECRETS},  {"secrets", SBX_RUN_SECRETS},
};

/* Whether w[0..n) is a finding word: then a run holds it when the count
 * column col (-1: none) is non-zero, or an event has one of bits. */
static bool finding_word(const char *w, size_t n, int *col, uint32_t *bits)
{
    *col = -1;
    *bits = 0;
    for (size_t i = 0; i < sizeof count_words / sizeof count_words[0]; i++)
        if (strlen(count_words[i].word) == n && strncasecmp(count_words[i].word, w, n) == 0) {
            *col = (int)count_words[i].col;
            return true;
        }
    if (n == 8 && strncasecmp(w, "findings", 8) == 0)
        *bits = ~(uint32_t)SBX_F_BAD_FIELD;
    else
        *bits = sbx_findings_by_word(w, n, true);
    return *bits != 0;
}

static bool contains_nocase(const char *hay, const char *needle, size_t n)
{
    if (!n)
        return true;
    for (const char *h = hay; *h; h++)
        if (strncasecmp(h, needle, n) == 0)
            return true;
    return false;
}

static bool word_is(const char *w, size_t n, const char *word)
{
    return strlen(word) == n && strncasecmp(w, word, n) == 0;
}

static const char rv[] = "review:", vd[] = "verdict:";

static bool review_word(const char *w, size_t n)
{
    return (n >= sizeof rv - 1 && strncasecmp(w, rv, sizeof rv - 1) == 0) ||
           (n >= sizeof vd - 1 && strncasecmp(w, vd, sizeof vd - 1) == 0);
}

/* Whether review:STATE or verdict:STATE (review_word) holds for a row read. */
static bool review_word_holds(const struct sbx_run_row *row, const char *w, size_t n)
{
    if (strncasecmp(w, rv, sizeof rv - 1) == 0) {
        const char *v = w + sizeof rv - 1;
        size_t vn = n - (sizeof rv - 1);
        size_t p = row->count[SBX_RUN_REVIEW];
        if (word_is(v, vn, "none") || word_is(v, vn, "not-reviewed"))
            return p == SBX_REVIEW_NOT_REVIEWED;
        if (word_is(v, vn, "progress") || word_is(v, vn, "in-progress"))
            return p == SBX_REVIEW_IN_PROGRESS;
        return word_is(v, vn, "done") && p == SBX_REVIEW_DONE;
    }
    const char *v = w + sizeof vd - 1;
    size_t vn = n - (sizeof vd - 1);
    const char *have = sbx_verdict_of_rank((int)row->count[SBX_RUN_VERDICT]);
    return word_is(v, vn, have ? have : "none");
}

/* -1: cannot tell yet (a finding or review word on a pending row); else 0 or 1. */
static int word_holds(const struct sbx_run_row *row, int state, const char *w, size_t n)
{
    int col;
    uint32_t bits;
    if (review_word(w, n))
        return state == SBX_RUN_PENDING ? -1 : state == SBX_RUN_UNREADABLE ? 0 : review_word_holds(row, w, n);
    if (!finding_word(w, n, &col, &bits))
        return contains_nocase(row->name, w, n);
    if (state == SBX_RUN_PENDING)
        return -1;
    if (state == SBX_RUN_UNREADABLE)
        return 0;
    if (col >= 0) /* -1: a column the run cannot tell */
        return row->known & (1u << col) ? row->count[col] > 0 : -1;
    return (row->findings & bits) != 0;
}

static bool row_shows(const struct sbx_run_row *row, int state, const char *filter)
{
    const char *p = filter ? filter : "";
    while (*p) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        bool neg = *p == '!';
        if (neg)
            p++;
        const char *w = p;
        while (*p && *p != ' ')
            p++;
        int h = word_holds(row, state, w, (size_t)(p - w));
        if (h < 0 || (h != 0) == neg)
            return false;
    }
    return true;
}

/* ---- the order ---- */

struct key {
    uint32_t i;
    int rank;      /* 0 read, 1 pending, 2 unreadable */
    int64_t value;
    const char *name;
};

struct sort_ctx {
    enum sbx_run_col col;
    bool reverse;
};

static int cmp_keys(const void *pa, const void *pb, void *pc)
{
    const struct key *a = pa, *b = pb;
    const struct sort_ctx *c = pc;
    if (a->rank != b->rank)
        return a->rank < b->rank ? -1 : 1;
    int d = 0;
    if (c->col == SBX_RUN_NAME || a->rank) {
        d = strcmp(a->name, b->name);
        return c->reverse && c->col == SBX_RUN_NAME ? -d : d;
    }
    if ((a->value < 0) != (b->value < 0)) /* not known: after the known, either way */
        return a->value < 0 ? 1 : -1;
    if (a->value != b->value) {
        /* start: earliest first; the counts and durations: most first */
        d = c->col == SBX_RUN_START ? (a->value < b->value ? -1 : 1) : (a->value > b->value ? -1 : 1);
        return c->reverse ? -d : d;
    }
    d = strcmp(a->name, b->name);
    return d ? d : (a->i < b->i ? -1 : 1);
}

size_t sbx_runs_view(const struct sbx_runs *r, const struct sbx_runs_query *q, uint32_t *out)
{
    if (!r->n)
        return 0;
    struct key *keys = sbx_xmalloc(r->n * sizeof *keys);
    size_t n = 0;
    for (size_t i = 0; i < r->n; i++) {
        const struct sbx_run_row *row = &r->rows[i];
        /* one look at the state: the row may be filled meanwhile */
        int state = atomic_load_explicit(&row->state, memory_order_acquire);
        if (!row_shows(row, state, q->filter))
            continue;
        keys[n++] = (struct key){(uint32_t)i,
                                 state == SBX_RUN_READY ? 0 : state == SBX_RUN_PENDING ? 1 : 2,
                                 state == SBX_RUN_READY ? sbx_run_row_value(row, q->sort) : -1,
                                 row->name};
    }
    struct sort_ctx ctx = {q->sort, q->reverse};
    if (n > 1)
        qsort_r(keys, n, sizeof *keys, cmp_keys, &ctx);
    for (size_t k = 0; k < n; k++)
        out[k] = keys[k].i;
    free(keys);
    return n;
}
