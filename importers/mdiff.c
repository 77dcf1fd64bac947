/* Manifests paired, diffs' files added: the step after every source of a
 * run is read (importers/mdiff.h). */
#include "importers/mdiff.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/diffs.h"
#include "model/files.h"

struct entry {
    char *path;
    unsigned char hash[32];
};

struct manifest {
    uint32_t source;
    struct entry *all; /* in the file's order */
    struct entry **e;  /* the same, sorted by path */
    size_t n, cap;
    int side;        /* -1 before, 1 after, 0 the name does not say */
    char *stem;      /* the name without its before/after word */
    bool paired;
};

static int entry_cmp(const void *a, const void *b)
{
    return strcmp((*(struct entry *const *)a)->path, (*(struct entry *const *)b)->path);
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* Which side the file name says, and the name without that word. */
static void name_side(const char *path, int *side, char **stem)
{
    static const char *const before[] = {"before", "pre", "old", "orig", NULL};
    static const char *const after[] = {"after", "post", "new", NULL};
    const char *name = base_name(path);
    size_t n = strlen(name);
    *side = 0;
    *stem = sbx_xstrndup(name, n);
    for (size_t i = 0; i < n;) {
        if (!isalnum((unsigned char)name[i])) {
            i++;
            continue;
        }
        size_t j = i;
        while (j < n && isalnum((unsigned char)name[j]))
            j++;
        for (int s = 0; s < 2 && !*side; s++) {
            const char *const *words = s ? after : before;
            for (int w = 0; words[w]; w++)
                if (strlen(words[w]) == j - i && strncasecmp(name + i, words[w], j - i) == 0) {
                    *side = s ? 1 : -1;
                    struct sbx_buf b = SBX_BUF_INIT;
                    sbx_buf_add(&b, name, i);
                    sbx_buf_addc(&b, '*');
                    sbx_buf_adds(&b, name + j);
                    free(*stem);
                    *stem = b.p;
                    break;
                }
        }
        if (*side)
            break;
        i = j;
    }
}

static size_t bom(const struct sbx_source *src)
{
    return src->size >= 3 && memcmp(src->data, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
}

static void read_manifest(const struct sbx_source *src, uint32_t index, struct manifest *m)
{
    memset(m, 0, sizeof *m);
    m->source = index;
    name_side(src->path, &m->side, &m->stem);
    struct sbx_buf path = SBX_BUF_INIT;
    const char *why;
    const char *p = src->data + bom(src), *end = src->data + src->size;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
        struct entry e;
        if (sbx_manifest_line(p, len, e.hash, &path, &why)) {
            e.path = sbx_xstrndup(path.p, path.len);
            SBX_GROW(m->all, m->n, m->cap);
            m->all[m->n++] = e;
        }
        p += len + 1;
    }
    sbx_buf_free(&path);
    /* pointers sorted, not the entries: a tree's manifest holds millions */
    m->e = sbx_xmalloc((m->n ? m->n : 1) * sizeof *m->e);
    bool sorted = true;
    for (size_t i = 0; i < m->n; i++) {
        m->e[i] = &m->all[i];
        sorted = sorted && (i == 0 || strcmp(m->all[i - 1].path, m->all[i].path) < 0);
    }
    if (!sorted)
        qsort(m->e, m->n, sizeof *m->e, entry_cmp);
}

static void free_manifest(struct manifest *m)
{
    for (size_t i = 0; i < m->n; i++)
        free(m->all[i].path);
    free(m->all);
    free(m->e);
    free(m->stem);
}

/* The first line of a source: what an event made from the whole file points at. */
static size_t first_line_len(const struct sbx_source *src, size_t from)
{
    const char *nl = memchr(src->data + from, '\n', src->size - from);
    return nl ? (size_t)(nl - src->data - from) : src->size - from;
}

/* The time for an event of a source without times: just after the run's
 * last known moment. */
static int64_t inferred_time(const struct sbx_timeline *tl)
{
    int64_t last = SBX_TIME_UNKNOWN;
    for (size_t i = 0; i < tl->n; i++) {
        const struct sbx_event *e = sbx_tl_at(tl, i);
        if (e->start != SBX_TIME_UNKNOWN && e->start > last)
            last = e->start;
        if (e->end != SBX_TIME_UNKNOWN && e->end > last)
            last = e->end;
    }
    return last == SBX_TIME_UNKNOWN || last == INT64_MAX ? last : last + 1;
}

/* Adopts a one-event buffer and moves the event to the end of its source's
 * events, so the order stays by (source, line) until the timeline is
 * finished (it sorts such an order fastest). */
static void adopt_one(struct sbx_timeline *tl, struct sbx_evbuf *buf)
{
    sbx_timeline_adopt(tl, buf);
    size_t i = tl->n - 1;
    uint32_t slot = tl->order_[i];
    uint16_t source = sbx_tl_slot(tl, slot)->source;
    while (i > 0 && sbx_tl_at(tl, i - 1)->source > source) {
        tl->order_[i] = tl->order_[i - 1];
        i--;
    }
    tl->order_[i] = slot;
}

static struct sbx_event *push_event(struct sbx_timeline *tl, struct sbx_evbuf *buf,
                                    uint32_t source, enum sbx_kind kind, int64_t when)
{
    const struct sbx_source *src = &tl->sources[source];
    size_t from = bom(src);
    struct sbx_event *e = sbx_evbuf_push_from(buf, source, from, first_line_len(src, from), 1);
    e->kind = (uint8_t)kind;
    e->start = e->end = when;
    if (when != SBX_TIME_UNKNOWN)
        e->tflags = SBX_EVT_TIME_INFERRED;
    return e;
}

/* Lists collected for one files event. */
struct lists {
    const char **p[SBX_CHANGE_COUNT];
    uint32_t n[SBX_CHANGE_COUNT], cap[SBX_CHANGE_COUNT];
};

static void list_add(struct lists *l, int c, const char *path)
{
    if (l->n[c] == l->cap[c]) {
        l->cap[c] = l->cap[c] ? l->cap[c] * 2 : 8;
        l->p[c] = sbx_xrealloc(l->p[c], l->cap[c] * sizeof *l->p[c]);
    }
    l->p[c][l->n[c]++] = path;
}

/* The folder every path is in, for absolute paths (a manifest of /etc);
 * 0 (the workspace) when any path is relative. */
static uint32_t common_root(struct sbx_timeline *tl, const struct lists *l)
{
    const char *first = NULL;
    size_t len = 0;
    for (int c = 0; c < SBX_CHANGE_COUNT; c++)
        for (uint32_t i = 0; i < l->n[c]; i++) {
            const char *p = l->p[c][i];
            if (p[0] != '/')
                return 0;
            if (!first) {
                first = p;
                const char *slash = strrchr(p, '/');
                len = (size_t)(slash - p);
                continue;
            }
            size_t k = 0;
            while (k < len && p[k] == first[k])
                k++;
            while (k > 0 && !(first[k] == '/' && (p[k] == '/' || p[k] == '\0')))
                k--;
            len = k;
        }
    if (!first)
        return 0;
    return sbx_strtab_intern(&tl->strings, first, len ? len : 1);
}

static int str_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void files_event(struct sbx_timeline *tl, uint32_t source, int64_t when, struct lists *l,
                        uint32_t flags, uint32_t before)
{
    struct sbx_evbuf buf = {0};
    struct sbx_event *e = push_event(tl, &buf, source, SBX_EV_FILES, when);
    uint32_t room[SBX_CHANGE_COUNT];
    for (int c = 0; c < SBX_CHANGE_COUNT; c++) {
        bool sorted = true; /* a manifest pair's lists come sorted */
        for (uint32_t i = 1; i < l->n[c] && sorted; i++)
            sorted = strcmp(l->p[c][i - 1], l->p[c][i]) <= 0;
        if (!sorted)
            qsort(l->p[c], l->n[c], sizeof *l->p[c], str_cmp);
        room[c] = l->n[c];
    }
    struct sbx_files *f = sbx_files_new(&buf, room, true);
    e->u.files = f;
    f->root = common_root(tl, l);
    f->flags |= flags;
    struct sbx_files_more *more = sbx_files_more_mut(f);
    more->before = before;
    more->after = source;
    for (int c = 0; c < SBX_CHANGE_COUNT; c++) {
        for (uint32_t i = 0; i < l->n[c]; i++)
            if (!i || strcmp(l->p[c][i], l->p[c][i - 1]) != 0)
                sbx_files_add(f, (enum sbx_change)c,
                              sbx_strtab_intern(&tl->strings, l->p[c][i], strlen(l->p[c][i])));
        free(l->p[c]);
    }
    adopt_one(tl, &buf);
}

/* added, changed, removed from two manifests (both sorted by path) */
static void compare(struct sbx_timeline *tl, const struct manifest *b, const struct manifest *a,
                    int64_t when)
{
    struct lists l = {0};
    size_t i = 0, j = 0;
    while (i < b->n || j < a->n) {
        int c = i == b->n ? 1 : j == a->n ? -1 : strcmp(b->e[i]->path, a->e[j]->path);
        if (c < 0) {
            list_add(&l, SBX_REMOVED, b->e[i++]->path);
        } else if (c > 0) {
            list_add(&l, SBX_ADDED, a->e[j++]->path);
        } else {
            if (memcmp(b->e[i]->hash, a->e[j]->hash, 32) != 0)
                list_add(&l, SBX_CHANGED, a->e[j]->path);
            i++;
            j++;
        }
    }
    files_event(tl, a->source, when, &l, SBX_FILES_MANIFESTS, b->source);
}

static void lone_manifest(struct sbx_timeline *tl, const struct manifest *m, int64_t when)
{
    struct sbx_evbuf buf = {0};
    struct sbx_event *e = push_event(tl, &buf, m->source, SBX_EV_NOTE, when);
    char label[96];
    snprintf(label, sizeof label, "manifest with no partner (%zu file%s listed)", m->n,
             m->n == 1 ? "" : "s");
    e->label = sbx_strtab_intern(&tl->strings, label, strlen(label));
    adopt_one(tl, &buf);
}

/* Pairs by name first (manifest-before / manifest-after), then the rest in
 * the order given; returns the number of pairs written to pairs. */
static size_t pair_up(struct manifest *m, size_t n, size_t (*pairs)[2])
{
    size_t np = 0;
    for (size_t i = 0; i < n; i++) {
        if (m[i].side != -1 || m[i].paired)
            continue;
        for (size_t j = 0; j < n; j++)
            if (m[j].side == 1 && !m[j].paired && strcmp(m[i].stem, m[j].stem) == 0) {
                m[i].paired = m[j].paired = true;
                pairs[np][0] = i;
                pairs[np++][1] = j;
                break;
            }
    }
    size_t waiting = n;
    for (size_t i = 0; i < n; i++) {
        if (m[i].paired)
            continue;
        if (waiting == n) {
            waiting = i;
            continue;
        }
        bool swap = m[waiting].side == 1 || m[i].side == -1;
        pairs[np][0] = swap ? i : waiting;
        pairs[np++][1] = swap ? waiting : i;
        m[i].paired = m[waiting].paired = true;
        waiting = n;
    }
    return np;
}

static bool in_manifest(const struct manifest *m, const char *p)
{
    struct entry key = {.path = (char *)p}, *k = &key;
    return m->n && bsearch(&k, m->e, m->n, sizeof *m->e, entry_cmp) != NULL;
}

/* Whether some pair's manifests name p. */
static bool in_pairs(const struct manifest *m, size_t (*pairs)[2], size_t np, const char *p)
{
    for (size_t k = 0; k < np; k++)
        if (in_manifest(&m[pairs[k][0]], p) || in_manifest(&m[pairs[k][1]], p))
            return true;
    return false;
}

void sbx_mdiff_link(struct sbx_timeline *tl)
{
    struct manifest *m = NULL;
    size_t nm = 0;
    uint32_t *diffs = NULL;
    size_t nd = 0;
    for (size_t i = 0; i < tl->nsources; i++) {
        const struct sbx_source *src = &tl->sources[i];
        if (src->preview)
            continue;
        if (strcmp(src->format, "manifest") == 0) {
            m = sbx_xrealloc(m, (nm + 1) * sizeof *m);
            read_manifest(src, (uint32_t)i, &m[nm++]);
        } else if (strcmp(src->format, "diff") == 0) {
            diffs = sbx_xrealloc(diffs, (nd + 1) * sizeof *diffs);
            diffs[nd++] = (uint32_t)i;
        }
    }
    if (!nm && !nd)
        return;
    int64_t when = inferred_time(tl);

    size_t (*pairs)[2] = sbx_xcalloc(nm ? nm : 1, sizeof *pairs);
    size_t np = pair_up(m, nm, pairs);
    for (size_t k = 0; k < np; k++)
        compare(tl, &m[pairs[k][0]], &m[pairs[k][1]], when);
    for (size_t i = 0; i < nm; i++)
        if (!m[i].paired)
            lone_manifest(tl, &m[i], when);

    for (size_t k = 0; k < nd; k++) {
        const struct sbx_source *src = &tl->sources[diffs[k]];
        size_t from = bom(src);
        struct sbx_diff_parsed parsed;
        sbx_diff_parse(src->data + from, src->size - from, &parsed);
        /* a files event only for what no manifest pair already tells */
        bool all_covered = np > 0;
        for (size_t i = 0; i < parsed.nfiles && all_covered; i++) {
            const struct sbx_diff_file *f = &parsed.files[i];
            all_covered = in_pairs(m, pairs, np, f->path) &&
                          (!f->renamed || in_pairs(m, pairs, np, f->old_path));
        }
        if (!all_covered && parsed.nfiles) {
            struct lists l = {0};
            for (size_t i = 0; i < parsed.nfiles; i++) {
                const struct sbx_diff_file *f = &parsed.files[i];
                list_add(&l, f->change, f->path);
                if (f->renamed)
                    list_add(&l, SBX_REMOVED, f->old_path);
            }
            files_event(tl, diffs[k], when, &l, SBX_FILES_DIFF, 0);
        }
        sbx_diff_add(tl, diffs[k], from, &parsed);
        sbx_diff_parsed_free(&parsed);
    }
    free(pairs);
    for (size_t i = 0; i < nm; i++)
        free_manifest(&m[i]);
    free(m);
    free(diffs);
}
