#include "analyses/summary.h"

#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analyses/analyses.h"
#include "analyses/cmdlink.h"
#include "analyses/hostindex.h"
#include "analyses/secrets/secrets.h"

/* Room for one more string: capacity is the next power of two at or above
 * n, so no separate field. */
static void strlist_grow(struct sbx_strlist *l)
{
    if ((l->n & (l->n - 1)) == 0)
        l->s = sbx_xrealloc(l->s, (l->n ? l->n * 2 : 1) * sizeof *l->s);
}

void sbx_strlist_add(struct sbx_strlist *l, const char *s, size_t n)
{
    assert(!l->kept);
    strlist_grow(l);
    l->s[l->n++] = sbx_xstrndup(s, n);
}

void sbx_strlist_keep(struct sbx_strlist *l, const char *s)
{
    assert(l->kept || !l->n);
    l->kept = true;
    strlist_grow(l);
    l->s[l->n++] = (char *)s; /* never written through nor freed: kept */
}

static int str_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

void sbx_strlist_finish(struct sbx_strlist *l)
{
    if (!l->n)
        return;
    qsort(l->s, l->n, sizeof *l->s, str_cmp);
    size_t k = 1;
    for (size_t i = 1; i < l->n; i++) {
        if (strcmp(l->s[i], l->s[k - 1]) != 0)
            l->s[k++] = l->s[i];
        else if (!l->kept)
            free(l->s[i]);
    }
    l->n = k;
}

void sbx_strlist_free(struct sbx_strlist *l)
{
    for (size_t i = 0; i < l->n && !l->kept; i++)
        free(l->s[i]);
    free(l->s);
    l->s = NULL;
    l->n = 0;
    l->kept = false;
}

/* Hosts the run reached: named or proxied, minus those that were refused. */
static void drop_refused_hosts(struct sbx_summary *sum)
{
    struct sbx_hostindex refused_hosts = SBX_HOSTINDEX_INIT;
    for (size_t r = 0; r < sum->nrefused; r++)
        sbx_hostindex_put(&refused_hosts, sum->refused[r].host, strlen(sum->refused[r].host), r);
    size_t k = 0;
    for (size_t i = 0; i < sum->hosts.n; i++) {
        const char *h = sum->hosts.s[i];
        bool refused = sbx_hostindex_find(&refused_hosts, h, strlen(h)) != SIZE_MAX;
        if (refused)
            free(sum->hosts.s[i]);
        else
            sum->hosts.s[k++] = sum->hosts.s[i];
    }
    sum->hosts.n = k;
    sbx_hostindex_free(&refused_hosts);
}

static void collect_hash_mismatches(const struct sbx_timeline *tl, struct sbx_summary *sum)
{
    size_t cap = 0;
    for (size_t i = 0; i < tl->n; i++) {
        const struct sbx_event *e = sbx_tl_at(tl, i);
        if (!(e->findings & SBX_F_HASH_MISMATCH) || sbx_witness_is_second(&sum->witness, e))
            continue;
        SBX_GROW(sum->hash_mismatches, sum->nhash_mismatches, cap);
        sum->hash_mismatches[sum->nhash_mismatches++] = e;
    }
}

static void copy_unread(struct sbx_summary *sum, const struct sbx_summary_opts *opts)
{
    if (!opts || !opts->nunread)
        return;
    sum->unread = sbx_xcalloc(opts->nunread, sizeof *sum->unread);
    for (size_t i = 0; i < opts->nunread; i++) {
        const struct sbx_unread *u = &opts->unread[i];
        sum->unread[i] = (struct sbx_unread){sbx_xstrndup(u->path, strlen(u->path)),
                                             sbx_xstrndup(u->reason, strlen(u->reason)),
                                             u->in_folder};
    }
    sum->nunread = opts->nunread;
}

bool sbx_summarize(struct sbx_timeline *tl, const struct sbx_summary_opts *opts,
                   struct sbx_summary *sum, char *err, size_t errsz)
{
    memset(sum, 0, sizeof *sum);
    const struct sbx_allowlist *allow = opts ? opts->allow : NULL;
    struct sbx_unlisted_hits hits = {0};
    /* one clock first: every analysis after it reads the wrapper's times */
    sbx_crosscheck_align(tl, opts ? opts->skews : NULL, opts ? opts->nskews : 0, &sum->cross);
    sbx_witness_run(tl, &sum->witness);
    sbx_proxy_clocks_run(tl, &sum->proxy_clocks);
    sbx_analyze_span(tl, sum);
    sbx_analyze_commands(tl, sum);
    sbx_analyze_records(tl, sum);
    sbx_analyze_spans(tl, sum);
    sbx_analyze_files(tl, sum);
    sbx_written_run(tl, &sum->witness, &sum->written);
    if (!sbx_analyze_content(tl, sum, opts ? opts->threads : 0, allow, &hits, err, errsz)) {
        sbx_summary_free(sum);
        return false;
    }
    collect_hash_mismatches(tl, sum);
    sbx_analyze_network(tl, sum);
    sbx_analyze_denials(tl, sum);
    sbx_analyze_fields(tl);
    sbx_analyze_risky(tl, sum);
    if (allow) {
        sum->allow_list = true;
        sbx_analyze_unlisted(tl, sum, allow, &hits);
    }
    drop_refused_hosts(sum);
    if (!sbx_analyze_chain(tl, sum, err, errsz)) {
        sbx_summary_free(sum);
        return false;
    }
    sum->checkable = sbx_summary_checkable(tl, sum);
    copy_unread(sum, opts);
    return true;
}

void sbx_summary_free(struct sbx_summary *sum)
{
    free(sum->sandboxes);
    free(sum->failed_by);
    for (int c = 0; c < SBX_CHANGE_COUNT; c++) {
        sbx_strlist_free(&sum->files[c]);
        sbx_strlist_free(&sum->system[c]);
    }
    sbx_strlist_free(&sum->system_roots);
    sbx_written_free(&sum->written);
    sbx_strlist_free(&sum->hosts);
    for (size_t i = 0; i < sum->nrefused; i++) {
        free(sum->refused[i].host);
        free(sum->refused[i].evidence);
    }
    free(sum->refused);
    free(sum->denials);
    for (size_t i = 0; i < sum->nunlisted; i++)
        free(sum->unlisted[i].host);
    free(sum->unlisted);
    for (size_t i = 0; i < sum->nrisky; i++)
        free(sum->risky[i].why);
    free(sum->risky);
    for (size_t i = 0; i < sum->nunread; i++) {
        free(sum->unread[i].path);
        free(sum->unread[i].reason);
    }
    free(sum->unread);
    free(sum->secrets);
    free(sum->hash_mismatches);
    sbx_secrets_free(sum->patterns);
    sbx_crosscheck_free(&sum->cross);
    free(sum->gaps);
    sbx_witness_free(&sum->witness);
    sbx_proxy_clocks_free(&sum->proxy_clocks);
    free(sum->account);
    free(sum->proxy_hosts);
    sbx_strlist_free(&sum->stop_reasons);
    sbx_spans_free(&sum->spans);
    sbx_strlist_free(&sum->traces.agents);
    sbx_story_free(&sum->story);
    sbx_cmdindex_free(sum->cmds);
    memset(sum, 0, sizeof *sum);
}

size_t sbx_summary_distinct_secrets(const struct sbx_summary *s)
{
    if (s->nsecrets > 1000) /* quadratic below: past this, places will do */
        return s->nsecrets;
    size_t n = 0;
    for (size_t i = 0; i < s->nsecrets; i++) {
        bool seen = false;
        for (size_t j = 0; j < i && !seen; j++)
            seen = s->secrets[j].kind == s->secrets[i].kind &&
                   strcmp(s->secrets[j].sample, s->secrets[i].sample) == 0;
        n += !seen;
    }
    return n;
}
