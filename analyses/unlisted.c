/* Hosts the allow list lacks: the proxy's requests checked here, the hosts
 * in output and command lines checked by the content analysis; all of them
 * merged into one entry per host with its count and earliest event. */
#include <stdlib.h>
#include <string.h>

#include "analyses/allowlist.h"
#include "analyses/analyses.h"

void sbx_unlisted_hit_add(struct sbx_unlisted_hits *hits, const char *host, size_t len,
                          size_t order, struct sbx_event *e)
{
    SBX_GROW(hits->h, hits->n, hits->cap);
    hits->h[hits->n++] = (struct sbx_unlisted_hit){sbx_xstrndup(host, len), order, e, 1};
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

/* The proxy's requests: each host checked once (by its string id), and
 * one hit per host that stands for all its requests. */
struct host_seen {
    unsigned char verdict; /* 0 not yet, 1 allowed, 2 not */
    size_t first, events;  /* position of its first request, how many */
};

static void check_network(struct sbx_timeline *tl, const struct sbx_allowlist *allow,
                          struct sbx_unlisted_hits *hits)
{
    struct host_seen *seen = NULL;
    uint32_t *unlisted = NULL; /* host ids, in order of their first request */
    size_t nunlisted = 0, cap = 0;
    for (size_t i = 0; i < tl->n; i++) {
        struct sbx_event *e = sbx_tl_at(tl, i);
        if (e->kind != SBX_EV_NETWORK || !e->u.net.host)
            continue;
        if (!seen)
            seen = sbx_xcalloc(tl->strings.n ? tl->strings.n : 1, sizeof *seen);
        uint32_t id = e->u.net.host;
        struct host_seen *h = &seen[id];
        if (!h->verdict) {
            const char *host = sbx_str(tl, id);
            h->verdict = sbx_allowlist_allows(allow, host, strlen(host)) ? 1 : 2;
            h->first = i;
            if (h->verdict == 2) {
                SBX_GROW(unlisted, nunlisted, cap);
                unlisted[nunlisted++] = id;
            }
        }
        if (h->verdict == 2) {
            h->events++;
            e->findings |= SBX_F_UNLISTED_HOST;
        }
    }
    for (size_t k = 0; k < nunlisted; k++) {
        const struct host_seen *h = &seen[unlisted[k]];
        const char *host = sbx_str(tl, unlisted[k]);
        SBX_GROW(hits->h, hits->n, hits->cap);
        hits->h[hits->n++] = (struct sbx_unlisted_hit){sbx_xstrndup(host, strlen(host)), h->first,
                                                       sbx_tl_at(tl, h->first), h->events};
    }
    free(unlisted);
    free(seen);
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
                last->events += h->events;
            free(h->host);
            continue;
        }
        SBX_GROW(sum->unlisted, sum->nunlisted, cap);
        sum->unlisted[sum->nunlisted++] = (struct sbx_unlisted){h->host, h->events, h->event};
    }
    if (sum->nunlisted)
        qsort(sum->unlisted, sum->nunlisted, sizeof *sum->unlisted, by_first);
    free(hits->h);
    memset(hits, 0, sizeof *hits);
}
