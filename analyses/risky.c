/* Risky commands over a timeline: every command's text (the wrapper's,
 * sandboxio's argv, a tool span's argv; a command two logs saw is judged
 * once, on its first witness), the proxy's hosts against the metadata
 * endpoints, and the lines loaded diffs add to /etc/hosts. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyses/analyses.h"
#include "analyses/risky.h"
#include "analyses/line_key.h"
#include "model/diffs.h"

struct found {
    struct sbx_risky_found *f;
    size_t n, cap;
};

static void add(struct found *out, struct sbx_event *e, uint32_t kind, const char *why)
{
    e->findings |= kind;
    SBX_GROW(out->f, out->n, out->cap);
    out->f[out->n++] = (struct sbx_risky_found){e, kind, sbx_xstrndup(why, strlen(why))};
}

/* The run's own logs, by their file names. */
static struct sbx_risky_scanner *scanner_for(const struct sbx_timeline *tl)
{
    const char **names = sbx_xcalloc(tl->nsources + 1, sizeof *names);
    size_t n = 0;
    for (size_t i = 0; i < tl->nsources; i++) {
        const char *p = tl->sources[i].path;
        if (!p || !*p || strcmp(p, "-") == 0)
            continue;
        const char *slash = strrchr(p, '/');
        names[n++] = slash ? slash + 1 : p;
    }
    struct sbx_risky_scanner *s = sbx_risky_scanner_new(names, n);
    free(names);
    return s;
}

static bool hosts_path(const char *p)
{
    return strcmp(p, "/etc/hosts") == 0 || strcmp(p, "etc/hosts") == 0;
}

/* The files event a diff's source made. */
static struct sbx_event *diff_event(const struct sbx_timeline *tl, uint32_t source)
{
    for (size_t i = 0; i < tl->n; i++) {
        struct sbx_event *e = sbx_tl_at(tl, i);
        if (e->kind == SBX_EV_FILES && e->u.files && (e->u.files->flags & SBX_FILES_DIFF) &&
            sbx_files_more(e->u.files)->after == source)
            return e;
    }
    return NULL;
}

/* The lines diffs add to /etc/hosts. */
static void hosts_diffs(struct sbx_timeline *tl, struct found *out)
{
    for (size_t d = 0; d < tl->ndiffs; d++) {
        const struct sbx_diff_file *f = &tl->diffs[d];
        if (!hosts_path(f->path) || f->change == SBX_REMOVED)
            continue;
        struct sbx_buf added = SBX_BUF_INIT;
        struct sbx_diff_iter it;
        struct sbx_diff_line line;
        sbx_diff_iter_init(&it, tl, f);
        while (sbx_diff_next(&it, &line))
            if (line.kind == SBX_DIFF_ADD && line.len > 1) {
                sbx_buf_add(&added, line.text + 1, line.len - 1);
                sbx_buf_addc(&added, '\n');
            }
        char why[SBX_RISKY_WHY_MAX - 40], words[SBX_RISKY_WHY_MAX];
        struct sbx_event *e;
        if (added.len && sbx_risky_hosts_text(added.p, added.len, why, sizeof why) &&
            (e = diff_event(tl, f->source))) {
            snprintf(words, sizeof words, "the diff adds \"%s\" to /etc/hosts", why);
            add(out, e, SBX_F_HOSTS_REDIRECT, words);
        }
        sbx_buf_free(&added);
    }
}

/* The prefilter's verdict on recent command lines: agents repeat commands,
 * and sbx_risky_might's answer depends on the line's bytes alone. A small
 * cache by line, compared in full; long lines are asked each time. */
enum { MIGHT_BITS = 12, MIGHT_SLOTS = 1 << MIGHT_BITS, MIGHT_LINE_MAX = 256 };

struct might_memo {
    struct sbx_line_key key;
    bool might;
};

static bool might_cached(struct might_memo *memo, struct sbx_risky_scanner *s,
                         const char *raw, size_t n)
{
    if (!n || n > MIGHT_LINE_MAX)
        return sbx_risky_might(s, raw, n);
    uint64_t h = sbx_line_key_hash(raw, n, 0);
    struct might_memo *m = &memo[sbx_line_key_slot(h, MIGHT_BITS)];
    if (sbx_line_key_is(&m->key, h, raw, n, 0))
        return m->might;
    sbx_line_key_set(&m->key, h, raw, n, 0, MIGHT_LINE_MAX);
    return m->might = sbx_risky_might(s, raw, n);
}

static int by_time(const void *a, const void *b)
{
    const struct sbx_risky_found *x = a, *y = b;
    int c = sbx_event_cmp(x->event, y->event);
    if (c)
        return c;
    return sbx_finding_rank(x->kind) < sbx_finding_rank(y->kind) ? -1 : 1;
}

void sbx_analyze_risky(struct sbx_timeline *tl, struct sbx_summary *sum)
{
    struct found out = {0};
    struct sbx_risky_scanner *s = scanner_for(tl);
    struct sbx_buf scratch = SBX_BUF_INIT;
    struct sbx_risky_why why;
    struct might_memo *memo = sbx_xcalloc(MIGHT_SLOTS, sizeof *memo);
    for (size_t i = 0; i < tl->n; i++) {
        struct sbx_event *e = sbx_tl_at(tl, i);
        sbx_prefetch_ahead(tl, i);
        /* the text a few commands ahead: the walk waits on the log's bytes */
        if (i + 8 < tl->n && sbx_tl_at(tl, i + 8)->kind == SBX_EV_COMMAND && sbx_text_len(&sbx_tl_at(tl, i + 8)->u.cmd.command))
            __builtin_prefetch(sbx_text_raw(tl, sbx_tl_at(tl, i + 8), &sbx_tl_at(tl, i + 8)->u.cmd.command));
        if (e->kind == SBX_EV_NETWORK) {
            const char *host = sbx_str(tl, e->u.net.host);
            char words[SBX_RISKY_WHY_MAX];
            if (host && sbx_risky_metadata_host(host, strlen(host))) {
                snprintf(words, sizeof words, "a request to %.120s through the proxy", host);
                add(&out, e, SBX_F_METADATA_ENDPOINT, words);
            }
            continue;
        }
        if (e->kind != SBX_EV_COMMAND || (e->u.cmd.flags & SBX_CMD_RECORD) || !sbx_text_len(&e->u.cmd.command) ||
            sbx_witness_is_second(&sum->witness, e))
            continue;
        const struct sbx_text *t = &e->u.cmd.command;
        /* ordinary commands are ruled out on their stored bytes, undecoded */
        if (!(t->flags & (SBX_TEXT_UNUSUAL | SBX_TEXT_ARGV)) && !might_cached(memo, s, sbx_text_raw(tl, e, t), sbx_text_len(t)))
            continue;
        size_t len;
        const char *cmd = sbx_text_get(tl, e, t, &scratch, &len);
        uint32_t kinds = sbx_risky_command(s, cmd, len, &why);
        for (size_t k = 0; kinds && k < sbx_nfindings; k++)
            if (kinds & sbx_findings[k].bit)
                add(&out, e, sbx_findings[k].bit, why.why[sbx_risky_slot(sbx_findings[k].bit)]);
    }
    hosts_diffs(tl, &out);
    if (out.n)
        qsort(out.f, out.n, sizeof *out.f, by_time);
    sum->risky = out.f;
    sum->nrisky = out.n;
    for (size_t i = 0; i < MIGHT_SLOTS; i++)
        sbx_line_key_free(&memo[i].key);
    free(memo);
    sbx_buf_free(&scratch);
    sbx_risky_scanner_free(s);
}
