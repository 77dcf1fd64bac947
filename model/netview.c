/* The network per host (the contract is in model/netview.h). Commands that
 * name a host are found in one pass over every command's text: the text is
 * cut into host-shaped words ([A-Za-z0-9._-]+, trailing dots dropped) and
 * each is looked up among the run's hosts; a host that is not such a word
 * (an IPv6 address) is looked for on its own. */
#include <stdlib.h>
#include <string.h>

#include "model/cmdlink.h"
#include "model/netview.h"

static bool host_char(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '_';
}

static unsigned char lower(unsigned char c)
{
    return c >= 'A' && c <= 'Z' ? (unsigned char)(c + 32) : c;
}

bool sbx_text_names_host(const char *text, size_t n, const char *host, size_t hlen)
{
    if (!hlen || hlen > n)
        return false;
    const unsigned char *s = (const unsigned char *)text, *h = (const unsigned char *)host;
    for (size_t i = 0; i + hlen <= n; i++) {
        if (lower(s[i]) != h[0])
            continue;
        size_t k = 1;
        while (k < hlen && lower(s[i + k]) == h[k])
            k++;
        if (k < hlen)
            continue;
        if (i > 0 && (host_char(s[i - 1]) || s[i - 1] == '.'))
            continue;
        size_t e = i + hlen;
        if (e < n && (host_char(s[e]) || (s[e] == '.' && e + 1 < n && host_char(s[e + 1]))))
            continue;
        return true;
    }
    return false;
}

/* ---- the hosts, by name ---- */

struct hostset {
    struct sbx_nethost *hosts;
    size_t n, cap;
    uint32_t *slots; /* index + 1, 0 empty */
    size_t nslots;
};

static uint64_t hash(const char *s, size_t n)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
    return h;
}

/* The index of host s[0..n) (lower case), or SIZE_MAX. */
static size_t lookup(const struct hostset *hs, const char *s, size_t n)
{
    if (!hs->nslots)
        return SIZE_MAX;
    for (size_t k = hash(s, n) & (hs->nslots - 1);; k = (k + 1) & (hs->nslots - 1)) {
        uint32_t v = hs->slots[k];
        if (!v)
            return SIZE_MAX;
        const char *h = hs->hosts[v - 1].host;
        if (strlen(h) == n && memcmp(h, s, n) == 0)
            return v - 1;
    }
}

static void rehash(struct hostset *hs)
{
    free(hs->slots);
    hs->nslots = 16;
    while (hs->nslots < 2 * hs->n + 2)
        hs->nslots *= 2;
    hs->slots = sbx_xcalloc(hs->nslots, sizeof *hs->slots);
    for (size_t i = 0; i < hs->n; i++) {
        const char *h = hs->hosts[i].host;
        size_t k = hash(h, strlen(h)) & (hs->nslots - 1);
        while (hs->slots[k])
            k = (k + 1) & (hs->nslots - 1);
        hs->slots[k] = (uint32_t)(i + 1);
    }
}

static size_t add_host(struct hostset *hs, const char *s, size_t n)
{
    char low[256];
    if (!n || n >= sizeof low)
        return SIZE_MAX;
    for (size_t i = 0; i < n; i++)
        low[i] = (char)lower((unsigned char)s[i]);
    size_t at = lookup(hs, low, n);
    if (at != SIZE_MAX)
        return at;
    SBX_GROW(hs->hosts, hs->n, hs->cap);
    hs->hosts[hs->n] = (struct sbx_nethost){.host = sbx_xstrndup(low, n), .bytes_in = -1,
                                            .bytes_out = -1, .first = SBX_TIME_UNKNOWN,
                                            .last = SBX_TIME_UNKNOWN};
    hs->n++;
    if (2 * hs->n + 2 > hs->nslots) {
        rehash(hs);
    } else {
        size_t k = hash(low, n) & (hs->nslots - 1);
        while (hs->slots[k])
            k = (k + 1) & (hs->nslots - 1);
        hs->slots[k] = (uint32_t)hs->n;
    }
    return hs->n - 1;
}

static void seen_at(struct sbx_nethost *h, int64_t first, int64_t last)
{
    if (first != SBX_TIME_UNKNOWN && (h->first == SBX_TIME_UNKNOWN || first < h->first))
        h->first = first;
    if (last == SBX_TIME_UNKNOWN)
        last = first;
    if (last != SBX_TIME_UNKNOWN && (h->last == SBX_TIME_UNKNOWN || last > h->last))
        h->last = last;
}

/* ---- which command touched which host ---- */

struct touch {
    size_t host;
    size_t pos;  /* the command's timeline position */
    bool named;  /* its text names the host (else: it ran during a request) */
};

struct touches {
    struct touch *t;
    size_t n, cap;
};

static void touch(struct touches *ts, size_t host, size_t pos, bool named)
{
    if (ts->n && ts->t[ts->n - 1].host == host && ts->t[ts->n - 1].pos == pos &&
        ts->t[ts->n - 1].named == named)
        return;
    SBX_GROW(ts->t, ts->n, ts->cap);
    ts->t[ts->n++] = (struct touch){host, pos, named};
}

static int touch_cmp(const void *x, const void *y)
{
    const struct touch *a = x, *b = y;
    if (a->host != b->host)
        return a->host < b->host ? -1 : 1;
    return a->pos < b->pos ? -1 : a->pos > b->pos;
}

/* The hosts a text names, each touched by the command at pos. */
static void scan_text(const struct hostset *hs, const char *s, size_t n, size_t pos,
                      struct touches *ts, const size_t *odd, size_t nodd)
{
    char low[256];
    for (size_t i = 0; i < n;) {
        unsigned char c = (unsigned char)s[i];
        if (!host_char(c) && c != '.') {
            i++;
            continue;
        }
        size_t b = i;
        while (i < n && (host_char((unsigned char)s[i]) || s[i] == '.'))
            i++;
        size_t e = i;
        while (e > b && s[e - 1] == '.')
            e--;
        if (e == b || e - b >= sizeof low || s[b] == '.')
            continue;
        for (size_t k = b; k < e; k++)
            low[k - b] = (char)lower((unsigned char)s[k]);
        size_t h = lookup(hs, low, e - b);
        if (h != SIZE_MAX)
            touch(ts, h, pos, true);
    }
    for (size_t k = 0; k < nodd; k++) {
        const char *h = hs->hosts[odd[k]].host;
        if (sbx_text_names_host(s, n, h, strlen(h)))
            touch(ts, odd[k], pos, true);
    }
}

static bool word_shaped(const char *h)
{
    for (const char *p = h; *p; p++)
        if (!host_char((unsigned char)*p) && *p != '.')
            return false;
    return h[0] && h[0] != '.' && h[strlen(h) - 1] != '.';
}

static int host_order(const void *x, const void *y)
{
    const struct sbx_nethost *a = x, *b = y;
    if (a->refused != b->refused)
        return a->refused ? -1 : 1;
    if (a->requests != b->requests)
        return a->requests > b->requests ? -1 : 1;
    return strcmp(a->host, b->host);
}

void sbx_netview_build(struct sbx_netview *nv, const struct sbx_timeline *tl,
                       const struct sbx_summary *sum)
{
    memset(nv, 0, sizeof *nv);
    struct hostset hs = {0};
    struct touches ts = {0};
    size_t nreq = 0;
    for (size_t i = 0; i < tl->n; i++) {
        const struct sbx_event *e = tl->order[i];
        if (e->kind != SBX_EV_NETWORK || !e->u.net.host)
            continue;
        const char *name = sbx_str(tl, e->u.net.host);
        size_t h = add_host(&hs, name, strlen(name));
        if (h == SIZE_MAX)
            continue;
        nreq++;
        const struct sbx_network *n = &e->u.net;
        struct sbx_nethost *nh = &hs.hosts[h];
        nh->requests++;
        nh->denied += (n->flags & SBX_NET_DENIED) != 0;
        nh->unreached += !(n->flags & SBX_NET_DENIED) && (n->flags & SBX_NET_UNREACHED);
        if (n->bytes_in >= 0)
            nh->bytes_in = (nh->bytes_in < 0 ? 0 : nh->bytes_in) + n->bytes_in;
        if (n->bytes_out >= 0) {
            nh->bytes_out = (nh->bytes_out < 0 ? 0 : nh->bytes_out) + n->bytes_out;
            nv->bytes_out_known = true;
        }
        seen_at(nh, e->start, e->end);
    }
    for (size_t i = 0; sum && i < sum->nrefused; i++) {
        const struct sbx_refusal *r = &sum->refused[i];
        size_t h = add_host(&hs, r->host, strlen(r->host));
        if (h == SIZE_MAX)
            continue;
        hs.hosts[h].refused = true;
        if (!r->pattern || strcmp(r->pattern, "proxy") != 0)
            hs.hosts[h].refusals += r->count;
    }
    for (size_t i = 0; sum && i < sum->hosts.n; i++)
        add_host(&hs, sum->hosts.s[i], strlen(sum->hosts.s[i]));

    /* (a) the command running when each proxy request was made */
    if (nreq) {
        struct sbx_cmdindex *ix = sbx_cmdindex_new(tl);
        for (size_t i = 0; i < tl->n; i++) {
            const struct sbx_event *e = tl->order[i];
            if (e->kind != SBX_EV_NETWORK || !e->u.net.host)
                continue;
            const struct sbx_event *c = sbx_cmdindex_during(ix, e);
            const char *name = sbx_str(tl, e->u.net.host);
            size_t h = lookup(&hs, name, strlen(name));
            if (!c || h == SIZE_MAX)
                continue;
            hs.hosts[h].linked++;
            touch(&ts, h, sbx_timeline_position(tl, c), false);
        }
        sbx_cmdindex_free(ix);
    }

    /* (b) the commands that name a host */
    size_t *odd = NULL, nodd = 0;
    for (size_t h = 0; h < hs.n; h++)
        if (!word_shaped(hs.hosts[h].host)) {
            odd = sbx_xrealloc(odd, (nodd + 1) * sizeof *odd);
            odd[nodd++] = h;
        }
    struct sbx_buf scratch = SBX_BUF_INIT;
    for (size_t i = 0; hs.n && i < tl->n; i++) {
        const struct sbx_event *e = tl->order[i];
        if (e->kind != SBX_EV_COMMAND || (e->u.cmd.flags & SBX_CMD_RECORD))
            continue;
        const struct sbx_text *fields[] = {&e->u.cmd.command, &e->u.cmd.out, &e->u.cmd.err};
        for (int f = 0; f < 3; f++) {
            if (!(fields[f]->flags & SBX_TEXT_PRESENT) || !fields[f]->len)
                continue;
            size_t n;
            const char *s = sbx_text_get(tl, e, fields[f], &scratch, &n);
            scan_text(&hs, s, n, i, &ts, odd, nodd);
        }
    }
    sbx_buf_free(&scratch);
    free(odd);

    /* each host's commands, in timeline order, each once; a host the proxy
       never saw shows from the first command that named it to the last */
    if (ts.n)
        qsort(ts.t, ts.n, sizeof *ts.t, touch_cmp);
    for (size_t k = 0; k < ts.n;) {
        size_t j = k;
        while (j < ts.n && ts.t[j].host == ts.t[k].host)
            j++;
        struct sbx_nethost *nh = &hs.hosts[ts.t[k].host];
        nh->commands = sbx_xmalloc((j - k) * sizeof *nh->commands);
        for (size_t m = k; m < j; m++) {
            if (m > k && ts.t[m].pos == ts.t[m - 1].pos)
                continue;
            const struct sbx_event *c = tl->order[ts.t[m].pos];
            nh->commands[nh->ncommands++] = c;
            bool named = false;
            for (size_t q = m; q < j && ts.t[q].pos == ts.t[m].pos; q++)
                named |= ts.t[q].named;
            nh->named += named;
            if (named && !nh->requests)
                seen_at(nh, c->start, c->end);
        }
        k = j;
    }
    free(ts.t);
    free(hs.slots);
    for (size_t h = 0; h < hs.n; h++) {
        hs.hosts[h].refused |= hs.hosts[h].denied > 0;
        nv->refused += hs.hosts[h].refused;
    }
    if (hs.n)
        qsort(hs.hosts, hs.n, sizeof *hs.hosts, host_order);
    nv->hosts = hs.hosts;
    nv->n = hs.n;
    nv->requests = nreq;
}

void sbx_netview_free(struct sbx_netview *nv)
{
    for (size_t i = 0; i < nv->n; i++) {
        free(nv->hosts[i].host);
        free(nv->hosts[i].commands);
    }
    free(nv->hosts);
    memset(nv, 0, sizeof *nv);
}

const struct sbx_nethost *sbx_netview_find(const struct sbx_netview *nv, const char *host)
{
    for (size_t i = 0; i < nv->n; i++)
        if (strcmp(nv->hosts[i].host, host) == 0)
            return &nv->hosts[i];
    return NULL;
}
