/* The network per host (the contract is in analyses/netview.h). Commands that
 * name a host are found in one pass over every command's text: the text is
 * cut into host-shaped words ([A-Za-z0-9._-]+, trailing dots dropped) and
 * each is looked up among the run's hosts; a host that is not such a word
 * (an IPv6 address) is looked for on its own. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyses/cmdlink.h"
#include "analyses/netview.h"
#include "base/fnv.h"

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
    /* a quick no: the (first, last) byte pairs and the lengths of the hosts */
    uint64_t ends[256 * 256 / 64];
    uint64_t lens[4];
};

static bool maybe_host(const struct hostset *hs, const char *low, size_t n)
{
    unsigned pair = (unsigned char)low[0] << 8 | (unsigned char)low[n - 1];
    return (hs->lens[n / 64] >> (n % 64) & 1) && (hs->ends[pair / 64] >> (pair % 64) & 1);
}

static uint64_t hash(const char *s, size_t n)
{
    return sbx_fnv1a(SBX_FNV_BASIS, s, n);
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
    unsigned pair = (unsigned char)low[0] << 8 | (unsigned char)low[n - 1];
    hs->ends[pair / 64] |= 1ull << (pair % 64);
    hs->lens[n / 64] |= 1ull << (n % 64);
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

/* Byte classes for the word scan: 0 between words, 1 a host character,
 * 2 a dot, 3 a backslash (in raw JSON: it and the character after it are
 * an escape, between words). */
static const unsigned char cls[256] = {
    ['-'] = 1, ['_'] = 1, ['.'] = 2, ['\\'] = 3,
    ['0'] = 1, ['1'] = 1, ['2'] = 1, ['3'] = 1, ['4'] = 1, ['5'] = 1, ['6'] = 1, ['7'] = 1,
    ['8'] = 1, ['9'] = 1,
    ['a'] = 1, ['b'] = 1, ['c'] = 1, ['d'] = 1, ['e'] = 1, ['f'] = 1, ['g'] = 1, ['h'] = 1,
    ['i'] = 1, ['j'] = 1, ['k'] = 1, ['l'] = 1, ['m'] = 1, ['n'] = 1, ['o'] = 1, ['p'] = 1,
    ['q'] = 1, ['r'] = 1, ['s'] = 1, ['t'] = 1, ['u'] = 1, ['v'] = 1, ['w'] = 1, ['x'] = 1,
    ['y'] = 1, ['z'] = 1,
    ['A'] = 1, ['B'] = 1, ['C'] = 1, ['D'] = 1, ['E'] = 1, ['F'] = 1, ['G'] = 1, ['H'] = 1,
    ['I'] = 1, ['J'] = 1, ['K'] = 1, ['L'] = 1, ['M'] = 1, ['N'] = 1, ['O'] = 1, ['P'] = 1,
    ['Q'] = 1, ['R'] = 1, ['S'] = 1, ['T'] = 1, ['U'] = 1, ['V'] = 1, ['W'] = 1, ['X'] = 1,
    ['Y'] = 1, ['Z'] = 1,
};

/* Whether a JSON string body holds a \u escape of a printable ASCII
 * character (\u0020 to \u007f). Escapes are taken in pairs from each
 * backslash (memchr finds them), so an escaped backslash before a "u" is
 * none. */
static bool ascii_escape(const char *s, size_t n)
{
    for (const char *p = s, *end = s + n; (p = memchr(p, '\\', (size_t)(end - p))); p += 2)
        if (end - p >= 6 && p[1] == 'u' && p[2] == '0' && p[3] == '0' && p[4] >= '2' && p[4] <= '7')
            return true;
    return false;
}

/* Looks up the word [b, e) (dots at either end dropped). */
static void look_word(const struct hostset *hs, const unsigned char *b, const unsigned char *e,
                      size_t pos, struct touches *ts)
{
    char low[256];
    while (b < e && *b == '.')
        b++;
    while (e > b && e[-1] == '.')
        e--;
    size_t len = (size_t)(e - b);
    if (!len || len >= sizeof low)
        return;
    low[0] = (char)lower(b[0]);
    low[len - 1] = (char)lower(e[-1]);
    if (!maybe_host(hs, low, len))
        return;
    for (size_t i = 1; i + 1 < len; i++)
        low[i] = (char)lower(b[i]);
    size_t h = lookup(hs, low, len);
    if (h != SIZE_MAX)
        touch(ts, h, pos, true);
}

/* A word glued to a colour escape ("ESC[32mpypi.org", the ESC perhaps
 * still "\\u001b"): where it starts past the escape's parameters and final
 * letter; b when there is none. */
static const unsigned char *past_csi(const unsigned char *start, const unsigned char *b,
                                     const unsigned char *e)
{
    const unsigned char *q = b;
    while (q > start && ((q[-1] >= '0' && q[-1] <= '9') || q[-1] == ';'))
        q--;
    if (q == start || q[-1] != '[')
        return b;
    q--;
    bool esc = (q > start && q[-1] == 0x1b) ||
               (q - start >= 6 && memcmp(q - 6, "\\u001b", 6) == 0);
    if (!esc)
        return b;
    const unsigned char *p = b;
    while (p < e && *p >= '0' && *p <= '9')
        p++;
    return p < e && ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')) ? p + 1 : b;
}

/* The words of s[0..n) that hold a dot, each looked up (memchr finds the
 * dots: text without one costs little). In raw JSON, a word right after an escape
 * (\\n, \\u001b) starts after it. */
static void scan_dotted(const struct hostset *hs, const char *s, size_t n, bool raw, size_t pos,
                        struct touches *ts)
{
    const unsigned char *start = (const unsigned char *)s, *p = start, *end = start + n;
    while (p < end) {
        const unsigned char *d = memchr(p, '.', (size_t)(end - p));
        if (!d)
            return;
        const unsigned char *b = d, *e = d + 1;
        while (b > p && (cls[b[-1]] == 1 || cls[b[-1]] == 2))
            b--;
        while (e < end && (cls[*e] == 1 || cls[*e] == 2))
            e++;
        p = e;
        if (raw && b > start && b[-1] == '\\') {
            size_t slashes = 0;
            for (const unsigned char *q = b; q > start && q[-1] == '\\'; q--)
                slashes++;
            if (slashes % 2)
                b += *b == 'u' ? 5 : 1;
            if (b > e)
                b = e;
        }
        look_word(hs, past_csi(start, b, e), e, pos, ts);
    }
}

/* Whether the host character before s[i] is the last of a JSON escape
 * (the n of \\n, the b of \\u001b). */
static bool after_escape(const unsigned char *s, size_t i)
{
    size_t at; /* the backslash that would start the escape */
    if (i >= 2 && s[i - 2] == '\\')
        at = i - 2;
    else if (i >= 6 && s[i - 6] == '\\' && s[i - 5] == 'u')
        at = i - 6;
    else
        return false;
    size_t slashes = 0; /* an odd run of them: the last one is not escaped */
    for (size_t j = at + 1; j > 0 && s[j - 1] == '\\'; j--)
        slashes++;
    return slashes % 2 == 1;
}

/* Whether s[0..n) names host h (lower case, host characters only: no dot)
 * as a whole word, written in lower case or in upper case (memmem finds
 * those; a word with no dot would make every letter a candidate);
 * raw: s is a JSON string body. */
static bool names_word(const char *text, size_t n, const char *h, size_t hl, bool raw)
{
    char up[256];
    if (hl >= sizeof up)
        return false;
    for (size_t i = 0; i < hl; i++)
        up[i] = h[i] >= 'a' && h[i] <= 'z' ? (char)(h[i] - 32) : h[i];
    const unsigned char *s = (const unsigned char *)text;
    for (int pass = 0; pass < 2; pass++) {
        const char *want = pass ? up : h;
        for (size_t i = 0; i + hl <= n;) {
            const unsigned char *q = memmem(s + i, n - i, want, hl);
            if (!q)
                break;
            size_t at = (size_t)(q - s), e = at + hl;
            i = at + 1;
            if (at > 0 && cls[s[at - 1]] && cls[s[at - 1]] != 3 && !(raw && after_escape(s, at)))
                continue;
            if (e < n && (cls[s[e]] == 1 || (s[e] == '.' && e + 1 < n && cls[s[e + 1]] == 1)))
                continue;
            return true;
        }
        if (memcmp(up, h, hl) == 0)
            break;
    }
    return false;
}

/* The hosts a command's text field names, each touched by the command at pos. */
static void scan_field(const struct hostset *hs, const struct sbx_timeline *tl,
                       const struct sbx_event *e, const struct sbx_text *t, size_t pos,
                       struct touches *ts, const size_t *odd, size_t nodd, const size_t *bare,
                       size_t nbare, struct sbx_buf *scratch)
{
    const char *raw = sbx_text_raw(tl, e, t);
    /* escaped text is scanned as it is unless a \u escape could make a host
       character (\u0020 to \u007f): then decoded */
    const char *s = raw;
    size_t n = sbx_text_len(t);
    bool escaped = t->flags & SBX_TEXT_ESCAPED;
    if (nodd || (escaped && ascii_escape(raw, sbx_text_len(t)))) {
        s = sbx_text_get(tl, e, t, scratch, &n);
        escaped = false;
    }
    scan_dotted(hs, s, n, escaped, pos, ts);
    for (size_t k = 0; k < nbare; k++) {
        const char *h = hs->hosts[bare[k]].host;
        if (names_word(s, n, h, strlen(h), escaped))
            touch(ts, bare[k], pos, true);
    }
    for (size_t k = 0; k < nodd; k++) {
        const char *h = hs->hosts[odd[k]].host;
        if (sbx_text_names_host(s, n, h, strlen(h)))
            touch(ts, odd[k], pos, true);
    }
}

/* One thread's share of the commands: positions [from, to) of the timeline. */
struct scanner {
    const struct hostset *hs;
    const struct sbx_timeline *tl;
    const size_t *odd;
    size_t nodd;
    const size_t *bare; /* hosts without a dot (localhost) */
    size_t nbare;
    size_t from, to;
    struct touches ts;
};

static void *scan_commands(void *arg)
{
    struct scanner *sc = arg;
    struct sbx_buf scratch = SBX_BUF_INIT;
    for (size_t i = sc->from; i < sc->to; i++) {
        const struct sbx_event *e = sbx_tl_at(sc->tl, i);
        if (e->kind != SBX_EV_COMMAND || (e->u.cmd.flags & SBX_CMD_RECORD))
            continue;
        const struct sbx_text err = sbx_cmd_err(&e->u.cmd);
        const struct sbx_text *fields[] = {&e->u.cmd.command, &e->u.cmd.out, &err};
        for (int f = 0; f < 3; f++)
            if ((fields[f]->flags & SBX_TEXT_PRESENT) && sbx_text_len(fields[f]))
                scan_field(sc->hs, sc->tl, e, fields[f], i, &sc->ts, sc->odd, sc->nodd, sc->bare,
                           sc->nbare, &scratch);
    }
    sbx_buf_free(&scratch);
    return NULL;
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
    if (a->unlisted != b->unlisted)
        return a->unlisted ? -1 : 1;
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
        const struct sbx_event *e = sbx_tl_at(tl, i);
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
    for (size_t i = 0; sum && i < sum->nunlisted; i++) {
        size_t h = add_host(&hs, sum->unlisted[i].host, strlen(sum->unlisted[i].host));
        if (h != SIZE_MAX)
            hs.hosts[h].unlisted = true;
    }

    /* (a) the command running when each proxy request was made */
    if (nreq) {
        struct sbx_cmdindex *ix = sbx_cmdindex_new(tl);
        for (size_t i = 0; i < tl->n; i++) {
            const struct sbx_event *e = sbx_tl_at(tl, i);
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
    size_t *odd = NULL, nodd = 0, *bare = NULL, nbare = 0;
    for (size_t h = 0; h < hs.n; h++) {
        if (!word_shaped(hs.hosts[h].host)) {
            odd = sbx_xrealloc(odd, (nodd + 1) * sizeof *odd);
            odd[nodd++] = h;
        } else if (!strchr(hs.hosts[h].host, '.')) {
            bare = sbx_xrealloc(bare, (nbare + 1) * sizeof *bare);
            bare[nbare++] = h;
        }
    }
    if (hs.n) {
        long cpus = sysconf(_SC_NPROCESSORS_ONLN);
        int threads = tl->n < 4096 || cpus < 2 ? 1 : cpus > 8 ? 8 : (int)cpus;
        struct scanner sc[8];
        pthread_t tids[8];
        bool started[8] = {false};
        for (int k = 0; k < threads; k++) {
            sc[k] = (struct scanner){.hs = &hs, .tl = tl, .odd = odd, .nodd = nodd, .bare = bare,
                                     .nbare = nbare,
                                     .from = tl->n * (size_t)k / (size_t)threads,
                                     .to = tl->n * (size_t)(k + 1) / (size_t)threads};
            if (k > 0)
                started[k] = pthread_create(&tids[k], NULL, scan_commands, &sc[k]) == 0;
        }
        scan_commands(&sc[0]);
        for (int k = 1; k < threads; k++) {
            if (started[k])
                pthread_join(tids[k], NULL);
            else
                scan_commands(&sc[k]);
        }
        for (int k = 0; k < threads; k++) {
            for (size_t m = 0; m < sc[k].ts.n; m++)
                touch(&ts, sc[k].ts.t[m].host, sc[k].ts.t[m].pos, true);
            free(sc[k].ts.t);
        }
    }
    free(odd);
    free(bare);

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
            const struct sbx_event *c = sbx_tl_at(tl, ts.t[m].pos);
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
        nv->unlisted += hs.hosts[h].unlisted;
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
