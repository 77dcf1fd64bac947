/* Two texts' lines aligned: each distinct line numbered, then the longest
 * common subsequence of the numbers. */
#include "analyses/compare/linediff.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analyses/compare/compare.h"
#include "base/buf.h"
#include "base/fnv.h"

struct lines {
    const char **p;
    size_t *len;
    uint32_t *id;
    size_t n;
};

static void split(const char *s, size_t n, struct lines *l)
{
    memset(l, 0, sizeof *l);
    size_t cap = 0;
    for (size_t i = 0; i < n && l->n < SBX_LINEDIFF_MAX_LINES;) {
        const char *nl = memchr(s + i, '\n', n - i);
        size_t e = nl ? (size_t)(nl - s) : n;
        if (l->n == cap) {
            cap = cap ? cap * 2 : 64;
            l->p = sbx_xrealloc(l->p, cap * sizeof *l->p);
            l->len = sbx_xrealloc(l->len, cap * sizeof *l->len);
        }
        l->p[l->n] = s + i;
        l->len[l->n++] = e - i;
        i = e + 1;
    }
    l->id = sbx_xmalloc((l->n ? l->n : 1) * sizeof *l->id);
}

static void lines_free(struct lines *l)
{
    free(l->p);
    free(l->len);
    free(l->id);
}

static uint64_t hash_line(const char *s, size_t n)
{
    return sbx_fnv1a(SBX_FNV_BASIS, s, n);
}

/* Equal lines of a and b get equal ids (an open-addressing table of the distinct lines). */
static void number_lines(struct lines *a, struct lines *b)
{
    size_t cap = 16;
    while (cap < 2 * (a->n + b->n) + 2)
        cap *= 2;
    struct slot {
        const char *p;
        size_t len;
        uint32_t id;
        bool used;
    } *t = sbx_xcalloc(cap, sizeof *t);
    uint32_t next = 0;
    struct lines *both[2] = {a, b};
    for (int s = 0; s < 2; s++) {
        struct lines *l = both[s];
        for (size_t i = 0; i < l->n; i++) {
            size_t k = (size_t)hash_line(l->p[i], l->len[i]) & (cap - 1);
            while (t[k].used && !(t[k].len == l->len[i] && memcmp(t[k].p, l->p[i], l->len[i]) == 0))
                k = (k + 1) & (cap - 1);
            if (!t[k].used)
                t[k] = (struct slot){l->p[i], l->len[i], next++, true};
            l->id[i] = t[k].id;
        }
    }
    free(t);
}

static void add(struct sbx_linediff *d, enum sbx_linediff_op op, const char *p, size_t len)
{
    d->lines[d->n++] = (struct sbx_linediff_line){op, p, len};
}

void sbx_linediff(const char *ta, size_t na, const char *tb, size_t nb, struct sbx_linediff *out)
{
    struct lines a, b;
    split(ta, na, &a);
    split(tb, nb, &b);
    number_lines(&a, &b);
    size_t *match = sbx_xmalloc((a.n ? a.n : 1) * sizeof *match);
    sbx_cmp_lcs(a.id, a.n, b.id, b.n, match, NULL);
    memset(out, 0, sizeof *out);
    out->lines = sbx_xmalloc((a.n + b.n ? a.n + b.n : 1) * sizeof *out->lines);
    out->limited = a.n == SBX_LINEDIFF_MAX_LINES || b.n == SBX_LINEDIFF_MAX_LINES;
    size_t j = 0;
    for (size_t i = 0; i < a.n; i++) {
        if (match[i] == SBX_CMP_NONE) {
            add(out, SBX_LINE_DELETED, a.p[i], a.len[i]);
            continue;
        }
        for (; j < match[i]; j++)
            add(out, SBX_LINE_ADDED, b.p[j], b.len[j]);
        add(out, SBX_LINE_KEPT, a.p[i], a.len[i]);
        j = match[i] + 1;
    }
    for (; j < b.n; j++)
        add(out, SBX_LINE_ADDED, b.p[j], b.len[j]);
    free(match);
    lines_free(&a);
    lines_free(&b);
}

void sbx_linediff_free(struct sbx_linediff *d)
{
    free(d->lines);
    memset(d, 0, sizeof *d);
}
