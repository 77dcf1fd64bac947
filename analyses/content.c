/* The analyses that read every byte of output: stdout hashes (verified,
 * mismatched, unverifiable because clipped), secrets in commands and output,
 * refused hosts in what network clients printed, and the hosts commands name.
 * Commands are split between threads; each keeps its own results, merged in
 * timeline order afterwards so the outcome never depends on the split. */
#include <openssl/evp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyses/allowlist.h"
#include "analyses/analyses.h"
#include "analyses/hashcheck.h"
#include "analyses/hidden.h"
#include "base/fnv.h"
#include "base/jsonstr.h"
#include "analyses/refusals.h"
#include "analyses/secrets/secrets.h"

struct refused_local {
    char *host;
    size_t order; /* timeline position of the event */
    const struct sbx_event *event;
    char *evidence;
    const char *client;
};

struct secret_local {
    size_t order;
    struct sbx_secret_found f;
};

enum { SEEN_SLOTS = 512, SEEN_MAX_COMMAND = 120 };

struct seen_command {
    uint64_t hash;
    uint32_t len; /* 0: empty slot (empty commands are never looked up) */
    char text[SEEN_MAX_COMMAND];
    size_t unlisted_from, unlisted_to; /* the hosts it named that the allow list lacks: unlisted.h[from..to) */
};

struct worker {
    struct sbx_timeline *tl;
    const struct sbx_witnesses *witness; /* a second witness's stdout is its first's */
    const struct sbx_secrets *secrets;
    const struct sbx_netpat *netpat;
    const EVP_MD *sha256;
    EVP_MD_CTX *md_ctx;
    size_t from, to; /* timeline positions */
    /* results */
    size_t verified, mismatched, unverifiable;
    struct refused_local *refused;
    size_t nrefused, caprefused;
    struct secret_local *found;
    size_t nfound, capfound;
    struct sbx_strlist hosts;
    size_t hosts_unique;
    const struct sbx_allowlist *allow;
    struct sbx_unlisted_hits unlisted;
    /* per-event state for callbacks */
    size_t order;
    struct sbx_event *event;
    const char *text;
    struct sbx_buf scratch;
    struct seen_command *seen; /* SEEN_SLOTS */
};

/* Returns stdout decoded when the check decoded it (see sbx_hash_check). */
static const char *check_hash(struct worker *w, const struct sbx_event *e, size_t *len)
{
    const char *decoded;
    /* one context per thread, reset for each command: EVP_Digest would
       allocate and free one per call, a million times over */
    enum sbx_hash_state h = sbx_hash_check(w->tl, e, w->md_ctx, w->sha256, &w->scratch, &decoded, len);
    if (h == SBX_HASH_VERIFIED || h == SBX_HASH_MISMATCH || h == SBX_HASH_ERROR)
        w->event->u.cmd.flags |= SBX_CMD_HASH_CHECKED; /* the verdict the views read */
    switch (h) {
    case SBX_HASH_VERIFIED:
        w->verified++;
        w->event->u.cmd.flags |= SBX_CMD_HASH_VERIFIED;
        break;
    case SBX_HASH_MISMATCH:
        w->mismatched++;
        w->event->findings |= SBX_F_HASH_MISMATCH;
        break;
    case SBX_HASH_NONE:
    case SBX_HASH_CLIPPED:
    case SBX_HASH_ERROR:
    case SBX_HASH_PENDING:
        w->unverifiable++;
        break;
    }
    return decoded;
}

/* Which field of the line a secret lies in: command, stdout, stderr, or
 * another field of the record (NULL when it straddles fields, which only the
 * line's own JSON punctuation could make happen). */
static const char *field_of_hit(const struct worker *w, const struct sbx_secret_hit *hit)
{
    const struct sbx_event *e = w->event;
    static const char *const names[] = {"command", "stdout", "stderr"};
    const struct sbx_text err = sbx_cmd_err(&e->u.cmd);
    const struct sbx_text *fields[] = {&e->u.cmd.command, &e->u.cmd.out, &err};
    uint64_t start = e->line_off + hit->off, end = start + hit->len;
    for (int i = 0; i < 3; i++) {
        const struct sbx_text *t = fields[i];
        if (!(t->flags & SBX_TEXT_PRESENT))
            continue;
        uint64_t from = sbx_text_off(e, t), to = from + sbx_text_len(t);
        if (start >= from && end <= to)
            return names[i];
        if (start < to && end > from)
            return NULL;
    }
    return "record";
}

static void on_secret(const struct sbx_secret_hit *hit, void *ctx)
{
    struct worker *w = ctx;
    const char *where = field_of_hit(w, hit);
    if (!where)
        return;
    SBX_GROW(w->found, w->nfound, w->capfound);
    struct secret_local *s = &w->found[w->nfound++];
    s->order = w->order;
    s->f.kind = hit->kind;
    s->f.event = w->event;
    s->f.where = where;
    sbx_secret_mask(hit->kind, w->text + hit->off, hit->len, s->f.sample, sizeof s->f.sample);
    w->event->findings |= SBX_F_SECRET;
}

static void on_refused(const struct sbx_refused_hit *hit, void *ctx)
{
    struct worker *w = ctx;
    SBX_GROW(w->refused, w->nrefused, w->caprefused);
    struct refused_local *r = &w->refused[w->nrefused++];
    r->host = sbx_xstrndup(hit->host, hit->host_len);
    for (char *p = r->host; *p; p++)
        if (*p >= 'A' && *p <= 'Z')
            *p = (char)(*p - 'A' + 'a'); /* host names are case-insensitive */
    r->order = w->order;
    r->event = w->event;
    r->evidence = sbx_xstrndup(hit->line, hit->line_len);
    r->client = hit->client;
    w->event->findings |= SBX_F_REFUSED_HOST;
    if (w->allow && !sbx_allowlist_allows(w->allow, r->host, strlen(r->host)))
        sbx_unlisted_hit_add(&w->unlisted, r->host, strlen(r->host), w->order, w->event);
}

static void on_host(const char *host, size_t len, void *ctx)
{
    struct worker *w = ctx;
    char lower[256];
    if (len >= sizeof lower)
        return;
    for (size_t i = 0; i < len; i++)
        lower[i] = host[i] >= 'A' && host[i] <= 'Z' ? (char)(host[i] - 'A' + 'a') : host[i];
    sbx_strlist_add(&w->hosts, lower, len);
    if (w->allow && !sbx_allowlist_allows(w->allow, lower, len))
        sbx_unlisted_hit_add(&w->unlisted, lower, len, w->order, w->event);
    /* a million commands naming the same few hosts: keep the list short */
    if (w->hosts.n >= 1024 && w->hosts.n >= 2 * w->hosts_unique) {
        sbx_strlist_finish(&w->hosts);
        w->hosts_unique = w->hosts.n;
    }
}

/* Secrets anywhere in the command's record, scanned in one pass over the
 * raw line (fields still JSON-escaped: a backslash ends a token): the
 * command, its output, and any other field the recorder kept. */
static void scan_secrets(struct worker *w, struct sbx_secrets_scratch *ss, struct sbx_event *e)
{
    w->text = sbx_event_line(w->tl, e);
    sbx_secrets_scan(w->secrets, ss, w->text, sbx_ev_line_len(e), on_secret, w);
}

static bool field_hides(struct worker *w, const struct sbx_event *e, const struct sbx_text *t)
{
    return (t->flags & SBX_TEXT_UNUSUAL) && sbx_field_hides(w->tl, e, t, &w->scratch);
}

/* Invisible or bidi characters in what the command was and what it printed.
 * stdout is read decoded when the hash check decoded it already (into
 * w->scratch: it is looked at before field_hides reuses that): no \u
 * escapes to weigh then. */
static bool hides(struct worker *w, const struct sbx_event *e, const char *out, size_t out_len)
{
    const struct sbx_command *c = &e->u.cmd;
    bool out_hides = out ? (c->out.flags & SBX_TEXT_UNUSUAL) && !(c->out.flags & SBX_TEXT_SHOWN) &&
                               sbx_text_hides(out, out_len, false)
                         : field_hides(w, e, &c->out);
    const struct sbx_text err = sbx_cmd_err(c);
    return out_hides || field_hides(w, e, &c->command) || field_hides(w, e, &err);
}

static void scan_refusals(struct worker *w, struct sbx_netpat_scratch *ns, struct sbx_event *e,
                          const struct sbx_text *t)
{
    if (!(t->flags & SBX_TEXT_PRESENT) || !sbx_text_len(t) ||
        !sbx_netpat_might_refuse(sbx_text_raw(w->tl, e, t), sbx_text_len(t)))
        return;
    size_t len;
    const char *s = sbx_text_get(w->tl, e, t, &w->scratch, &len);
    sbx_netpat_refusals(w->netpat, ns, s, len, on_refused, w);
}

/* Whether this thread already took the hosts from this exact command line:
 * agents repeat commands, and the hosts of a line do not change. A small
 * cache of recent lines, compared in full. */
static bool command_seen(struct worker *w, const char *raw, size_t n, struct seen_command **seen)
{
    *seen = NULL;
    if (n > SEEN_MAX_COMMAND)
        return false;
    uint64_t h = sbx_fnv1a(SBX_FNV_BASIS ^ n, raw, n);
    struct seen_command *slot = &w->seen[h & (SEEN_SLOTS - 1)];
    *seen = slot;
    if (slot->len == n && slot->hash == h && memcmp(slot->text, raw, n) == 0)
        return true;
    slot->hash = h;
    slot->len = (uint32_t)n;
    memcpy(slot->text, raw, n);
    return false;
}

static void *run_worker(void *arg)
{
    struct worker *w = arg;
    struct sbx_secrets_scratch *ss = sbx_secrets_scratch_new(w->secrets);
    struct sbx_netpat_scratch *ns = sbx_netpat_scratch_new(w->netpat);
    w->seen = sbx_xcalloc(SEEN_SLOTS, sizeof *w->seen);
    w->md_ctx = EVP_MD_CTX_new();
    if (!w->md_ctx) {
        fprintf(stderr, "sbxview: out of memory (OpenSSL digest context)\n");
        abort();
    }
    for (size_t i = w->from; i < w->to; i++) {
        struct sbx_event *e = sbx_tl_at(w->tl, i);
        if (e->kind != SBX_EV_COMMAND || (e->u.cmd.flags & SBX_CMD_RECORD))
            continue;
        struct sbx_command *c = &e->u.cmd;
        w->order = i;
        w->event = e;
        size_t out_len = 0;
        const char *out = sbx_witness_is_second(w->witness, e) ? NULL : check_hash(w, e, &out_len);
        if (hides(w, e, out, out_len))
            e->findings |= SBX_F_HIDDEN_TEXT;
        scan_secrets(w, ss, e);
        const struct sbx_text err = sbx_cmd_err(c);
        scan_refusals(w, ns, e, &err);
        scan_refusals(w, ns, e, &c->out);
        struct seen_command *seen = NULL;
        if (sbx_text_len(&c->command) && command_seen(w, sbx_text_raw(w->tl, e, &c->command), sbx_text_len(&c->command), &seen)) {
            /* the same line again: the same hosts, this time on this event */
            for (size_t k = seen->unlisted_from; k < seen->unlisted_to; k++) {
                const char *host = w->unlisted.h[k].host;
                sbx_unlisted_hit_add(&w->unlisted, host, strlen(host), i, e);
            }
        } else if (sbx_text_len(&c->command)) {
            size_t len, from = w->unlisted.n;
            const char *cmd = sbx_text_get(w->tl, e, &c->command, &w->scratch, &len);
            sbx_netpat_hosts(w->netpat, ns, cmd, len, on_host, w);
            if (seen) {
                seen->unlisted_from = from;
                seen->unlisted_to = w->unlisted.n;
            }
        }
    }
    sbx_secrets_scratch_free(ss);
    sbx_netpat_scratch_free(ns);
    EVP_MD_CTX_free(w->md_ctx);
    free(w->seen);
    sbx_buf_free(&w->scratch);
    return NULL;
}

static int by_order_then_host(const void *a, const void *b)
{
    const struct refused_local *x = a, *y = b;
    int c = strcmp(x->host, y->host);
    if (c)
        return c;
    return x->order < y->order ? -1 : x->order > y->order;
}

static int by_first_time(const void *a, const void *b)
{
    const struct sbx_refusal *x = a, *y = b;
    if (x->first != y->first)
        return x->first < y->first ? -1 : 1;
    return strcmp(x->host, y->host);
}

/* Refusals: one entry per host, with the count and the earliest evidence. */
static void merge_refused(struct sbx_summary *sum, struct worker *ws, int n)
{
    size_t total = 0;
    for (int i = 0; i < n; i++)
        total += ws[i].nrefused;
    struct refused_local *all = sbx_xcalloc(total ? total : 1, sizeof *all);
    size_t k = 0;
    for (int i = 0; i < n; i++) {
        if (ws[i].nrefused)
            memcpy(all + k, ws[i].refused, ws[i].nrefused * sizeof *all);
        k += ws[i].nrefused;
        free(ws[i].refused);
    }
    qsort(all, total, sizeof *all, by_order_then_host);
    size_t cap = 0;
    for (size_t i = 0; i < total; i++) {
        if (sum->nrefused && strcmp(all[i].host, sum->refused[sum->nrefused - 1].host) == 0) {
            /* the same command can print the same refusal twice; count commands */
            if (all[i].event != all[i - 1].event)
                sum->refused[sum->nrefused - 1].count++;
            free(all[i].host);
            free(all[i].evidence);
            continue;
        }
        SBX_GROW(sum->refused, sum->nrefused, cap);
        sum->refused[sum->nrefused++] = (struct sbx_refusal){
            .host = all[i].host, .count = 1, .first = all[i].event->start, .event = all[i].event,
            .evidence = all[i].evidence, .pattern = all[i].client};
    }
    free(all);
    if (sum->nrefused)
        qsort(sum->refused, sum->nrefused, sizeof *sum->refused, by_first_time);
}

bool sbx_analyze_content(struct sbx_timeline *tl, struct sbx_summary *sum, int threads,
                         const struct sbx_allowlist *allow, struct sbx_unlisted_hits *hits,
                         char *err, size_t errsz)
{
    struct sbx_secrets *secrets = sbx_secrets_new(err, errsz);
    if (!secrets)
        return false;
    struct sbx_netpat *netpat = sbx_netpat_new(err, errsz);
    if (!netpat) {
        sbx_secrets_free(secrets);
        return false;
    }
    EVP_MD *sha256 = EVP_MD_fetch(NULL, "SHA256", NULL);
    if (!sha256) {
        snprintf(err, errsz, "OpenSSL has no SHA-256");
        sbx_secrets_free(secrets);
        sbx_netpat_free(netpat);
        return false;
    }
    if (threads <= 0)
        threads = (int)sysconf(_SC_NPROCESSORS_ONLN);
    if (threads < 1)
        threads = 1;
    if (threads > 8)
        threads = 8;
    if (tl->n < 4096)
        threads = 1;
    struct worker ws[8];
    memset(ws, 0, sizeof ws);
    pthread_t tids[8];
    bool started[8] = {false};
    for (int i = 0; i < threads; i++) {
        ws[i] = (struct worker){.tl = tl, .witness = &sum->witness, .secrets = secrets, .netpat = netpat, .sha256 = sha256,
                                .allow = allow,
                                .from = tl->n * (size_t)i / (size_t)threads,
                                .to = tl->n * (size_t)(i + 1) / (size_t)threads};
        if (i > 0)
            started[i] = pthread_create(&tids[i], NULL, run_worker, &ws[i]) == 0;
    }
    run_worker(&ws[0]);
    for (int i = 1; i < threads; i++) {
        if (started[i])
            pthread_join(tids[i], NULL);
        else
            run_worker(&ws[i]);
    }

    for (int i = 0; i < threads; i++) {
        sum->hash_verified += ws[i].verified;
        sum->hash_mismatched += ws[i].mismatched;
        sum->hash_unverifiable += ws[i].unverifiable;
        /* workers cover ascending ranges, so appending keeps timeline order */
        sum->secrets = sbx_xrealloc(sum->secrets, (sum->nsecrets + ws[i].nfound) * sizeof *sum->secrets);
        for (size_t k = 0; k < ws[i].nfound; k++)
            sum->secrets[sum->nsecrets++] = ws[i].found[k].f;
        free(ws[i].found);
        for (size_t k = 0; k < ws[i].hosts.n; k++)
            sbx_strlist_add(&sum->hosts, ws[i].hosts.s[k], strlen(ws[i].hosts.s[k]));
        sbx_strlist_free(&ws[i].hosts);
        for (size_t k = 0; k < ws[i].unlisted.n; k++) {
            SBX_GROW(hits->h, hits->n, hits->cap);
            hits->h[hits->n++] = ws[i].unlisted.h[k];
        }
        free(ws[i].unlisted.h);
    }
    merge_refused(sum, ws, threads);
    sbx_strlist_finish(&sum->hosts);

    EVP_MD_free(sha256);
    sbx_netpat_free(netpat);
    sum->patterns = secrets; /* the summary redacts with them later */
    return true;
}
