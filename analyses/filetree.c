/* The file changes as a tree (the contract is in analyses/filetree.h): every
 * (path, event) pair is gathered, sorted by root, path and time, and the
 * tree is made in one pass over them with a stack of open directories.
 * The namings of one path string (one pointer: interned lists name a path
 * with the same one every time) under one root share an entry, made
 * relative and sorted once; the pairs then follow their entries' order in
 * one counting pass, so the work per pair is constant. */
#include <stdlib.h>
#include <string.h>

#include "analyses/filetree.h"
#include "model/files.h"

struct rec {
    uint32_t root;
    uint32_t rank;        /* the root's place: system roots by name, then the workspace */
    uint32_t cls;         /* its (rank, rel)'s place among those of every pair */
    size_t rel;           /* offset of the path beneath the root (parts joined by '/') */
    const char *path;     /* as the event gave it */
    size_t order;         /* the event's timeline position */
    const struct sbx_event *event;
    uint8_t change;
    bool none;            /* a files event that changed nothing: its root shows */
};

/* The order of a tree in pre-order: '/' before every other byte. */
static int path_cmp(const char *a, const char *b)
{
    while (*a == *b && *a) /* equal bytes order alike: only the first difference is mapped */
        a++, b++;
    int x = *a == '/' ? 1 : *a ? (unsigned char)*a + 2 : 0;
    int y = *b == '/' ? 1 : *b ? (unsigned char)*b + 2 : 0;
    return x - y;
}

/* The path beneath its root, its parts joined by '/', appended to names
 * (with its NUL); returns its offset. */
static size_t add_rel(struct sbx_buf *names, const char *path, const char *root)
{
    size_t rl = root ? strlen(root) : 0;
    if (rl && strncmp(path, root, rl) == 0 &&
        (path[rl] == '/' || path[rl] == '\0' || root[rl - 1] == '/'))
        path += rl;
    size_t off = names->len;
    bool first = true;
    for (const char *p = path; *p;) {
        while (*p == '/')
            p++;
        const char *e = p;
        while (*e && *e != '/')
            e++;
        if (e > p && !(e - p == 1 && p[0] == '.')) {
            if (!first)
                sbx_buf_addc(names, '/');
            sbx_buf_add(names, p, (size_t)(e - p));
            first = false;
        }
        p = e;
    }
    sbx_buf_addc(names, '\0');
    return off;
}

/* One path string under one root, and the pairs that name it. */
struct entry {
    const char *path; /* NULL: a files event that changed nothing */
    uint32_t root, rank;
    size_t rel;
};

struct sort_ctx {
    const char *names;
    const struct entry *ents;
};

static int entry_cmp(const void *x, const void *y, void *ctx)
{
    const struct sort_ctx *c = ctx;
    const struct entry *a = &c->ents[*(const uint32_t *)x], *b = &c->ents[*(const uint32_t *)y];
    if (a->rank != b->rank)
        return a->rank < b->rank ? -1 : 1;
    return path_cmp(c->names + a->rel, c->names + b->rel);
}

/* The entries by (root, path pointer): open addressing, slots hold an
 * entry's index + 1 (0: empty); nslots a power of two over twice the pairs. */
struct entries {
    struct entry *v;
    size_t n;
    uint32_t *slots;
    size_t nslots;
};

static uint32_t entry_of(struct entries *es, struct sbx_buf *names, const char *path,
                         uint32_t root, const char *root_name)
{
    uint64_t h = ((uint64_t)(uintptr_t)path ^ ((uint64_t)root << 32 | root)) * 0x9e3779b97f4a7c15ull;
    size_t i = (size_t)(h >> 20) & (es->nslots - 1);
    for (; es->slots[i]; i = (i + 1) & (es->nslots - 1)) {
        const struct entry *e = &es->v[es->slots[i] - 1];
        if (e->path == path && e->root == root)
            return es->slots[i] - 1;
    }
    struct entry *e = &es->v[es->n];
    e->path = path;
    e->root = root;
    e->rank = 0;
    e->rel = add_rel(names, path ? path : "", path ? root_name : NULL);
    es->slots[i] = (uint32_t)++es->n;
    return (uint32_t)(es->n - 1);
}

static uint32_t rank_of(uint32_t root, const uint32_t *roots, size_t nroots)
{
    for (size_t i = 0; i < nroots; i++)
        if (roots[i] == root)
            return (uint32_t)i;
    return (uint32_t)nroots;
}

static int root_cmp(const void *x, const void *y, void *tl)
{
    return strcmp(sbx_str(tl, *(const uint32_t *)x), sbx_str(tl, *(const uint32_t *)y));
}

/* Building: nodes whose strings are still offsets into the names buffer. */
struct builder {
    struct sbx_filetree *t;
    size_t cap;
    struct sbx_buf names;
    size_t *name_off, *path_off; /* per node; path_off SIZE_MAX: a changed path's own */
    uint32_t *stack;             /* open nodes, the root first */
    size_t depth;                /* nodes on the stack */
};

static uint32_t new_node(struct builder *b, size_t name_off, size_t path_off, uint32_t root,
                         bool system)
{
    struct sbx_filetree *t = b->t;
    if (t->n == b->cap) {
        b->cap = b->cap ? b->cap * 2 : 64;
        t->nodes = sbx_xrealloc(t->nodes, b->cap * sizeof *t->nodes);
        b->name_off = sbx_xrealloc(b->name_off, b->cap * sizeof *b->name_off);
        b->path_off = sbx_xrealloc(b->path_off, b->cap * sizeof *b->path_off);
        b->stack = sbx_xrealloc(b->stack, b->cap * sizeof *b->stack);
    }
    uint32_t i = (uint32_t)t->n++;
    memset(&t->nodes[i], 0, sizeof t->nodes[i]);
    t->nodes[i].depth = (uint32_t)b->depth;
    t->nodes[i].root = root;
    t->nodes[i].system = system;
    b->name_off[i] = name_off;
    b->path_off[i] = path_off;
    b->stack[b->depth++] = i;
    return i;
}

static void pop_to(struct builder *b, size_t depth)
{
    while (b->depth > depth)
        b->t->nodes[b->stack[--b->depth]].end = (uint32_t)b->t->n;
}

static size_t add_name(struct builder *b, const char *s, size_t n)
{
    size_t off = b->names.len;
    sbx_buf_add(&b->names, s, n);
    sbx_buf_addc(&b->names, '\0');
    return off;
}

/* The node for one changed path: its directories opened as needed. */
static uint32_t path_node(struct builder *b, const struct rec *r)
{
    size_t rel_len = strlen(b->names.p + r->rel);
    if (!rel_len)
        return b->stack[0]; /* the root itself */
    size_t level = 1, pos = 0; /* stack levels 1.. hold the open directories */
    for (;;) {
        /* room for this step's name and path first: p points into names */
        sbx_buf_reserve(&b->names, 2 * rel_len + 4);
        const char *rel = b->names.p + r->rel, *p = rel + pos;
        const char *slash = strchr(p, '/');
        size_t len = slash ? (size_t)(slash - p) : strlen(p);
        if (!slash) {
            pop_to(b, level);
            return new_node(b, add_name(b, p, len), SIZE_MAX, r->root, r->root != 0);
        }
        if (level < b->depth) {
            const char *open = b->names.p + b->name_off[b->stack[level]];
            if (strlen(open) == len && memcmp(open, p, len) == 0) {
                level++;
                pos += len + 1;
                continue;
            }
        }
        pop_to(b, level);
        size_t name = add_name(b, p, len);
        size_t path = add_name(b, rel, pos + len);
        new_node(b, name, path, r->root, r->root != 0);
        level++;
        pos += len + 1;
    }
}

void sbx_filetree_build(struct sbx_filetree *t, const struct sbx_timeline *tl)
{
    memset(t, 0, sizeof *t);
    struct builder b = {.t = t, .names = SBX_BUF_INIT};
    uint32_t *roots = NULL;
    size_t nroots = 0, rcap = 0;
    size_t nrecs = 0;
    for (size_t i = 0; i < tl->n; i++) {
        const struct sbx_event *e = sbx_tl_at(tl, i);
        if (e->kind != SBX_EV_FILES || !e->u.files)
            continue;
        const struct sbx_files *f = e->u.files;
        size_t k = (size_t)f->n[SBX_ADDED] + f->n[SBX_CHANGED] + f->n[SBX_REMOVED];
        nrecs += k ? k : 1;
    }
    struct rec *recs = sbx_xmalloc((nrecs ? nrecs : 1) * sizeof *recs);
    struct entries es = {.v = sbx_xmalloc((nrecs ? nrecs : 1) * sizeof *es.v), .nslots = 1};
    while (es.nslots < 2 * nrecs)
        es.nslots *= 2;
    es.slots = sbx_xcalloc(es.nslots, sizeof *es.slots);
    size_t nr = 0;
    for (size_t i = 0; i < tl->n; i++) {
        const struct sbx_event *e = sbx_tl_at(tl, i);
        if (e->kind != SBX_EV_FILES || !e->u.files)
            continue;
        const struct sbx_files *f = e->u.files;
        if (f->root && rank_of(f->root, roots, nroots) == nroots) {
            SBX_GROW(roots, nroots, rcap);
            roots[nroots++] = f->root;
        }
        const char *root_name = f->root ? sbx_str(tl, f->root) : NULL;
        if (!f->n[SBX_ADDED] && !f->n[SBX_CHANGED] && !f->n[SBX_REMOVED]) {
            uint32_t u = entry_of(&es, &b.names, NULL, f->root, root_name);
            recs[nr++] = (struct rec){.root = f->root, .cls = u, .rel = es.v[u].rel, .path = "",
                                      .order = i, .event = e, .none = true};
        }
        for (int c = 0; c < SBX_CHANGE_COUNT; c++)
            for (uint32_t k = 0; k < f->n[c]; k++) {
                const char *path = sbx_files_path(tl, f, (enum sbx_change)c, k);
                uint32_t u = entry_of(&es, &b.names, path, f->root, root_name);
                recs[nr++] = (struct rec){.root = f->root, .cls = u, .rel = es.v[u].rel,
                                          .path = path, .order = i, .event = e,
                                          .change = (uint8_t)c};
            }
    }
    free(es.slots);
    if (nroots)
        qsort_r(roots, nroots, sizeof *roots, root_cmp, (void *)tl);
    for (size_t u = 0; u < es.n; u++)
        es.v[u].rank = es.v[u].root ? rank_of(es.v[u].root, roots, nroots) : (uint32_t)nroots;
    /* the entries sorted; entries that sort alike (one path spelt two ways,
     * "./a" and "a") share a class, numbered in that order */
    uint32_t *by = sbx_xmalloc((es.n ? es.n : 1) * sizeof *by);
    for (size_t u = 0; u < es.n; u++)
        by[u] = (uint32_t)u;
    struct sort_ctx sc = {b.names.p, es.v};
    if (es.n)
        qsort_r(by, es.n, sizeof *by, entry_cmp, &sc);
    uint32_t *cls = sbx_xmalloc((es.n ? es.n : 1) * sizeof *cls);
    size_t *count = sbx_xcalloc(es.n + 1, sizeof *count);
    uint32_t ncls = 0;
    for (size_t k = 0; k < es.n; k++) {
        if (k && entry_cmp(&by[k - 1], &by[k], &sc) != 0)
            ncls++;
        cls[by[k]] = ncls;
    }
    free(by);
    /* the pairs in class order, each class's in the order gathered: the
     * timeline's, then added, changed, removed, as their lists give them */
    for (size_t i = 0; i < nrecs; i++) {
        recs[i].rank = es.v[recs[i].cls].rank;
        recs[i].cls = cls[recs[i].cls];
        count[recs[i].cls + 1]++;
    }
    for (size_t c = 1; c <= es.n; c++)
        count[c] += count[c - 1];
    struct rec *sorted = sbx_xmalloc((nrecs ? nrecs : 1) * sizeof *sorted);
    for (size_t i = 0; i < nrecs; i++)
        sorted[count[recs[i].cls]++] = recs[i];
    free(recs);
    recs = sorted;
    free(count);
    free(cls);
    free(es.v);
    t->changes = sbx_xmalloc((nrecs ? nrecs : 1) * sizeof *t->changes);

    for (size_t i = 0; i < nrecs;) {
        if (i == 0 || recs[i].rank != recs[i - 1].rank) {
            pop_to(&b, 0);
            const char *root = recs[i].root ? sbx_str(tl, recs[i].root) : "";
            size_t off = add_name(&b, root, strlen(root));
            new_node(&b, off, off, recs[i].root, recs[i].root != 0);
        }
        size_t j = i + 1;
        while (j < nrecs && recs[j].cls == recs[i].cls)
            j++;
        /* the records that changed nothing only made the root show */
        size_t from = i;
        while (from < j && recs[from].none)
            from++;
        if (from == j) {
            i = j;
            continue;
        }
        uint32_t node = path_node(&b, &recs[from]);
        struct sbx_ftnode *nd = &t->nodes[node];
        nd->changed = true;
        b.path_off[node] = SIZE_MAX; /* a changed path shows as the event gave it */
        nd->path = recs[from].path;
        nd->change0 = (uint32_t)t->nchanges;
        for (size_t k = from; k < j; k++)
            if (!recs[k].none)
                t->changes[t->nchanges++] = (struct sbx_ftchange){recs[k].event, recs[k].change};
        nd->nchanges = (uint32_t)(t->nchanges - nd->change0);
        nd->state = t->changes[t->nchanges - 1].change;
        t->paths++;
        t->system_paths += nd->system;
        /* every open node above it (and it, when it is a root) counts it */
        for (size_t d = 0; d < b.depth; d++)
            if (b.stack[d] != node)
                t->nodes[b.stack[d]].below[nd->state]++;
        i = j;
    }
    pop_to(&b, 0);
    t->names = b.names.p ? b.names.p : sbx_xstrndup("", 0);
    for (size_t i = 0; i < t->n; i++) {
        t->nodes[i].name = t->names + b.name_off[i];
        if (b.path_off[i] != SIZE_MAX)
            t->nodes[i].path = t->names + b.path_off[i];
    }
    free(b.name_off);
    free(b.path_off);
    free(b.stack);
    free(recs);
    free(roots);
}

void sbx_filetree_free(struct sbx_filetree *t)
{
    free(t->nodes);
    free(t->changes);
    free(t->names);
    memset(t, 0, sizeof *t);
}
