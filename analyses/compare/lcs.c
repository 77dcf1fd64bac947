/* The longest common subsequence of two id sequences: Myers' O((N+M)D)
 * algorithm in linear space (the middle snake, divide and conquer), after
 * setting aside the ids the other sequence lacks (they cannot match, so the
 * result stays minimal, and two runs with nothing in common cost nothing). */
#include <stdint.h>
#include <stdlib.h>

#include "analyses/compare/compare.h"

#define UNREACHED (PTRDIFF_MIN / 4)

struct lcs {
    const uint32_t *a, *b; /* the compacted sequences */
    const size_t *ia, *ib; /* their original indexes */
    size_t *match_a;
    ptrdiff_t *vf, *vb;    /* furthest x per diagonal, forward and backward */
};

struct snake {
    ptrdiff_t x0, y0, x1, y1; /* from (x0, y0) to (x1, y1), in the sub-problem's coordinates */
};

/* One step d of the search from one end: A and B read forward (dir 1) or
 * backward from their ends (dir -1). */
static inline ptrdiff_t furthest(const struct lcs *L, ptrdiff_t *v, ptrdiff_t k, ptrdiff_t n,
                                 ptrdiff_t m, size_t a0, size_t b0, int dir, ptrdiff_t *xs,
                                 ptrdiff_t *ys)
{
    ptrdiff_t right = v[k - 1] == UNREACHED ? UNREACHED : v[k - 1] + 1; /* x+1 from diagonal k-1 */
    ptrdiff_t down = v[k + 1];                                           /* y+1 from diagonal k+1 */
    if (right > n)
        right = UNREACHED;
    if (down != UNREACHED && down - k > m)
        down = UNREACHED;
    ptrdiff_t x = right > down ? right : down;
    if (x == UNREACHED)
        return v[k] = UNREACHED;
    ptrdiff_t y = x - k;
    *xs = x;
    *ys = y;
    if (dir > 0) {
        while (x < n && y < m && L->a[a0 + x] == L->b[b0 + y])
            x++, y++;
    } else {
        while (x < n && y < m && L->a[a0 + n - 1 - x] == L->b[b0 + m - 1 - y])
            x++, y++;
    }
    return v[k] = x;
}

static void middle_snake(const struct lcs *L, size_t a0, ptrdiff_t n, size_t b0, ptrdiff_t m,
                         struct snake *s)
{
    ptrdiff_t *vf = L->vf + m + 1, *vb = L->vb + m + 1; /* diagonals -m-1 .. n+1 */
    for (ptrdiff_t k = -m - 1; k <= n + 1; k++)
        vf[k] = vb[k] = UNREACHED;
    vf[1] = vb[1] = 0; /* so that diagonal 0 starts at x 0 */
    ptrdiff_t delta = n - m;
    bool odd = delta & 1;
    for (ptrdiff_t d = 0;; d++) {
        ptrdiff_t lo = -d < -m ? -m + ((d - m) & 1) : -d, hi = d > n ? n - ((d - n) & 1) : d;
        for (ptrdiff_t k = lo; k <= hi; k += 2) {
            ptrdiff_t xs, ys;
            ptrdiff_t x = furthest(L, vf, k, n, m, a0, b0, 1, &xs, &ys);
            ptrdiff_t kb = delta - k;
            if (x != UNREACHED && odd && kb >= -(d - 1) && kb <= d - 1 && vb[kb] != UNREACHED &&
                x + vb[kb] >= n) {
                *s = (struct snake){xs, ys, x, x - k};
                return;
            }
        }
        if (d == 0)
            vf[1] = UNREACHED;
        for (ptrdiff_t k = lo; k <= hi; k += 2) {
            ptrdiff_t xs, ys;
            ptrdiff_t x = furthest(L, vb, k, n, m, a0, b0, -1, &xs, &ys);
            ptrdiff_t kf = delta - k;
            if (x != UNREACHED && !odd && kf >= -d && kf <= d && vf[kf] != UNREACHED &&
                x + vf[kf] >= n) {
                *s = (struct snake){n - x, m - (x - k), n - xs, m - ys};
                return;
            }
        }
        if (d == 0)
            vb[1] = UNREACHED;
    }
}

static void lcs_rec(struct lcs *L, size_t a0, size_t a1, size_t b0, size_t b1)
{
    while (a0 < a1 && b0 < b1 && L->a[a0] == L->b[b0]) {
        L->match_a[L->ia[a0]] = L->ib[b0];
        a0++, b0++;
    }
    while (a0 < a1 && b0 < b1 && L->a[a1 - 1] == L->b[b1 - 1]) {
        a1--, b1--;
        L->match_a[L->ia[a1]] = L->ib[b1];
    }
    if (a0 == a1 || b0 == b1)
        return;
    struct snake s;
    middle_snake(L, a0, (ptrdiff_t)(a1 - a0), b0, (ptrdiff_t)(b1 - b0), &s);
    for (ptrdiff_t x = s.x0, y = s.y0; x < s.x1; x++, y++)
        L->match_a[L->ia[a0 + (size_t)x]] = L->ib[b0 + (size_t)y];
    lcs_rec(L, a0, a0 + (size_t)s.x0, b0, b0 + (size_t)s.y0);
    lcs_rec(L, a0 + (size_t)s.x1, a1, b0 + (size_t)s.y1, b1);
}

/* An open-addressing set of ids, each with the sides it was seen on. */
struct idset {
    uint32_t *id;
    unsigned char *sides; /* 0: empty slot; bit 0 a, bit 1 b */
    size_t mask;
};

static unsigned char *idset_slot(struct idset *s, uint32_t id)
{
    size_t h = (id * 0x9E3779B97F4A7C15ull) >> 20;
    for (size_t i = h & s->mask;; i = (i + 1) & s->mask) {
        if (!s->sides[i] || s->id[i] == id) {
            s->id[i] = id;
            return &s->sides[i];
        }
    }
}

size_t sbx_cmp_lcs(const uint32_t *a, size_t na, const uint32_t *b, size_t nb, size_t *match_a,
                   size_t *work_bytes)
{
    size_t work = 0;
    for (size_t i = 0; i < na; i++)
        match_a[i] = SBX_CMP_NONE;
    /* the common head and tail need no work arrays */
    size_t head = 0, tail = 0;
    while (head < na && head < nb && a[head] == b[head]) {
        match_a[head] = head;
        head++;
    }
    while (tail < na - head && tail < nb - head && a[na - 1 - tail] == b[nb - 1 - tail]) {
        match_a[na - 1 - tail] = nb - 1 - tail;
        tail++;
    }
    size_t ma = na - head - tail, mb = nb - head - tail;
    if (ma && mb) {
        struct idset set;
        size_t cap = 16;
        while (cap < 2 * (ma + mb))
            cap *= 2;
        set.id = sbx_xmalloc(cap * sizeof *set.id);
        set.sides = sbx_xcalloc(cap, 1);
        set.mask = cap - 1;
        for (size_t i = head; i < head + ma; i++)
            *idset_slot(&set, a[i]) |= 1;
        for (size_t j = head; j < head + mb; j++)
            *idset_slot(&set, b[j]) |= 2;
        uint32_t *ca = sbx_xmalloc((ma + mb) * sizeof *ca), *cb = ca + ma;
        size_t *ia = sbx_xmalloc((ma + mb) * sizeof *ia), *ib = ia + ma;
        size_t n = 0, m = 0;
        for (size_t i = head; i < head + ma; i++)
            if (*idset_slot(&set, a[i]) == 3)
                ca[n] = a[i], ia[n++] = i;
        for (size_t j = head; j < head + mb; j++)
            if (*idset_slot(&set, b[j]) == 3)
                cb[m] = b[j], ib[m++] = j;
        work = cap * (sizeof *set.id + 1) + (ma + mb) * (sizeof *ca + sizeof *ia);
        free(set.id);
        free(set.sides);
        if (n && m) {
            size_t diag = n + m + 3;
            struct lcs L = {ca, cb, ia, ib, match_a, sbx_xmalloc(2 * diag * sizeof(ptrdiff_t)), NULL};
            L.vb = L.vf + diag;
            work += 2 * diag * sizeof(ptrdiff_t);
            lcs_rec(&L, 0, n, 0, m);
            free(L.vf);
        }
        free(ca);
        free(ia);
    }
    if (work_bytes)
        *work_bytes = work;
    size_t matched = 0;
    for (size_t i = 0; i < na; i++)
        matched += match_a[i] != SBX_CMP_NONE;
    return matched;
}
