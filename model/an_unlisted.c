/* Hosts the allow list lacks: the proxy's requests checked here, the hosts
 * in output and command lines checked by the content analysis; all of them
 * merged into one entry per host with its count and earliest event. */
#include <stdlib.h>
#include <string.h>

#include "model/allowlist.h"
#include "model/analyses.h"

void sbx_unlisted_hit_add(struct sbx_unlisted_hits *hits, const char *host, size_t len,
                          size_t order, struct sbx_event *e)
{
    SBX_GROW(hits->h, hits->n, hits->cap);
    hits->h[hits->n++] = (struct sbx_unlisted_hit){sbx_xstrndup(host, len), order, e};
    e->findings |= SBX_F_UNLISTED_HOST;
}

static int by_host_then_order(const void *a, const void *b)
{
    const struct sbx_unlisted_hit *x = a, *y = b;
    int c = strcmp(x->host, y->host);
    if (c)
        return c;
    return x->order < y->order ? -1 : x->order > y->order;
}

static int by_first(const void *a, const void *b)
{
    const struct sbx_unlisted *x = a, *y = b;
    int c = sbx_event_cmp(x->first, y->first);
    return c ? c : strcmp(x->host, y->host);
}

/* The proxy's requests: each host checked once (by its string id). */
static void check_network(struct sbx_timeline *tl, const struct sbx_allowlist *allow,
                          struct sbx_unlisted_hits *hits)
{
    unsigned char *verdict = NULL; /* per string id: 0 not yet, 1 allowed, 2 not */
    for (size_t i = 0; i < tl->n; i++) {
        struct sbx_event *e = tl->order[i];
        if (e->kind != SBX_EV_NETWORK || !e->u.net.host)
            continue;
        if (!verdict)
            verdict = sbx_xcalloc(tl->strings.n ? tl->strings.n : 1, 1);
        uint32_t id = e->u.net.host;
        const char *host = sbx_str(tl, id);
        if (!verdict[id])
            verdict[id] = sbx_allowlist_allows(allow, host, strlen(host)) ? 1 : 2;
        if (verdict[id] == 2)
            sbx_unlisted_hit_add(hits, host, strlen(host), i, e);
    }
    free(verdict);
}

void sbx_analyze_unlisted(struct sbx_timeline *tl, struct sbx_summary *sum,
                          const struct sbx_allowlist *allow, struct sbx_unlisted_hits *hits)
{
    check_network(tl, allow, hits);
    if (hits->n)
        qsort(hits->h, hits->n, sizeof *hits->h, by_host_then_order);
    size_t cap = 0;
    for (size_t i = 0; i < hits->n; i++) {
        struct sbx_unlisted_hit *h = &hits->h[i];
        struct sbx_unlisted *last = sum->nunlisted ? &sum->unlisted[sum->nunlisted - 1] : NULL;
        if (last && strcmp(last->host, h->host) == 0) {
            /* one event may show a host twice (a refusal and a URL): count it once */
            if (h->order != hits->h[i - 1].order)
                last->events++;
            free(h->host);
            continue;
        }
        SBX_GROW(sum->unlisted, sum->nunlisted, cap);
        sum->unlisted[sum->nunlisted++] = (struct sbx_unlisted){h->host, 1, h->event};
    }
    if (sum->nunlisted)
        qsort(sum->unlisted, sum->nunlisted, sizeof *sum->unlisted, by_first);
    free(hits->h);
    memset(hits, 0, sizeof *hits);
}
