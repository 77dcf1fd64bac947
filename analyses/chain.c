/* The story: findings in time order and the links between them (the rules
 * are in analyses/chain.h). */
#include "analyses/chain.h"

#include <stdlib.h>
#include <string.h>

#include "analyses/audit_change.h"
#include "analyses/cmdlink.h"
#include "analyses/hostindex.h"
#include "analyses/refusals.h"
#include "analyses/summary.h"
#include "base/timefmt.h"

enum {
    LINKS_MAX = 16,   /* links one item lists; the rest are counted */
    REACHED_MAX = 16, /* events one widening makes items of; the rest are counted */
};

/* audit entries this close to the run are in its window */
static const int64_t WINDOW_NS = 5 * 60 * 1000000000LL;

static const char *const link_names[] = {
#define SBX_LINK_NAME(id, name, words) name,
    SBX_LINKS(SBX_LINK_NAME)
#undef SBX_LINK_NAME
};
static const char *const link_words[] = {
#define SBX_LINK_WORDS(id, name, words) words,
    SBX_LINKS(SBX_LINK_WORDS)
#undef SBX_LINK_WORDS
};

const char *sbx_link_name(enum sbx_link_kind k)
{
    return k < SBX_LINK_COUNT ? link_names[k] : "?";
}

const char *sbx_link_words(enum sbx_link_kind k)
{
    return k < SBX_LINK_COUNT ? link_words[k] : "?";
}

/* One host an allow-list change added. */
struct widening {
    const char *host;
    size_t len;
    int64_t t;
    uint32_t sandbox; /* where it applies: 0 for the whole account */
    const struct sbx_event *change;
    size_t reached;   /* events that reached the host after it */
};

/* One audit entry of a key (by its actor id or its target). */
struct keyed {
    const char *key;
    const struct sbx_event *entry;
};

struct chain {
    const struct sbx_timeline *tl;
    struct sbx_summary *sum;
    uint32_t only;                 /* the run's only sandbox */
    struct widening *w;            /* by host, then time */
    size_t nw;
    struct sbx_hostindex w_ix;     /* host -> its first widening */
    int64_t first_widening;
    struct keyed *k;               /* by key, then time */
    size_t nk;
    struct sbx_hostindex k_ix;
    struct sbx_buf tmp, words;
};

static int64_t event_time(const struct sbx_event *e)
{
    return e->start != SBX_TIME_UNKNOWN ? e->start : e->end;
}

static uint32_t sandbox_of(const struct chain *c, const struct sbx_event *e)
{
    return e->sandbox ? e->sandbox : c->only;
}

static int by_host_then_time(const void *x, const void *y)
{
    const struct widening *a = x, *b = y;
    size_t n = a->len < b->len ? a->len : b->len;
    int d = memcmp(a->host, b->host, n);
    if (d || a->len != b->len)
        return d ? d : a->len < b->len ? -1 : 1;
    if (a->t != b->t)
        return a->t < b->t ? -1 : 1;
    return sbx_event_cmp(a->change, b->change);
}

static int by_key_then_time(const void *x, const void *y)
{
    const struct keyed *a = x, *b = y;
    int d = strcmp(a->key, b->key);
    return d ? d : sbx_event_cmp(a->entry, b->entry);
}

static bool in_window(const struct chain *c, int64_t t)
{
    const struct sbx_summary *s = c->sum;
    return t != SBX_TIME_UNKNOWN && s->start != SBX_TIME_UNKNOWN && s->end != SBX_TIME_UNKNOWN &&
           t >= s->start - WINDOW_NS && t <= s->end + WINDOW_NS;
}

/* The widenings (every host an account change of the run added) and the
 * audit entries of each key in the run's window. */
static void collect_audit(struct chain *c)
{
    size_t capw = 0, capk = 0;
    c->first_widening = INT64_MAX;
    for (size_t i = 0; i < c->sum->naccount; i++) {
        const struct sbx_event *e = c->sum->account[i];
        const struct sbx_audit *a = e->u.audit;
        if (a->family != SBX_AUDIT_NETWORK || e->start == SBX_TIME_UNKNOWN)
            continue;
        for (const char *p = sbx_str(c->tl, a->a); *p;) {
            const char *nl = strchr(p, '\n');
            size_t len = nl ? (size_t)(nl - p) : strlen(p);
            SBX_GROW(c->w, c->nw, capw);
            c->w[c->nw++] = (struct widening){p, len, e->start, e->sandbox, e, 0};
            if (e->start < c->first_widening)
                c->first_widening = e->start;
            p += len + (nl ? 1 : 0);
        }
    }
    if (c->nw)
        qsort(c->w, c->nw, sizeof *c->w, by_host_then_time);
    for (size_t i = c->nw; i-- > 0;) /* the first of each host wins */
        sbx_hostindex_put(&c->w_ix, c->w[i].host, c->w[i].len, i);
    for (size_t i = 0; i < c->tl->n; i++) {
        const struct sbx_event *e = sbx_tl_at(c->tl, i);
        if (e->kind != SBX_EV_AUDIT || !in_window(c, e->start))
            continue;
        const char *actor = sbx_str(c->tl, e->u.audit->actor_id);
        const char *target = sbx_str(c->tl, e->u.audit->target);
        if (actor[0]) {
            SBX_GROW(c->k, c->nk, capk);
            c->k[c->nk++] = (struct keyed){actor, e};
        }
        if (strncmp(target, "key:", 4) == 0 && target[4] && strcmp(target + 4, actor) != 0) {
            SBX_GROW(c->k, c->nk, capk);
            c->k[c->nk++] = (struct keyed){target + 4, e};
        }
    }
    if (c->nk)
        qsort(c->k, c->nk, sizeof *c->k, by_key_then_time);
    for (size_t i = c->nk; i-- > 0;)
        sbx_hostindex_put(&c->k_ix, c->k[i].key, strlen(c->k[i].key), i);
}

static bool applies(const struct widening *w, uint32_t sandbox)
{
    return !w->sandbox || w->sandbox == sandbox;
}

/* The last widening of host[0..n) before t that applies in sandbox, or NULL. */
static struct widening *widened_before(struct chain *c, const char *host, size_t n, int64_t t,
                                       uint32_t sandbox)
{
    size_t i = sbx_hostindex_find(&c->w_ix, host, n);
    if (i == SIZE_MAX)
        return NULL;
    struct widening *best = NULL;
    for (; i < c->nw && c->w[i].len == n && memcmp(c->w[i].host, host, n) == 0; i++) {
        if (c->w[i].t >= t)
            break;
        if (applies(&c->w[i], sandbox))
            best = &c->w[i];
    }
    return best;
}

/* The widening of host after t that applies in sandbox: one made from
 * inside that sandbox first, else the earliest; NULL when none. */
static struct widening *widened_after(struct chain *c, const char *host, size_t n, int64_t t,
                                      uint32_t sandbox)
{
    size_t i = sbx_hostindex_find(&c->w_ix, host, n);
    if (i == SIZE_MAX)
        return NULL;
    struct widening *first = NULL;
    for (; i < c->nw && c->w[i].len == n && memcmp(c->w[i].host, host, n) == 0; i++) {
        struct widening *w = &c->w[i];
        if (w->t <= t || !applies(w, sandbox))
            continue;
        if (sandbox && w->change->u.audit->inside == sandbox)
            return w;
        if (!first)
            first = w;
    }
    return first;
}

static char *words_copy(struct sbx_buf *b)
{
    return sbx_xstrndup(b->p ? b->p : "", b->len);
}

static struct sbx_story_item *item_of(struct sbx_story *s, const struct sbx_event *e)
{
    return (struct sbx_story_item *)sbx_story_item_of(s, e);
}

static void link(struct sbx_story_item *it, enum sbx_link_kind kind, const struct sbx_event *to,
                 char *evidence)
{
    if (!it) {
        free(evidence);
        return;
    }
    if (it->nlinks >= LINKS_MAX) {
        it->more++;
        free(evidence);
        return;
    }
    SBX_GROW(it->links, it->nlinks, it->cap);
    it->links[it->nlinks++] = (struct sbx_story_link){kind, to, evidence};
}

static const char *clock_of(int64_t t, char *buf)
{
    return t == SBX_TIME_UNKNOWN ? "an unknown time" : sbx_time_format(t, buf) + 11;
}

/* ", from inside sandbox S" when the change was made from one */
static void inside_words(struct chain *c, const struct sbx_event *change)
{
    if (change->u.audit->inside) {
        sbx_buf_adds(&c->words, ", from inside sandbox ");
        sbx_buf_adds(&c->words, sbx_str(c->tl, change->u.audit->inside));
    }
}

/* "the allow list gained HOST at T, from inside sandbox S" */
static char *widening_words(struct chain *c, const struct widening *w)
{
    char t[SBX_TIME_BUFSZ];
    sbx_buf_clear(&c->words);
    sbx_buf_adds(&c->words, "the allow list gained ");
    sbx_buf_add(&c->words, w->host, w->len);
    sbx_buf_addf(&c->words, " at %s", clock_of(w->t, t));
    inside_words(c, w->change);
    return words_copy(&c->words);
}

/* What an event that reached a host did: "$ CMD exited 0" or "GET URL: 200". */
static char *reach_words(struct chain *c, const struct sbx_event *e)
{
    char t[SBX_TIME_BUFSZ];
    size_t len;
    sbx_buf_clear(&c->words);
    sbx_buf_addf(&c->words, "at %s ", clock_of(event_time(e), t));
    if (e->kind == SBX_EV_COMMAND) {
        const char *s = sbx_text_get(c->tl, e, &e->u.cmd.command, &c->tmp, &len);
        sbx_buf_adds(&c->words, "$ ");
        sbx_buf_add(&c->words, s, len);
        sbx_buf_adds(&c->words, " exited 0");
    } else {
        const struct sbx_network *n = &e->u.net;
        const char *url = sbx_text_get(c->tl, e, &n->url, &c->tmp, &len);
        sbx_buf_adds(&c->words, sbx_str(c->tl, n->method));
        sbx_buf_adds(&c->words, n->method ? " " : "");
        sbx_buf_add(&c->words, url, len);
        if (n->status >= 0)
            sbx_buf_addf(&c->words, ": %d", (int)n->status);
        sbx_buf_adds(&c->words, " through the proxy");
    }
    return words_copy(&c->words);
}

/* Whether e is a request or command that got through: a proxy request the
 * proxy neither denied nor failed to carry, or a wrapper command that
 * exited 0. */
static bool got_through(const struct sbx_event *e)
{
    if (e->kind == SBX_EV_NETWORK)
        return !(e->u.net.flags & (SBX_NET_DENIED | SBX_NET_UNREACHED)) && e->u.net.status < 400;
    return e->kind == SBX_EV_COMMAND && !(e->u.cmd.flags & SBX_CMD_RECORD) &&
           (e->u.cmd.flags & SBX_CMD_EXIT_KNOWN) && !sbx_command_failed(&e->u.cmd) &&
           (e->u.cmd.command.flags & SBX_TEXT_PRESENT);
}

struct host_probe {
    struct chain *c;
    const struct sbx_event *e;
    struct widening *found;
};

static void on_host(const char *host, size_t len, void *ctx)
{
    struct host_probe *p = ctx;
    if (p->found)
        return;
    char lower[256];
    if (len >= sizeof lower)
        return;
    for (size_t i = 0; i < len; i++)
        lower[i] = host[i] >= 'A' && host[i] <= 'Z' ? (char)(host[i] - 'A' + 'a') : host[i];
    p->found = widened_before(p->c, lower, len, event_time(p->e), sandbox_of(p->c, p->e));
}

/* The widening e reached a host after, or NULL. */
static struct widening *reached(struct chain *c, const struct sbx_netpat *np,
                                struct sbx_netpat_scratch *ns, const struct sbx_event *e)
{
    int64_t t = event_time(e);
    if (!c->nw || t == SBX_TIME_UNKNOWN || t <= c->first_widening || !got_through(e))
        return NULL;
    if (e->kind == SBX_EV_NETWORK) {
        const char *h = sbx_str(c->tl, e->u.net.host);
        return widened_before(c, h, strlen(h), t, sandbox_of(c, e));
    }
    size_t len;
    const char *s = sbx_text_get(c->tl, e, &e->u.cmd.command, &c->tmp, &len);
    struct host_probe p = {c, e, NULL};
    sbx_netpat_hosts(np, ns, s, len, on_host, &p);
    return p.found;
}

struct pending {
    const struct sbx_event *e;
    struct widening *w;
};

/* The items: serious findings, and what reached a host after a widening. */
static void collect_items(struct chain *c, const struct sbx_netpat *np)
{
    struct sbx_story *s = &c->sum->story;
    struct sbx_netpat_scratch *ns = sbx_netpat_scratch_new(np);
    struct pending *pend = NULL;
    size_t npend = 0, cappend = 0, cap = 0;
    for (size_t i = 0; i < c->tl->n; i++) {
        const struct sbx_event *e = sbx_tl_at(c->tl, i);
        uint32_t serious = e->findings & SBX_F_SERIOUS;
        struct widening *w = reached(c, np, ns, e);
        if (w && w->reached++ >= REACHED_MAX) {
            struct sbx_story_item *ch = item_of(s, w->change);
            if (ch)
                ch->more++;
            w = NULL;
        }
        if (!serious && !w)
            continue;
        SBX_GROW(s->items, s->n, cap);
        s->items[s->n++] = (struct sbx_story_item){.event = e, .finding = sbx_finding_heaviest(serious)};
        if (w) {
            SBX_GROW(pend, npend, cappend);
            pend[npend++] = (struct pending){e, w};
        }
    }
    sbx_netpat_scratch_free(ns);
    for (size_t i = 0; i < npend; i++) {
        struct widening *w = pend[i].w;
        link(item_of(s, pend[i].e), SBX_LINK_WIDENED_BEFORE, w->change, widening_words(c, w));
        link(item_of(s, w->change), SBX_LINK_REACHED_AFTER, pend[i].e, reach_words(c, pend[i].e));
    }
    free(pend);
}

/* A refused host -> the change that let it in, and back. */
static void link_refusals(struct chain *c)
{
    struct sbx_story *s = &c->sum->story;
    char t[SBX_TIME_BUFSZ];
    for (size_t i = 0; i < c->sum->nrefused; i++) {
        const struct sbx_refusal *r = &c->sum->refused[i];
        struct widening *w =
            widened_after(c, r->host, strlen(r->host), r->first, sandbox_of(c, r->event));
        if (!w)
            continue;
        sbx_buf_clear(&c->words);
        sbx_audit_change_words(c->tl, w->change, &c->words);
        sbx_buf_addf(&c->words, " at %s", clock_of(w->t, t));
        inside_words(c, w->change);
        link(item_of(s, r->event), SBX_LINK_WIDENED_BY, w->change, words_copy(&c->words));
        sbx_buf_clear(&c->words);
        sbx_buf_adds(&c->words, r->host);
        sbx_buf_addf(&c->words, " refused at %s: ", clock_of(r->first, t));
        sbx_buf_adds(&c->words, r->evidence ? r->evidence : "");
        link(item_of(s, w->change), SBX_LINK_REFUSED_BEFORE, r->event, words_copy(&c->words));
    }
}

/* A command outside the wrapper (or one possibly removed from its log) ->
 * the audit entries of the key it ran under, and back. */
static void link_key_of(struct chain *c, const struct sbx_event *e)
{
    struct sbx_story *s = &c->sum->story;
    char t[SBX_TIME_BUFSZ];
    const char *key = sbx_str(c->tl, e->u.cmd.actor_id);
    size_t k = key[0] ? sbx_hostindex_find(&c->k_ix, key, strlen(key)) : SIZE_MAX;
    for (; k < c->nk && strcmp(c->k[k].key, key) == 0; k++) {
        const struct sbx_event *a = c->k[k].entry;
        sbx_buf_clear(&c->words);
        sbx_buf_addf(&c->words, "%s made %s at %s: ", key, sbx_str(c->tl, a->label),
                     clock_of(a->start, t));
        sbx_audit_change_words(c->tl, a, &c->words);
        inside_words(c, a);
        link(item_of(s, e), SBX_LINK_KEY_ENTRY, a, words_copy(&c->words));
        sbx_buf_clear(&c->words);
        sbx_buf_addf(&c->words, "%s ran %s %s at %s in ", key, sbx_str(c->tl, e->u.cmd.program),
                     (e->findings & SBX_F_REMOVED_FROM_LOG) ? "in a gap of the wrapper's log"
                                                           : "outside the wrapper",
                     clock_of(e->start, t));
        sbx_buf_adds(&c->words, sbx_str(c->tl, e->sandbox));
        link(item_of(s, a), SBX_LINK_KEY_COMMAND, e, words_copy(&c->words));
    }
}

static void link_keys(struct chain *c)
{
    for (size_t i = 0; i < c->sum->cross.noutside; i++)
        link_key_of(c, c->sum->cross.outside[i]);
    for (size_t i = 0; i < c->sum->ngaps; i++)
        link_key_of(c, c->sum->gaps[i].record);
}

static int by_target(const void *x, const void *y)
{
    const struct sbx_story_link *a = x, *b = y;
    int d = sbx_event_cmp(a->event, b->event);
    return d ? d : (int)a->kind - (int)b->kind;
}

bool sbx_analyze_chain(const struct sbx_timeline *tl, struct sbx_summary *sum, char *err,
                       size_t errsz)
{
    struct sbx_netpat *np = sbx_netpat_new(err, errsz);
    if (!np)
        return false;
    struct chain c = {.tl = tl, .sum = sum, .only = sbx_only_sandbox(tl)};
    /* what ran then is the wrapper's own commands (and Runtime's records),
     * each once: not a second log's account of one */
    struct sbx_timeline own;
    /* only an event not from the wrapper asks what ran then (render/during.h):
     * a run without one keeps no index (about 11 bytes a command) */
    if (sbx_timeline_has_not_wrapper(tl)) {
        sbx_witness_view(tl, &sum->witness, &own);
        sum->cmds = sbx_cmdindex_new(&own);
        sbx_witness_view_free(tl, &own);
    }
    collect_audit(&c);
    collect_items(&c, np);
    link_refusals(&c);
    link_keys(&c);
    for (size_t i = 0; i < sum->story.n; i++) {
        struct sbx_story_item *it = &sum->story.items[i];
        if (it->nlinks > 1)
            qsort(it->links, it->nlinks, sizeof *it->links, by_target);
    }
    sbx_netpat_free(np);
    free(c.w);
    free(c.k);
    sbx_hostindex_free(&c.w_ix);
    sbx_hostindex_free(&c.k_ix);
    sbx_buf_free(&c.tmp);
    sbx_buf_free(&c.words);
    return true;
}

const struct sbx_story_item *sbx_story_item_of(const struct sbx_story *s, const struct sbx_event *e)
{
    size_t lo = 0, hi = s->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (sbx_event_cmp(s->items[mid].event, e) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (; lo < s->n && sbx_event_cmp(s->items[lo].event, e) == 0; lo++)
        if (s->items[lo].event == e)
            return &s->items[lo];
    return NULL;
}

void sbx_story_free(struct sbx_story *s)
{
    for (size_t i = 0; i < s->n; i++) {
        for (size_t k = 0; k < s->items[i].nlinks; k++)
            free(s->items[i].links[k].evidence);
        free(s->items[i].links);
    }
    free(s->items);
    s->items = NULL;
    s->n = 0;
}
