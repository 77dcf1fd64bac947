/* Matching one event, and finding matches in a string for highlighting.
 *
 * A text field is tested on its raw bytes first: when the pattern has a
 * required literal and the raw field lacks it (and no escape in it could
 * make it), the field cannot match and is never decoded. A field is decoded
 * at most once per match, whatever the number of pattern terms. */
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "model/evid.h"
#include "model/files.h"
#include "query/impl.h"

enum { NFIELDS = 3 }; /* command, stdout, stderr */

struct sbx_query_scratch {
    pcre2_match_data *md;
    pcre2_match_context *mc;
    pcre2_jit_stack *stack;
    struct sbx_buf dec[NFIELDS]; /* the fields of the event being matched, decoded */
    bool have[NFIELDS];
    size_t too_complex;
};

struct sbx_query_scratch *sbx_query_scratch_new(void)
{
    struct sbx_query_scratch *s = sbx_xcalloc(1, sizeof *s);
    s->md = pcre2_match_data_create(1, NULL);
    s->mc = pcre2_match_context_create(NULL);
    if (!s->md || !s->mc)
        abort(); /* as sbx_xmalloc does */
    pcre2_set_match_limit(s->mc, SBX_QUERY_MATCH_LIMIT);
    pcre2_set_depth_limit(s->mc, SBX_QUERY_DEPTH_LIMIT);
    s->stack = pcre2_jit_stack_create(32 * 1024, 1024 * 1024, NULL);
    if (s->stack)
        pcre2_jit_stack_assign(s->mc, NULL, s->stack);
    return s;
}

void sbx_query_scratch_free(struct sbx_query_scratch *s)
{
    if (!s)
        return;
    pcre2_match_data_free(s->md);
    pcre2_match_context_free(s->mc);
    pcre2_jit_stack_free(s->stack);
    for (int k = 0; k < NFIELDS; k++)
        sbx_buf_free(&s->dec[k]);
    free(s);
}

size_t sbx_query_scratch_too_complex(const struct sbx_query_scratch *s)
{
    return s->too_complex;
}

static bool run_re(const struct sbx_qpattern *p, const char *s, size_t n,
                   struct sbx_query_scratch *sc)
{
    int rc = pcre2_match(p->re, (PCRE2_SPTR)s, n, 0, 0, sc->md, sc->mc);
    if (rc >= 0)
        return true;
    if (rc != PCRE2_ERROR_NOMATCH)
        sc->too_complex++;
    return false;
}

/* A text that is already decoded (labels, paths, decoded fields). */
static bool match_plain(const struct sbx_qpattern *p, const char *s, size_t n,
                        struct sbx_query_scratch *sc)
{
    if (p->lit.n) {
        if (!sbx_lit_find(&p->lit, s, n))
            return false;
        if (p->lit.pure)
            return true;
    }
    return run_re(p, s, n, sc);
}

static const char *decoded(const struct sbx_timeline *tl, const struct sbx_event *ev,
                           const struct sbx_text *t, int k, struct sbx_query_scratch *sc,
                           size_t *n)
{
    if (!sc->have[k]) {
        size_t len;
        const char *s = sbx_text_get(tl, ev, t, &sc->dec[k], &len);
        if (s != sc->dec[k].p) { /* an argv that is none reads as it is */
            sbx_buf_clear(&sc->dec[k]);
            sbx_buf_add(&sc->dec[k], s, len);
        }
        sc->have[k] = true;
    }
    *n = sc->dec[k].len;
    return sc->dec[k].p;
}

/* Whether the raw bytes of an escaped or argv field show that its text
 * cannot hold the literal. An argv's line adds spaces and quotes between and
 * around its words, so only a literal without those lies inside one word,
 * whose JSON body the raw bytes hold; an argv inside a string is escaped
 * twice over and is decoded to be sure. */
static bool raw_rules_out(const struct sbx_lit *lit, const char *raw, const struct sbx_text *t)
{
    if (t->flags & SBX_TEXT_ARGV) {
        if (t->flags & SBX_TEXT_ESCAPED)
            return false;
        for (size_t i = 0; i < lit->n; i++)
            if (lit->s[i] == ' ' || lit->s[i] == '\'' || lit->s[i] == '"' || lit->s[i] == '\\')
                return false;
    }
    return !sbx_lit_json_may_have(lit, raw, sbx_text_len(t));
}

static bool match_field(const struct sbx_qpattern *p, const struct sbx_timeline *tl,
                        const struct sbx_event *ev, const struct sbx_text *t, int k,
                        struct sbx_query_scratch *sc)
{
    if (!(t->flags & SBX_TEXT_PRESENT))
        return false;
    const char *raw = sbx_text_raw(tl, ev, t);
    if (!(t->flags & (SBX_TEXT_ESCAPED | SBX_TEXT_ARGV)))
        return match_plain(p, raw, sbx_text_len(t), sc);
    if (p->lit.n && !sc->have[k] && raw_rules_out(&p->lit, raw, t))
        return false;
    size_t n;
    const char *s = decoded(tl, ev, t, k, sc, &n);
    return match_plain(p, s, n, sc);
}

static bool match_pattern(const struct sbx_qpattern *p, const struct sbx_timeline *tl,
                          const struct sbx_event *ev, struct sbx_query_scratch *sc)
{
    if (ev->kind == SBX_EV_COMMAND) {
        const struct sbx_command *c = &ev->u.cmd;
        const struct sbx_text err = sbx_cmd_err(c);
        if (match_field(p, tl, ev, &c->command, 0, sc) || match_field(p, tl, ev, &c->out, 1, sc) ||
            match_field(p, tl, ev, &err, 2, sc))
            return true;
    } else if (ev->kind == SBX_EV_FILES && ev->u.files) {
        const struct sbx_files *f = ev->u.files;
        for (int c = 0; c < SBX_CHANGE_COUNT; c++)
            for (uint32_t i = 0; i < f->n[c]; i++) {
                const char *path = sbx_files_path(tl, f, (enum sbx_change)c, i);
                if (match_plain(p, path, strlen(path), sc))
                    return true;
            }
    } else if (ev->kind == SBX_EV_NETWORK) {
        const struct sbx_network *nw = &ev->u.net;
        if (nw->host && match_plain(p, sbx_str(tl, nw->host), sbx_strtab_len(&tl->strings, nw->host), sc))
            return true;
        if (match_field(p, tl, ev, &nw->url, 0, sc))
            return true;
    }
    if (ev->label)
        return match_plain(p, sbx_str(tl, ev->label), sbx_strtab_len(&tl->strings, ev->label), sc);
    return false;
}

static bool command_failed(const struct sbx_event *ev)
{
    if (ev->findings & (SBX_F_FAILED | SBX_F_TIMED_OUT))
        return true;
    return ev->kind == SBX_EV_COMMAND && sbx_command_failed(&ev->u.cmd);
}

static bool str_is(const struct sbx_timeline *tl, uint32_t id, const char *s, size_t n,
                   bool prefix)
{
    size_t len = sbx_strtab_len(&tl->strings, id);
    return (prefix ? len >= n : len == n) && memcmp(sbx_str(tl, id), s, n) == 0;
}

static bool term_holds(const struct sbx_term *t, const struct sbx_timeline *tl,
                       const struct sbx_event *ev, struct sbx_query_scratch *sc)
{
    bool cmd = ev->kind == SBX_EV_COMMAND;
    int64_t at = ev->start != SBX_TIME_UNKNOWN ? ev->start : ev->end;
    switch (t->type) {
    case SBX_T_KIND:
        return ev->kind == t->u.kind;
    case SBX_T_FINDING:
        return ev->findings & t->u.mask;
    case SBX_T_FAILED:
        return command_failed(ev);
    case SBX_T_TIMEDOUT:
        return (ev->findings & SBX_F_TIMED_OUT) || (cmd && (ev->u.cmd.flags & SBX_CMD_TIMED_OUT));
    case SBX_T_FINDINGS:
        return (ev->findings & ~(uint32_t)SBX_F_BAD_FIELD) || command_failed(ev);
    case SBX_T_SANDBOX:
        return str_is(tl, ev->sandbox, t->u.str.s, t->u.str.n, true);
    case SBX_T_ID:
        return sbx_event_id_has_prefix(tl, ev, t->u.str.s, t->u.str.n) &&
               (!t->id_kind || (ev->findings & t->id_kind));
    case SBX_T_EXIT:
        return cmd && (ev->u.cmd.flags & SBX_CMD_EXIT_KNOWN) && sbx_cmd_exit(&ev->u.cmd) == t->u.exit;
    case SBX_T_SINCE:
        return at != SBX_TIME_UNKNOWN && at >= t->u.t;
    case SBX_T_UNTIL:
        return at != SBX_TIME_UNKNOWN && at <= t->u.t;
    case SBX_T_PROGRAM:
        return cmd && str_is(tl, ev->u.cmd.program, t->u.str.s, t->u.str.n, false);
    case SBX_T_PATTERN:
        return match_pattern(&t->u.pat, tl, ev, sc);
    case SBX_T_HOST:
        if (ev->kind == SBX_EV_NETWORK)
            return ev->u.net.host && strcmp(sbx_str(tl, ev->u.net.host), t->host) == 0;
        return match_pattern(&t->u.pat, tl, ev, sc);
    }
    return false;
}

bool sbx_query_match(const struct sbx_query *q, const struct sbx_timeline *tl,
                     const struct sbx_event *ev, struct sbx_query_scratch *sc)
{
    memset(sc->have, 0, sizeof sc->have);
    for (size_t i = 0; i < q->nterms; i++)
        if (term_holds(&q->terms[i], tl, ev, sc) == q->terms[i].neg)
            return false;
    return true;
}

bool sbx_query_find(const struct sbx_query *q, const char *s, size_t n, size_t start,
                    size_t *mbegin, size_t *mend)
{
    if (start > n || !sbx_query_has_pattern(q))
        return false;
    pcre2_match_data *md = pcre2_match_data_create(1, NULL);
    if (!md)
        abort();
    bool found = false;
    for (size_t i = 0; i < q->nterms; i++) {
        const struct sbx_term *t = &q->terms[i];
        if ((t->type != SBX_T_PATTERN && t->type != SBX_T_HOST) || t->neg)
            continue;
        if (pcre2_match(t->u.pat.re, (PCRE2_SPTR)s, n, start, PCRE2_NOTEMPTY, md, q->mc) < 0)
            continue;
        const PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
        if (ov[0] >= ov[1]) /* \K can put the start after the end */
            continue;
        if (!found || ov[0] < *mbegin || (ov[0] == *mbegin && ov[1] > *mend)) {
            *mbegin = ov[0];
            *mend = ov[1];
            found = true;
        }
    }
    pcre2_match_data_free(md);
    return found;
}
