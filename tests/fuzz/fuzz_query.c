/* Fuzz target for query/query: any expression, compiled as a search or a
 * filter, run over a small timeline (fixed recorder lines plus one event
 * whose stdout is the input's tail, raw and as a JSON body). Checks: errors
 * are one terminated line; one and two threads agree with per-event
 * matching; a search agrees with plain PCRE2 (JIT) over the decoded texts (the
 * literal prefilter must never hide a match), and an id search with the ids
 * spelled out; highlight ranges are sane.
 *
 * Input: byte 0 picks the kind (bit 0: filter), then the expression up to
 * the first NUL, then the tail. */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "importers/format.h"
#include "model/evid.h"
#include "model/findings.h"
#include "importers/load.h"
#include "query/query.h"
#include "query/lit.h"
#include "model/files.h"

static const char LOG[] =
    "{\"at\": \"2026-01-01T00:00:01Z\", \"sandbox\": \"s1\", \"kind\": \"command\", \"command\": \"pytest -q\", \"exit\": 1, \"ms\": 10, \"stdout\": \"FAILED\\nFLOAT \\u0066loat fl\\u006Fat caf\\u00e9 \\u212a \\u017f\", \"stderr\": \"a\\/b \\\"q\\\" \\\\u0066 \\t\"}\n"
    "{\"at\": \"2026-01-01T00:00:02Z\", \"sandbox\": \"s2\", \"kind\": \"command\", \"command\": \"pip install x\", \"exit\": 0, \"timedOut\": true, \"stdout\": \"\\ud83d\\ude80 Connection refused\"}\n"
    "{\"at\": \"2026-01-01T00:00:03Z\", \"kind\": \"files\", \"root\": \"/etc\", \"added\": [\"./hosts\"], \"changed\": [\"./caf\\u00e9\"]}\n"
    "{\"at\": \"2026-01-01T00:00:04Z\", \"kind\": \"lifecycle.started\", \"sandbox\": \"s1\"}\n"
    "{\"kind\": \"no time\"}\n";

static struct sbx_timeline *build(const uint8_t *tail, size_t n)
{
    struct sbx_timeline *tl = malloc(sizeof *tl);
    sbx_timeline_init(tl);
    char *log = malloc(sizeof LOG);
    memcpy(log, LOG, sizeof LOG);
    uint32_t src = sbx_timeline_add_source(tl, "log", log, sizeof LOG - 1, SBX_DATA_HEAP);
    struct sbx_load_opts lo = {.threads = 1};
    sbx_load_source(tl, src, &sbx_format_recorder, &lo);
    char *raw = malloc(n ? n : 1);
    memcpy(raw, tail, n);
    uint32_t rsrc = sbx_timeline_add_source(tl, "raw", raw, n, SBX_DATA_HEAP);
    struct sbx_evbuf buf = {0};
    for (int escaped = 0; escaped < 2; escaped++) {
        struct sbx_event *e = sbx_evbuf_push(&buf);
        e->source = (uint16_t)rsrc;
        e->kind = SBX_EV_COMMAND;
        sbx_ev_set_line_no(e, (uint32_t)escaped + 1);
        e->start = e->end = escaped;
        e->u.cmd.out = sbx_text_make(&buf, e, 0, n, SBX_TEXT_PRESENT | (escaped ? SBX_TEXT_ESCAPED : 0));
    }
    sbx_timeline_adopt(tl, &buf);
    sbx_timeline_finish(tl);
    return tl;
}

/* 1 match, 0 none, -1 PCRE2 gave up */
static int ref_text(pcre2_code *re, pcre2_match_data *md, pcre2_match_context *mc, const char *s,
                    size_t n)
{
    int rc = pcre2_match(re, (PCRE2_SPTR)s, n, 0, 0, md, mc);
    return rc >= 0 ? 1 : rc == PCRE2_ERROR_NOMATCH ? 0 : -1;
}

static int ref_match(pcre2_code *re, pcre2_match_data *md, pcre2_match_context *mc,
                     const struct sbx_timeline *tl, const struct sbx_event *ev)
{
    struct sbx_buf scratch = SBX_BUF_INIT;
    int hit = 0, r;
    if (ev->kind == SBX_EV_COMMAND) {
        const struct sbx_text err = sbx_cmd_err(&ev->u.cmd);
        const struct sbx_text *t[] = {&ev->u.cmd.command, &ev->u.cmd.out, &err};
        for (int k = 0; k < 3 && hit != 1; k++) {
            if (!(t[k]->flags & SBX_TEXT_PRESENT))
                continue;
            size_t n;
            const char *s = sbx_text_get(tl, ev, t[k], &scratch, &n);
            if ((r = ref_text(re, md, mc, s, n)) != 0)
                hit = r;
        }
    } else if (ev->kind == SBX_EV_FILES) {
        for (int c = 0; c < SBX_CHANGE_COUNT; c++)
            for (uint32_t i = 0; i < ev->u.files->n[c] && hit != 1; i++) {
                const char *p = sbx_files_path(tl, ev->u.files, (enum sbx_change)c, i);
                if ((r = ref_text(re, md, mc, p, strlen(p))) != 0)
                    hit = r;
            }
    }
    if (hit != 1 && ev->label) {
        const char *l = sbx_str(tl, ev->label);
        if ((r = ref_text(re, md, mc, l, strlen(l))) != 0)
            hit = r;
    }
    sbx_buf_free(&scratch);
    return hit;
}

static void check_search(const struct sbx_timeline *tl, const char *pat, size_t len,
                         const uint32_t *pos, size_t npos)
{
    uint32_t opts = PCRE2_UTF | PCRE2_MATCH_INVALID_UTF | PCRE2_MULTILINE | PCRE2_NEVER_BACKSLASH_C |
                    (sbx_lit_smartcase(pat, len) ? PCRE2_CASELESS : 0);
    int code;
    PCRE2_SIZE off;
    pcre2_code *re = pcre2_compile((PCRE2_SPTR)pat, len, opts, &code, &off, NULL);
    if (!re)
        abort(); /* the query compiled it */
    /* the same engine as the query's: PCRE2's JIT and its interpreter do
       not always agree around invalid UTF-8 (10.42: "(a*)+$" at the end) */
    pcre2_jit_compile(re, PCRE2_JIT_COMPLETE);
    pcre2_match_data *md = pcre2_match_data_create(1, NULL);
    pcre2_match_context *mc = pcre2_match_context_create(NULL);
    pcre2_set_match_limit(mc, 1000000);
    pcre2_set_depth_limit(mc, 10000);
    size_t k = 0;
    for (size_t i = 0; i < tl->n; i++) {
        bool got = k < npos && pos[k] == i;
        k += got;
        int want = ref_match(re, md, mc, tl, sbx_tl_at(tl, i));
        if (want >= 0 && want != got)
            abort();
    }
    pcre2_match_context_free(mc);
    pcre2_match_data_free(md);
    pcre2_code_free(re);
}

/* An id character as ids are compared: case folded, 'o' as '0', 'i' and
 * 'l' as '1' (Crockford's alphabet). */
static char id_fold(char c)
{
    c = c >= 'A' && c <= 'Z' ? (char)(c + 32) : c;
    return c == 'o' ? '0' : c == 'i' || c == 'l' ? '1' : c;
}

/* A search "id:PREFIX[/KIND]" that compiled as an id term: the events it
 * finds are those whose id, spelled out, starts with PREFIX (and that carry
 * KIND). */
static void check_id_search(const struct sbx_timeline *tl, const char *pat, size_t len,
                            const uint32_t *pos, size_t npos)
{
    const char *v = pat + 3, *slash = memchr(v, '/', len - 3);
    size_t vn = slash ? (size_t)(slash - v) : len - 3;
    uint32_t kind = 0;
    if (slash) {
        char name[64];
        size_t kn = len - 3 - vn - 1;
        if (kn >= sizeof name)
            abort();
        memcpy(name, slash + 1, kn);
        name[kn] = '\0';
        if (!(kind = sbx_finding_by_name(name)))
            abort(); /* the query accepted it */
    }
    size_t k = 0;
    for (size_t i = 0; i < tl->n; i++) {
        bool got = k < npos && pos[k] == i;
        k += got;
        char id[SBX_EVID_LEN];
        sbx_event_id(tl, sbx_tl_at(tl, i), id);
        bool want = strlen(id) >= vn;
        for (size_t c = 0; want && c < vn; c++)
            want = id_fold(id[c]) == id_fold(v[c]);
        if (kind && !(sbx_tl_at(tl, i)->findings & kind))
            want = false;
        if (want != got)
            abort();
    }
}

static void check_find(const struct sbx_query *q, const char *s, size_t n)
{
    size_t at = 0, b, e, rounds = 0;
    while (sbx_query_find(q, s, n, at, &b, &e)) {
        if (b < at || b >= e || e > n || ++rounds > n)
            abort();
        at = e;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    bool filter = data[0] & 1;
    const uint8_t *expr = data + 1, *end = data + size;
    const uint8_t *nul = memchr(expr, 0, (size_t)(end - expr));
    size_t elen = nul ? (size_t)(nul - expr) : (size_t)(end - expr);
    const uint8_t *tail = nul ? nul + 1 : end;
    size_t tlen = (size_t)(end - tail);

    char err[200];
    memset(err, 'X', sizeof err);
    struct sbx_query_time tm = {INT64_C(1767225600000000000), (data[0] & 2) != 0};
    struct sbx_query *q = sbx_query_compile(filter ? SBX_QUERY_FILTER : SBX_QUERY_SEARCH,
                                            (const char *)expr, elen, &tm, err, sizeof err);
    if (!q) {
        if (!memchr(err, '\0', sizeof err) || !err[0])
            abort();
        return 0;
    }
    struct sbx_timeline *tl = build(tail, tlen);
    uint32_t *one, *two;
    struct sbx_query_job j1 = {.threads = 1}, j2 = {.threads = 2};
    size_t n1 = sbx_query_run(q, tl, NULL, 0, &one, &j1);
    size_t n2 = sbx_query_run(q, tl, NULL, 0, &two, &j2);
    if (n1 != n2 || n1 > tl->n || (n1 && memcmp(one, two, n1 * sizeof *one) != 0))
        abort();
    struct sbx_query_scratch *sc = sbx_query_scratch_new();
    size_t k = 0;
    for (size_t i = 0; i < tl->n; i++) {
        bool got = k < n1 && one[k] == i;
        k += got;
        if (sbx_query_match(q, tl, sbx_tl_at(tl, i), sc) != got)
            abort();
    }
    sbx_query_scratch_free(sc);
    if (!filter && !sbx_query_has_pattern(q))
        check_id_search(tl, (const char *)expr, elen, one, n1);
    else if (!filter)
        check_search(tl, (const char *)expr, elen, one, n1);
    check_find(q, (const char *)tail, tlen);
    check_find(q, LOG, sizeof LOG - 1);
    free(one);
    free(two);
    sbx_query_free(q);
    sbx_timeline_free(tl);
    free(tl);
    return 0;
}
