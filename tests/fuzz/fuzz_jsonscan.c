/* Differential fuzz target: sbx_jscan_line() against jansson, on the whole
 * input as one line and on each '\n'-separated piece: the verdict and the
 * values of sbx_json_load() + json_is_object (jansson with JSON_ALLOW_NUL,
 * the last of a key given twice, integers beyond int64 as text), and where
 * plain json_loadb(JSON_ALLOW_NUL) reads the line, its verdict, and whether
 * a key was given twice as JSON_REJECT_DUPLICATES sees it. Aborts on any
 * disagreement in the verdict or in an extracted value. */
#include "importers/json/jsonscan.h"
#include "importers/json/jsonload.h"
#include "analyses/hidden.h"
#include "base/jsonstr.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(cond, what)                                                                  \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            fprintf(stderr, "jsonscan disagrees with jansson: %s\n", what);                \
            abort();                                                                       \
        }                                                                                  \
    } while (0)

static void check_err_text(const struct sbx_jscan *s, size_t len)
{
    size_t n = strnlen(s->err, sizeof s->err);
    CHECK(n > 0 && n < sizeof s->err, "error text empty or unterminated");
    for (size_t i = 0; i < n; i++)
        CHECK(s->err[i] >= 0x20 && s->err[i] < 0x7F, "error text not printable ASCII");
    CHECK(s->err_pos <= len, "err_pos past the line");
    CHECK(s->err_code != SBX_JERR_NONE, "no error code on failure");
}

static void check_member(const struct sbx_jscan *s, const struct sbx_jmember *m, json_t *obj)
{
    /* the unescaped key is the raw key decoded */
    char *k = malloc(m->key_len + 1);
    size_t klen = sbx_jstr_decode(m->key, m->key_len, k);
    CHECK(klen == m->ukey_len && memcmp(k, m->ukey, klen) == 0, "ukey != unescaped key");
    CHECK(m->key_escaped == (memchr(m->key, '\\', m->key_len) != NULL), "key_escaped flag");
    CHECK(memchr(k, '\0', klen) == NULL, "NUL in an accepted key");
    for (const struct sbx_jmember *o = s->m; o < m; o++)
        CHECK(o->ukey_len != klen || memcmp(o->ukey, k, klen) != 0, "a key kept twice");
    k[klen] = '\0';
    CHECK(sbx_jscan_get(s, k) == m, "sbx_jscan_get does not find the member");
    json_t *v = json_object_getn(obj, m->ukey, m->ukey_len);
    CHECK(v != NULL, "key missing in jansson's object");
    free(k);

    switch (m->type) {
    case SBX_JNULL:
        CHECK(json_is_null(v), "null");
        break;
    case SBX_JTRUE:
        CHECK(json_is_true(v), "true");
        break;
    case SBX_JFALSE:
        CHECK(json_is_false(v), "false");
        break;
    case SBX_JINT:
        CHECK(json_is_integer(v), "integer type");
        CHECK(json_integer_value(v) == m->i, "integer value");
        break;
    case SBX_JBIGINT:
        CHECK(json_is_string(v), "big integer not kept as text");
        CHECK(json_string_length(v) == m->val_len &&
                  memcmp(json_string_value(v), m->val, m->val_len) == 0,
              "big integer text");
        break;
    case SBX_JREAL: {
        CHECK(json_is_real(v), "real type");
        double a = json_real_value(v);
        CHECK(memcmp(&a, &m->d, sizeof a) == 0, "real value (bits)");
        break;
    }
    case SBX_JSTRING: {
        CHECK(json_is_string(v), "string type");
        CHECK(m->val_escaped == (memchr(m->val, '\\', m->val_len) != NULL), "val_escaped flag");
        bool unusual = false; /* a non-ASCII byte, or a \u escape */
        for (size_t k = 0; k < m->val_len && !unusual; k++) {
            unusual = (unsigned char)m->val[k] >= 0x80 ||
                      (m->val[k] == '\\' && k + 1 < m->val_len && m->val[k + 1] == 'u');
            k += m->val[k] == '\\'; /* the escaped byte is not a backslash of its own */
        }
        CHECK(m->val_unusual == unusual, "val_unusual flag");
        CHECK(m->val_hides == sbx_text_hides(m->val, m->val_len, true), "val_hides flag");
        char *u = malloc(m->val_len + 1);
        size_t ulen = sbx_jstr_decode(m->val, m->val_len, u);
        CHECK(ulen == json_string_length(v), "string length");
        CHECK(memcmp(u, json_string_value(v), ulen) == 0, "string bytes");
        free(u);
        break;
    }
    case SBX_JARRAY:
    case SBX_JOBJECT: {
        CHECK(m->type == SBX_JARRAY ? json_is_array(v) : json_is_object(v), "container type");
        json_error_t e;
        json_t *span = sbx_json_load(m->val, m->val_len, JSON_DECODE_ANY, NULL, &e);
        CHECK(span != NULL, "container span is not JSON by itself");
        CHECK(json_equal(span, v), "container span differs");
        json_decref(span);
        break;
    }
    default:
        CHECK(0, "bad type");
    }
}

static void one_line(struct sbx_jscan *s, const char *data, size_t size)
{
    json_error_t e;
    unsigned facts;
    json_t *j = sbx_json_load(data, size, 0, &facts, &e);
    bool want = j && json_is_object(j);
    bool got = sbx_jscan_line(s, data, size);
    /* jansson alone, where no integer needs rewriting */
    json_t *plain = json_loadb(data, size, JSON_ALLOW_NUL, NULL);
    if (plain) {
        CHECK(got == json_is_object(plain), "verdict against plain jansson");
        json_error_t de;
        json_t *strict = json_loadb(data, size, JSON_ALLOW_NUL | JSON_REJECT_DUPLICATES, &de);
        bool dup = !strict && json_error_code(&de) == json_error_duplicate_key;
        CHECK(!got || (s->dups > 0) == dup, "a key given twice, against jansson");
        CHECK(!got || (facts & SBX_JLOAD_DUPLICATE) == (dup ? SBX_JLOAD_DUPLICATE : 0u),
              "sbx_json_load's duplicate fact");
        json_decref(strict);
        json_decref(plain);
    }
    if (want != got) {
        fprintf(stderr, "verdict: jansson %s (%s), jsonscan %s (%s at %zu)\n",
                want ? "accepts" : "rejects", j ? "ok" : e.text, got ? "accepts" : "rejects",
                got ? "" : s->err, s->err_pos);
        abort();
    }
    if (got) {
        CHECK(s->n == json_object_size(j), "member count");
        for (size_t i = 0; i < s->n; i++) {
            const struct sbx_jmember *m = &s->m[i];
            CHECK(m->key > data && m->key + m->key_len < data + size, "key span");
            CHECK(m->val >= data && m->val + m->val_len <= data + size, "value span");
            CHECK(i == 0 || m->key > s->m[i - 1].val, "members out of line order");
            check_member(s, m, j);
        }
    } else {
        check_err_text(s, size);
    }
    json_decref(j);
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    json_object_seed(0);
    return 0;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    struct sbx_jscan s;
    sbx_jscan_init(&s);

    /* an exact-size copy, so ASan catches any read past the end */
    char *line = malloc(size ? size : 1);
    memcpy(line, data, size);
    one_line(&s, line, size);
    free(line);

    const char *p = (const char *)data, *end = p + size;
    if (memchr(p, '\n', size)) {
        while (p <= end) {
            const char *nl = memchr(p, '\n', (size_t)(end - p));
            size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
            char *piece = malloc(n ? n : 1);
            memcpy(piece, p, n);
            one_line(&s, piece, n);
            free(piece);
            if (!nl)
                break;
            p = nl + 1;
        }
    }
    /* the stream scan of each line of the buffer agrees with scanning that
       line on its own: the same verdict, the same line end, the same members */
    char *buf = malloc(size ? size : 1);
    memcpy(buf, data, size);
    struct sbx_jscan t;
    sbx_jscan_init(&t);
    for (const char *q = buf, *bend = buf + size; q < bend;) {
        const char *nl = memchr(q, '\n', (size_t)(bend - q));
        size_t n = nl ? (size_t)(nl - q) : (size_t)(bend - q);
        size_t got = 0;
        bool streamed = sbx_jscan_stream(&s, q, bend, &got);
        bool lined = sbx_jscan_line(&t, q, n);
        if (streamed != lined || (streamed && (got != n || s.n != t.n)))
            abort();
        for (size_t i = 0; streamed && i < s.n; i++)
            if (s.m[i].val != t.m[i].val || s.m[i].val_len != t.m[i].val_len || s.m[i].type != t.m[i].type)
                abort();
        q += n + 1;
    }
    sbx_jscan_free(&t);
    free(buf);
    sbx_jscan_free(&s);
    return 0;
}
