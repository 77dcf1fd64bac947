/* Two runs compared: the commands aligned into rows, and the run-level
 * differences (contract in compare.h). */
#include <stdlib.h>
#include <string.h>

#include "analyses/compare/compare.h"
#include "analyses/secrets/secrets.h"
#include "base/fnv.h"

const char *sbx_cmp_kind_name(enum sbx_cmp_kind k)
{
    static const char *const names[SBX_CMP_KIND_COUNT] = {"same",   "changed", "replaced",
                                                          "only_a", "only_b",  "moved"};
    return (unsigned)k < SBX_CMP_KIND_COUNT ? names[k] : "unknown";
}

/* Interns keys: equal keys get one id. */
struct keymap {
    uint32_t *slot; /* id + 1; 0 empty */
    size_t mask;
    const struct sbx_cmp_cmd **first; /* per id: a command with that key */
    size_t n, cap;
};

static uint64_t hash_bytes(const char *s, size_t n)
{
    return sbx_fnv1a(SBX_FNV_BASIS, s, n);
}

static uint32_t keymap_id(struct keymap *m, const struct sbx_cmp_cmd *c)
{
    for (size_t i = hash_bytes(c->key, c->keylen) & m->mask;; i = (i + 1) & m->mask) {
        if (!m->slot[i]) {
            SBX_GROW(m->first, m->n, m->cap);
            m->first[m->n] = c;
            m->slot[i] = (uint32_t)++m->n;
            return m->slot[i] - 1;
        }
        const struct sbx_cmp_cmd *o = m->first[m->slot[i] - 1];
        if (o->keylen == c->keylen && memcmp(o->key, c->key, c->keylen) == 0)
            return m->slot[i] - 1;
    }
}

static void collect(const struct sbx_timeline *tl, struct sbx_cmp_cmd **out, size_t *n,
                    struct sbx_buf *tmp)
{
    bool wrapper = false;
    size_t count = 0;
    for (size_t i = 0; i < tl->n; i++) {
        const struct sbx_event *e = sbx_tl_at(tl, i);
        if (e->kind == SBX_EV_COMMAND) {
            count++;
            wrapper |= !(e->u.cmd.flags & SBX_CMD_RECORD);
        }
    }
    struct sbx_cmp_cmd *cmds = count ? sbx_xcalloc(count, sizeof *cmds) : NULL;
    size_t k = 0;
    struct sbx_buf key = SBX_BUF_INIT;
    for (size_t i = 0; i < tl->n; i++) {
        const struct sbx_event *e = sbx_tl_at(tl, i);
        if (e->kind != SBX_EV_COMMAND || (wrapper && (e->u.cmd.flags & SBX_CMD_RECORD)))
            continue;
        size_t len;
        const char *s = sbx_text_get(tl, e, &e->u.cmd.command, tmp, &len);
        sbx_buf_clear(&key);
        sbx_cmp_normalize(s, len, &key);
        struct sbx_cmp_cmd *c = &cmds[k++];
        c->ev = e;
        c->keylen = key.len;
        c->key = sbx_xstrndup(key.p ? key.p : "", key.len);
        c->failed = sbx_command_failed(&e->u.cmd);
    }
    sbx_buf_free(&key);
    *out = cmds;
    *n = k;
}

/* Equal texts, or equal once normalised (s: four scratch buffers). */
static bool same_text(const struct sbx_timeline *tla, const struct sbx_event *a,
                      const struct sbx_text *ta, const struct sbx_timeline *tlb,
                      const struct sbx_event *b, const struct sbx_text *tb, struct sbx_buf s[4])
{
    /* the stored bytes alike (both escaped or both not): equal without decoding */
    unsigned how = SBX_TEXT_ESCAPED | SBX_TEXT_ARGV;
    if (sbx_text_len(ta) == sbx_text_len(tb) && (ta->flags & how) == (tb->flags & how) &&
        (sbx_text_len(ta) == 0 || memcmp(sbx_text_raw(tla, a, ta), sbx_text_raw(tlb, b, tb), sbx_text_len(ta)) == 0))
        return true;
    size_t na, nb;
    const char *pa = sbx_text_get(tla, a, ta, &s[0], &na);
    const char *pb = sbx_text_get(tlb, b, tb, &s[1], &nb);
    if (na == nb && (na == 0 || memcmp(pa, pb, na) == 0))
        return true;
    sbx_buf_clear(&s[2]);
    sbx_buf_clear(&s[3]);
    sbx_cmp_normalize_text(pa, na, &s[2]);
    sbx_cmp_normalize_text(pb, nb, &s[3]);
    return s[2].len == s[3].len && (s[2].len == 0 || memcmp(s[2].p, s[3].p, s[2].len) == 0);
}

static unsigned pair_diff(const struct sbx_timeline *tla, const struct sbx_event *a,
                          const struct sbx_timeline *tlb, const struct sbx_event *b, double *ratio,
                          struct sbx_buf s[4])
{
    const struct sbx_command *x = &a->u.cmd, *y = &b->u.cmd;
    unsigned d = 0;
    unsigned xk = x->flags & (SBX_CMD_EXIT_KNOWN | SBX_CMD_TIMED_OUT),
             yk = y->flags & (SBX_CMD_EXIT_KNOWN | SBX_CMD_TIMED_OUT);
    if (xk != yk || ((xk & SBX_CMD_EXIT_KNOWN) && sbx_cmd_exit(x) != sbx_cmd_exit(y)))
        d |= SBX_CMP_D_EXIT;
    *ratio = 0;
    if ((x->flags & SBX_CMD_MS_KNOWN) && (y->flags & SBX_CMD_MS_KNOWN)) {
        int64_t xms = sbx_cmd_ms(x), yms = sbx_cmd_ms(y);
        if (xms > 0)
            *ratio = (double)yms / (double)xms;
        int64_t lo = xms < yms ? xms : yms, hi = xms < yms ? yms : xms;
        if (hi >= 2 * lo && hi - lo >= 1000)
            d |= SBX_CMP_D_DURATION;
    }
    /* the stdout hash shares its storage with the denials: only with the flag */
    if ((x->flags & y->flags & SBX_CMD_HASH_PRESENT) && x->stdout_hash != y->stdout_hash)
        d |= SBX_CMP_D_STDOUT_HASH;
    const struct sbx_text xerr = sbx_cmd_err(x), yerr = sbx_cmd_err(y);
    if (!same_text(tla, a, &x->out, tlb, b, &y->out, s) ||
        !same_text(tla, a, &xerr, tlb, b, &yerr, s))
        d |= SBX_CMP_D_OUTPUT;
    return d;
}

struct builder {
    struct sbx_compare *c;
    const struct sbx_timeline *tla, *tlb;
    size_t cap;
    size_t *row_a, *row_b; /* the row of each moved command */
    struct sbx_buf s[4];
};

static size_t add_row(struct builder *B, size_t a, size_t b, enum sbx_cmp_kind kind)
{
    struct sbx_compare *c = B->c;
    SBX_GROW(c->rows, c->nrows, B->cap);
    struct sbx_cmp_row *r = &c->rows[c->nrows];
    *r = (struct sbx_cmp_row){a, b, kind, 0, 0, SBX_CMP_NONE};
    if (a != SBX_CMP_NONE && b != SBX_CMP_NONE) {
        r->diff = pair_diff(B->tla, c->cmd_a[a].ev, B->tlb, c->cmd_b[b].ev, &r->ratio, B->s);
        if (kind == SBX_CMP_SAME && r->diff)
            r->kind = SBX_CMP_CHANGED;
    }
    if (kind != SBX_CMP_MOVED)
        c->count[r->kind]++;
    return c->nrows++;
}

/* An index sorted by (id, position). */
struct idpos {
    uint32_t id;
    size_t pos;
};

static int idpos_cmp(const void *x, const void *y)
{
    const struct idpos *a = x, *b = y;
    if (a->id != b->id)
        return a->id < b->id ? -1 : 1;
    return (a->pos > b->pos) - (a->pos < b->pos);
}

/* Pairs each deleted command with an inserted one of the same key, in order:
 * moved_a[i] (A's partner in B) and moved_b[j]. */
static void find_moves(const struct sbx_compare *c, const size_t *match_a, const bool *kept_b,
                       size_t *moved_a, size_t *moved_b)
{
    struct idpos *del = sbx_xmalloc((c->na + 1) * sizeof *del),
                 *ins = sbx_xmalloc((c->nb + 1) * sizeof *ins);
    size_t nd = 0, ni = 0;
    for (size_t i = 0; i < c->na; i++) {
        moved_a[i] = SBX_CMP_NONE;
        if (match_a[i] == SBX_CMP_NONE)
            del[nd++] = (struct idpos){c->cmd_a[i].id, i};
    }
    for (size_t j = 0; j < c->nb; j++) {
        moved_b[j] = SBX_CMP_NONE;
        if (!kept_b[j])
            ins[ni++] = (struct idpos){c->cmd_b[j].id, j};
    }
    qsort(del, nd, sizeof *del, idpos_cmp);
    qsort(ins, ni, sizeof *ins, idpos_cmp);
    for (size_t p = 0, q = 0; p < nd && q < ni;) {
        if (del[p].id < ins[q].id) {
            p++;
        } else if (del[p].id > ins[q].id) {
            q++;
        } else {
            moved_a[del[p].pos] = ins[q].pos;
            moved_b[ins[q].pos] = del[p].pos;
            p++, q++;
        }
    }
    free(del);
    free(ins);
}

static void build_rows(struct builder *B, const size_t *match_a)
{
    struct sbx_compare *c = B->c;
    bool *kept_b = sbx_xcalloc(c->nb + 1, sizeof *kept_b);
    for (size_t i = 0; i < c->na; i++)
        if (match_a[i] != SBX_CMP_NONE)
            kept_b[match_a[i]] = true;
    size_t *moved_a = sbx_xmalloc((c->na + 1) * sizeof *moved_a),
           *moved_b = sbx_xmalloc((c->nb + 1) * sizeof *moved_b);
    find_moves(c, match_a, kept_b, moved_a, moved_b);
    B->row_a = sbx_xmalloc((c->na + 1) * sizeof *B->row_a);
    B->row_b = sbx_xmalloc((c->nb + 1) * sizeof *B->row_b);
    size_t i = 0, j = 0;
    while (i < c->na || j < c->nb) {
        if (i < c->na && match_a[i] != SBX_CMP_NONE && match_a[i] == j) {
            add_row(B, i++, j++, SBX_CMP_SAME);
            continue;
        }
        /* a hunk: A's deletes up to its next kept command, B's inserts up to that one's partner */
        size_t ie = i, je;
        while (ie < c->na && match_a[ie] == SBX_CMP_NONE)
            ie++;
        je = ie < c->na ? match_a[ie] : c->nb;
        while (i < ie || j < je) {
            if (i < ie && moved_a[i] != SBX_CMP_NONE) {
                B->row_a[i] = add_row(B, i, SBX_CMP_NONE, SBX_CMP_MOVED);
                i++;
            } else if (j < je && moved_b[j] != SBX_CMP_NONE) {
                B->row_b[j] = add_row(B, SBX_CMP_NONE, j, SBX_CMP_MOVED);
                j++;
            } else if (i < ie && j < je) {
                add_row(B, i++, j++, SBX_CMP_REPLACED);
            } else if (i < ie) {
                add_row(B, i++, SBX_CMP_NONE, SBX_CMP_ONLY_A);
            } else {
                add_row(B, SBX_CMP_NONE, j++, SBX_CMP_ONLY_B);
            }
        }
    }
    for (size_t r = 0; r < c->nrows; r++) {
        struct sbx_cmp_row *row = &c->rows[r];
        if (row->kind != SBX_CMP_MOVED)
            continue;
        size_t pa = row->a != SBX_CMP_NONE ? row->a : moved_b[row->b];
        size_t pb = row->b != SBX_CMP_NONE ? row->b : moved_a[row->a];
        row->partner = row->a != SBX_CMP_NONE ? B->row_b[pb] : B->row_a[pa];
        row->diff = pair_diff(B->tla, c->cmd_a[pa].ev, B->tlb, c->cmd_b[pb].ev, &row->ratio, B->s);
        if (row->a != SBX_CMP_NONE)
            c->count[SBX_CMP_MOVED]++;
    }
    free(kept_b);
    free(moved_a);
    free(moved_b);
    free(B->row_a);
    free(B->row_b);
}

/* Keys one run lacks, and failures one run has only. */
static void command_lists(struct sbx_compare *c, size_t nids)
{
    /* per id, bit 0: in A, 1: in B, 2: failed in A, 3: failed in B, 4/5: listed */
    unsigned char *seen = sbx_xcalloc(nids + 1, 1);
    for (size_t i = 0; i < c->na; i++)
        seen[c->cmd_a[i].id] |= 1 | (c->cmd_a[i].failed ? 4 : 0);
    for (size_t j = 0; j < c->nb; j++)
        seen[c->cmd_b[j].id] |= 2 | (c->cmd_b[j].failed ? 8 : 0);
    c->only_a = sbx_xmalloc((c->na + 1) * sizeof *c->only_a);
    c->fail_gone = sbx_xmalloc((c->na + 1) * sizeof *c->fail_gone);
    c->only_b = sbx_xmalloc((c->nb + 1) * sizeof *c->only_b);
    c->fail_new = sbx_xmalloc((c->nb + 1) * sizeof *c->fail_new);
    for (size_t i = 0; i < c->na; i++) {
        unsigned char *s = &seen[c->cmd_a[i].id];
        if (!(*s & (2 | 16))) {
            c->only_a[c->nonly_a++] = i;
            *s |= 16;
        }
        if (c->cmd_a[i].failed && !(*s & (8 | 32))) {
            c->fail_gone[c->nfail_gone++] = i;
            *s |= 32;
        }
    }
    for (size_t id = 0; id < nids; id++)
        seen[id] &= 15;
    for (size_t j = 0; j < c->nb; j++) {
        unsigned char *s = &seen[c->cmd_b[j].id];
        if (!(*s & (1 | 16))) {
            c->only_b[c->nonly_b++] = j;
            *s |= 16;
        }
        if (c->cmd_b[j].failed && !(*s & (4 | 32))) {
            c->fail_new[c->nfail_new++] = j;
            *s |= 32;
        }
    }
    free(seen);
}

static int file_cmp(const void *x, const void *y)
{
    const struct sbx_cmp_file *a = x, *b = y;
    if (a->system != b->system)
        return a->system ? 1 : -1;
    return strcmp(a->path, b->path);
}

static void add_files(struct sbx_cmp_file **v, size_t *n, size_t *cap, const struct sbx_summary *s,
                      bool side_b)
{
    for (int sys = 0; sys < 2; sys++) {
        const struct sbx_strlist *lists = sys ? s->system : s->files;
        for (int ch = 0; ch < SBX_CHANGE_COUNT; ch++)
            for (size_t i = 0; i < lists[ch].n; i++) {
                SBX_GROW(*v, *n, *cap);
                (*v)[(*n)++] = (struct sbx_cmp_file){lists[ch].s[i], sys, side_b ? -1 : ch,
                                                     side_b ? ch : -1};
            }
    }
}

static void file_lists(struct sbx_compare *c, const struct sbx_summary *a,
                       const struct sbx_summary *b)
{
    struct sbx_cmp_file *v = NULL;
    size_t n = 0, cap = 0;
    add_files(&v, &n, &cap, a, false);
    add_files(&v, &n, &cap, b, true);
    if (n)
        qsort(v, n, sizeof *v, file_cmp);
    /* one entry per path: the first change each run lists for it */
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (k && file_cmp(&v[k - 1], &v[i]) == 0) {
            if (v[k - 1].change_a < 0)
                v[k - 1].change_a = v[i].change_a;
            if (v[k - 1].change_b < 0)
                v[k - 1].change_b = v[i].change_b;
        } else {
            v[k++] = v[i];
        }
    }
    c->files = v;
    c->nfiles = k;
}

struct named {
    const char *name;
    unsigned flags; /* hosts: enum sbx_cmp_host_flags; 0 for counted names */
    bool b;
};

static int named_cmp(const void *x, const void *y)
{
    const struct named *a = x, *b = y;
    int r = strcmp(a->name, b->name);
    return r ? r : (a->b > b->b) - (a->b < b->b);
}

static void add_hosts(struct named **v, size_t *n, size_t *cap, const struct sbx_summary *s, bool b)
{
    for (size_t i = 0; i < s->hosts.n; i++) {
        SBX_GROW(*v, *n, *cap);
        (*v)[(*n)++] = (struct named){s->hosts.s[i], SBX_CMP_H_REACHED, b};
    }
    for (size_t i = 0; i < s->nrefused; i++) {
        SBX_GROW(*v, *n, *cap);
        (*v)[(*n)++] = (struct named){s->refused[i].host, SBX_CMP_H_REFUSED, b};
    }
}

static void host_list(struct sbx_compare *c, const struct sbx_summary *a, const struct sbx_summary *b)
{
    struct named *v = NULL;
    size_t n = 0, cap = 0;
    add_hosts(&v, &n, &cap, a, false);
    add_hosts(&v, &n, &cap, b, true);
    if (n)
        qsort(v, n, sizeof *v, named_cmp);
    c->hosts = n ? sbx_xmalloc(n * sizeof *c->hosts) : NULL;
    for (size_t i = 0; i < n;) {
        struct sbx_cmp_host h = {v[i].name, 0, 0};
        for (; i < n && strcmp(v[i].name, h.host) == 0; i++)
            *(v[i].b ? &h.b : &h.a) |= v[i].flags;
        if (h.a != h.b)
            c->hosts[c->nhosts++] = h;
    }
    free(v);
}

/* Names counted on each side (sorted), kept where the counts differ. */
static struct sbx_cmp_count *count_diff(struct named *v, size_t n, size_t *nout)
{
    if (n)
        qsort(v, n, sizeof *v, named_cmp);
    struct sbx_cmp_count *out = n ? sbx_xmalloc(n * sizeof *out) : NULL;
    size_t k = 0;
    for (size_t i = 0; i < n;) {
        struct sbx_cmp_count e = {v[i].name, 0, 0};
        for (; i < n && strcmp(v[i].name, e.name) == 0; i++)
            (*(v[i].b ? &e.b : &e.a))++;
        if (e.a != e.b)
            out[k++] = e;
    }
    *nout = k;
    return out;
}

static void account_list(struct sbx_compare *c, const struct sbx_timeline *tla,
                         const struct sbx_summary *a, const struct sbx_timeline *tlb,
                         const struct sbx_summary *b)
{
    size_t n = a->naccount + b->naccount;
    struct named *v = n ? sbx_xmalloc(n * sizeof *v) : NULL;
    for (size_t i = 0; i < a->naccount; i++)
        v[i] = (struct named){sbx_str(tla, a->account[i]->label), 0, false};
    for (size_t i = 0; i < b->naccount; i++)
        v[a->naccount + i] = (struct named){sbx_str(tlb, b->account[i]->label), 0, true};
    c->account = count_diff(v, n, &c->naccount);
    free(v);
}

static void secret_list(struct sbx_compare *c, const struct sbx_summary *a,
                        const struct sbx_summary *b, char ***names)
{
    size_t n = a->nsecrets + b->nsecrets;
    struct named *v = n ? sbx_xmalloc(n * sizeof *v) : NULL;
    char **owned = n ? sbx_xmalloc(n * sizeof *owned) : NULL;
    for (size_t i = 0; i < n; i++) {
        bool side_b = i >= a->nsecrets;
        const struct sbx_secret_found *f = side_b ? &b->secrets[i - a->nsecrets] : &a->secrets[i];
        struct sbx_buf name = SBX_BUF_INIT;
        sbx_buf_addf(&name, "%s %s", sbx_secret_kind_name(f->kind), f->sample);
        owned[i] = name.p;
        v[i] = (struct named){owned[i], 0, side_b};
    }
    c->secrets = count_diff(v, n, &c->nsecrets);
    free(v);
    *names = owned;
}

static void count_findings(const struct sbx_timeline *tl, size_t counts[32])
{
    for (size_t i = 0; i < tl->n; i++)
        for (uint32_t f = sbx_tl_at(tl, i)->findings; f; f &= f - 1)
            counts[__builtin_ctz(f)]++;
}

void sbx_compare(const struct sbx_timeline *tla, const struct sbx_summary *suma,
                 const struct sbx_timeline *tlb, const struct sbx_summary *sumb,
                 struct sbx_compare *out)
{
    memset(out, 0, sizeof *out);
    struct builder B = {.c = out, .tla = tla, .tlb = tlb};
    struct keymap keys = {0};
    collect(tla, &out->cmd_a, &out->na, &B.s[0]);
    collect(tlb, &out->cmd_b, &out->nb, &B.s[0]);
    size_t cap = 16;
    while (cap < 2 * (out->na + out->nb))
        cap *= 2;
    keys.slot = sbx_xcalloc(cap, sizeof *keys.slot);
    keys.mask = cap - 1;
    uint32_t *ida = sbx_xmalloc((out->na + 1) * sizeof *ida),
             *idb = sbx_xmalloc((out->nb + 1) * sizeof *idb);
    for (size_t i = 0; i < out->na; i++)
        ida[i] = out->cmd_a[i].id = keymap_id(&keys, &out->cmd_a[i]);
    for (size_t j = 0; j < out->nb; j++)
        idb[j] = out->cmd_b[j].id = keymap_id(&keys, &out->cmd_b[j]);
    size_t *match_a = sbx_xmalloc((out->na + 1) * sizeof *match_a);
    sbx_cmp_lcs(ida, out->na, idb, out->nb, match_a, &out->lcs_work_bytes);
    build_rows(&B, match_a);
    command_lists(out, keys.n);
    free(match_a);
    free(ida);
    free(idb);
    free(keys.slot);
    free(keys.first);
    for (int i = 0; i < 4; i++)
        sbx_buf_free(&B.s[i]);

    file_lists(out, suma, sumb);
    host_list(out, suma, sumb);
    account_list(out, tla, suma, tlb, sumb);
    char **names;
    secret_list(out, suma, sumb, &names);
    out->secret_names = names;
    out->nsecret_names = suma->nsecrets + sumb->nsecrets;
    count_findings(tla, out->findings_a);
    count_findings(tlb, out->findings_b);
    /* a kind one run's sources cannot tell is "not checked" there, not new or gone */
    out->checkable_a = suma->checkable;
    out->checkable_b = sumb->checkable;
    for (unsigned bit = 0; bit < 32; bit++) {
        uint32_t f = 1u << bit;
        if (out->findings_b[bit] && !out->findings_a[bit])
            *(suma->checkable & f ? &out->findings_new : &out->findings_unchecked_a) |= f;
        if (out->findings_a[bit] && !out->findings_b[bit])
            *(sumb->checkable & f ? &out->findings_gone : &out->findings_unchecked_b) |= f;
    }
}

void sbx_compare_free(struct sbx_compare *c)
{
    for (size_t i = 0; i < c->na; i++)
        free(c->cmd_a[i].key);
    for (size_t j = 0; j < c->nb; j++)
        free(c->cmd_b[j].key);
    for (size_t i = 0; i < c->nsecret_names; i++)
        free(c->secret_names[i]);
    free(c->secret_names);
    free(c->cmd_a);
    free(c->cmd_b);
    free(c->rows);
    free(c->only_a);
    free(c->only_b);
    free(c->fail_new);
    free(c->fail_gone);
    free(c->files);
    free(c->hosts);
    free(c->account);
    free(c->secrets);
    memset(c, 0, sizeof *c);
}

bool sbx_compare_same(const struct sbx_compare *c)
{
    for (size_t r = 0; r < c->nrows; r++)
        if (c->rows[r].kind != SBX_CMP_SAME)
            return false;
    for (size_t i = 0; i < c->nfiles; i++)
        if (c->files[i].change_a != c->files[i].change_b)
            return false;
    return !c->nonly_a && !c->nonly_b && !c->nfail_new && !c->nfail_gone && !c->nhosts &&
           !c->naccount && !c->nsecrets && !c->findings_new && !c->findings_gone &&
           !c->findings_unchecked_a && !c->findings_unchecked_b;
}
