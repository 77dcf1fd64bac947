/* The line scanner: a flat, non-recursive pass over one top-level object
 * (strings are validated by jsonscan_str.c). Nested arrays and objects are
 * only skipped here, with a bracket counter, and the whole line is then
 * handed to jansson (through sbx_json_load) for the final word. The grammar
 * and every acceptance rule mirror jansson 2.14's src/load.c. */
#include "importers/json/jsonscan.h"
#include "importers/json/jsonload.h"
#include "base/jsonstr.h"
#include "base/buf.h"
#include "base/simd.h"

#if SBX_SSE2
#include <emmintrin.h>
#endif

#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define JANSSON_MAX_DEPTH 2048
#define LINEAR_DUP_MAX 16   /* up to this many keys, find duplicates by direct comparison */
#define KEEP_MEMBERS 65536  /* free bigger member arrays once a huge line is done */
#define KEEP_KBUF (1u << 20)

/* ---- errors ---- */

static bool fail(struct sbx_jscan *s, const char *line, const char *at, enum sbx_jerr code,
                 const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static bool fail(struct sbx_jscan *s, const char *line, const char *at, enum sbx_jerr code,
                 const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->err, sizeof s->err, fmt, ap);
    va_end(ap);
    s->err_pos = (size_t)(at - line);
    s->err_code = code;
    s->n = 0;
    s->sorted = false;
    return false;
}

#define FAILN(...) (fail(__VA_ARGS__), (const char *)NULL)

/* ---- lexical helpers ---- */

/* In a stream of lines (sbx_jscan_stream) a newline ends the line, so it is
 * not whitespace there: the object must close before it. */
static inline const char *skip_ws_in(const char *p, const char *end, bool stream)
{
    /* every whitespace byte is <= ' ': most calls stop at the first test */
    const uint64_t ws = 1ULL << ' ' | 1ULL << '\t' | 1ULL << '\r' | (stream ? 0 : 1ULL << '\n');
    while (p < end && (unsigned char)*p <= ' ' && (ws >> (unsigned char)*p & 1))
        p++;
    return p;
}

/* Skips a nested array or object at p ('[' or '{'); returns the byte after
 * its closing bracket. Only brackets and strings are looked at: jansson
 * validates the rest. Depth beyond jansson's limit is rejected here, which
 * cannot change the verdict (jansson fails at that depth or earlier). */
static const char *skip_nested(struct sbx_jscan *s, const char *line, const char *p,
                               const char *end, bool stream)
{
    size_t depth = 0;
    unsigned char esc;
    while (p < end) {
        switch (*p) {
        case '"':
            p = sbx_jscan_string(s, line, p + 1, end, &esc);
            if (!p)
                return NULL;
            break;
        case '[':
        case '{':
            /* the top-level object is level 1 */
            if (++depth >= JANSSON_MAX_DEPTH)
                return FAILN(s, line, p, SBX_JERR_DEPTH, "nested deeper than %d levels",
                             JANSSON_MAX_DEPTH);
            break;
        case ']':
        case '}':
            if (--depth == 0)
                return p + 1;
            break;
        case '\n':
            if (stream)
                return FAILN(s, line, p, SBX_JERR_TRUNCATED, "unexpected end of line");
            break;
        default:
            break;
        }
        p++;
    }
    return FAILN(s, line, end, SBX_JERR_TRUNCATED, "unexpected end of line");
}

/* A flat array of strings at p ('['), as an argv is: validated here in full
 * (the grammar is jansson's, each string by sbx_jscan_string), so that it
 * needs no jansson pass. Returns the byte after its ']', or NULL when it is
 * anything else or invalid: the caller then goes the general way from p,
 * which meets any invalid string at the same place and fails the same way
 * (so a failure here, which clears s->n, only happens to a failing line). */
static const char *string_array(struct sbx_jscan *s, const char *line, const char *p,
                                const char *end, bool stream)
{
    unsigned char esc;
    p = skip_ws_in(p + 1, end, stream);
    if (p < end && *p == ']')
        return p + 1;
    for (;;) {
        if (p == end || *p != '"')
            return NULL;
        p = sbx_jscan_string(s, line, p + 1, end, &esc);
        if (!p)
            return NULL;
        p = skip_ws_in(p + 1, end, stream);
        if (p == end)
            return NULL;
        if (*p == ']')
            return p + 1;
        if (*p != ',')
            return NULL;
        p = skip_ws_in(p + 1, end, stream);
    }
}

/* The common string body, plain printable ASCII closed within its first 16
 * bytes, found without a call: the very test sbx_jscan_string begins with
 * (and such a body sets none of its flags). NULL for any other, which
 * sbx_jscan_string then reads from the start; always NULL for the scalar
 * twin (base/simd.h), which takes sbx_jscan_string's reference path. */
static inline const char *plain_short_string(const char *p, const char *end)
{
#if SBX_SSE2
    if (end - p >= 16 && sbx_simd_on()) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
        /* signed compare: bytes >= 0x80 are negative, so "< 0x20" catches both */
        __m128i m = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')),
                                              _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))),
                                 _mm_cmplt_epi8(v, _mm_set1_epi8(0x20)));
        unsigned bits = (unsigned)_mm_movemask_epi8(m);
        if (bits && p[__builtin_ctz(bits)] == '"')
            return p + __builtin_ctz(bits);
    }
#endif
    (void)p;
    (void)end;
    return NULL;
}

/* ---- members, keys, duplicates ---- */

static struct sbx_jmember *push_member(struct sbx_jscan *s)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 32;
        s->m = sbx_xrealloc(s->m, cap * sizeof *s->m);
        s->cap = cap;
    }
    return &s->m[s->n++];
}

static int key_cmp(const struct sbx_jmember *a, const char *k, size_t klen)
{
    size_t n = a->ukey_len < klen ? a->ukey_len : klen;
    int c = n ? memcmp(a->ukey, k, n) : 0;
    if (c)
        return c;
    return a->ukey_len < klen ? -1 : a->ukey_len > klen;
}

/* ord sorted by (ukey, index): a stable bottom-up merge sort, O(n log n) on
 * any input, no recursion. */
static void sort_keys(struct sbx_jscan *s)
{
    size_t n = s->n;
    if (s->ord_cap < n) {
        free(s->ord);
        free(s->ord_tmp);
        s->ord = sbx_xmalloc(n * sizeof *s->ord);
        s->ord_tmp = sbx_xmalloc(n * sizeof *s->ord_tmp);
        s->ord_cap = n;
    }
    size_t *a = s->ord, *b = s->ord_tmp;
    for (size_t i = 0; i < n; i++)
        a[i] = i;
    for (size_t w = 1; w < n; w *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * w) {
            size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi) {
                const struct sbx_jmember *mj = &s->m[a[j]];
                if (key_cmp(&s->m[a[i]], mj->ukey, mj->ukey_len) <= 0)
                    b[k++] = a[i++];
                else
                    b[k++] = a[j++];
            }
            while (i < mid)
                b[k++] = a[i++];
            while (j < hi)
                b[k++] = a[j++];
        }
        size_t *t = a;
        a = b;
        b = t;
    }
    if (a != s->ord) {
        memcpy(s->ord_tmp, a, n * sizeof *a);
        size_t *t = s->ord;
        s->ord = s->ord_tmp;
        s->ord_tmp = t;
    }
}

/* Drops the members marked by a ukey_len of SIZE_MAX (the earlier of keys
 * given twice), keeping the order of the rest. */
static void drop_marked(struct sbx_jscan *s)
{
    size_t k = 0;
    for (size_t i = 0; i < s->n; i++)
        if (s->m[i].ukey_len != SIZE_MAX)
            s->m[k++] = s->m[i];
    s->dups += s->n - k;
    s->n = k;
}

/* For large objects: sort the keys; in a run of equal keys (in line order,
 * the sort being stable) all but the last are dropped, and the keys are
 * sorted again if any was. */
static void drop_dups_sorted(struct sbx_jscan *s)
{
    sort_keys(s);
    bool any = false;
    for (size_t i = 1; i < s->n; i++) {
        struct sbx_jmember *a = &s->m[s->ord[i - 1]];
        const struct sbx_jmember *b = &s->m[s->ord[i]];
        if (a->ukey_len == b->ukey_len && key_cmp(a, b->ukey, b->ukey_len) == 0) {
            a->ukey_len = SIZE_MAX;
            any = true;
        }
    }
    if (any) {
        drop_marked(s);
        sort_keys(s);
    }
    s->sorted = true;
}

/* Unescaped key of an escaped key body, in s->kbuf. The first escaped key of
 * a line reserves room for the rest of the line, so pointers handed out stay
 * valid while the line is scanned. */
static const char *unescape_key(struct sbx_jscan *s, const char *k, size_t klen,
                                const char *end, size_t *ulen)
{
    if (s->kbuf_len == 0) {
        size_t need = (size_t)(end - k);
        if (s->kbuf_cap < need) {
            free(s->kbuf);
            s->kbuf = sbx_xmalloc(need);
            s->kbuf_cap = need;
        }
    }
    char *dst = s->kbuf + s->kbuf_len;
    *ulen = sbx_jstr_decode(k, klen, dst);
    s->kbuf_len += klen;
    return dst;
}

/* ---- values ---- */

static bool is_num_char(unsigned char c)
{
    return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
}

static bool is_alpha(unsigned char c)
{
    c |= 0x20;
    return c >= 'a' && c <= 'z';
}

static bool is_prefix(const char *t, size_t n, const char *word)
{
    return n <= strlen(word) && memcmp(t, word, n) == 0;
}

/* jansson's lexer reads one character past a number or a literal and puts it
 * back; a NUL byte put back that way is lost from its stream, so exactly one
 * NUL right after such a token is skipped. Replicated for exact agreement. */
static inline const char *skip_lost_nul(const char *p, const char *end)
{
    return p < end && *p == '\0' ? p + 1 : p;
}

/* The common number, a plain integer of at most 18 digits (no leading zero,
 * fraction or exponent) followed by a byte that is not part of a number,
 * read in one pass; false for any other token, which sbx_json_number reads.
 * 18 digits always fit in int64, so there is no range to check; a longer run
 * wraps u unseen and is handed over. */
static inline bool plain_int(const char *p, const char *end, struct sbx_jmember *m,
                             const char **after)
{
    bool neg = p < end && *p == '-';
    const char *q = p + neg, *r = q;
    uint64_t u = 0;
    while (r < end && (unsigned)(unsigned char)*r - '0' <= 9)
        u = u * 10 + (uint64_t)(*r++ - '0');
    size_t nd = (size_t)(r - q);
    if (nd == 0 || nd > 18 || (nd > 1 && *q == '0') || r == end || is_num_char((unsigned char)*r))
        return false;
    m->type = SBX_JINT;
    m->i = neg ? -(int64_t)u : (int64_t)u;
    m->d = (double)m->i;
    m->val = p;
    m->val_len = (size_t)(r - p);
    *after = r;
    return true;
}

/* Any other number, through sbx_json_number; out of line, so that the
 * plain integer above needs no call. */
static __attribute__((noinline)) const char *scan_number_general(struct sbx_jscan *s,
                                                                 const char *line, const char *p,
                                                                 const char *end,
                                                                 struct sbx_jmember *m)
{
    const char *t = p;
    while (p < end && is_num_char((unsigned char)*p))
        p++;
    const char *why = sbx_json_number(t, (size_t)(p - t), &m->type, &m->i, &m->d);
    if (why && sbx_json_bigint(t, (size_t)(p - t)) && p < end) {
        m->type = SBX_JBIGINT; /* kept as its text */
        m->i = 0;
        m->d = 0;
    } else if (why) {
        if (p == end)
            return FAILN(s, line, t, SBX_JERR_TRUNCATED, "unexpected end of line in a number");
        if (p - t == 1 && *t == '-' && *p == 'I')
            return FAILN(s, line, t, SBX_JERR_SYNTAX, "Infinity is not JSON");
        return FAILN(s, line, t,
                     strncmp(why, "invalid", 7) == 0 ? SBX_JERR_SYNTAX : SBX_JERR_RANGE,
                     "%s", why);
    }
    m->val = t;
    m->val_len = (size_t)(p - t);
    return skip_lost_nul(p, end);
}

static inline const char *scan_number(struct sbx_jscan *s, const char *line, const char *p,
                                      const char *end, struct sbx_jmember *m)
{
    const char *after;
    if (plain_int(p, end, m, &after))
        return skip_lost_nul(after, end);
    return scan_number_general(s, line, p, end, m);
}

static const char *scan_literal(struct sbx_jscan *s, const char *line, const char *p,
                                const char *end, struct sbx_jmember *m)
{
    const char *t = p;
    /* true, false or null followed by a byte that is no letter: what the
       loop below would find, without it */
    if (end - p >= 5 && !is_alpha((unsigned char)p[4]) &&
        (memcmp(p, "true", 4) == 0 || memcmp(p, "null", 4) == 0)) {
        m->type = *p == 't' ? SBX_JTRUE : SBX_JNULL;
        p += 4;
        goto known;
    }
    if (end - p >= 6 && !is_alpha((unsigned char)p[5]) && memcmp(p, "false", 5) == 0) {
        m->type = SBX_JFALSE;
        p += 5;
        goto known;
    }
    while (p < end && is_alpha((unsigned char)*p))
        p++;
    size_t n = (size_t)(p - t);
    if (n == 4 && memcmp(t, "true", 4) == 0)
        m->type = SBX_JTRUE;
    else if (n == 5 && memcmp(t, "false", 5) == 0)
        m->type = SBX_JFALSE;
    else if (n == 4 && memcmp(t, "null", 4) == 0)
        m->type = SBX_JNULL;
    else if (n == 3 && memcmp(t, "NaN", 3) == 0)
        return FAILN(s, line, t, SBX_JERR_SYNTAX, "NaN is not JSON");
    else if (n == 8 && memcmp(t, "Infinity", 8) == 0)
        return FAILN(s, line, t, SBX_JERR_SYNTAX, "Infinity is not JSON");
    else if (p == end && (is_prefix(t, n, "true") || is_prefix(t, n, "false") ||
                          is_prefix(t, n, "null")))
        return FAILN(s, line, t, SBX_JERR_TRUNCATED, "unexpected end of line in a literal");
    else
        return FAILN(s, line, t, SBX_JERR_SYNTAX, "invalid literal");
known:
    m->val = t;
    m->val_len = (size_t)(p - t);
    m->i = 0;
    m->d = 0;
    return skip_lost_nul(p, end);
}

/* The whole line through jansson, for lines with nested values. */
static bool check_with_jansson(struct sbx_jscan *s, const char *line, size_t len)
{
    json_error_t e;
    unsigned facts;
    json_t *j = sbx_json_load(line, len, 0, &facts, &e);
    if (j) {
        bool obj = json_is_object(j);
        json_decref(j);
        if (!obj)
            return fail(s, line, line, SBX_JERR_NOT_OBJECT, "not a JSON object");
        if ((facts & SBX_JLOAD_DUPLICATE) && s->dups == 0)
            s->dups = 1; /* a key given twice in a nested object */
        return true;
    }
    size_t pos = e.position > 0 && (size_t)e.position <= len ? (size_t)e.position : 0;
    const char *at = line + pos;
    switch (json_error_code(&e)) {
    case json_error_invalid_utf8:
        return fail(s, line, at, SBX_JERR_UTF8, "invalid UTF-8 in a nested value");
    case json_error_stack_overflow:
        return fail(s, line, at, SBX_JERR_DEPTH, "nested deeper than %d levels",
                    JANSSON_MAX_DEPTH);
    case json_error_numeric_overflow:
        return fail(s, line, at, SBX_JERR_RANGE, "number out of range in a nested value");
    case json_error_null_byte_in_key:
        return fail(s, line, at, SBX_JERR_SYNTAX, "\\u0000 in a nested key");
    case json_error_premature_end_of_input:
        return fail(s, line, at, SBX_JERR_TRUNCATED, "unexpected end of line");
    case json_error_out_of_memory:
        return fail(s, line, at, SBX_JERR_SYNTAX, "out of memory validating a nested value");
    default:
        return fail(s, line, at, SBX_JERR_SYNTAX, "invalid JSON in a nested value");
    }
}

/* ---- the line ---- */

void sbx_jscan_init(struct sbx_jscan *s)
{
    memset(s, 0, sizeof *s);
}

void sbx_jscan_free(struct sbx_jscan *s)
{
    free(s->m);
    free(s->kbuf);
    free(s->ord);
    free(s->ord_tmp);
    memset(s, 0, sizeof *s);
}

static void trim_scratch(struct sbx_jscan *s)
{
    if (s->cap > KEEP_MEMBERS) {
        free(s->m);
        s->m = NULL;
        s->cap = 0;
    }
    if (s->ord_cap > KEEP_MEMBERS) {
        free(s->ord);
        free(s->ord_tmp);
        s->ord = s->ord_tmp = NULL;
        s->ord_cap = 0;
    }
    if (s->kbuf_cap > KEEP_KBUF) {
        free(s->kbuf);
        s->kbuf = NULL;
        s->kbuf_cap = 0;
    }
}

/* The object at line, up to end; in a stream, the line ends at the first
 * newline after the object and *line_end says where. Inlined into its two
 * callers so that each gets the whitespace rule as a constant. */
static inline __attribute__((always_inline)) bool scan_object(struct sbx_jscan *s, const char *line,
                                                              const char *end, bool stream,
                                                              const char **line_end)
{
    const char *p = line;
    bool nested = false;
    uint64_t seen = 0; /* signatures of the keys so far, while n <= LINEAR_DUP_MAX */

    trim_scratch(s);
    s->n = 0;
    s->dups = 0;
    s->sorted = false;
    s->kbuf_len = 0;
    s->err[0] = '\0';
    s->err_pos = 0;
    s->err_code = SBX_JERR_NONE;

    p = skip_ws_in(p, end, stream);
    if (p == end)
        return fail(s, line, p, SBX_JERR_EMPTY, "empty line");
    if (*p != '{') {
        if (end - p >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0)
            return fail(s, line, p, SBX_JERR_SYNTAX, "byte order mark before the object");
        return fail(s, line, p, SBX_JERR_NOT_OBJECT, "not a JSON object");
    }
    p = skip_ws_in(p + 1, end, stream);
    if (p == end)
        return fail(s, line, p, SBX_JERR_TRUNCATED, "unexpected end of line");
    if (*p == '}') {
        p++;
        goto after_object;
    }
    for (;;) {
        if (*p != '"')
            return fail(s, line, p, SBX_JERR_SYNTAX, "expected a string key");
        const char *k = p + 1;
        unsigned char kesc = 0;
        const char *q = plain_short_string(k, end);
        if (!q && !(q = sbx_jscan_string(s, line, k, end, &kesc)))
            return false;
        if (kesc & SBX_JSTR_NUL)
            return fail(s, line, k - 1, SBX_JERR_SYNTAX, "\\u0000 in a key");

        struct sbx_jmember *m = push_member(s);
        m->key = k;
        m->key_len = (size_t)(q - k);
        m->key_escaped = kesc & SBX_JSTR_ESCAPED;
        m->val_escaped = 0;
        m->val_unusual = 0;
        m->val_hides = 0;
        if (kesc & SBX_JSTR_ESCAPED) {
            m->ukey = unescape_key(s, k, m->key_len, end, &m->ukey_len);
        } else {
            m->ukey = k;
            m->ukey_len = m->key_len;
        }
        if (s->n <= LINEAR_DUP_MAX) {
            /* equal keys have equal signatures: compare only on a repeat */
            size_t ul = m->ukey_len;
            unsigned sig = ul ? (unsigned)(ul * 7 + (unsigned char)m->ukey[0] * 3 +
                                           (unsigned char)m->ukey[ul - 1])
                              : 0;
            uint64_t bit = 1ULL << (sig & 63);
            bool maybe_dup = (seen & bit) != 0;
            seen |= bit;
            for (size_t j = 0; maybe_dup && j + 1 < s->n; j++) {
                const struct sbx_jmember *o = &s->m[j];
                if (o->ukey_len == m->ukey_len &&
                    (m->ukey_len == 0 || (o->ukey[0] == m->ukey[0] &&
                                          memcmp(o->ukey, m->ukey, m->ukey_len) == 0))) {
                    /* the later one stands: jansson keeps the last value */
                    memmove(&s->m[j], &s->m[j + 1], (s->n - j - 1) * sizeof *s->m);
                    s->n--;
                    s->dups++;
                    m = &s->m[s->n - 1];
                    break; /* earlier keys were all distinct */
                }
            }
        }

        p = q + 1;
        if (end - p >= 3 && memcmp(p, ": ", 2) == 0 && (unsigned char)p[2] > ' ') {
            /* ": " and no more whitespace, as json.dumps writes: where the
               general steps below stop too */
            p += 2;
        } else {
            p = skip_ws_in(p, end, stream);
            if (p == end)
                return fail(s, line, p, SBX_JERR_TRUNCATED, "unexpected end of line");
            if (*p != ':')
                return fail(s, line, p, SBX_JERR_SYNTAX, "expected ':' after a key");
            p = skip_ws_in(p + 1, end, stream);
            if (p == end)
                return fail(s, line, p, SBX_JERR_TRUNCATED, "unexpected end of line");
        }

        unsigned char c = (unsigned char)*p;
        if (c == '"') {
            const char *v = p + 1;
            unsigned char vesc = 0;
            q = plain_short_string(v, end);
            if (!q && !(q = sbx_jscan_string(s, line, v, end, &vesc)))
                return false;
            m->type = SBX_JSTRING;
            m->val = v;
            m->val_len = (size_t)(q - v);
            m->val_escaped = vesc & SBX_JSTR_ESCAPED;
            m->val_unusual = (vesc & (SBX_JSTR_UESCAPE | SBX_JSTR_HIGH)) != 0;
            m->val_hides = (vesc & SBX_JSTR_HIDES) != 0;
            m->i = 0;
            m->d = 0;
            p = q + 1;
        } else if (c == '-' || (c >= '0' && c <= '9')) {
            p = scan_number(s, line, p, end, m);
            if (!p)
                return false;
        } else if (c == '[' || c == '{') {
            q = c == '[' ? string_array(s, line, p, end, stream) : NULL;
            if (!q) {
                if (s->err_code != SBX_JERR_NONE)
                    return false; /* an invalid string in the array */
                q = skip_nested(s, line, p, end, stream);
                if (!q)
                    return false;
                nested = true;
            }
            m->type = c == '[' ? SBX_JARRAY : SBX_JOBJECT;
            m->val = p;
            m->val_len = (size_t)(q - p);
            m->i = 0;
            m->d = 0;
            p = q;
        } else if (is_alpha(c)) {
            p = scan_literal(s, line, p, end, m);
            if (!p)
                return false;
        } else {
            return fail(s, line, p, SBX_JERR_SYNTAX, "expected a value");
        }

        if (end - p >= 3 && memcmp(p, ", \"", 3) == 0) {
            p += 2; /* ", " and the next key, as json.dumps writes */
            continue;
        }
        p = skip_ws_in(p, end, stream);
        if (p == end)
            return fail(s, line, p, SBX_JERR_TRUNCATED, "unexpected end of line");
        if (*p == ',') {
            p = skip_ws_in(p + 1, end, stream);
            if (p == end)
                return fail(s, line, p, SBX_JERR_TRUNCATED, "unexpected end of line");
            continue;
        }
        if (*p == '}') {
            p++;
            break;
        }
        return fail(s, line, p, SBX_JERR_SYNTAX, "expected ',' or '}' after a value");
    }

after_object:
    p = skip_ws_in(p, end, stream);
    if (p != end && !(stream && *p == '\n'))
        return fail(s, line, p, SBX_JERR_SYNTAX, "trailing data after the object");
    *line_end = p;
    if (s->n > LINEAR_DUP_MAX)
        drop_dups_sorted(s);
    if (nested && !check_with_jansson(s, line, (size_t)(p - line)))
        return false;
    return true;
}

bool sbx_jscan_line(struct sbx_jscan *s, const char *line, size_t len)
{
    const char *line_end = NULL;
    return scan_object(s, line, line + len, false, &line_end);
}

bool sbx_jscan_stream(struct sbx_jscan *s, const char *p, const char *limit, size_t *len)
{
    const char *line_end = NULL;
    if (!scan_object(s, p, limit, true, &line_end))
        return false;
    *len = (size_t)(line_end - p);
    return true;
}



/* ---- lookup ---- */

const struct sbx_jmember *sbx_jscan_getn(const struct sbx_jscan *s, const char *key,
                                         size_t key_len)
{
    if (s->sorted) {
        size_t lo = 0, hi = s->n;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            int c = key_cmp(&s->m[s->ord[mid]], key, key_len);
            if (c == 0)
                return &s->m[s->ord[mid]];
            if (c < 0)
                lo = mid + 1;
            else
                hi = mid;
        }
        return NULL;
    }
    for (size_t i = 0; i < s->n; i++) {
        const struct sbx_jmember *m = &s->m[i];
        if (m->ukey_len == key_len && memcmp(m->ukey, key, key_len) == 0)
            return m;
    }
    return NULL;
}

const struct sbx_jmember *sbx_jscan_get(const struct sbx_jscan *s, const char *key)
{
    return sbx_jscan_getn(s, key, strlen(key));
}
