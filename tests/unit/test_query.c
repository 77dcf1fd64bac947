/* The search and filter engine (query/query), on small logs made here; the
 * queries on the fixture below are the table tests/unit/cases/filters.test. */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sched.h>
#include <pthread.h>

#include <cmocka.h>
#include <pcre2.h>

#include "importers/format.h"
#include "importers/load.h"
#include "query/query.h"
#include "query/lit.h"
#include "tests/unit/cases.h"
#include "model/evid.h"
#include "model/files.h"

#define NS INT64_C(1000000000)

static struct sbx_timeline *load(const char *log)
{
    struct sbx_timeline *tl = malloc(sizeof *tl);
    sbx_timeline_init(tl);
    size_t n = strlen(log);
    char *copy = malloc(n + 1);
    memcpy(copy, log, n + 1);
    uint32_t src = sbx_timeline_add_source(tl, "run.jsonl", copy, n, SBX_DATA_HEAP);
    struct sbx_load_opts lo = {.threads = 1};
    sbx_load_source(tl, src, &sbx_format_recorder, &lo);
    sbx_timeline_finish(tl);
    assert_int_equal(tl->nskips, 0);
    return tl;
}

static void unload(struct sbx_timeline *tl)
{
    sbx_timeline_free(tl);
    free(tl);
}

static struct sbx_event *by_line(struct sbx_timeline *tl, uint32_t line)
{
    for (size_t i = 0; i < tl->n; i++)
        if (sbx_ev_line_no(sbx_tl_at(tl, i)) == line)
            return sbx_tl_at(tl, i);
    fail_msg("no event from line %u", line);
    return NULL;
}

/* The fixture: one event per line, in time order (so position i is line
 * i + 1). In C, \\u0066 is the six bytes \u0066 in the file. The case file
 * lists these events at its top: change both together. */
static const char *const LOG =
    /* 1 */ "{\"at\": \"2026-01-01T00:00:01Z\", \"sandbox\": \"s1a\", \"kind\": \"command\", \"command\": \"pytest -q\", \"cwd\": \"/srv/float\", \"exit\": 1, \"timed_out\": false, \"ms\": 10, \"stdout\": \"FAILED test_x\\nFLOAT mismatch\", \"stderr\": \"\"}\n"
    /* 2 */ "{\"at\": \"2026-01-01T00:00:02Z\", \"sandbox\": \"s1b\", \"kind\": \"command\", \"command\": \"pip install requests\", \"exit\": 0, \"timed_out\": false, \"ms\": 10, \"stdout\": \"Successfully installed\", \"stderr\": \"\"}\n"
    /* 3 */ "{\"at\": \"2026-01-01T00:00:03Z\", \"sandbox\": \"s2\", \"kind\": \"command\", \"command\": \"curl https://paste.example.com\", \"exit\": 7, \"timed_out\": false, \"ms\": 10, \"stdout\": \"\", \"stderr\": \"curl: (7) Failed to connect: Connection refused\"}\n"
    /* 4 */ "{\"at\": \"2026-01-01T00:00:04Z\", \"sandbox\": \"s2\", \"kind\": \"command\", \"command\": \"sleep 99\", \"exit\": 124, \"timed_out\": true, \"ms\": 10, \"stdout\": \"\", \"stderr\": \"\"}\n"
    /* 5 */ "{\"at\": \"2026-01-01T00:00:05Z\", \"sandbox\": \"s2\", \"kind\": \"command\", \"command\": \"echo\", \"exit\": 0, \"timed_out\": false, \"ms\": 10, \"stdout\": \"\\u0066loat escaped, caf\\u00e9\", \"stderr\": \"\"}\n"
    /* 6 */ "{\"at\": \"2026-01-01T00:00:06Z\", \"sandbox\": \"s1a\", \"kind\": \"files\", \"added\": [\"./src/leap.py\"], \"changed\": [\"./README.md\"], \"removed\": []}\n"
    /* 7 */ "{\"at\": \"2026-01-01T00:00:07Z\", \"sandbox\": \"s1a\", \"kind\": \"lifecycle.started\"}\n"
    /* 8 */ "{\"at\": \"2026-01-01T00:00:08Z\", \"sandbox\": \"s1a\", \"kind\": \"command\", \"command\": \"weird\", \"exit\": -1, \"timed_out\": false, \"ms\": 10, \"stdout\": \"\\ud83d\\ude80float\", \"stderr\": \"\"}\n"
    /* 9 */ "{\"at\": \"2026-01-01T00:00:09Z\", \"sandbox\": \"s1a\", \"kind\": \"command\", \"command\": \"ls\", \"exit\": 0, \"timed_out\": false, \"ms\": 10, \"stdout\": \"a\\/b and \\\"quoted\\\"\", \"stderr\": \"\"}\n"
    /* 10 */ "{\"at\": \"2026-01-01T00:00:10Z\", \"sandbox\": \"s3\", \"kind\": \"files\", \"root\": \"/etc\", \"added\": [], \"changed\": [\"./hosts\"], \"removed\": []}\n";

static struct sbx_timeline *fixture(void)
{
    struct sbx_timeline *tl = load(LOG);
    assert_int_equal(tl->n, 10);
    /* findings as the analyses would set them */
    by_line(tl, 2)->findings |= SBX_F_SECRET;
    by_line(tl, 3)->findings |= SBX_F_REFUSED_HOST;
    by_line(tl, 5)->findings |= SBX_F_BAD_FIELD;
    by_line(tl, 7)->findings |= SBX_F_ACCOUNT_CHANGE;
    by_line(tl, 9)->findings |= SBX_F_OUTSIDE_WRAPPER | SBX_F_HASH_MISMATCH;
    by_line(tl, 10)->findings |= SBX_F_SYSTEM_FILES;
    return tl;
}

/* The line numbers that match, space-separated ("" for none, "ERR: …" for a
 * compile error, "CANCELLED"). */
static char *lines(struct sbx_timeline *tl, enum sbx_query_kind kind, const char *text,
                   const struct sbx_query_time *tm, int threads)
{
    static char out[4096];
    char err[256];
    struct sbx_query *q = sbx_query_compile(kind, text, strlen(text), tm, err, sizeof err);
    if (!q) {
        snprintf(out, sizeof out, "ERR: %s", err);
        return out;
    }
    uint32_t *pos;
    struct sbx_query_job job = {.threads = threads};
    size_t n = sbx_query_run(q, tl, NULL, 0, &pos, &job);
    sbx_query_free(q);
    if (n == SIZE_MAX)
        return strcpy(out, "CANCELLED");
    assert_int_equal(job.done, tl->n);
    assert_int_equal(job.total, tl->n);
    out[0] = '\0';
    for (size_t i = 0; i < n; i++)
        snprintf(out + strlen(out), sizeof out - strlen(out), "%s%u", i ? " " : "",
                 sbx_ev_line_no(sbx_tl_at(tl, pos[i])));
    free(pos);
    return out;
}

static const struct sbx_query_time DAY = {INT64_C(1767225600) * NS, false}; /* 2026-01-01T00:00Z */

#define SEARCH(tl, text) lines(tl, SBX_QUERY_SEARCH, text, NULL, 0)
#define FILTER(tl, text) lines(tl, SBX_QUERY_FILTER, text, &DAY, 0)

/* A case of tests/unit/cases/filters.test: the query as typed (/ a search,
 * & a filter), then the lines it keeps or its error. */
static void check_case(const struct test_case *c, void *ctx)
{
    struct sbx_timeline *tl = ctx;
    if (strcmp(c->table, "") != 0)
        case_fail(c, "no such table in this file's runner");
    case_want_fields(c, 2);
    if (c->field[0][0] != '/' && c->field[0][0] != '&')
        case_fail(c, "a query starts with / (search) or & (filter)");
    const char *got = c->field[0][0] == '/'
                          ? lines(tl, SBX_QUERY_SEARCH, c->field[0] + 1, NULL, 0)
                          : lines(tl, SBX_QUERY_FILTER, c->field[0] + 1, &DAY, 0);
    if (strcmp(got, c->field[1]) != 0)
        case_fail(c, "%s gives [%s], want [%s]", c->field[0], got, c->field[1]);
}

/* What is searched, smart case, escaped text, filter words and keys,
 * negation, quoting and errors on the fixture. */
static void filter_cases(void **state)
{
    (void)state;
    struct sbx_timeline *tl = fixture();
    cases_run("filters.test", check_case, tl);
    unload(tl);
}

static void smart_case(void **state)
{
    (void)state;
    assert_true(sbx_lit_smartcase("\\S+\\p{Lu}\\x41", 14));
    assert_true(sbx_lit_smartcase("(?<Name>x)\\k<Name>(*UTF)", 24));
    assert_false(sbx_lit_smartcase("[A-Z]", 5));
    assert_false(sbx_lit_smartcase("\\QA\\E", 6));
    assert_false(sbx_lit_smartcase("\xc3\x89", 2)); /* É */
    assert_true(sbx_lit_smartcase("\xc3\xa9", 2));  /* é */
    assert_false(sbx_lit_smartcase("\xce\x94", 2)); /* Δ */
}

/* A timeline with one command whose stdout is raw bytes (as a plain-text
 * importer would keep them): the recorder refuses lines that are not UTF-8,
 * so these events are made by hand. */
static struct sbx_timeline *raw_events(const char *const *outs, size_t n, bool escaped)
{
    struct sbx_timeline *tl = malloc(sizeof *tl);
    sbx_timeline_init(tl);
    struct sbx_buf data = SBX_BUF_INIT;
    uint64_t off[16];
    for (size_t i = 0; i < n; i++) {
        off[i] = data.len;
        sbx_buf_adds(&data, outs[i]);
    }
    uint32_t src = sbx_timeline_add_source(tl, "raw", data.p, data.len, SBX_DATA_HEAP);
    struct sbx_evbuf buf = {0};
    for (size_t i = 0; i < n; i++) {
        struct sbx_event *e = sbx_evbuf_push(&buf);
        e->source = (uint16_t)src;
        e->kind = SBX_EV_COMMAND;
        sbx_ev_set_line_no(e, (uint32_t)i + 1);
        e->start = e->end = (int64_t)i * NS;
        e->u.cmd.out = sbx_text_make(&buf, e, off[i], strlen(outs[i]),
                                     SBX_TEXT_PRESENT | (escaped ? SBX_TEXT_ESCAPED : 0));
    }
    sbx_timeline_adopt(tl, &buf);
    sbx_timeline_finish(tl);
    return tl;
}

static void invalid_utf8(void **state)
{
    (void)state;
    const char *outs[] = {"\xff\xfe" "float\xc3", "\xed\xa0\x80" "FLOAT", "fl\xe0" "oat",
                          "\xc3\xa9t\xe9 caf\xc3\xa9", "\xf0\x9f\x9a\x80"};
    for (int escaped = 0; escaped < 2; escaped++) {
        struct sbx_timeline *tl = raw_events(outs, 5, escaped);
        assert_string_equal(SEARCH(tl, "float"), "1 2");
        assert_string_equal(SEARCH(tl, "(?:float)"), "1 2");
        assert_string_equal(SEARCH(tl, "fl.at"), "1 2");
        assert_string_equal(SEARCH(tl, "^float"), "");
        assert_string_equal(SEARCH(tl, "^.float"), "");
        assert_string_equal(SEARCH(tl, "float$"), "2");
        assert_string_equal(SEARCH(tl, "caf\xc3\xa9$"), "4");
        assert_string_equal(SEARCH(tl, "t. caf"), "");
        assert_string_equal(SEARCH(tl, "\xc3\xa9t"), "4");
        assert_string_equal(SEARCH(tl, "\\x{1F680}"), "5");
        assert_string_equal(SEARCH(tl, "."), "1 2 3 4 5");
        unload(tl);
    }

    char err[256];
    struct sbx_query *q = sbx_query_compile(SBX_QUERY_SEARCH, "fl.at", 5, NULL, err, sizeof err);
    assert_non_null(q);
    size_t b = 0, e = 0;
    const char s[] = "\xff\xfe" "float\xc3 FLOAT\xed\xa0\x80";
    assert_true(sbx_query_find(q, s, sizeof s - 1, 0, &b, &e));
    assert_int_equal(b, 2);
    assert_int_equal(e, 7);
    assert_true(sbx_query_find(q, s, sizeof s - 1, e, &b, &e));
    assert_int_equal(b, 9);
    assert_int_equal(e, 14);
    assert_false(sbx_query_find(q, s, sizeof s - 1, e, &b, &e));
    /* a start inside a character */
    assert_true(sbx_query_find(q, "\xc3\xa9" "float", 7, 1, &b, &e));
    assert_int_equal(b, 2);
    sbx_query_free(q);
}

static void errors(void **state)
{
    (void)state;
    struct sbx_timeline *tl = fixture();
    /* a time of day without the day it is on */
    assert_string_equal(lines(tl, SBX_QUERY_FILTER, "since:10:00", NULL, 0),
                        "ERR: since:10:00: no run start to put the time on; give a full timestamp");
    /* a NULL error buffer is allowed */
    assert_null(sbx_query_compile(SBX_QUERY_FILTER, "(", 1, NULL, NULL, 0));
    unload(tl);
}

/* The lines whose ids start with prefix, computed from the ids themselves. */
static char *lines_with_prefix(struct sbx_timeline *tl, const char *prefix, uint32_t finding)
{
    static char out[4096];
    out[0] = '\0';
    for (size_t i = 0; i < tl->n; i++) {
        char id[SBX_EVID_LEN];
        sbx_event_id(tl, sbx_tl_at(tl, i), id);
        if (strncasecmp(id, prefix, strlen(prefix)) == 0 && (!finding || (sbx_tl_at(tl, i)->findings & finding)))
            snprintf(out + strlen(out), sizeof out - strlen(out), "%s%u", out[0] ? " " : "",
                     sbx_ev_line_no(sbx_tl_at(tl, i)));
    }
    return out;
}

/* id:PREFIX in a filter and a search: every event's whole id finds it
 * alone, every prefix the events that share it, ID/kind only with that
 * finding; what is no id is an error (filter) or a pattern (search). */
static void ids(void **state)
{
    (void)state;
    struct sbx_timeline *tl = fixture();
    for (size_t i = 0; i < tl->n; i++) {
        char id[SBX_EVID_LEN], q[64], want[4096];
        sbx_event_id(tl, sbx_tl_at(tl, i), id);
        for (size_t len = 1; len <= strlen(id); len += 3) {
            char prefix[SBX_EVID_LEN];
            snprintf(prefix, sizeof prefix, "%.*s", (int)len, id);
            strcpy(want, lines_with_prefix(tl, prefix, 0));
            snprintf(q, sizeof q, "id:%s", prefix);
            assert_string_equal(FILTER(tl, q), want);
            assert_string_equal(SEARCH(tl, q), want);
            snprintf(q, sizeof q, "!id:%s", prefix);
            assert_true(strcmp(FILTER(tl, q), want) != 0 || !want[0]);
        }
        snprintf(q, sizeof q, "id:%s/secret", id);
        strcpy(want, lines_with_prefix(tl, id, SBX_F_SECRET));
        assert_string_equal(FILTER(tl, q), want);
    }
    assert_string_equal(FILTER(tl, "id:u"),
                        "ERR: id: \"u\" is not an event id (10 letters and digits, then .N for a repeat)");
    assert_string_equal(FILTER(tl, "id:abc/nothing"), "ERR: id: no finding kind called \"nothing\"");
    /* a search for text that is no id is a pattern as before */
    assert_string_equal(SEARCH(tl, "id:u"), "");
    unload(tl);
}

static void hostile_patterns(void **state)
{
    (void)state;
    struct sbx_buf b = SBX_BUF_INIT;
    sbx_buf_adds(&b, "{\"at\": \"2026-01-01T00:00:01Z\", \"kind\": \"command\", \"command\": \"x\", \"stdout\": \"");
    for (int i = 0; i < 30000; i++)
        sbx_buf_addc(&b, 'a');
    sbx_buf_adds(&b, "!\"}\n{\"at\": \"2026-01-01T00:00:02Z\", \"kind\": \"command\", \"command\": \"aaa\"}\n");
    struct sbx_timeline *tl = load(b.p);
    char err[256];
    /* catastrophic backtracking: PCRE2 gives up on the long text */
    const char *evil = "(a+)+$";
    struct sbx_query *q = sbx_query_compile(SBX_QUERY_SEARCH, evil, strlen(evil), NULL, err, sizeof err);
    assert_non_null(q);
    uint32_t *pos;
    struct sbx_query_job job = {.threads = 2};
    /* PCRE2's match limit bounds the work: the text counts as too complex */
    size_t n = sbx_query_run(q, tl, NULL, 0, &pos, &job);
    assert_int_equal(n, 1); /* "aaa" */
    assert_int_equal(sbx_ev_line_no(sbx_tl_at(tl, pos[0])), 2);
    assert_int_equal(job.too_complex, 1);
    free(pos);
    sbx_query_free(q);

    /* not UTF-8, NUL, \C, deep nesting, too long: errors, never crashes */
    assert_null(sbx_query_compile(SBX_QUERY_SEARCH, "a\xff", 2, NULL, err, sizeof err));
    assert_non_null(strstr(err, "UTF-8"));
    assert_null(sbx_query_compile(SBX_QUERY_SEARCH, "a\\C", 3, NULL, err, sizeof err));
    sbx_buf_clear(&b);
    for (int i = 0; i < 5000; i++)
        sbx_buf_addc(&b, '(');
    assert_null(sbx_query_compile(SBX_QUERY_SEARCH, b.p, b.len, NULL, err, sizeof err));
    sbx_buf_clear(&b);
    for (int i = 0; i < 70000; i++)
        sbx_buf_addc(&b, 'a');
    assert_null(sbx_query_compile(SBX_QUERY_SEARCH, b.p, b.len, NULL, err, sizeof err));
    q = sbx_query_compile(SBX_QUERY_SEARCH, "a\0a", 3, NULL, err, sizeof err);
    assert_non_null(q);
    assert_int_equal(sbx_query_run(q, tl, NULL, 0, &pos, NULL), 0);
    assert_null(pos);
    sbx_query_free(q);
    /* escapes the literal reader must not take for characters */
    const char *tricky[] = {"\\x61aa", "a{3}", "a{1,}a", "\\141aa", "(?i)AAA", "\\Qaaa\\E",
                            "(?:(*ACCEPT))zzz", "[a]aa", "\\p{Ll}aa", "\\N{U+61}aa"};
    for (size_t i = 0; i < sizeof tricky / sizeof *tricky; i++) {
        q = sbx_query_compile(SBX_QUERY_SEARCH, tricky[i], strlen(tricky[i]), NULL, err, sizeof err);
        assert_non_null(q);
        struct sbx_query_scratch *sc = sbx_query_scratch_new();
        if (!sbx_query_match(q, tl, by_line(tl, 2), sc))
            fail_msg("%s does not match \"aaa\"", tricky[i]);
        sbx_query_scratch_free(sc);
        sbx_query_free(q);
    }
    unload(tl);
    sbx_buf_free(&b);
}

static void literal_reader(void **state)
{
    (void)state;
    static const struct {
        const char *pat;
        bool caseless;
        const char *lit; /* NULL: none */
        bool pure;
    } cases[] = {
        {"float", true, "float", true},
        {"Connection refused", false, "Connection refused", true},
        {"fo+barbaz", false, "barbaz", false},
        {"colou?r", false, "colo", false},
        {"a|bcd", false, NULL, false},
        {"(a|b)cde", false, "cde", false},
        {"(?i)abc", false, NULL, false},
        {"x{2,3}yz", false, "yz", false},
        {"\\d+abc\\.d", false, "abc.d", false},
        {"[xyz]def", false, "def", false},
        {"\\x41BC", false, "BC", false},
        {"k8s", true, "8", false},
        {"Kubernetes", false, "Kubernetes", true},
        {"caf\xc3\xa9", false, "caf\xc3\xa9", false},
        {"caf\xc3\xa9", true, "caf", false},
        {"a/b", true, "a/b", true},
        {"\\Qabc\\E", false, NULL, false},
        {"(*UTF)abc", false, NULL, false},
        {"ab{,3}", false, "a", false},
        /* PCRE2 ignores \E without \Q and an empty \Q\E: the quantifier
           after either applies to the character before */
        {"abc\\E*", false, "ab", false},
        {"xyz\\Q\\E?", false, "xy", false},
        {"\x19\\E*", false, NULL, false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        struct sbx_lit lit;
        sbx_lit_extract(cases[i].pat, strlen(cases[i].pat), cases[i].caseless, &lit);
        if (!cases[i].lit) {
            if (lit.n)
                fail_msg("%s: literal %.*s, expected none", cases[i].pat, (int)lit.n, lit.s);
            continue;
        }
        if (lit.n != strlen(cases[i].lit) || memcmp(lit.s, cases[i].lit, lit.n) != 0 ||
            lit.pure != cases[i].pure)
            fail_msg("%s: literal '%.*s' pure %d, expected '%s' pure %d", cases[i].pat, (int)lit.n,
                     lit.s, lit.pure, cases[i].lit, cases[i].pure);
    }

    struct sbx_lit lit;
    sbx_lit_extract("float", 5, true, &lit);
    const char hay[] = "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxFlOaT";
    assert_ptr_equal(sbx_lit_find(&lit, hay, sizeof hay - 1), hay + sizeof hay - 6);
    assert_null(sbx_lit_find(&lit, hay, sizeof hay - 2));
    /* in the raw bytes, or made by an escape: at any place of a long body */
    char body[300];
    const char *hides[] = {"\\u0066", "\\u004C", "FLOAT", "fl\\u006fat"};
    const char *clean[] = {"\\u00e9", "\\n", "\\\"", "\\u0020", "\\u00", "flo\\nat", "\\u2192"};
    for (size_t at = 0; at < 200; at += 7) {
        for (size_t h = 0; h < sizeof hides / sizeof *hides; h++) {
            memset(body, 'x', sizeof body);
            memcpy(body + at, hides[h], strlen(hides[h]));
            if (!sbx_lit_json_may_have(&lit, body, at + strlen(hides[h]) + at % 5))
                fail_msg("%s at %zu not seen", hides[h], at);
        }
        memset(body, 'x', sizeof body);
        for (size_t c = 0, p = at; c < sizeof clean / sizeof *clean; p += strlen(clean[c++]))
            memcpy(body + p, clean[c], strlen(clean[c]));
        assert_false(sbx_lit_json_may_have(&lit, body, sizeof body));
    }
    sbx_lit_extract("a\nb", 3, false, &lit);
    assert_true(sbx_lit_json_may_have(&lit, "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxa\\nb", 74));
    assert_false(sbx_lit_json_may_have(&lit, "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxa\\tb", 74));
    sbx_lit_extract("caf\xc3\xa9", 5, false, &lit);
    assert_true(sbx_lit_json_may_have(&lit, "caf\\u00e9", 9));
    assert_true(sbx_lit_json_may_have(&lit, "caf\\u00e8", 9));  /* è shares é's lead byte */
    assert_false(sbx_lit_json_may_have(&lit, "caf\\u2192", 9)); /* → shares none of its bytes */
    assert_true(sbx_lit_json_may_have(&lit, "caf\\ud83d", 9));

}

static void subset(void **state)
{
    (void)state;
    struct sbx_timeline *tl = fixture();
    char err[256];
    struct sbx_query *q = sbx_query_compile(SBX_QUERY_FILTER, "float", 5, NULL, err, sizeof err);
    assert_non_null(q);
    uint32_t *all, *some;
    size_t n = sbx_query_run(q, tl, NULL, 0, &all, NULL);
    assert_int_equal(n, 3);
    const uint32_t sub[] = {1, 4, 5, 7, 8};
    struct sbx_query_job job = {0};
    size_t m = sbx_query_run(q, tl, sub, 5, &some, &job);
    assert_int_equal(job.total, 5);
    assert_int_equal(job.done, 5);
    /* the subset's matches are exactly the full run's matches that are in it */
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < 5; j++)
            if (sub[j] == all[i]) {
                assert_true(k < m);
                assert_int_equal(some[k++], all[i]);
            }
    assert_int_equal(k, m);
    assert_int_equal(m, 2);
    free(all);
    free(some);
    /* an empty subset */
    assert_int_equal(sbx_query_run(q, tl, sub, 0, &some, NULL), 0);
    assert_null(some);
    sbx_query_free(q);
    unload(tl);
}

static void cancellation(void **state)
{
    (void)state;
    struct sbx_timeline *tl = fixture();
    struct sbx_query *q = sbx_query_compile(SBX_QUERY_SEARCH, "float", 5, NULL, NULL, 0);
    uint32_t *pos = (uint32_t *)&pos;
    struct sbx_query_job job = {.threads = 4};
    atomic_store(&job.cancel, true);
    assert_int_equal(sbx_query_run(q, tl, NULL, 0, &pos, &job), SIZE_MAX);
    assert_null(pos);
    atomic_store(&job.cancel, false);
    assert_int_equal(sbx_query_run(q, tl, NULL, 0, &pos, &job), 3);
    free(pos);
    sbx_query_free(q);
    unload(tl);
}

struct bg_run {
    const struct sbx_query *q;
    const struct sbx_timeline *tl;
    struct sbx_query_job *job;
    size_t result;
};

static void *bg(void *arg)
{
    struct bg_run *b = arg;
    uint32_t *pos;
    b->result = sbx_query_run(b->q, b->tl, NULL, 0, &pos, b->job);
    free(pos);
    return NULL;
}

/* n events whose output makes "(a+)+$" hit PCRE2's limit: each takes
 * milliseconds. */
static struct sbx_timeline *slow_events(int n)
{
    struct sbx_buf b = SBX_BUF_INIT;
    for (int e = 0; e < n; e++) {
        sbx_buf_addf(&b, "{\"at\": \"2026-01-01T00:00:%02dZ\", \"kind\": \"command\", \"command\": \"x\", \"stdout\": \"", e % 60);
        for (int i = 0; i < 20000; i++)
            sbx_buf_addc(&b, 'a');
        sbx_buf_adds(&b, "!\"}\n");
    }
    struct sbx_timeline *tl = load(b.p);
    sbx_buf_free(&b);
    return tl;
}

/* Esc while a slow search runs: it stops at once. Counted, not timed: once
 * cancel is set, each thread begins at most the one event it was about to
 * (it looks before every event), whatever the number of events and however
 * far the run had got. */
static void cancel_while_running(void **state)
{
    (void)state;
    struct sbx_query *q = sbx_query_compile(SBX_QUERY_SEARCH, "(a+)+$", 6, NULL, NULL, 0);
    static const int sizes[] = {150, 300};
    for (size_t z = 0; z < sizeof sizes / sizeof *sizes; z++) {
        struct sbx_timeline *tl = slow_events(sizes[z]);
        struct sbx_query_job job = {.threads = 2, .count_work = true};
        struct bg_run run = {q, tl, &job, 0};
        pthread_t t;
        if (z == 0) { /* the whole run: every event too complex, none a match */
            assert_int_equal(pthread_create(&t, NULL, bg, &run), 0);
            pthread_join(t, NULL);
            assert_int_equal(run.result, 0);
            assert_int_equal(job.too_complex, (size_t)sizes[z]);
            assert_int_equal(job.begun, (size_t)sizes[z]);
        }
        /* cancelled after a few events, and after half of them */
        const size_t after[] = {3, (size_t)sizes[z] / 2};
        for (size_t k = 0, tries = 0; k < 2; k++) {
            job = (struct sbx_query_job){.threads = 2, .count_work = true};
            assert_int_equal(pthread_create(&t, NULL, bg, &run), 0);
            while (atomic_load(&job.begun) < after[k])
                sched_yield();
            atomic_store(&job.cancel, true);
            size_t at_cancel = atomic_load(&job.begun);
            pthread_join(t, NULL);
            if (at_cancel == (size_t)sizes[z] && ++tries < 20) {
                k--; /* every event had begun before this thread set cancel: again */
                continue;
            }
            size_t later = atomic_load(&job.begun) - at_cancel;
            assert_int_equal(run.result, SIZE_MAX);
            assert_true(atomic_load(&job.done) < atomic_load(&job.total));
            if (later > (size_t)job.threads)
                fail_msg("%d events, cancelled after %zu: %zu more began", sizes[z], at_cancel, later);
        }
        unload(tl);
    }
    sbx_query_free(q);
}

/* ---- many events: threads agree with one thread and with plain PCRE2 */

static const char *const WORDS[] = {
    "float", "FLOAT", "\\u0066loat", "fl\\u006Fat", "Float", "flo", "at", "a\\/b", "a/b",
    "\\\"q\\\"", "\\n", "\\t", "caf\\u00e9", "café", "CAFÉ", "\\ud83d\\ude80", "🚀", "k8s",
    "\\u212a8s", "Kubernetes", "error", "ERROR:", "x=1", "\\\\u0066", "[...]", "Connection refused",
};

static struct sbx_timeline *many(size_t n)
{
    struct sbx_buf b = SBX_BUF_INIT;
    uint32_t seed = 12345;
    size_t nw = sizeof WORDS / sizeof *WORDS;
    for (size_t i = 0; i < n; i++) {
        sbx_buf_addf(&b, "{\"at\": \"2026-01-01T%02zu:%02zu:%02zu.%03zuZ\", \"sandbox\": \"s%zu\", ",
                     i / 3600000 % 24, i / 60000 % 60, i / 1000 % 60, i % 1000, i % 3);
        if (i % 50 == 7) {
            sbx_buf_addf(&b, "\"kind\": \"files\", \"added\": [\"./%s\"]}\n", i % 100 == 7 ? "float.c" : "x.c");
            continue;
        }
        sbx_buf_adds(&b, "\"kind\": \"command\", \"command\": \"run");
        const char *fields[] = {"\", \"stdout\": \"", "\", \"stderr\": \"", "\"}\n"};
        for (int f = 0; f < 3; f++) {
            seed = seed * 1103515245u + 12345u;
            int words = (int)(seed >> 16) % 6;
            for (int w = 0; w < words; w++) {
                seed = seed * 1103515245u + 12345u;
                sbx_buf_adds(&b, WORDS[(seed >> 16) % nw]);
                sbx_buf_addc(&b, (seed >> 8) % 3 ? ' ' : '-');
            }
            sbx_buf_adds(&b, fields[f]);
        }
    }
    struct sbx_timeline *tl = load(b.p);
    sbx_buf_free(&b);
    return tl;
}

static bool ref_text(pcre2_code *re, pcre2_match_data *md, const char *s, size_t n)
{
    return pcre2_match(re, (PCRE2_SPTR)s, n, 0, 0, md, NULL) >= 0;
}

/* What the search means, computed the slow way: decode everything, PCRE2 it. */
static bool ref_match(pcre2_code *re, pcre2_match_data *md, const struct sbx_timeline *tl,
                      const struct sbx_event *ev)
{
    struct sbx_buf scratch = SBX_BUF_INIT;
    bool hit = false;
    if (ev->kind == SBX_EV_COMMAND) {
        const struct sbx_text err = sbx_cmd_err(&ev->u.cmd);
        const struct sbx_text *t[] = {&ev->u.cmd.command, &ev->u.cmd.out, &err};
        for (int k = 0; k < 3 && !hit; k++) {
            if (!(t[k]->flags & SBX_TEXT_PRESENT))
                continue;
            size_t n;
            const char *s = sbx_text_get(tl, ev, t[k], &scratch, &n);
            hit = ref_text(re, md, s, n);
        }
    } else if (ev->kind == SBX_EV_FILES) {
        for (int c = 0; c < SBX_CHANGE_COUNT; c++)
            for (uint32_t i = 0; i < ev->u.files->n[c] && !hit; i++)
                hit = ref_text(re, md, sbx_files_path(tl, ev->u.files, (enum sbx_change)c, i),
                               strlen(sbx_files_path(tl, ev->u.files, (enum sbx_change)c, i)));
    }
    if (!hit && ev->label)
        hit = ref_text(re, md, sbx_str(tl, ev->label), strlen(sbx_str(tl, ev->label)));
    sbx_buf_free(&scratch);
    return hit;
}

static void threads_agree(void **state)
{
    (void)state;
    struct sbx_timeline *tl = many(6000);
    const char *pats[] = {"float", "FLOAT", "Float", "(?:float)", "fl.at", "a/b", "\"q\"", "\n",
                          "\t", "café", "CAFÉ", "🚀", "k8s", "K8s", "error-", "x=1", "\\\\u0066",
                          "\\[\\.\\.\\.\\]", "Connection refused", "refused.$", "^run", "float\\.c",
                          "s-", "q\" a", "ERROR"};
    for (size_t p = 0; p < sizeof pats / sizeof *pats; p++) {
        size_t len = strlen(pats[p]);
        struct sbx_query *q = sbx_query_compile(SBX_QUERY_SEARCH, pats[p], len, NULL, NULL, 0);
        assert_non_null(q);
        uint32_t *one, *eight;
        struct sbx_query_job j1 = {.threads = 1}, j8 = {.threads = 8};
        size_t n1 = sbx_query_run(q, tl, NULL, 0, &one, &j1);
        size_t n8 = sbx_query_run(q, tl, NULL, 0, &eight, &j8);
        assert_int_equal(n1, n8);
        if (n1)
            assert_memory_equal(one, eight, n1 * sizeof *one);

        int code;
        PCRE2_SIZE off;
        uint32_t opts = PCRE2_UTF | PCRE2_MATCH_INVALID_UTF | PCRE2_MULTILINE |
                        (sbx_lit_smartcase(pats[p], len) ? PCRE2_CASELESS : 0);
        pcre2_code *re = pcre2_compile((PCRE2_SPTR)pats[p], len, opts, &code, &off, NULL);
        pcre2_match_data *md = pcre2_match_data_create(1, NULL);
        size_t k = 0;
        for (size_t i = 0; i < tl->n; i++) {
            bool want = ref_match(re, md, tl, sbx_tl_at(tl, i));
            bool got = k < n1 && one[k] == i;
            if (want != got)
                fail_msg("pattern %s, event %zu: want %d got %d", pats[p], i, want, got);
            k += got;
        }
        if (n1 == 0 && strcmp(pats[p], "Float") != 0 && strcmp(pats[p], "K8s") != 0)
            fail_msg("pattern %s matches nothing: the log does not test it", pats[p]);
        pcre2_match_data_free(md);
        pcre2_code_free(re);
        free(one);
        free(eight);
        sbx_query_free(q);
    }
    unload(tl);
}

static void days(void **state)
{
    (void)state;
    /* a run that starts before midnight UTC and ends after it */
    struct sbx_timeline *tl = load(
        "{\"at\": \"2026-01-01T23:50:00Z\", \"kind\": \"a\"}\n"
        "{\"at\": \"2026-01-01T23:59:59.999Z\", \"kind\": \"b\"}\n"
        "{\"at\": \"2026-01-02T00:00:00Z\", \"kind\": \"c\"}\n"
        "{\"at\": \"2026-01-02T00:10:00Z\", \"kind\": \"d\"}\n"
        "{\"kind\": \"no time\"}\n");
    int64_t first = sbx_tl_at(tl, 1)->start; /* order[0] has no time */
    struct sbx_query_time utc = {sbx_query_day_start(first, false), false};
    assert_true(utc.day_start_ns == INT64_C(1767225600) * NS);
    assert_string_equal(lines(tl, SBX_QUERY_FILTER, "since:23:55", &utc, 0), "2 3 4");
    assert_string_equal(lines(tl, SBX_QUERY_FILTER, "until:23:59:59.999", &utc, 0), "1 2");
    assert_string_equal(lines(tl, SBX_QUERY_FILTER, "until:00:05", &utc, 0), ""); /* the 1st's 00:05 */
    assert_string_equal(lines(tl, SBX_QUERY_FILTER, "since:2026-01-02T00:00:00Z", &utc, 0), "3 4");
    assert_string_equal(lines(tl, SBX_QUERY_FILTER, "!since:23:55", &utc, 0), "5 1");

    /* local time: UTC+3 (POSIX writes it -3), no tz database needed */
    setenv("TZ", "XST-3", 1);
    tzset();
    struct sbx_query_time local = {sbx_query_day_start(first, true), true};
    /* 23:50Z is 02:50 on the 2nd, local: that day starts at 21:00Z on the 1st */
    assert_true(local.day_start_ns == INT64_C(1767225600) * NS + 21 * 3600 * NS);
    assert_string_equal(lines(tl, SBX_QUERY_FILTER, "since:02:55", &local, 0), "2 3 4");
    assert_string_equal(lines(tl, SBX_QUERY_FILTER, "until:03:00", &local, 0), "1 2 3");
    assert_string_equal(lines(tl, SBX_QUERY_FILTER, "since:2026-01-02T03:00:00", &local, 0), "3 4");
    assert_string_equal(lines(tl, SBX_QUERY_FILTER, "since:2026-01-02T03:00:00Z", &local, 0), "");
    unsetenv("TZ");
    tzset();

    /* before 1970: the day still starts at the midnight before */
    assert_true(sbx_query_day_start(-1, false) == -86400 * NS);
    assert_true(sbx_query_day_start(0, false) == 0);
    assert_true(sbx_query_day_start(SBX_TIME_UNKNOWN, true) == SBX_TIME_UNKNOWN);
    unload(tl);
}

static void find_ranges(void **state)
{
    (void)state;
    char err[256];
    struct sbx_query *q = sbx_query_compile(SBX_QUERY_FILTER, "kind:command bar !zzz fo+", 25,
                                            NULL, err, sizeof err);
    assert_non_null(q);
    assert_true(sbx_query_has_pattern(q));
    const char *s = "xx fooo bar zzz barfo";
    size_t n = strlen(s), b, e, at = 0;
    char got[128] = "";
    while (sbx_query_find(q, s, n, at, &b, &e)) {
        snprintf(got + strlen(got), sizeof got - strlen(got), "[%zu,%zu)", b, e);
        at = e;
    }
    assert_string_equal(got, "[3,7)[8,11)[16,19)[19,21)");
    sbx_query_free(q);

    /* empty matches are never returned */
    q = sbx_query_compile(SBX_QUERY_SEARCH, "x*", 2, NULL, err, sizeof err);
    assert_true(sbx_query_find(q, "abxxc", 5, 0, &b, &e));
    assert_int_equal(b, 2);
    assert_int_equal(e, 4);
    assert_false(sbx_query_find(q, "abxxc", 5, 4, &b, &e));
    assert_false(sbx_query_find(q, "abxxc", 5, 6, &b, &e));
    sbx_query_free(q);

    /* the longest of those that start first */
    q = sbx_query_compile(SBX_QUERY_FILTER, "ab abc", 6, NULL, err, sizeof err);
    assert_true(sbx_query_find(q, "xabcd", 5, 0, &b, &e));
    assert_int_equal(b, 1);
    assert_int_equal(e, 4);
    sbx_query_free(q);

    /* no pattern, or only negated ones: nothing to highlight */
    q = sbx_query_compile(SBX_QUERY_FILTER, "failed !abc", 11, NULL, err, sizeof err);
    assert_false(sbx_query_has_pattern(q));
    assert_false(sbx_query_find(q, "abc", 3, 0, &b, &e));
    sbx_query_free(q);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(filter_cases),   cmocka_unit_test(ids),   cmocka_unit_test(smart_case),
        cmocka_unit_test(invalid_utf8),   cmocka_unit_test(errors),
        cmocka_unit_test(hostile_patterns), cmocka_unit_test(literal_reader),
        cmocka_unit_test(subset),         cmocka_unit_test(cancellation),
        cmocka_unit_test(cancel_while_running),
        cmocka_unit_test(threads_agree),  cmocka_unit_test(days),
        cmocka_unit_test(find_ranges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
