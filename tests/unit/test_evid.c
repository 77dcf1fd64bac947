/* Stable event ids (model/evid.h): a real run keeps every id when its files
 * are moved and renamed, when Runtime's records are fetched again (another
 * order, indentation and page wrapper), and when another source joins it;
 * exact duplicates get .2, .3 in a fixed way; ids are found exactly and by
 * prefix, and only well-formed ones. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "base/simd.h"
#include "importers/json/jsonscan.h"
#include "importers/load.h"
#include "model/evid.h"
#include "model/evid_canon.h"
#include "tests/fuzz/canon_oracle.h"
#include "loadtest.h"

static const char *const RUN = "tests/fixtures/story-run";
static const char *const FILES[] = {"agent-run.jsonl", "changes.patch", "hosts.diff",
                                    "runtime-audit.jsonl", "runtime-commands.json",
                                    "runtime-events.jsonl"};
enum { NFILES = sizeof FILES / sizeof *FILES };

static char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *p = malloc((size_t)size + 1);
    assert_int_equal(fread(p, 1, (size_t)size, f), (size_t)size);
    fclose(f);
    p[size] = '\0';
    *n = (size_t)size;
    return p;
}

static void spill(const char *path, const char *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(p, 1, n, f), n);
    fclose(f);
}

static void load_dir(struct sbx_timeline *tl, const char *dir)
{
    sbx_timeline_init(tl);
    const char *paths[] = {dir};
    struct sbx_load_report rep = {0};
    assert_true(sbx_load_paths(tl, paths, 1, NULL, &rep) > 0);
    sbx_load_report_free(&rep);
}

/* A scratch copy of the run: file i named names[i] (NULL: left out), with
 * Runtime's commands written by `commands` when it is not NULL. */
static char *copy_run(const char *const *names, const char *commands)
{
    char tmpl[] = "/tmp/sbx-evid-XXXXXX";
    char *dir = strdup(mkdtemp(tmpl));
    for (size_t i = 0; i < NFILES; i++) {
        if (!names[i])
            continue;
        char from[512], to[512];
        snprintf(from, sizeof from, "%s/%s", RUN, FILES[i]);
        snprintf(to, sizeof to, "%s/%s", dir, names[i]);
        size_t n;
        char *p = slurp(from, &n);
        if (commands && strcmp(FILES[i], "runtime-commands.json") == 0)
            spill(to, commands, strlen(commands));
        else
            spill(to, p, n);
        free(p);
    }
    return dir;
}

static void drop_run(char *dir, const char *const *names, const char *extra)
{
    char path[512];
    for (size_t i = 0; i < NFILES; i++)
        if (names[i]) {
            snprintf(path, sizeof path, "%s/%s", dir, names[i]);
            unlink(path);
        }
    if (extra) {
        snprintf(path, sizeof path, "%s/%s", dir, extra);
        unlink(path);
    }
    rmdir(dir);
    free(dir);
}

/* Every event of a has an id that names, in b, an event of the same kind,
 * time, sandbox and label; and ids are unique in a. */
static void same_ids(const struct sbx_timeline *a, const struct sbx_timeline *b)
{
    for (size_t i = 0; i < a->n; i++) {
        const struct sbx_event *e = sbx_tl_at(a, i);
        char id[SBX_EVID_LEN];
        sbx_event_id(a, e, id);
        assert_int_equal(strlen(id) >= SBX_EVID_CHARS, 1);
        assert_ptr_equal(sbx_event_by_id(a, id, strlen(id)), e);
        const struct sbx_event *f = sbx_event_by_id(b, id, strlen(id));
        if (!f)
            fail_msg("id %s (%s line %u) is gone", id, a->sources[e->source].path, sbx_ev_line_no(e));
        assert_int_equal(f->kind, e->kind);
        assert_int_equal(f->start, e->start);
        assert_string_equal(sbx_str(b, f->sandbox), sbx_str(a, e->sandbox));
        assert_string_equal(sbx_str(b, f->label), sbx_str(a, e->label));
    }
}

static void moved_and_renamed(void **state)
{
    (void)state;
    static const char *const names[NFILES] = {"a.jsonl", "z.patch", "0.diff", "m-audit.jsonl",
                                              "commands-renamed.json", "b-events.jsonl"};
    char *dir = copy_run(names, NULL);
    struct sbx_timeline a, b;
    load_dir(&a, RUN);
    load_dir(&b, dir);
    assert_int_equal(a.n, b.n);
    same_ids(&a, &b);
    same_ids(&b, &a);
    sbx_timeline_free(&a);
    sbx_timeline_free(&b);
    drop_run(dir, names, NULL);
}

/* The records as a second fetch might save them: another order, another
 * indentation, another page wrapper. */
static char *refetched(void)
{
    size_t n;
    char path[512];
    snprintf(path, sizeof path, "%s/runtime-commands.json", RUN);
    char *p = slurp(path, &n);
    json_error_t err;
    json_t *doc = json_loads(p, 0, &err);
    assert_non_null(doc);
    free(p);
    json_t *data = json_object_get(doc, "data"), *rev = json_array();
    for (size_t i = json_array_size(data); i-- > 0;)
        json_array_append(rev, json_array_get(data, i));
    json_t *page = json_pack("{s:o,s:s}", "data", rev, "nextCursor", "page-2");
    char *out = json_dumps(page, JSON_INDENT(3) | JSON_PRESERVE_ORDER);
    json_decref(page);
    json_decref(doc);
    return out;
}

static void fetched_again(void **state)
{
    (void)state;
    char *commands = refetched();
    char *dir = copy_run(FILES, commands);
    struct sbx_timeline a, b;
    load_dir(&a, RUN);
    load_dir(&b, dir);
    assert_int_equal(a.n, b.n);
    same_ids(&a, &b);
    sbx_timeline_free(&a);
    sbx_timeline_free(&b);
    free(commands);
    drop_run(dir, FILES, NULL);
}

static void another_source(void **state)
{
    (void)state;
    char *dir = copy_run(FILES, NULL);
    char path[512];
    snprintf(path, sizeof path, "%s/proxy-access.log", dir);
    static const char squid[] =
        "1780392601.000    120 10.0.0.5 TCP_DENIED/403 3900 CONNECT paste.example.com:443 - HIER_NONE/- text/html\n"
        "1780392602.000     80 10.0.0.5 TCP_TUNNEL/200 5100 CONNECT pypi.org:443 - HIER_DIRECT/151.101.0.223 -\n";
    spill(path, squid, sizeof squid - 1);
    struct sbx_timeline a, b;
    load_dir(&a, RUN);
    load_dir(&b, dir);
    assert_int_equal(b.n, a.n + 2);
    same_ids(&a, &b);
    sbx_timeline_free(&a);
    sbx_timeline_free(&b);
    drop_run(dir, FILES, "proxy-access.log");
}

/* Pinned ids (see pinned below). */
#define PINNED_RECORDER "8mabw4dmde"
#define PINNED_SQUID_KEY UINT64_C(0x2e118cbc93d58)
#define PINNED_SQUID_REST UINT64_C(0x6e1c20bcb5438cde)

static const char LINE[] =
    "{\"ts\":\"2026-06-02T09:30:01Z\",\"type\":\"command\",\"command\":\"ls\",\"exit\":0,\"ms\":5}\n";

/* The same record three times and one other: three ids that differ only
 * by their suffix, numbered the same way whichever copy comes first. */
static void duplicates(void **state)
{
    (void)state;
    const struct sbx_format *fmt = &sbx_format_recorder;
    static const char other[] =
        "{\"ts\":\"2026-06-02T09:30:02Z\",\"type\":\"command\",\"command\":\"pwd\",\"exit\":0,\"ms\":5}\n";
    char text[1024];
    snprintf(text, sizeof text, "%s%s%s%s", LINE, other, LINE, LINE);
    struct sbx_timeline *tl = loadtest_bytes(fmt, "dups.jsonl", text, strlen(text), 1, 0);
    assert_int_equal(tl->n, 4);
    char ids[4][SBX_EVID_LEN];
    int plain = 0, two = 0, three = 0;
    for (size_t i = 0; i < 4; i++) {
        sbx_event_id(tl, sbx_tl_at(tl, i), ids[i]);
        size_t len = strlen(ids[i]);
        plain += len == SBX_EVID_CHARS;
        two += len == SBX_EVID_CHARS + 2 && strcmp(ids[i] + SBX_EVID_CHARS, ".2") == 0;
        three += len == SBX_EVID_CHARS + 2 && strcmp(ids[i] + SBX_EVID_CHARS, ".3") == 0;
        for (size_t j = 0; j < i; j++)
            assert_string_not_equal(ids[i], ids[j]);
    }
    assert_int_equal(plain, 2);
    assert_int_equal(two, 1);
    assert_int_equal(three, 1);
    /* the three copies share the first ten characters */
    const struct sbx_event *first = loadtest_at_line(tl, 1);
    char id1[SBX_EVID_LEN];
    sbx_event_id(tl, first, id1);
    size_t same = 0;
    for (size_t i = 0; i < 4; i++)
        same += strncmp(ids[i], id1, SBX_EVID_CHARS) == 0;
    assert_int_equal(same, 3);
    /* the copy in another file, alone, has the plain id */
    struct sbx_timeline *one = loadtest_bytes(fmt, "elsewhere/x.jsonl", LINE, sizeof LINE - 1, 1, 0);
    char alone[SBX_EVID_LEN];
    sbx_event_id(one, sbx_tl_at(one, 0), alone);
    assert_string_equal(alone, id1);
    assert_true(strlen(id1) == SBX_EVID_CHARS);
    loadtest_drop(one);
    loadtest_drop(tl);
}

/* The format and the kind are part of the id: the same bytes read by
 * another format are another event. */
static void format_counts(void **state)
{
    (void)state;
    uint64_t k1, r1, k2, r2, k3, r3, k4, r4;
    sbx_evid_digest("recorder", SBX_EV_COMMAND, LINE, sizeof LINE - 2, &k1, &r1);
    sbx_evid_digest("sandboxio", SBX_EV_COMMAND, LINE, sizeof LINE - 2, &k2, &r2);
    sbx_evid_digest("recorder", SBX_EV_NOTE, LINE, sizeof LINE - 2, &k3, &r3);
    /* the whitespace between JSON tokens does not count; inside strings it does */
    sbx_evid_digest("recorder", SBX_EV_COMMAND, "{ \"a\" : \"x y\" }", 15, &k4, &r4);
    assert_true(k1 != k2 && k1 != k3 && k2 != k3);
    uint64_t k5, r5, k6, r6;
    sbx_evid_digest("recorder", SBX_EV_COMMAND, "{\"a\":\"x y\"}", 11, &k5, &r5);
    sbx_evid_digest("recorder", SBX_EV_COMMAND, "{\"a\":\"xy\"}", 10, &k6, &r6);
    assert_true(k4 == k5 && r4 == r5);
    assert_true(k5 != k6);
    /* a text line's CR does not count; its spaces do */
    uint64_t k7, r7, k8, r8, k9, r9;
    sbx_evid_digest("squid", SBX_EV_NETWORK, "a b\r", 4, &k7, &r7);
    sbx_evid_digest("squid", SBX_EV_NETWORK, "a b", 3, &k8, &r8);
    sbx_evid_digest("squid", SBX_EV_NETWORK, "a  b", 4, &k9, &r9);
    assert_true(k7 == k8 && k8 != k9);
    assert_true(k1 < (UINT64_C(1) << 50));
}

/* Every record of up to 7 bytes after "{" over quotes, backslashes, spaces,
 * a letter and a newline (quotes escaped by runs of backslashes of every
 * length, strings left open, a backslash last): its digest is that of the
 * record without the whitespace the plain reading finds between tokens. */
static void whitespace_between_tokens(void **state)
{
    (void)state;
    static const char alpha[] = {'"', '\\', ' ', 'a', '\n'};
    enum { A = sizeof alpha, LEN = 7 };
    char rec[LEN + 2], plain[LEN + 2];
    size_t checked = 0, differ = 0;
    for (size_t len = 0; len <= LEN; len++) {
        size_t total = 1;
        for (size_t i = 0; i < len; i++)
            total *= A;
        for (size_t c = 0; c < total; c++) {
            rec[0] = '{';
            for (size_t i = 0, v = c; i < len; i++, v /= A)
                rec[1 + i] = alpha[v % A];
            size_t n = len + 1, pn = canon_strip_plain(rec, n, plain);
            uint64_t k1, r1, k2, r2;
            sbx_evid_digest("recorder", SBX_EV_COMMAND, rec, n, &k1, &r1);
            sbx_evid_digest("recorder", SBX_EV_COMMAND, plain, pn, &k2, &r2);
            if (k1 != k2 || r1 != r2)
                fail_msg("record \"%.*s\" (%zu bytes) digests unlike its stripped form", (int)n, rec, n);
            checked++;
            differ += pn != n;
        }
    }
    assert_true(checked > 90000 && differ > 10000); /* the class was covered */
}

/* Random JSON records (whitespace of every kind between tokens; strings of
 * escaped quotes, runs of backslashes, spaces and long plain stretches;
 * numbers and arrays between them): given the string bodies the JSON
 * scanner found, or any of them, or spans that are not bodies, the
 * canonical bytes are those of the record read whole, both twins. */
static void string_bodies(void **state)
{
    (void)state;
    static const char *const ws[] = {"", " ", "  ", "\t", "\n ", " \r\n"};
    static const char *const piece[] = {"a", " ", "\\\"", "\\\\", "\\\\\\\"", "\\n", "\\u00e9",
                                        "{[:,]}", "\\t", "x y z ", "\xc3\xa9",
                                        "................................................................"};
    enum { RECORDS = 3000 };
    uint64_t x = 0x2545F4914F6CDD1DULL;
    char rec[8192], want[8192], got[8192];
    struct sbx_jscan scan;
    sbx_jscan_init(&scan);
    size_t bodies_seen = 0, fallbacks = 0;
    for (int it = 0; it < RECORDS; it++) {
        size_t n = 0;
#define RND() (x ^= x << 13, x ^= x >> 7, x ^= x << 17, x)
#define ADD(str) (n += (size_t)sprintf(rec + n, "%s", (str)))
        ADD(ws[RND() % 3]);
        ADD("{");
        int members = 1 + (int)(RND() % 6);
        for (int m = 0; m < members; m++) {
            if (m)
                ADD(","), ADD(ws[RND() % 6]);
            n += (size_t)sprintf(rec + n, "\"k%d\"", m);
            ADD(ws[RND() % 6]), ADD(":"), ADD(ws[RND() % 6]);
            switch (RND() % 4) {
            case 0:
                ADD("12");
                break;
            case 1:
                ADD("["), ADD(ws[RND() % 6]), ADD("\"a b\""), ADD(ws[RND() % 6]), ADD(","), ADD("1]");
                break;
            default: {
                ADD("\"");
                int k = (int)(RND() % 40);
                for (int j = 0; j < k; j++)
                    ADD(piece[RND() % (sizeof piece / sizeof *piece)]);
                ADD("\"");
            }
            }
            ADD(ws[RND() % 6]);
        }
        ADD("}");
        ADD(ws[RND() % 3]);
#undef ADD
        assert_true(sbx_jscan_line(&scan, rec, n));
        struct sbx_canon_body b[8];
        size_t nb = 0;
        for (size_t m = 0; m < scan.n; m++)
            if (scan.m[m].type == SBX_JSTRING && RND() % 4 != 0)
                b[nb++] = (struct sbx_canon_body){(size_t)(scan.m[m].val - rec), scan.m[m].val_len};
        bodies_seen += nb;
        size_t k = nb ? RND() % nb : 0;
        if (nb && RND() % 5 == 0 && rec[b[k].off] != '"') {
            /* a span that is no string body: not after a quote, its end
             * kept (the body without its first byte) or not */
            b[k].off++;
            b[k].len -= RND() % 2 && b[k].len;
            fallbacks++;
        } else if (nb && RND() % 4 == 0 && rec[b[k].off - 2] != '"') {
            /* from before the opening quote (a space there would be kept) */
            b[k].off -= 2;
            b[k].len += 2;
            fallbacks++;
        }
        struct canon_collect w = {want, 0};
        sbx_evid_canonical(rec, n, canon_collect_piece, &w);
        for (int twin = 0; twin < 2; twin++) {
            sbx_simd_set_scalar(twin == 1);
            struct canon_collect g = {got, 0};
            sbx_evid_canonical_bodies(rec, n, b, nb, canon_collect_piece, &g);
            if (g.n != w.n || memcmp(got, want, w.n) != 0)
                fail_msg("twin %d, record \"%.*s\": \"%.*s\"", twin, (int)n, rec, (int)g.n, got);
        }
        sbx_simd_set_scalar(false);
        /* and the plain reading agrees with the whole one */
        size_t i = 0;
        while (rec[i] == ' ' || rec[i] == '\t' || rec[i] == '\n' || rec[i] == '\r')
            i++;
        size_t pn = canon_strip_plain(rec + i, n - i, got);
        assert_true(i == 0 || rec[0] == ' ' || rec[0] == '\t' || w.n == pn);
    }
#undef RND
    assert_true(bodies_seen > RECORDS && fallbacks > RECORDS / 20);
    sbx_jscan_free(&scan);
}

/* The id of a record never changes between versions or machines (review
 * files keep them): pinned here for a record of each kind of input, JSON
 * and a text line. */
static void pinned(void **state)
{
    (void)state;
    static const char squid[] = "1780392601.000    120 10.0.0.5 TCP_DENIED/403 3900 CONNECT "
                                "paste.example.com:443 - HIER_NONE/- text/html";
    const struct sbx_format *fmt = &sbx_format_recorder;
    struct sbx_timeline *tl = loadtest_bytes(fmt, "one.jsonl", LINE, sizeof LINE - 1, 1, 0);
    char id[SBX_EVID_LEN];
    sbx_event_id(tl, sbx_tl_at(tl, 0), id);
    assert_string_equal(id, PINNED_RECORDER);
    loadtest_drop(tl);
    uint64_t key, rest;
    sbx_evid_digest("squid", SBX_EV_NETWORK, squid, sizeof squid - 1, &key, &rest);
    assert_true(key == PINNED_SQUID_KEY && rest == PINNED_SQUID_REST);
}

/* Lane 0 of base/hash128.c's digest, written again here to make a
 * collision on purpose: a word w goes into a lane as rotl(lane + w * IN,
 * 31) * OUT, a bijection of the lane, so the next stripe's word can undo
 * any change to this one's. */
#define LANE0_SEED UINT64_C(0x59f111f1b605d019)
#define LANE_IN UINT64_C(0x428a2f98d728ae23)
#define LANE_OUT UINT64_C(0x7137449123ef65cd)

static uint64_t rotl64(uint64_t x, unsigned r)
{
    return x << r | x >> (64 - r);
}

static uint64_t inverse64(uint64_t a) /* of an odd a, modulo 2^64 (Newton) */
{
    uint64_t x = a;
    for (int i = 0; i < 6; i++)
        x *= 2 - a * x;
    return x;
}

static uint64_t le64(const unsigned char *p)
{
    uint64_t w = 0;
    for (int i = 7; i >= 0; i--)
        w = w << 8 | p[i];
    return w;
}

static void put_le64(unsigned char *p, uint64_t w)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(w >> 8 * i);
}

static bool json_safe(uint64_t w) /* 8 bytes a JSON string may hold as they are */
{
    for (int i = 0; i < 8; i++) {
        unsigned c = (unsigned)(w >> 8 * i) & 255;
        if (c < 0x20 || c > 0x7e || c == '"' || c == '\\')
            return false;
    }
    return true;
}

/* Two records with the whole 128-bit digest in common (made on purpose)
 * get the bare id and ".2" by their bytes, whichever is read first: a
 * note stays with its event when the lines or files change places. */
static void crafted_collision(void **state)
{
    (void)state;
    char head[64];
    int hn = snprintf(head, sizeof head, "recorder%c%u%c", 0, (unsigned)SBX_EV_COMMAND, 0);
    static const char pre[] = "{\"ts\":\"2026-06-02T09:30:01Z\",\"type\":\"command\",\"command\":\"";
    static const char post[] = "\",\"exit\":0,\"ms\":5}";
    /* the command's bytes: pad to a stripe's start in the digested stream,
     * then the two stripes whose lane-0 words are changed */
    size_t at = (size_t)hn + sizeof pre - 1, pad = (32 - at % 32) % 32;
    char a[256];
    size_t cmd = sizeof pre - 1, w1 = cmd + pad, w2 = w1 + 32, end = w2 + 32;
    memcpy(a, pre, sizeof pre - 1);
    memset(a + cmd, 'x', end - cmd);
    memcpy(a + end, post, sizeof post);
    char b[256];
    memcpy(b, a, sizeof a);
    /* lane 0 before the first changed stripe */
    unsigned char stream[512];
    memcpy(stream, head, (size_t)hn);
    memcpy(stream + hn, a, w1);
    uint64_t lane = LANE0_SEED;
    for (size_t s = 0; s + 32 <= (size_t)hn + w1; s += 32)
        lane = rotl64(lane + le64(stream + s) * LANE_IN, 31) * LANE_OUT;
    uint64_t x1 = le64((const unsigned char *)a + w1), x2 = le64((const unsigned char *)a + w2);
    uint64_t after = rotl64(lane + x1 * LANE_IN, 31) * LANE_OUT; /* a's lane after stripe 1 */
    bool made = false;
    for (uint64_t t = 0; t < 1000000 && !made; t++) {
        uint64_t y1 = x1 ^ ((t % 26) << 8 | (t / 26 % 26) << 16 | (t / 676 % 26) << 24 |
                            (t / 17576 % 26) << 32);
        if (y1 == x1 || !json_safe(y1))
            continue;
        uint64_t mid = rotl64(lane + y1 * LANE_IN, 31) * LANE_OUT;
        uint64_t y2 = x2 + (after - mid) * inverse64(LANE_IN);
        if (!json_safe(y2))
            continue;
        put_le64((unsigned char *)b + w1, y1);
        put_le64((unsigned char *)b + w2, y2);
        made = true;
    }
    assert_true(made);
    uint64_t ka, ra, kb, rb;
    sbx_evid_digest("recorder", SBX_EV_COMMAND, a, strlen(a), &ka, &ra);
    sbx_evid_digest("recorder", SBX_EV_COMMAND, b, strlen(b), &kb, &rb);
    assert_true(ka == kb && ra == rb && strcmp(a, b) != 0); /* a collision */
    const char *lo = strcmp(a, b) < 0 ? a : b;
    char text[1024];
    for (int order = 0; order < 2; order++) {
        snprintf(text, sizeof text, "%s\n%s\n", order ? b : a, order ? a : b);
        struct sbx_timeline *tl = loadtest_bytes(&sbx_format_recorder, "c.jsonl", text,
                                                 strlen(text), 1, 0);
        assert_int_equal(tl->n, 2);
        /* the line holding the smaller bytes */
        uint32_t lo_line = (order ? b : a) == lo ? 1 : 2;
        char id_lo[SBX_EVID_LEN], id_hi[SBX_EVID_LEN];
        sbx_event_id(tl, loadtest_at_line(tl, lo_line), id_lo);
        sbx_event_id(tl, loadtest_at_line(tl, 3 - lo_line), id_hi);
        assert_int_equal(strlen(id_lo), SBX_EVID_CHARS);
        assert_string_equal(id_hi + SBX_EVID_CHARS, ".2");
        assert_int_equal(strncmp(id_lo, id_hi, SBX_EVID_CHARS), 0);
        loadtest_drop(tl);
    }
}

/* Records of 1 to 400 bytes (so every 64-byte block boundary of the vector
 * pass is crossed, in and out of strings, inside runs of backslashes),
 * random over quotes, backslashes, whitespace and a letter: their digest is
 * that of the record without the whitespace the plain reading finds
 * between tokens, with the vector code on and off (base/simd.h). */
static void long_records(void **state)
{
    (void)state;
    static const char alpha[] = {'"', '\\', ' ', 'a', '\n', '\t', '\\', '"'};
    enum { RECORDS = 6000, MAX = 400 };
    uint64_t r = 0x2545f4914f6cdd1dULL;
    char rec[MAX + 1], plain[512];
    size_t differ = 0;
    for (int twin = 0; twin < 2; twin++) {
        sbx_simd_set_scalar(twin == 1);
        for (size_t t = 0; t < RECORDS; t++) {
            r ^= r << 13;
            r ^= r >> 7;
            r ^= r << 17;
            size_t n = 1 + r % MAX;
            rec[0] = '{';
            for (size_t i = 1; i < n; i++) {
                r ^= r << 13;
                r ^= r >> 7;
                r ^= r << 17;
                /* long plain stretches too, so blocks fall wholly inside strings */
                rec[i] = (r >> 40) % 4 ? 'a' : alpha[(r >> 20) % sizeof alpha];
            }
            size_t pn = canon_strip_plain(rec, n, plain);
            uint64_t k1, r1, k2, r2;
            sbx_evid_digest("recorder", SBX_EV_COMMAND, rec, n, &k1, &r1);
            sbx_evid_digest("recorder", SBX_EV_COMMAND, plain, pn, &k2, &r2);
            if (k1 != k2 || r1 != r2) {
                sbx_simd_set_scalar(false);
                fail_msg("%s: a %zu-byte record digests unlike its stripped form: %.*s",
                         twin ? "scalar" : "vector", n, (int)n, rec);
            }
            differ += pn != n;
        }
    }
    sbx_simd_set_scalar(false);
    assert_true(differ > RECORDS); /* most had whitespace to leave out */
    /* runs of backslashes over whole blocks, of both parities, at every
     * offset in a block, then a quote and whitespace: whether the quote
     * closes the string decides what is left out after it */
    for (size_t off = 0; off < 64; off++)
        for (size_t len = 60; len <= 132; len++) {
            char big[512];
            size_t n = 0;
            big[n++] = '{';
            big[n++] = '"';
            memset(big + n, 'a', off);
            n += off;
            memset(big + n, '\\', len);
            n += len;
            memcpy(big + n, "\" : \"b c\" }", 11);
            n += 11;
            size_t pn = canon_strip_plain(big, n, plain);
            uint64_t k[2], rr[2], kp, rp;
            sbx_evid_digest("recorder", SBX_EV_COMMAND, plain, pn, &kp, &rp);
            for (int twin = 0; twin < 2; twin++) {
                sbx_simd_set_scalar(twin == 1);
                sbx_evid_digest("recorder", SBX_EV_COMMAND, big, n, &k[twin], &rr[twin]);
            }
            sbx_simd_set_scalar(false);
            if (k[0] != kp || rr[0] != rp || k[1] != kp || rr[1] != rp)
                fail_msg("%zu backslashes after %zu letters: another digest", len, off);
        }
}

/* Which texts are ids or their prefixes: a table. */
static void prefixes(void **state)
{
    (void)state;
    static const struct {
        const char *s;
        bool valid;
    } cases[] = {
        {"a", true},          {"ab12cd34ef", true}, {"AB12CD34EF", true}, {"ab12cd34ef.", true},
        {"ab12cd34ef.2", true}, {"ab12cd34ef.17", true}, {"", false},     {"u", false},
        {"ab-2", false},      {"ab12cd34e.2", false}, {"ab12cd34efx", false},
        {"ab12cd34ef.2x", false}, {"ab12cd34ef.123456789012", false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        if (sbx_evid_prefix_valid(cases[i].s, strlen(cases[i].s)) != cases[i].valid)
            fail_msg("%s: expected %s", cases[i].s, cases[i].valid ? "valid" : "invalid");
}

static void lookups(void **state)
{
    (void)state;
    struct sbx_timeline tl;
    load_dir(&tl, RUN);
    const struct sbx_event *e = sbx_tl_at(&tl, tl.n / 2);
    char id[SBX_EVID_LEN];
    sbx_event_id(&tl, e, id);
    char upper[SBX_EVID_LEN];
    for (size_t i = 0; i <= strlen(id); i++)
        upper[i] = (char)(id[i] >= 'a' && id[i] <= 'z' ? id[i] - 32 : id[i]);
    assert_ptr_equal(sbx_event_by_id(&tl, upper, strlen(upper)), e);
    assert_true(sbx_event_id_has_prefix(&tl, e, id, 4));
    assert_true(sbx_event_id_has_prefix(&tl, e, upper, strlen(upper)));
    char other[SBX_EVID_LEN];
    memcpy(other, id, sizeof other);
    other[3] = other[3] == '0' ? '1' : '0';
    assert_false(sbx_event_id_has_prefix(&tl, e, other, 4));
    assert_null(sbx_event_by_id(&tl, other, strlen(other)));
    assert_null(sbx_event_by_id(&tl, id, 9));
    char finding[SBX_FINDID_LEN];
    sbx_finding_id(&tl, e, SBX_F_SECRET, finding);
    assert_int_equal(strncmp(finding, id, strlen(id)), 0);
    assert_string_equal(finding + strlen(id), "/secret");
    sbx_timeline_free(&tl);
}

/* Ids are found from an event's place in the timeline's storage (its
 * block and index, no sort by address): for buffers of every size around a
 * block's, every event in the order finds its id and is found by it, and an
 * event that is not in the order (a block's unused slot, a forgotten line,
 * one outside the storage, an address inside an event) has none. */
static void storage_slots(void **state)
{
    (void)state;
    static const struct {
        size_t n[3]; /* events in each buffer (one source each), 0: none */
    } cases[] = {
        {{1, 0, 0}},
        {{SBX_EVBLOCK - 1, 0, 0}},
        {{SBX_EVBLOCK, 0, 0}},
        {{SBX_EVBLOCK + 1, 0, 0}},
        {{3, 2 * SBX_EVBLOCK + 5, 1}},
        {{SBX_EVBLOCK, SBX_EVBLOCK, SBX_EVBLOCK}},
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        struct sbx_timeline tl;
        sbx_timeline_init(&tl);
        struct sbx_event *spare = NULL;
        for (size_t b = 0; b < 3 && cases[c].n[b]; b++) {
            struct sbx_buf data = SBX_BUF_INIT;
            struct sbx_evbuf buf = {0};
            uint32_t src = sbx_timeline_add_source(&tl, "log", NULL, 0, SBX_DATA_HEAP);
            for (size_t i = 0; i < cases[c].n[b]; i++) {
                size_t off = data.len;
                sbx_buf_addf(&data, "record %zu of %zu\n", i, b);
                struct sbx_event *e = sbx_evbuf_push_from(&buf, src, off, data.len - off, (uint32_t)i + 1);
                e->start = (int64_t)i;
                e->kind = SBX_EV_NOTE;
            }
            if (cases[c].n[b] % SBX_EVBLOCK)
                spare = sbx_evbuf_at(&buf, cases[c].n[b] - 1) + 1; /* an unused slot */
            sbx_timeline_set_data(&tl, src, data.p, data.len, SBX_DATA_HEAP);
            sbx_timeline_adopt(&tl, &buf);
        }
        sbx_timeline_finish(&tl);
        char id[SBX_EVID_LEN];
        for (size_t i = 0; i < tl.n; i++) {
            sbx_event_id(&tl, sbx_tl_at(&tl, i), id);
            if (!id[0] || sbx_event_by_id(&tl, id, strlen(id)) != sbx_tl_at(&tl, i))
                fail_msg("case %zu: event %zu: id '%s' does not find it", c, i, id);
        }
        if (spare) {
            sbx_event_id(&tl, spare, id);
            assert_string_equal(id, "");
        }
        /* inside an event, not at its start (8-aligned, as an event is) */
        sbx_event_id(&tl, (const struct sbx_event *)((const char *)sbx_tl_at(&tl, 0) + 8), id);
        assert_string_equal(id, "");
        struct sbx_event outside = *sbx_tl_at(&tl, 0);
        sbx_event_id(&tl, &outside, id);
        assert_string_equal(id, "");
        struct sbx_event *gone = sbx_tl_at(&tl, tl.n - 1);
        size_t n = tl.n;
        assert_int_equal(sbx_timeline_forget_line(&tl, gone->source, sbx_ev_line_no(gone), false), 1);
        assert_int_equal(tl.n, n - 1);
        sbx_event_id(&tl, gone, id);
        assert_string_equal(id, "");
        for (size_t i = 0; i < tl.n; i++) {
            sbx_event_id(&tl, sbx_tl_at(&tl, i), id);
            assert_ptr_equal(sbx_event_by_id(&tl, id, strlen(id)), sbx_tl_at(&tl, i));
        }
        sbx_timeline_free(&tl);
    }
}

/* Builds a timeline of one log whose records "record K" come copies[K]
 * times each, the records' copies interleaved round by round (so a record's
 * copies are neither at consecutive positions nor met in position order). */
static void build_copies_of(struct sbx_timeline *tl, const size_t *numbers, const size_t *copies,
                            size_t nrecords)
{
    sbx_timeline_init(tl);
    struct sbx_buf data = SBX_BUF_INIT;
    struct sbx_evbuf buf = {0};
    uint32_t src = sbx_timeline_add_source(tl, "log", NULL, 0, SBX_DATA_HEAP);
    uint32_t line = 0;
    size_t most = 0;
    for (size_t k = 0; k < nrecords; k++)
        most = copies[k] > most ? copies[k] : most;
    for (size_t r = 0; r < most; r++)
        for (size_t k = 0; k < nrecords; k++) {
            if (r >= copies[k])
                continue;
            size_t off = data.len;
            sbx_buf_addf(&data, "record %zu\n", numbers ? numbers[k] : k);
            struct sbx_event *e = sbx_evbuf_push_from(&buf, src, off, data.len - off, ++line);
            e->start = (int64_t)line;
            e->kind = SBX_EV_NOTE;
        }
    sbx_timeline_set_data(tl, src, data.p, data.len, SBX_DATA_HEAP);
    sbx_timeline_adopt(tl, &buf);
    sbx_timeline_finish(tl);
}

static void build_copies(struct sbx_timeline *tl, const size_t *copies, size_t nrecords)
{
    build_copies_of(tl, NULL, copies, nrecords);
}

/* Checks that every copy of every record of build_copies' timeline is
 * numbered in timeline order — the first without a suffix, then ".2",
 * ".3", … — is found by its id, and that each record came copies[K] times. */
static void check_copies_numbered_of(const struct sbx_timeline *tl, const size_t *numbers,
                                     const size_t *copies, size_t nrecords)
{
    size_t *seen = calloc(nrecords, sizeof *seen);
    char (*first)[SBX_EVID_LEN] = calloc(nrecords, sizeof *first);
    assert_non_null(seen);
    assert_non_null(first);
    for (size_t pos = 0; pos < tl->n; pos++) {
        const struct sbx_event *e = sbx_tl_at(tl, pos);
        size_t k = strtoul(tl->sources[0].data + e->line_off + strlen("record "), NULL, 10);
        for (size_t r = 0; numbers && r < nrecords; r++)
            if (numbers[r] == k) {
                k = r;
                break;
            }
        assert_true(k < nrecords);
        char id[SBX_EVID_LEN], want[SBX_EVID_LEN];
        sbx_event_id(tl, e, id);
        if (!seen[k]) {
            if (strlen(id) != SBX_EVID_CHARS)
                fail_msg("record %zu: its first copy has the id %s", k, id);
            memcpy(first[k], id, sizeof id);
            snprintf(want, sizeof want, "%s", id);
        } else {
            snprintf(want, sizeof want, "%s.%zu", first[k], seen[k] + 1);
        }
        if (strcmp(id, want) != 0)
            fail_msg("record %zu (of %zu copies), copy %zu: id %s, want %s", k, copies[k], seen[k] + 1, id,
                     want);
        if (sbx_event_by_id(tl, id, strlen(id)) != e)
            fail_msg("record %zu (of %zu copies), copy %zu: %s does not find it", k, copies[k], seen[k] + 1,
                     id);
        seen[k]++;
    }
    for (size_t k = 0; k < nrecords; k++)
        if (seen[k] != copies[k])
            fail_msg("record %zu: %zu copies, want %zu", k, seen[k], copies[k]);
    free(seen);
    free(first);
}

static void check_copies_numbered(const struct sbx_timeline *tl, const size_t *copies, size_t nrecords)
{
    check_copies_numbered_of(tl, NULL, copies, nrecords);
}

/* Identical records are numbered in timeline order, the first without a
 * suffix, then ".2", ".3", …: for groups of every size around the size
 * sorted by insertion (24) and past the 14 bits a suffix once had beside
 * its key, every event spells its number and is found by its id. */
static void duplicate_numbers(void **state)
{
    (void)state;
    static const size_t groups[] = {1, 2, 3, 23, 24, 25, 16383, 16384, 16385, 16434};
    enum { NGROUPS = sizeof groups / sizeof *groups };
    struct sbx_timeline tl;
    build_copies(&tl, groups, NGROUPS);
    check_copies_numbered(&tl, groups, NGROUPS);
    sbx_timeline_free(&tl);
}

/* Two records "record K" whose keys share their high 32 bits (the bits the
 * ids' build sorts by, beside the position) and differ below: found by a
 * birthday search over the digests, deterministic as the hash is. */
struct near_pair {
    size_t a, b;
};

static int by_value(const void *pa, const void *pb)
{
    uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
    return a < b ? -1 : a > b;
}

static size_t near_pairs(struct near_pair *out, size_t most)
{
    enum { SEARCH = 400000 };
    uint64_t *v = malloc(SEARCH * sizeof *v);
    assert_non_null(v);
    for (size_t k = 0; k < SEARCH; k++) {
        char rec[32];
        int n = snprintf(rec, sizeof rec, "record %zu\n", k);
        uint64_t key, rest;
        sbx_evid_digest("unknown", SBX_EV_NOTE, rec, (size_t)n, &key, &rest);
        v[k] = key >> (SBX_EVID_KEY_BITS - 32) << 32 | k;
    }
    qsort(v, SEARCH, sizeof *v, by_value);
    size_t np = 0;
    for (size_t i = 1; i < SEARCH && np < most; i++)
        if (v[i] >> 32 == v[i - 1] >> 32)
            out[np++] = (struct near_pair){(uint32_t)v[i - 1], (uint32_t)v[i]};
    free(v);
    return np;
}

/* Records whose keys share their high 32 bits but not all 50 are told
 * apart (no suffix), with copies of them numbered among themselves, and
 * every one is found by its id: the build sorts 32 bits and makes the
 * whole keys again for those that share them. */
static void shared_high_bits(void **state)
{
    (void)state;
    struct near_pair p[4];
    size_t np = near_pairs(p, 4);
    assert_true(np >= 2);
    size_t copies[2 * 4] = {0}, numbers[2 * 4] = {0};
    size_t nrec = 0;
    for (size_t i = 0; i < np; i++) {
        /* both of a pair, each one to three times */
        numbers[nrec] = p[i].a, copies[nrec++] = 1 + i % 3;
        numbers[nrec] = p[i].b, copies[nrec++] = 2 + i % 2;
    }
    char name[32];
    struct sbx_timeline tl;
    build_copies_of(&tl, numbers, copies, nrec);
    check_copies_numbered_of(&tl, numbers, copies, nrec);
    for (size_t i = 0; i < np; i++) {
        char ida[SBX_EVID_LEN] = "", idb[SBX_EVID_LEN] = "";
        for (size_t pos = 0; pos < tl.n; pos++) {
            const struct sbx_event *e = sbx_tl_at(&tl, pos);
            size_t k = strtoul(tl.sources[0].data + e->line_off + strlen("record "), NULL, 10);
            if (k == p[i].a && !ida[0])
                sbx_event_id(&tl, e, ida);
            if (k == p[i].b && !idb[0])
                sbx_event_id(&tl, e, idb);
        }
        snprintf(name, sizeof name, "pair %zu", i);
        /* 32 bits are the first 6 characters and 2 bits of the seventh */
        if (strlen(ida) != SBX_EVID_CHARS || strlen(idb) != SBX_EVID_CHARS ||
            strncmp(ida, idb, 6) != 0 || strcmp(ida, idb) == 0)
            fail_msg("%s: ids %s and %s", name, ida, idb);
    }
    sbx_timeline_free(&tl);
}

/* Many distinct records, most of them more than once, their copies far
 * apart: the sort by key (a radix sort by the key's bytes, small buckets by
 * insertion) must bring every record's copies together, or two events
 * would share an id or a copy would be numbered as a first. */
static void many_records_numbered(void **state)
{
    (void)state;
    enum { DISTINCT = 6000, MOST = 4 };
    static size_t copies[DISTINCT];
    for (size_t k = 0; k < DISTINCT; k++)
        copies[k] = k % MOST + 1;
    struct sbx_timeline tl;
    build_copies(&tl, copies, DISTINCT);
    check_copies_numbered(&tl, copies, DISTINCT);
    sbx_timeline_free(&tl);
}

static const char alphabet_of_ids[] = "0123456789abcdefghjkmnpqrstvwxyz";

/* The build sorts its words an eighth at a time, by their keys' top 3
 * bits (an id's first character less its two lowest bits): copies in every
 * one of the eight parts are numbered as one sort of all would number them. */
static void copies_in_every_part(void **state)
{
    (void)state;
    enum { DISTINCT = 400 };
    static size_t copies[DISTINCT];
    for (size_t k = 0; k < DISTINCT; k++)
        copies[k] = 2 + k % 3;
    struct sbx_timeline tl;
    build_copies(&tl, copies, DISTINCT);
    check_copies_numbered(&tl, copies, DISTINCT);
    unsigned parts = 0;
    for (size_t pos = 0; pos < tl.n; pos++) {
        char id[SBX_EVID_LEN];
        sbx_event_id(&tl, sbx_tl_at(&tl, pos), id);
        if (strlen(id) > SBX_EVID_CHARS)
            parts |= 1u << ((unsigned)(strchr(alphabet_of_ids, id[0]) - alphabet_of_ids) >> 2);
    }
    assert_int_equal(parts, 0xFF); /* the run did reach every part */
    sbx_timeline_free(&tl);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(moved_and_renamed), cmocka_unit_test(fetched_again),
        cmocka_unit_test(another_source),    cmocka_unit_test(duplicates),
        cmocka_unit_test(format_counts),     cmocka_unit_test(prefixes),
        cmocka_unit_test(lookups),           cmocka_unit_test(storage_slots),
        cmocka_unit_test(duplicate_numbers), cmocka_unit_test(many_records_numbered), cmocka_unit_test(shared_high_bits), cmocka_unit_test(copies_in_every_part), cmocka_unit_test(whitespace_between_tokens),
        cmocka_unit_test(pinned),            cmocka_unit_test(crafted_collision),
        cmocka_unit_test(long_records),      cmocka_unit_test(string_bodies),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
