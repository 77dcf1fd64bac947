#include "model/evid.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/hash128.h"
#include "model/evid_canon.h"

static const char alphabet[] = "0123456789abcdefghjkmnpqrstvwxyz";

/* One character of an id as a 5-bit value, -1 for none (Crockford's reading). */
static int digit_of(int c)
{
    if (c >= 'A' && c <= 'Z')
        c += 'a' - 'A';
    if (c == 'o')
        c = '0';
    else if (c == 'i' || c == 'l')
        c = '1';
    const char *p = c ? strchr(alphabet, c) : NULL;
    return p ? (int)(p - alphabet) : -1;
}

/* Where a record's canonical bytes go: into a digest, or (for records whose
 * whole digests are equal) into a buffer, to be compared. */
struct sink {
    struct sbx_hash128 *h;
    struct sbx_buf *b;
};

static void sink_add(const struct sink *k, const char *s, size_t n)
{
    if (k->h)
        sbx_hash128_add(k->h, s, n);
    else
        sbx_buf_add(k->b, s, n);
}

static void sink_piece(void *ctx, const char *piece, size_t len)
{
    sink_add(ctx, piece, len);
}

/* What is digested of a record: its format's name and NUL, its kind in
 * decimal and NUL, then its canonical bytes. */
static void add_record_bodies(const struct sink *k, const char *format, unsigned kind,
                              const char *bytes, size_t n, const struct sbx_canon_body *bodies,
                              size_t nb)
{
    char num[16]; /* kind in decimal and its NUL, written from the end */
    char *p = num + sizeof num;
    *--p = '\0';
    do
        *--p = (char)('0' + kind % 10);
    while (kind /= 10);
    sink_add(k, format, strlen(format) + 1);
    sink_add(k, p, (size_t)(num + sizeof num - p));
    sbx_evid_canonical_bodies(bytes, n, bodies, nb, sink_piece, (void *)k);
}

static void add_record(const struct sink *k, const char *format, unsigned kind, const char *bytes,
                       size_t n)
{
    add_record_bodies(k, format, kind, bytes, n, NULL, 0);
}

static void digest_into(const char *format, unsigned kind, const char *bytes, size_t n,
                        const struct sbx_canon_body *bodies, size_t nb, uint64_t *key,
                        uint64_t *rest)
{
    struct sbx_hash128 h;
    struct sink k = {&h, NULL};
    sbx_hash128_begin(&h);
    add_record_bodies(&k, format, kind, bytes, n, bodies, nb);
    uint64_t hi, lo;
    sbx_hash128_end(&h, &hi, &lo);
    *key = hi >> (64 - 5 * SBX_EVID_CHARS);
    *rest = lo;
}

void sbx_evid_digest(const char *format, unsigned kind, const char *bytes, size_t n,
                     uint64_t *key, uint64_t *rest)
{
    digest_into(format, kind, bytes, n, NULL, 0, key, rest);
}

/* One thread's share of the digests: events [from, to) of the order, each
 * one's key into key, or its key's high 32 bits into high. */
struct share {
    const struct sbx_timeline *tl;
    const uint32_t *order; /* slots of tl's blocks */
    uint64_t *key;
    uint32_t *high;
    size_t from, to;
};

/* The record of tl's event ev: its format, kind and bytes. */
static void record_of(const struct sbx_timeline *tl, const struct sbx_event *ev,
                      const char **format, unsigned *kind, const char **line, size_t *len)
{
    const struct sbx_source *src = &tl->sources[ev->source];
    *format = src->format;
    *kind = ev->kind;
    *line = src->data && ev->line_off <= src->size ? src->data + ev->line_off : "";
    size_t n = sbx_ev_line_len(ev);
    *len = src->data && ev->line_off + n <= src->size ? n : 0;
}

/* The string bodies of a recorder command's record that the JSON scanner
 * found (its command, stdout and stderr, as offsets into the record), in
 * their order; short ones are left to the canonical pass, which reads them
 * faster than a call. Other records have none. */
static size_t bodies_of(const struct sbx_event *ev, const char *format, size_t len,
                        struct sbx_canon_body b[3])
{
    enum { BODY_MIN = 64 };
    if (ev->kind != SBX_EV_COMMAND || strcmp(format, "recorder") != 0)
        return 0;
    const struct sbx_text err = sbx_cmd_err(&ev->u.cmd);
    const struct sbx_text *t[3] = {&ev->u.cmd.command, &ev->u.cmd.out, &err};
    size_t nb = 0;
    for (int k = 0; k < 3; k++) {
        uint64_t off = sbx_text_off(ev, t[k]);
        size_t n = sbx_text_len(t[k]);
        if (!(t[k]->flags & SBX_TEXT_PRESENT) || (t[k]->flags & SBX_TEXT_ARGV) || n < BODY_MIN ||
            off < ev->line_off || off - ev->line_off + n > len)
            continue;
        struct sbx_canon_body x = {(size_t)(off - ev->line_off), n};
        size_t j = nb++;
        for (; j > 0 && b[j - 1].off > x.off; j--)
            b[j] = b[j - 1];
        b[j] = x;
    }
    return nb;
}

/* The digest of tl's event ev. */
static void digest_of(const struct sbx_timeline *tl, const struct sbx_event *ev, uint64_t *key,
                      uint64_t *rest)
{
    const char *format, *line;
    unsigned kind;
    size_t len;
    record_of(tl, ev, &format, &kind, &line, &len);
    struct sbx_canon_body bodies[3];
    size_t nb = bodies_of(ev, format, len, bodies);
    digest_into(format, kind, line, len, bodies, nb, key, rest);
}

enum { HIGH_BITS = 32 }; /* the bits of a key the build sorts by */

static void *digest_share(void *arg)
{
    struct share *w = arg;
    uint64_t key, rest;
    for (size_t i = w->from; i < w->to; i++) {
        digest_of(w->tl, sbx_tl_slot(w->tl, w->order[i]), &key, &rest);
        if (w->high)
            w->high[i] = (uint32_t)(key >> (SBX_EVID_KEY_BITS - HIGH_BITS));
        else
            w->key[i] = key;
    }
    return NULL;
}

/* Every event's key by position (into key), or its key's high HIGH_BITS
 * bits (into high, when key is NULL), on up to 8 threads for a big
 * timeline. */
static void digest_all(const struct sbx_timeline *tl, const uint32_t *order,
                       uint64_t *key, uint32_t *high, size_t n)
{
    enum { MAX_THREADS = 8, PER_THREAD_MIN = 20000 };
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    size_t t = cpus > 0 ? (size_t)cpus : 1;
    if (t > MAX_THREADS)
        t = MAX_THREADS;
    if (t > n / PER_THREAD_MIN)
        t = n / PER_THREAD_MIN;
    if (t < 1)
        t = 1;
    struct share w[MAX_THREADS];
    pthread_t th[MAX_THREADS];
    bool started[MAX_THREADS] = {false};
    for (size_t k = 0; k < t; k++) {
        w[k] = (struct share){tl, order, key, high, n * k / t, n * (k + 1) / t};
        started[k] = k > 0 && pthread_create(&th[k], NULL, digest_share, &w[k]) == 0;
        if (k > 0 && !started[k])
            digest_share(&w[k]);
    }
    digest_share(&w[0]);
    for (size_t k = 1; k < t; k++)
        if (started[k])
            pthread_join(th[k], NULL);
}

static int by_pos(const void *pa, const void *pb)
{
    uint32_t a = ((const struct sbx_evid_dup *)pa)->pos, b = ((const struct sbx_evid_dup *)pb)->pos;
    return a < b ? -1 : a > b;
}

/* The dup of the id at position p: 0 unless it has a suffix. */
static uint32_t dup_at(const struct sbx_evids *ids, size_t p)
{
    if (!ids->ndups)
        return 0;
    struct sbx_evid_dup want = {(uint32_t)p, 0};
    const struct sbx_evid_dup *o = bsearch(&want, ids->dups, ids->ndups, sizeof want, by_pos);
    return o ? o->dup : 0;
}

/* The 50 bits of ev's id, made again from its record. */
static uint64_t key_of(const struct sbx_timeline *tl, const struct sbx_event *ev)
{
    uint64_t key, rest;
    digest_of(tl, ev, &key, &rest);
    return key;
}

enum { RADIX_SMALL = 24 }; /* buckets up to this size are sorted by insertion */

/* Sorts the distinct values v[0..n) in place, from byte `shift` down: a
 * radix sort by the values' bytes, the highest first (each bucket's values
 * moved into place by swaps, as the "American flag" sort does), no scratch
 * but two tables of 256 counts a level; a small bucket by insertion. The
 * values are distinct (a position is in each), so a bucket of several has
 * a byte below that tells them apart. */
static void sort_values_from(uint64_t *v, size_t n, int shift)
{
    if (n <= RADIX_SMALL) {
        for (size_t i = 1; i < n; i++) {
            uint64_t x = v[i];
            size_t j = i;
            for (; j > 0 && x < v[j - 1]; j--)
                v[j] = v[j - 1];
            v[j] = x;
        }
        return;
    }
    uint32_t count[256], next[256];
    for (;; shift -= 8) {
        memset(count, 0, sizeof count);
        for (size_t i = 0; i < n; i++)
            count[(v[i] >> shift) & 0xFF]++;
        if (count[(v[0] >> shift) & 0xFF] != n)
            break; /* this byte tells them apart */
    }
    uint32_t at = 0;
    for (int b = 0; b < 256; b++) {
        next[b] = at;
        at += count[b];
    }
    uint32_t end = 0;
    for (int b = 0; b < 256; b++) {
        end += count[b];
        /* every value before next[b] in this bucket is in place */
        while (next[b] < end) {
            uint64_t x = v[next[b]];
            unsigned d = (x >> shift) & 0xFF;
            while (d != (unsigned)b) {
                uint64_t y = v[next[d]];
                v[next[d]++] = x;
                x = y;
                d = (x >> shift) & 0xFF;
            }
            v[next[b]++] = x;
        }
    }
    size_t from = 0;
    for (int b = 0; b < 256; b++) {
        if (count[b] > 1)
            sort_values_from(v + from, count[b], shift - 8);
        from += count[b];
    }
}

static const struct sbx_evids *sorting_ids; /* set under the build lock */

/* Positions by (key, dup). */
static int by_key_dup(const void *pa, const void *pb)
{
    uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
    uint64_t ka = sorting_ids->key[a], kb = sorting_ids->key[b];
    if (ka != kb)
        return ka < kb ? -1 : 1;
    uint32_t da = dup_at(sorting_ids, a), db = dup_at(sorting_ids, b);
    return da < db ? -1 : da > db;
}

/* The slots' positions: no sort, one pass over the order. */
static void map_slots(struct sbx_evids *ids, const struct sbx_timeline *tl)
{
    sbx_slots_make(&ids->slots, tl);
    size_t nslots = sbx_slots_count(&ids->slots);
    ids->by_slot = sbx_xmalloc((nslots + 1) * sizeof *ids->by_slot);
    memset(ids->by_slot, 0xff, (nslots + 1) * sizeof *ids->by_slot);
    for (size_t i = 0; i < ids->n; i++)
        ids->by_slot[ids->order[i]] = (uint32_t)i;
}

/* A position with the digest's next 64 bits and, when another shares them,
 * its record's digested bytes (an offset into one buffer), to order ids
 * with one key. */
struct tie {
    uint64_t rest;
    uint32_t pos;
    size_t off, len;    /* the bytes digested, in tie_bytes */
    const char *format; /* the record as read */
    unsigned kind;
    const char *raw;
    size_t rawlen;
};

static const char *tie_bytes; /* the buffer the ties' offsets are in: set under the build lock */

static int by_rest(const void *pa, const void *pb)
{
    const struct tie *a = pa, *b = pb;
    if (a->rest != b->rest)
        return a->rest < b->rest ? -1 : 1;
    return a->pos < b->pos ? -1 : a->pos > b->pos;
}

static int by_range(const char *a, size_t an, const char *b, size_t bn)
{
    int c = memcmp(a, b, an < bn ? an : bn);
    return c ? c : an < bn ? -1 : an > bn;
}

/* Ties by their records as read (format, kind, bytes), then position. */
static int by_raw(const void *pa, const void *pb)
{
    const struct tie *a = pa, *b = pb;
    int c = a->kind != b->kind ? (a->kind < b->kind ? -1 : 1) : strcmp(a->format, b->format);
    if (!c)
        c = by_range(a->raw, a->rawlen, b->raw, b->rawlen);
    return c ? c : a->pos < b->pos ? -1 : a->pos > b->pos;
}

/* Ties whose whole digests are equal (identical records, or a collision
 * made on purpose): by the bytes digested, then by position. */
static int by_bytes(const void *pa, const void *pb)
{
    const struct tie *a = pa, *b = pb;
    int c = by_range(tie_bytes + a->off, a->len, tie_bytes + b->off, b->len);
    return c ? c : a->pos < b->pos ? -1 : a->pos > b->pos;
}

/* Ties t[0..n) that share their whole digest, sorted by by_bytes. The
 * bytes digested are made again for each distinct record only: a command
 * logged ten thousand times is made once. */
static void order_same_digest(const struct sbx_timeline *tl, struct tie *t, size_t n)
{
    for (size_t i = 0; i < n; i++)
        record_of(tl, sbx_tl_at(tl, t[i].pos), &t[i].format, &t[i].kind, &t[i].raw, &t[i].rawlen);
    qsort(t, n, sizeof *t, by_raw);
    struct sbx_buf bytes = SBX_BUF_INIT;
    struct sink k = {NULL, &bytes};
    for (size_t i = 0; i < n; i++) {
        if (i && t[i].kind == t[i - 1].kind && strcmp(t[i].format, t[i - 1].format) == 0 &&
            !by_range(t[i].raw, t[i].rawlen, t[i - 1].raw, t[i - 1].rawlen)) {
            t[i].off = t[i - 1].off;
            t[i].len = t[i - 1].len;
            continue;
        }
        t[i].off = bytes.len;
        add_record(&k, t[i].format, t[i].kind, t[i].raw, t[i].rawlen);
        t[i].len = bytes.len - t[i].off;
    }
    tie_bytes = bytes.p;
    qsort(t, n, sizeof *t, by_bytes);
    tie_bytes = NULL;
    sbx_buf_free(&bytes);
}

/* Positions with one key, by (key, position), put in the order of their
 * whole digest, then of their bytes, then of the timeline: the order comes
 * from the records alone, so a note stays with its event when files move
 * or sources join, even through a crafted collision. The rest of the
 * digest is made again for these few only, so it is never kept for every
 * event. */
static void order_ties(const struct sbx_timeline *tl, uint32_t *run, size_t n)
{
    struct tie *t = sbx_xmalloc(n * sizeof *t);
    for (size_t i = 0; i < n; i++) {
        uint64_t key;
        t[i] = (struct tie){.pos = run[i]};
        digest_of(tl, sbx_tl_at(tl, run[i]), &key, &t[i].rest);
    }
    qsort(t, n, sizeof *t, by_rest);
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && t[j].rest == t[i].rest)
            j++;
        if (j - i > 1)
            order_same_digest(tl, t + i, j - i);
        i = j;
    }
    for (size_t i = 0; i < n; i++)
        run[i] = t[i].pos;
    free(t);
}

/* A position and its key, while the ids that share high bits are told apart. */
struct keyed {
    uint64_t key;
    uint32_t pos;
};

static int by_key_pos(const void *pa, const void *pb)
{
    const struct keyed *a = pa, *b = pb;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return a->pos < b->pos ? -1 : a->pos > b->pos;
}

/* Numbers positions run[0..n), which share their key's high HIGH_BITS bits
 * and are in position order: their whole keys made again, those that spell
 * alike put in order (order_ties) and every one after the first in the
 * dups, in the order by (key, dup). */
static void number_run(const struct sbx_timeline *tl, struct sbx_evids *ids, const uint32_t *run,
                       size_t n, size_t *capdups)
{
    struct keyed *k = sbx_xmalloc(n * sizeof *k);
    uint32_t *same = sbx_xmalloc(n * sizeof *same);
    for (size_t i = 0; i < n; i++)
        k[i] = (struct keyed){key_of(tl, sbx_tl_at(tl, run[i])), run[i]};
    qsort(k, n, sizeof *k, by_key_pos);
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && k[j].key == k[i].key)
            j++;
        if (j - i > 1) {
            for (size_t m = i; m < j; m++)
                same[m - i] = k[m].pos;
            order_ties(tl, same, j - i);
            for (size_t m = 1; m < j - i; m++) {
                SBX_GROW(ids->dups, ids->ndups, *capdups);
                ids->dups[ids->ndups++] = (struct sbx_evid_dup){same[m], (uint32_t)m};
            }
        }
        i = j;
    }
    free(same);
    free(k);
}

enum { PART_BITS = 3 }; /* the words are sorted in 8 parts, by a key's top bits */

/* Numbers the positions of one part (the keys' high bits, by position, in
 * high[0..n), whose top PART_BITS bits are part): a 64-bit word each, its
 * key's high bits above its position, sorted in words (the caller's, room
 * for the largest part); the runs of words whose high bits are equal go
 * to number_run. */
static void number_part(const struct sbx_timeline *tl, struct sbx_evids *ids, const uint32_t *high,
                        size_t n, uint32_t part, uint64_t *words, size_t *capdups)
{
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        /* every word written, the next one over it unless in the part: no branch */
        words[m] = (uint64_t)high[i] << 32 | i;
        m += high[i] >> (HIGH_BITS - PART_BITS) == part;
    }
    uint64_t *w = words;
    sort_values_from(w, m, 56);
    uint32_t *run = NULL;
    size_t caprun = 0;
    for (size_t i = 0; i < m;) {
        size_t j = i + 1;
        while (j < m && w[j] >> 32 == w[i] >> 32)
            j++;
        if (j - i > 1) {
            size_t nrun = 0;
            for (size_t k = i; k < j; k++) {
                SBX_GROW(run, nrun, caprun);
                run[nrun++] = (uint32_t)w[k];
            }
            number_run(tl, ids, run, nrun, capdups);
        }
        i = j;
    }
    free(run);
}

/* Only the ids with a suffix are kept (by position, in the dups); a key is
 * made again from its record when it is spelt. To find them, every
 * event's key's high HIGH_BITS bits are kept by position (4 bytes an event
 * while the ids are made), and the events of one part at a time (an
 * eighth of them, by those bits' top ones) sorted as 64-bit words, the
 * high bits above the position (a byte an event); the few runs of
 * words whose high bits are equal have their whole keys made again. The
 * parts give the same runs as one sort of every word: a run's words share
 * their top bits. by_slot is made once the high bits are freed. */
static struct sbx_evids *build(const struct sbx_timeline *tl)
{
    struct sbx_evids *ids = sbx_xcalloc(1, sizeof *ids);
    size_t n = tl->n;
    ids->n = n;
    ids->order = tl->order_;
    uint32_t *high = sbx_xmalloc((n ? n : 1) * sizeof *high);
    digest_all(tl, tl->order_, NULL, high, n);
    size_t size[1u << PART_BITS] = {0}, most = 0;
    for (size_t i = 0; i < n; i++)
        size[high[i] >> (HIGH_BITS - PART_BITS)]++;
    for (uint32_t part = 0; part < 1u << PART_BITS; part++)
        most = size[part] > most ? size[part] : most;
    uint64_t *words = sbx_xmalloc((most + 1) * sizeof *words); /* one past: the last write */
    size_t capdups = 0;
    for (uint32_t part = 0; part < 1u << PART_BITS; part++)
        number_part(tl, ids, high, n, part, words, &capdups);
    free(words);
    free(high);
    if (ids->ndups > 1)
        qsort(ids->dups, ids->ndups, sizeof *ids->dups, by_pos);
    map_slots(ids, tl);
    return ids;
}

static pthread_mutex_t build_lock = PTHREAD_MUTEX_INITIALIZER;

const struct sbx_evids *sbx_evids_of(const struct sbx_timeline *tl)
{
    struct sbx_evids *ids = __atomic_load_n(&tl->ids, __ATOMIC_ACQUIRE);
    if (ids)
        return ids;
    pthread_mutex_lock(&build_lock);
    ids = __atomic_load_n(&tl->ids, __ATOMIC_ACQUIRE);
    if (!ids) {
        ids = build(tl);
        /* the cache is the one field a const timeline changes */
        __atomic_store_n(&((struct sbx_timeline *)tl)->ids, ids, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&build_lock);
    return ids;
}

/* ids' positions by (key, dup), made on the first call and kept with
 * every position's key (12 bytes an event, for the lookups by id). */
static const uint32_t *by_id_of(const struct sbx_timeline *tl, const struct sbx_evids *ids)
{
    uint32_t *by_id = __atomic_load_n(&ids->by_id, __ATOMIC_ACQUIRE);
    if (by_id)
        return by_id;
    pthread_mutex_lock(&build_lock);
    by_id = __atomic_load_n(&ids->by_id, __ATOMIC_ACQUIRE);
    if (!by_id) {
        struct sbx_evids *w = (struct sbx_evids *)ids; /* like tl->ids: its cache */
        w->key = sbx_xmalloc((ids->n ? ids->n : 1) * sizeof *w->key);
        digest_all(tl, ids->order, w->key, NULL, ids->n);
        by_id = sbx_xmalloc((ids->n ? ids->n : 1) * sizeof *by_id);
        for (size_t i = 0; i < ids->n; i++)
            by_id[i] = (uint32_t)i;
        sorting_ids = ids;
        qsort(by_id, ids->n, sizeof *by_id, by_key_dup);
        sorting_ids = NULL;
        __atomic_store_n(&w->by_id, by_id, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&build_lock);
    return by_id;
}

void sbx_evids_drop(struct sbx_timeline *tl)
{
    struct sbx_evids *ids = tl->ids;
    if (!ids)
        return;
    free(ids->key);
    free(ids->dups);
    free(ids->by_slot);
    sbx_slots_free(&ids->slots);
    free(ids->by_id);
    free(ids);
    tl->ids = NULL;
}

/* e's position in the order the ids were built over, or SIZE_MAX. */
static size_t position_of(const struct sbx_evids *ids, const struct sbx_event *e)
{
    size_t s = sbx_slot_of(&ids->slots, e);
    uint32_t p = s != SIZE_MAX ? ids->by_slot[s] : UINT32_MAX;
    return p != UINT32_MAX && ids->order[p] == s ? p : SIZE_MAX;
}

static void spell(uint64_t key, uint32_t dup, char out[SBX_EVID_LEN])
{
    for (int i = 0; i < SBX_EVID_CHARS; i++)
        out[i] = alphabet[(key >> (5 * (SBX_EVID_CHARS - 1 - i))) & 31];
    out[SBX_EVID_CHARS] = '\0';
    if (dup) {
        char *p = out + SBX_EVID_CHARS;
        unsigned long long k = (unsigned long long)dup + 1;
        char digits[21];
        int nd = 0;
        while (k) {
            digits[nd++] = (char)('0' + k % 10);
            k /= 10;
        }
        *p++ = '.';
        while (nd)
            *p++ = digits[--nd];
        *p = '\0';
    }
}

void sbx_event_id(const struct sbx_timeline *tl, const struct sbx_event *e,
                  char out[SBX_EVID_LEN])
{
    const struct sbx_evids *ids = sbx_evids_of(tl);
    size_t p = position_of(ids, e);
    if (p != SIZE_MAX)
        spell(key_of(tl, e), dup_at(ids, p), out);
    else
        out[0] = '\0';
}

void sbx_finding_id(const struct sbx_timeline *tl, const struct sbx_event *e, uint32_t kind,
                    char out[SBX_FINDID_LEN])
{
    char id[SBX_EVID_LEN];
    sbx_event_id(tl, e, id);
    const struct sbx_finding_info *row = sbx_finding_of(kind);
    snprintf(out, SBX_FINDID_LEN, "%s/%s", id, row ? row->name : "?");
}

/* An id read: its key and dup; false when it is not one. */
static bool read_id(const char *s, size_t len, uint64_t *key, uint32_t *dup)
{
    if (len < SBX_EVID_CHARS)
        return false;
    uint64_t k = 0;
    for (int i = 0; i < SBX_EVID_CHARS; i++) {
        int d = digit_of((unsigned char)s[i]);
        if (d < 0)
            return false;
        k = k << 5 | (uint64_t)d;
    }
    uint64_t n = 0;
    if (len > SBX_EVID_CHARS) {
        if (s[SBX_EVID_CHARS] != '.' || len == SBX_EVID_CHARS + 1 || len > SBX_EVID_CHARS + 10)
            return false;
        for (size_t i = SBX_EVID_CHARS + 1; i < len; i++) {
            if (s[i] < '0' || s[i] > '9' || (i == SBX_EVID_CHARS + 1 && s[i] == '0'))
                return false;
            n = n * 10 + (uint64_t)(s[i] - '0');
        }
        if (n < 2 || n > UINT32_MAX)
            return false;
        n--;
    }
    *key = k;
    *dup = (uint32_t)n;
    return true;
}

const struct sbx_event *sbx_event_by_id(const struct sbx_timeline *tl, const char *id,
                                        size_t len)
{
    uint64_t key;
    uint32_t dup;
    if (!read_id(id, len, &key, &dup))
        return NULL;
    const struct sbx_evids *ids = sbx_evids_of(tl);
    const uint32_t *by_id = by_id_of(tl, ids);
    size_t lo = 0, hi = ids->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        uint32_t m = by_id[mid];
        if (ids->key[m] < key || (ids->key[m] == key && dup_at(ids, m) < dup))
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == ids->n)
        return NULL;
    uint32_t m = by_id[lo];
    return ids->key[m] == key && dup_at(ids, m) == dup ? sbx_slot_event(&ids->slots, ids->order[m]) : NULL;
}

bool sbx_event_id_has_prefix(const struct sbx_timeline *tl, const struct sbx_event *e,
                             const char *prefix, size_t len)
{
    const struct sbx_evids *ids = sbx_evids_of(tl);
    by_id_of(tl, ids); /* a query asks every event: its keys are kept */
    size_t p = position_of(ids, e);
    if (p == SIZE_MAX)
        return false;
    char id[SBX_EVID_LEN];
    spell(ids->key[p], dup_at(ids, p), id);
    if (len > strlen(id))
        return false;
    for (size_t i = 0; i < len; i++) {
        int a = (unsigned char)prefix[i], b = (unsigned char)id[i];
        if (i < SBX_EVID_CHARS) {
            if (digit_of(a) != digit_of(b) || digit_of(a) < 0)
                return false;
        } else if (a != b) {
            return false;
        }
    }
    return true;
}

bool sbx_evid_prefix_valid(const char *s, size_t n)
{
    if (!n || n > SBX_EVID_CHARS + 11) /* a "." and at most ten digits */
        return false;
    for (size_t i = 0; i < n; i++) {
        if (i < SBX_EVID_CHARS ? digit_of((unsigned char)s[i]) < 0
            : i == SBX_EVID_CHARS ? s[i] != '.'
                                  : s[i] < '0' || s[i] > '9')
            return false;
    }
    return true;
}
