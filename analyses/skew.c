#include "analyses/skew.h"

#include <stdbool.h>
#include <stdlib.h>

#include "base/buf.h"

enum { TRIED = 16 }; /* the densest clusters of candidate offsets scored */

static int by_off(const void *x, const void *y)
{
    const struct sbx_skew_pair *a = x, *b = y;
    if (a->off != b->off)
        return a->off < b->off ? -1 : 1;
    if (a->a != b->a)
        return a->a < b->a ? -1 : 1;
    return (a->b > b->b) - (a->b < b->b);
}

static int64_t dist(int64_t x, int64_t y)
{
    return x > y ? x - y : y - x;
}

static int by_int(const void *x, const void *y)
{
    int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
    return (a > b) - (a < b);
}

/* The first pair whose offset is at least t (pairs sorted by offset). */
static size_t first_at(const struct sbx_skew_pair *p, size_t n, int64_t t)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (p[mid].off < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

struct near {
    int64_t d;
    size_t i;
};

static int by_near(const void *x, const void *y)
{
    const struct near *a = x, *b = y;
    if (a->d != b->d)
        return a->d < b->d ? -1 : 1;
    return (a->i > b->i) - (a->i < b->i);
}

struct marks {
    bool *a, *b;
};

/* The pairs within the tolerance of `at`, each command once, the closest
 * first: their count, median offset and spread (from the median, or from
 * `at` with from_at). */
static void score(const struct sbx_skew_pair *p, size_t n, struct marks *m, int64_t at, bool from_at,
                  struct sbx_skew *s)
{
    size_t lo = first_at(p, n, at - SBX_SKEW_TOLERANCE_NS);
    size_t hi = first_at(p, n, at + SBX_SKEW_TOLERANCE_NS + 1);
    s->pairs = 0;
    s->ns = at;
    s->spread_ns = 0;
    if (lo >= hi)
        return;
    struct near *c = sbx_xmalloc((hi - lo) * sizeof *c);
    int64_t *offs = sbx_xmalloc((hi - lo) * sizeof *offs);
    for (size_t i = lo; i < hi; i++)
        c[i - lo] = (struct near){dist(p[i].off, at), i};
    qsort(c, hi - lo, sizeof *c, by_near);
    size_t k = 0;
    for (size_t i = 0; i < hi - lo; i++) {
        const struct sbx_skew_pair *q = &p[c[i].i];
        if (m->a[q->a] || m->b[q->b])
            continue;
        m->a[q->a] = m->b[q->b] = true;
        offs[k++] = q->off;
    }
    for (size_t i = lo; i < hi; i++)
        m->a[p[i].a] = m->b[p[i].b] = false;
    qsort(offs, k, sizeof *offs, by_int);
    int64_t med = k % 2 ? offs[k / 2] : offs[k / 2 - 1] + (offs[k / 2] - offs[k / 2 - 1]) / 2;
    int64_t from = from_at ? at : med;
    s->pairs = k;
    s->ns = from_at ? at : med;
    s->spread_ns = dist(offs[0], from) > dist(offs[k - 1], from) ? dist(offs[0], from)
                                                                   : dist(offs[k - 1], from);
    free(offs);
    free(c);
}

static bool better(const struct sbx_skew *x, const struct sbx_skew *y)
{
    if (x->pairs != y->pairs)
        return x->pairs > y->pairs;
    if (x->spread_ns != y->spread_ns)
        return x->spread_ns < y->spread_ns;
    return dist(x->ns, 0) < dist(y->ns, 0);
}

static void marks_new(struct marks *m, size_t na, size_t nb)
{
    m->a = sbx_xcalloc(na + 1, 1);
    m->b = sbx_xcalloc(nb + 1, 1);
}

static void marks_free(struct marks *m)
{
    free(m->a);
    free(m->b);
}

void sbx_skew_estimate(struct sbx_skew_pair *pairs, size_t n, size_t na, size_t nb,
                       struct sbx_skew *out)
{
    *out = (struct sbx_skew){.how = SBX_SKEW_NONE};
    if (!na || !nb)
        return;
    out->how = SBX_SKEW_UNCERTAIN;
    out->comparable = na < nb ? na : nb;
    if (!n)
        return;
    qsort(pairs, n, sizeof *pairs, by_off);
    /* votes[i]: candidates within a quarter of the tolerance of pairs[i]'s offset */
    const int64_t q = SBX_SKEW_TOLERANCE_NS / 4;
    size_t *votes = sbx_xmalloc(n * sizeof *votes);
    for (size_t i = 0, lo = 0, hi = 0; i < n; i++) {
        while (pairs[lo].off < pairs[i].off - q)
            lo++;
        while (hi < n && pairs[hi].off <= pairs[i].off + q)
            hi++;
        votes[i] = hi - lo;
    }
    struct marks m;
    marks_new(&m, na, nb);
    int64_t tried[TRIED];
    size_t ntried = 0;
    struct sbx_skew best = {0};
    bool have = false;
    while (ntried < TRIED) {
        size_t pick = n;
        for (size_t i = 0; i < n; i++) {
            bool near_tried = false;
            for (size_t t = 0; t < ntried && !near_tried; t++)
                near_tried = dist(pairs[i].off, tried[t]) <= q;
            if (!near_tried && (pick == n || votes[i] > votes[pick] ||
                                (votes[i] == votes[pick] && dist(pairs[i].off, 0) < dist(pairs[pick].off, 0))))
                pick = i;
        }
        if (pick == n)
            break;
        tried[ntried++] = pairs[pick].off;
        struct sbx_skew s, again;
        score(pairs, n, &m, pairs[pick].off, false, &s);
        /* centred on its own median: the pairs reported are those within the
         * tolerance of the offset reported */
        score(pairs, n, &m, s.ns, false, &again);
        if (!have || better(&again, &best))
            best = again;
        have = true;
    }
    marks_free(&m);
    free(votes);
    out->ns = best.ns;
    out->pairs = best.pairs;
    out->spread_ns = best.spread_ns;
    bool enough = out->pairs >= SBX_SKEW_MIN_PAIRS || out->pairs == out->comparable;
    if (out->pairs && enough && 2 * out->pairs >= out->comparable)
        out->how = SBX_SKEW_MEASURED;
}

void sbx_skew_score_at(struct sbx_skew_pair *pairs, size_t n, size_t na, size_t nb, int64_t at,
                       struct sbx_skew *out)
{
    out->comparable = na < nb ? na : nb;
    if (!n) {
        out->pairs = 0;
        out->spread_ns = 0;
        return;
    }
    qsort(pairs, n, sizeof *pairs, by_off);
    struct marks m;
    marks_new(&m, na, nb);
    struct sbx_skew s;
    score(pairs, n, &m, at, true, &s);
    marks_free(&m);
    out->pairs = s.pairs;
    out->spread_ns = s.spread_ns;
}

size_t sbx_skew_stride(size_t total)
{
    return total <= SBX_SKEW_MAX_PAIRS ? 1 : (total + SBX_SKEW_MAX_PAIRS - 1) / SBX_SKEW_MAX_PAIRS;
}
