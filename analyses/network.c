/* The egress proxy's requests: per host, how many, how many denied or not
 * reached, and the bytes; a denial (SBX_NET_DENIED) is a refused host like
 * one a client's error message shows, with the request as its evidence,
 * and its event's SBX_F_REFUSED_HOST. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyses/analyses.h"
#include "analyses/hostindex.h"

static int most_requests(const void *x, const void *y, void *tl)
{
    const struct sbx_host_stat *a = x, *b = y;
    if (a->requests != b->requests)
        return a->requests > b->requests ? -1 : 1;
    return strcmp(sbx_str(tl, a->host), sbx_str(tl, b->host));
}

static int by_first(const void *x, const void *y)
{
    const struct sbx_refusal *a = x, *b = y;
    if (a->first != b->first)
        return a->first < b->first ? -1 : 1;
    return strcmp(a->host, b->host);
}

/* "TCP_DENIED/403 CONNECT paste.example.com:443": what the proxy logged. */
static char *evidence_of(const struct sbx_timeline *tl, const struct sbx_event *e)
{
    const struct sbx_network *n = &e->u.net;
    struct sbx_buf url = SBX_BUF_INIT, out = SBX_BUF_INIT;
    size_t len;
    const char *u = sbx_text_get(tl, e, &n->url, &url, &len);
    const char *result = sbx_str(tl, n->result);
    sbx_buf_addf(&out, "proxy: %s%s%d %s %.*s", result, result[0] ? "/" : "", (int)n->status,
                 sbx_str(tl, n->method), (int)(len > 512 ? 512 : len), u);
    sbx_buf_free(&url);
    return out.p;
}

/* The refusal of e's host in sum->refused (a new one if none): its index.
 * Found by name, since other analyses refuse hosts too, through byname (an
 * index of every refusal's host); the caller remembers the index per host
 * id. */
static size_t refusal_of(struct sbx_timeline *tl, struct sbx_summary *sum,
                         const struct sbx_event *e, size_t *cap, struct sbx_hostindex *byname)
{
    const char *host = sbx_str(tl, e->u.net.host);
    size_t at = sbx_hostindex_find(byname, host, strlen(host));
    if (at != SIZE_MAX)
        return at;
    if (sum->nrefused == *cap) {
        *cap = *cap ? *cap * 2 : 8;
        sum->refused = sbx_xrealloc(sum->refused, *cap * sizeof *sum->refused);
    }
    sum->refused[sum->nrefused] = (struct sbx_refusal){
        sbx_xstrndup(host, strlen(host)), 0, SBX_TIME_UNKNOWN, e, evidence_of(tl, e), "proxy"};
    sbx_hostindex_put(byname, sum->refused[sum->nrefused].host, strlen(host), sum->nrefused);
    return sum->nrefused++;
}

static void refuse(struct sbx_timeline *tl, struct sbx_refusal *r, const struct sbx_event *e)
{
    if (r->count++ == 0) {
        r->first = e->start;
        return;
    }
    if (e->start != SBX_TIME_UNKNOWN && e->start < r->first) {
        r->first = e->start;
        r->event = e;
        free(r->evidence);
        r->evidence = evidence_of(tl, e);
        r->pattern = "proxy";
    }
}

/* What is known of one host id while the events go by. */
struct host_slot {
    size_t stat;    /* index + 1 into proxy_hosts; 0: not seen yet */
    size_t refusal; /* index + 1 into refused; 0: not refused yet */
    bool reached;   /* already in sum->hosts */
};

void sbx_analyze_network(struct sbx_timeline *tl, struct sbx_summary *sum)
{
    uint32_t nids = tl->strings.n;
    struct host_slot *slot = NULL; /* by host id */
    size_t cap = 0, refused_cap = sum->nrefused;
    struct sbx_hostindex byname = SBX_HOSTINDEX_INIT; /* the refusals other analyses made */
    for (size_t i = 0; i < sum->nrefused; i++)
        sbx_hostindex_put(&byname, sum->refused[i].host, strlen(sum->refused[i].host), i);
    for (size_t i = 0; i < tl->n; i++) {
        struct sbx_event *e = sbx_tl_at(tl, i);
        sbx_prefetch_ahead(tl, i);
        if (e->kind != SBX_EV_NETWORK)
            continue;
        if (e->u.net.flags & SBX_NET_DENIED)
            e->findings |= SBX_F_REFUSED_HOST;
        if (!e->u.net.host)
            continue;
        if (!slot)
            slot = sbx_xcalloc(nids ? nids : 1, sizeof *slot);
        const struct sbx_network *n = &e->u.net;
        struct host_slot *s = &slot[n->host];
        if (!s->stat) {
            SBX_GROW(sum->proxy_hosts, sum->nproxy_hosts, cap);
            sum->proxy_hosts[sum->nproxy_hosts++] = (struct sbx_host_stat){n->host, 0, 0, 0, 0};
            s->stat = sum->nproxy_hosts;
        }
        struct sbx_host_stat *h = &sum->proxy_hosts[s->stat - 1];
        h->requests++;
        if (n->bytes_in > 0)
            h->bytes_in += n->bytes_in;
        if (n->flags & SBX_NET_DENIED) {
            h->denied++;
            if (!s->refusal)
                s->refusal = refusal_of(tl, sum, e, &refused_cap, &byname) + 1;
            refuse(tl, &sum->refused[s->refusal - 1], e);
        } else if (n->flags & SBX_NET_UNREACHED) {
            h->unreached++;
        } else if (!s->reached) {
            const char *host = sbx_str(tl, n->host);
            sbx_strlist_add(&sum->hosts, host, strlen(host));
            s->reached = true;
        }
    }
    free(slot);
    sbx_hostindex_free(&byname);
    if (sum->nproxy_hosts)
        qsort_r(sum->proxy_hosts, sum->nproxy_hosts, sizeof *sum->proxy_hosts, most_requests, tl);
    if (sum->nrefused)
        qsort(sum->refused, sum->nrefused, sizeof *sum->refused, by_first);
    sbx_strlist_finish(&sum->hosts);
}
