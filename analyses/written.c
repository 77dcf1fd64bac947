/* Which command wrote each file (the rule is in analyses/written.h). */
#include "analyses/written.h"
#include "analyses/line_key.h"

#include <stdlib.h>
#include <string.h>

#include "analyses/cmdlink.h"
#include "analyses/hostindex.h"
#include "analyses/witness.h"
#include "analyses/writers.h"
#include "model/diffs.h"
#include "model/files.h"

/* Steps of this thread's last sbx_written_run (sbx_written_work): events,
 * targets, index probes, path bytes and records walked. */
static _Thread_local size_t steps;

/* One write target of one command. */
struct target {
    const struct sbx_event *cmd;
    size_t pos;      /* the command's place in the timeline's order */
    uint8_t rule;
    bool removes, tree;
    char *text;      /* what it writes, when its text shows it; owned */
    size_t textlen;
};

/* A path a target is found by; several keys share a path in a chain. */
struct key {
    char *name; /* owned */
    size_t target, next; /* next: SIZE_MAX ends the chain */
};

struct index {
    struct target *t;
    size_t nt, capt;
    struct key *k;
    size_t nk, capk;
    struct sbx_hostindex ix;
};

static void add_key(struct index *x, const char *name, size_t len, size_t target)
{
    SBX_GROW(x->k, x->nk, x->capk);
    struct key *k = &x->k[x->nk];
    k->name = sbx_xstrndup(name, len);
    k->target = target;
    k->next = sbx_hostindex_find(&x->ix, name, len);
    sbx_hostindex_put(&x->ix, k->name, len, x->nk++);
}

struct collecting {
    struct index *x;
    const struct sbx_event *cmd;
    size_t pos;
    const char *cwd; /* the recorded cwd without trailing '/' */
    size_t cwdlen;
};

static void on_target(const struct sbx_write_target *t, void *ctx)
{
    struct collecting *c = ctx;
    struct index *x = c->x;
    steps++;
    SBX_GROW(x->t, x->nt, x->capt);
    x->t[x->nt] = (struct target){c->cmd, c->pos, (uint8_t)t->rule, t->removes, t->tree,
                                  t->text ? sbx_xstrndup(t->text, t->textlen) : NULL, t->textlen};
    size_t id = x->nt++;
    if (t->path[0] != '/') { /* no cwd was known: the path is relative already */
        add_key(x, t->path, t->len, id);
        return;
    }
    add_key(x, t->path, t->len, id);
    /* the workspace's name for it: relative to the recorded cwd */
    if (c->cwdlen && t->len == c->cwdlen && memcmp(t->path, c->cwd, c->cwdlen) == 0)
        add_key(x, ".", 1, id);
    else if (c->cwdlen == 1 && c->cwd[0] == '/')
        add_key(x, t->path + 1, t->len - 1, id);
    else if (c->cwdlen && t->len > c->cwdlen + 1 && memcmp(t->path, c->cwd, c->cwdlen) == 0 &&
             t->path[c->cwdlen] == '/')
        add_key(x, t->path + c->cwdlen + 1, t->len - c->cwdlen - 1, id);
}

/* The targets of recent command lines: agents repeat commands, and a
 * line's targets from one cwd are always the same (sbx_write_targets keeps
 * no state). A small cache by line and cwd, the line compared in full,
 * long lines left out: its memory does not grow with the log. */
enum { MEMO_BITS = 12, MEMO_SLOTS = 1 << MEMO_BITS, MEMO_LINE_MAX = 512 };

struct memo_target {
    char *path, *text; /* owned */
    size_t len, textlen;
    uint8_t rule;
    bool removes, tree, has_text;
};

struct memo {
    struct sbx_line_key key; /* the line and its cwd's strtab id */
    struct memo_target *t;
    size_t nt, capt;
};

static void memo_clear(struct memo *m)
{
    for (size_t i = 0; i < m->nt; i++) {
        free(m->t[i].path);
        free(m->t[i].text);
    }
    m->nt = 0;
    m->key.len = 0;
}

struct recording {
    struct collecting *c;
    struct memo *m; /* where the targets are kept, or NULL */
};

static void on_target_kept(const struct sbx_write_target *t, void *ctx)
{
    struct recording *r = ctx;
    if (r->m) {
        struct memo *m = r->m;
        SBX_GROW(m->t, m->nt, m->capt);
        m->t[m->nt++] = (struct memo_target){sbx_xstrndup(t->path, t->len),
                                             t->text ? sbx_xstrndup(t->text, t->textlen) : NULL,
                                             t->len, t->textlen, (uint8_t)t->rule, t->removes,
                                             t->tree, t->text != NULL};
    }
    on_target(t, r->c);
}

/* The targets of text from cwd (a strtab id, the string cwd_path) to
 * on_target: from the cache when the same line came from the same cwd
 * before, else read and kept. */
static void targets_of(struct memo *memo, const char *text, size_t n, uint32_t cwd,
                       const char *cwd_path, struct collecting *c)
{
    struct memo *m = NULL;
    if (n && n <= MEMO_LINE_MAX) {
        uint64_t h = sbx_line_key_hash(text, n, cwd);
        m = &memo[sbx_line_key_slot(h, MEMO_BITS)];
        if (sbx_line_key_is(&m->key, h, text, n, cwd)) {
            for (size_t i = 0; i < m->nt; i++) {
                const struct memo_target *k = &m->t[i];
                struct sbx_write_target t = {k->path, k->len, (enum sbx_write_rule)k->rule,
                                             k->removes, k->tree, k->has_text ? k->text : NULL,
                                             k->textlen};
                on_target(&t, c);
            }
            return;
        }
        memo_clear(m);
        sbx_line_key_set(&m->key, h, text, n, cwd, MEMO_LINE_MAX);
    }
    struct recording r = {c, m};
    sbx_write_targets(text, n, cwd_path, on_target_kept, &r);
}

static void build_index(const struct sbx_timeline *tl, const struct sbx_witnesses *w, struct index *x)
{
    struct sbx_buf scratch = SBX_BUF_INIT;
    struct memo *memo = sbx_xcalloc(MEMO_SLOTS, sizeof *memo);
    for (size_t i = 0; i < tl->n; i++) {
        steps++;
        const struct sbx_event *e = sbx_tl_at(tl, i);
        if (e->kind != SBX_EV_COMMAND || (e->u.cmd.flags & SBX_CMD_RECORD) ||
            !(e->u.cmd.command.flags & SBX_TEXT_PRESENT) || (w && sbx_witness_is_second(w, e)))
            continue;
        size_t n;
        const char *text = sbx_text_get(tl, e, &e->u.cmd.command, &scratch, &n);
        const char *cwd = sbx_str(tl, e->u.cmd.cwd);
        size_t cwdlen = strlen(cwd);
        while (cwdlen > 1 && cwd[cwdlen - 1] == '/')
            cwdlen--;
        struct collecting c = {x, e, i, cwd, cwd[0] == '/' ? cwdlen : 0};
        /* a relative cwd says nothing of where the workspace is */
        targets_of(memo, text, n, e->u.cmd.cwd, cwd[0] == '/' ? cwd : NULL, &c);
    }
    for (size_t i = 0; i < MEMO_SLOTS; i++) {
        memo_clear(&memo[i]);
        free(memo[i].t);
        sbx_line_key_free(&memo[i].key);
    }
    free(memo);
    sbx_buf_free(&scratch);
}

static void index_free(struct index *x)
{
    for (size_t i = 0; i < x->nt; i++)
        free(x->t[i].text);
    for (size_t i = 0; i < x->nk; i++)
        free(x->k[i].name);
    free(x->t);
    free(x->k);
    sbx_hostindex_free(&x->ix);
}

/* ---- the paths the files events name ---- */

/* One naming of a path by a files event (the path is its group's). */
struct naming {
    const struct sbx_event *rec;
    uint8_t change;
    bool system;
};

/* Every naming of the files events, grouped by path: the groups in path
 * order (strcmp; ids whose strings are equal as C strings are one group),
 * each group's namings in timeline order (the order of their times). The
 * paths are the timeline's strings; made without sorting the namings. */
struct namings {
    struct naming *v;
    size_t *start;      /* group g is v[start[g] .. start[g + 1]) */
    const char **path;  /* group g's path */
    size_t ngroups;
};

struct distinct {
    const char *s;
    uint32_t id;
};

static int distinct_cmp(const void *a, const void *b)
{
    return strcmp(((const struct distinct *)a)->s, ((const struct distinct *)b)->s);
}

static bool names_paths(const struct sbx_event *e)
{
    return e->kind == SBX_EV_FILES && e->u.files && !(e->u.files->flags & SBX_FILES_OPERATION);
}

/* Calls fn(ctx, e, change, id) for each path id every files event names,
 * in timeline order. */
static inline void each_naming(const struct sbx_timeline *tl,
                               void (*fn)(void *, const struct sbx_event *, int, uint32_t),
                               void *ctx)
{
    for (size_t i = 0; i < tl->n; i++) {
        const struct sbx_event *e = sbx_tl_at(tl, i);
        if (!names_paths(e))
            continue;
        for (int c = 0; c < SBX_CHANGE_COUNT; c++) {
            const uint32_t *ids = sbx_files_ids(e->u.files, (enum sbx_change)c);
            for (uint32_t k = 0; k < e->u.files->n[c]; k++)
                fn(ctx, e, c, ids[k]);
        }
    }
}

struct naming_pass {
    const struct sbx_timeline *tl;
    struct namings *out;
    uint32_t *group; /* by path id: first 1 when named, then its group */
    struct distinct *d;
    size_t nd, capd, total;
    size_t *next; /* the next place of each group's namings */
};

static void find_distinct(void *ctx, const struct sbx_event *e, int c, uint32_t id)
{
    struct naming_pass *p = ctx;
    (void)e;
    (void)c;
    steps++;
    p->total++;
    if (p->group[id])
        return;
    p->group[id] = 1;
    SBX_GROW(p->d, p->nd, p->capd);
    p->d[p->nd++] = (struct distinct){sbx_str(p->tl, id), id};
}

static void count_group(void *ctx, const struct sbx_event *e, int c, uint32_t id)
{
    struct naming_pass *p = ctx;
    (void)e;
    (void)c;
    p->out->start[p->group[id] + 1]++;
}

static void place_naming(void *ctx, const struct sbx_event *e, int c, uint32_t id)
{
    struct naming_pass *p = ctx;
    steps++;
    size_t g = p->group[id];
    p->out->v[p->next[g]++] = (struct naming){e, (uint8_t)c, e->u.files->root != 0};
}

static void namings_make(const struct sbx_timeline *tl, struct namings *out)
{
    memset(out, 0, sizeof *out);
    struct naming_pass p = {.tl = tl, .out = out};
    p.group = sbx_xcalloc(tl->strings.n ? tl->strings.n : 1, sizeof *p.group);
    each_naming(tl, find_distinct, &p);
    if (!p.total) {
        free(p.group);
        return;
    }
    qsort(p.d, p.nd, sizeof *p.d, distinct_cmp);
    out->path = sbx_xmalloc(p.nd * sizeof *out->path);
    for (size_t k = 0; k < p.nd; k++) {
        if (k == 0 || strcmp(p.d[k].s, p.d[k - 1].s) != 0)
            out->path[out->ngroups++] = p.d[k].s;
        p.group[p.d[k].id] = (uint32_t)(out->ngroups - 1);
    }
    free(p.d);
    /* a counting sort by group: each group's place, then the namings in order */
    out->start = sbx_xcalloc(out->ngroups + 1, sizeof *out->start);
    each_naming(tl, count_group, &p);
    for (size_t g = 0; g < out->ngroups; g++)
        out->start[g + 1] += out->start[g];
    p.next = sbx_xmalloc(out->ngroups * sizeof *p.next);
    memcpy(p.next, out->start, out->ngroups * sizeof *p.next);
    out->v = sbx_xmalloc(p.total * sizeof *out->v);
    each_naming(tl, place_naming, &p);
    free(p.next);
    free(p.group);
}

static void namings_free(struct namings *n)
{
    free(n->v);
    free(n->start);
    free(n->path);
}

/* A candidate for one path: a target found by it, and whether some record
 * takes it. */
struct cand {
    size_t target, pos; /* pos: the command's, so timeline order */
    uint32_t sandbox;
    bool removes;
    bool taken;
};

static int cand_cmp(const void *a, const void *b)
{
    const struct cand *x = a, *y = b;
    if (x->sandbox != y->sandbox)
        return x->sandbox < y->sandbox ? -1 : 1;
    if (x->removes != y->removes)
        return x->removes ? 1 : -1;
    return (x->pos > y->pos) - (x->pos < y->pos);
}

struct cands {
    struct cand *v;
    size_t n, cap;
};

/* The targets named by path p: p's own keys, and its folders' trees. */
static void find_candidates(const struct index *x, const char *p, uint32_t only, struct cands *out)
{
    size_t len = strlen(p);
    bool exact = true;
    for (;;) {
        for (size_t k = sbx_hostindex_find(&x->ix, p, len); k != SIZE_MAX; k = x->k[k].next) {
            steps++;
            const struct target *t = &x->t[x->k[k].target];
            if (!exact && !t->tree)
                continue;
            SBX_GROW(out->v, out->n, out->cap);
            out->v[out->n++] = (struct cand){x->k[k].target, t->pos, t->cmd->sandbox ? t->cmd->sandbox : only,
                                             t->removes, false};
        }
        if (len == 1 && (p[0] == '/' || p[0] == '.'))
            break;
        size_t s = len;
        steps += s;
        while (s > 0 && p[s - 1] != '/')
            s--;
        exact = false;
        if (s == 0) {
            p = ".";
            len = 1;
        } else {
            len = s > 1 ? s - 1 : 1; /* "/etc/hosts" -> "/etc" -> "/" */
        }
    }
}

static bool is_watch(const struct sbx_timeline *tl, const struct sbx_event *rec)
{
    return strncmp(tl->sources[rec->source].format, "runtime-", 8) == 0 &&
           rec->start != SBX_TIME_UNKNOWN && !(rec->tflags & SBX_EVT_TIME_INFERRED);
}

/* The latest time a record without a file watch gives, per sandbox and
 * kind (write or remove): every candidate that started by then is taken.
 * INT64_MAX: a record whose time is a guess (any command). */
struct bound {
    uint32_t sandbox; /* 0: a record with no sandbox, in a run of several */
    bool removes;
    int64_t until;
};

static int bound_cmp(const void *a, const void *b)
{
    const struct bound *x = a, *y = b;
    if (x->sandbox != y->sandbox)
        return x->sandbox < y->sandbox ? -1 : 1;
    return x->removes - y->removes;
}

static int64_t record_time(const struct sbx_event *rec)
{
    return rec->start == SBX_TIME_UNKNOWN || (rec->tflags & SBX_EVT_TIME_INFERRED) ? INT64_MAX
                                                                                  : rec->start;
}

static bool started_by(const struct target *t, int64_t until)
{
    return until == INT64_MAX || (t->cmd->start != SBX_TIME_UNKNOWN && t->cmd->start <= until);
}

static const struct bound *bound_of(const struct bound *b, size_t n, uint32_t sandbox, bool removes)
{
    struct bound key = {sandbox, removes, 0};
    return n ? bsearch(&key, b, n, sizeof *b, bound_cmp) : NULL;
}

/* The candidates of group (sandbox, removes): [*lo, *hi) of the sorted list. */
static void group_of(const struct cands *cs, uint32_t sandbox, bool removes, size_t *lo, size_t *hi)
{
    struct cand key = {0, 0, sandbox, removes, false};
    size_t a = 0, b = cs->n;
    while (a < b) {
        size_t m = a + (b - a) / 2;
        if (cand_cmp(&cs->v[m], &key) < 0)
            a = m + 1;
        else
            b = m;
    }
    *lo = b = a;
    while (b < cs->n && cs->v[b].sandbox == sandbox && cs->v[b].removes == removes)
        b++;
    *hi = b;
}

/* A file watch takes the last candidate of its group to start by its time
 * (the group is in timeline order, which is by start). */
static void take_watch(const struct index *x, struct cands *cs, uint32_t sandbox, bool removes,
                       int64_t t)
{
    size_t lo, hi;
    group_of(cs, sandbox, removes, &lo, &hi);
    while (lo < hi) {
        size_t m = lo + (hi - lo) / 2;
        if (started_by(&x->t[cs->v[m].target], t))
            lo = m + 1;
        else
            hi = m;
    }
    size_t first;
    group_of(cs, sandbox, removes, &first, &hi);
    if (lo > first)
        cs->v[lo - 1].taken = true;
}

static int writer_cmp(const void *a, const void *b)
{
    const struct sbx_writer *x = a, *y = b;
    int c = sbx_event_cmp(x->command, y->command);
    return c ? c : (x->rule > y->rule) - (x->rule < y->rule);
}

static void add_line(struct sbx_written *w, char sign, const char *s, size_t n)
{
    if (w->nlines >= SBX_WRITTEN_LINES_MAX) {
        w->more_lines++;
        return;
    }
    w->lines = sbx_xrealloc(w->lines, (w->nlines + 1) * sizeof *w->lines);
    char *l = sbx_xmalloc(n + 3);
    l[0] = sign;
    l[1] = ' ';
    memcpy(l + 2, s, n);
    l[n + 2] = '\0';
    w->lines[w->nlines++] = l;
}

/* A system path's lines: the diff's, else its writers' text. */
static void system_lines(const struct sbx_timeline *tl, const struct index *x, struct sbx_written *w,
                         const struct cands *cs)
{
    const struct sbx_diff_file *f = sbx_diff_find(tl, w->path);
    if (f) {
        struct sbx_diff_iter it;
        struct sbx_diff_line line;
        sbx_diff_iter_init(&it, tl, f);
        while (sbx_diff_next(&it, &line))
            if (line.kind == SBX_DIFF_ADD || line.kind == SBX_DIFF_DEL)
                add_line(w, line.kind == SBX_DIFF_ADD ? '+' : '-', line.text + 1, line.len ? line.len - 1 : 0);
        w->lines_from_diff = true;
        return;
    }
    for (size_t i = 0; i < cs->n; i++) {
        const struct target *t = &x->t[cs->v[i].target];
        if (!cs->v[i].taken || !t->text)
            continue;
        for (size_t s = 0; s < t->textlen;) {
            size_t e = s;
            while (e < t->textlen && t->text[e] != '\n')
                e++;
            if (e > s || e < t->textlen)
                add_line(w, '+', t->text + s, e - s);
            s = e + 1;
        }
    }
}

static void add_bound(struct bound **b, size_t *n, size_t *cap, uint32_t sandbox, bool removes,
                      int64_t until)
{
    for (size_t i = *n; i-- > 0 && ++steps;) /* a path's records rarely span many sandboxes */
        if ((*b)[i].sandbox == sandbox && (*b)[i].removes == removes) {
            if (until > (*b)[i].until)
                (*b)[i].until = until;
            return;
        }
    SBX_GROW(*b, *n, *cap);
    (*b)[(*n)++] = (struct bound){sandbox, removes, until};
}

static void settle_path(const struct sbx_timeline *tl, const struct index *x, const char *path,
                        const struct naming *nm, size_t n, uint32_t only, struct sbx_written *w)
{
    struct cands cs = {0};
    find_candidates(x, path, only, &cs);
    if (cs.n)
        qsort(cs.v, cs.n, sizeof *cs.v, cand_cmp);
    struct bound *b = NULL;
    size_t nb = 0, capb = 0;
    bool any_sandbox[2] = {false, false};
    int64_t any_until[2] = {INT64_MIN, INT64_MIN};
    for (size_t i = 0; i < n; i++) {
        steps++;
        const struct sbx_event *rec = nm[i].rec;
        uint32_t sb = rec->sandbox ? rec->sandbox : only;
        bool removes = nm[i].change == SBX_REMOVED;
        w->system |= nm[i].system;
        if (is_watch(tl, rec) && sb) {
            take_watch(x, &cs, sb, removes, rec->start);
        } else if (!sb) {
            any_sandbox[removes] = true;
            if (record_time(rec) > any_until[removes])
                any_until[removes] = record_time(rec);
        } else {
            add_bound(&b, &nb, &capb, sb, removes, record_time(rec));
        }
    }
    if (nb)
        qsort(b, nb, sizeof *b, bound_cmp);
    for (size_t i = 0; i < cs.n; i++) {
        steps++;
        struct cand *c = &cs.v[i];
        const struct target *t = &x->t[c->target];
        const struct bound *bd = bound_of(b, nb, c->sandbox, c->removes);
        if ((bd && started_by(t, bd->until)) || (any_sandbox[c->removes] && started_by(t, any_until[c->removes])))
            c->taken = true;
    }
    free(b);
    size_t taken = 0;
    for (size_t i = 0; i < cs.n; i++)
        taken += cs.v[i].taken;
    w->by = taken ? sbx_xmalloc(taken * sizeof *w->by) : NULL;
    for (size_t i = 0; i < cs.n; i++)
        if (cs.v[i].taken)
            w->by[w->nby++] = (struct sbx_writer){x->t[cs.v[i].target].cmd, x->t[cs.v[i].target].rule};
    if (w->nby > 1) {
        qsort(w->by, w->nby, sizeof *w->by, writer_cmp);
        size_t k = 1;
        for (size_t i = 1; i < w->nby; i++)
            if (w->by[i].command != w->by[k - 1].command || w->by[i].rule != w->by[k - 1].rule)
                w->by[k++] = w->by[i];
        w->nby = (uint32_t)k; /* at most taken, one a command: below 2^32 */
    }
    if (w->system)
        system_lines(tl, x, w, &cs);
    free(cs.v);
}

void sbx_written_run(const struct sbx_timeline *tl, const struct sbx_witnesses *w,
                     struct sbx_written_list *out)
{
    memset(out, 0, sizeof *out);
    steps = 0;
    struct namings nm;
    namings_make(tl, &nm);
    if (!nm.ngroups)
        return;
    struct index x = {NULL, 0, 0, NULL, 0, 0, SBX_HOSTINDEX_INIT};
    build_index(tl, w, &x);
    uint32_t only = sbx_only_sandbox(tl);
    out->v = sbx_xcalloc(nm.ngroups, sizeof *out->v);
    for (size_t g = 0; g < nm.ngroups; g++) {
        steps++;
        struct sbx_written *wr = &out->v[out->n++];
        wr->path = nm.path[g];
        settle_path(tl, &x, nm.path[g], nm.v + nm.start[g], nm.start[g + 1] - nm.start[g], only, wr);
    }
    index_free(&x);
    namings_free(&nm);
}

void sbx_written_free(struct sbx_written_list *l)
{
    for (size_t i = 0; i < l->n; i++) {
        free(l->v[i].by);
        for (size_t k = 0; k < l->v[i].nlines; k++)
            free(l->v[i].lines[k]);
        free(l->v[i].lines);
    }
    free(l->v);
    memset(l, 0, sizeof *l);
}

const struct sbx_written *sbx_written_find(const struct sbx_written_list *l, const char *path)
{
    size_t lo = 0, hi = l->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(l->v[mid].path, path);
        if (c == 0)
            return &l->v[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

size_t sbx_written_work(void)
{
    return steps;
}
