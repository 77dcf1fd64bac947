/* Reading a PCRE2 pattern without running it: smart case and the required
 * literal, then finding that literal in raw or decoded text. The walk is
 * one linear pass (no recursion: hostile nesting costs nothing) and errs on
 * the side of "no literal": anything it does not understand ends a run. */
#define PCRE2_CODE_UNIT_WIDTH 8
#include "model/query_lit.h"

#include <pcre2.h>
#include <string.h>

#include "model/buf.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

struct walker {
    const unsigned char *p;
    size_t n, i;
    bool caseless;
    int depth;
    bool upper;          /* an own ASCII upper-case letter */
    struct sbx_buf high; /* own non-ASCII characters, checked for upper case at the end */
    bool no_lit;         /* the pattern has no sound literal at all */
    bool impure;         /* something other than a plain character was seen */
    unsigned char run[SBX_LIT_MAX];
    size_t runlen;
    bool run_cut;        /* the run went on past SBX_LIT_MAX */
    size_t last_len;     /* bytes of the last character added to the run; 0: not in it */
    unsigned char best[SBX_LIT_MAX];
    size_t bestlen;
};

static bool is_alnum(unsigned char c)
{
    return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z');
}

static unsigned char lower(unsigned char c)
{
    return c >= 'A' && c <= 'Z' ? (unsigned char)(c | 0x20) : c;
}

static bool is_letter(unsigned char c)
{
    return (c | 0x20) >= 'a' && (c | 0x20) <= 'z';
}

/* The length of the UTF-8 character led by c, within what is left. */
static size_t char_len(const struct walker *w, size_t at)
{
    unsigned char c = w->p[at];
    size_t k = c < 0xC0 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    return k <= w->n - at ? k : w->n - at;
}

static void end_run(struct walker *w)
{
    if (w->runlen > w->bestlen) {
        memcpy(w->best, w->run, w->runlen);
        w->bestlen = w->runlen;
    }
    w->runlen = 0;
    w->run_cut = false;
    w->last_len = 0;
}

static void other(struct walker *w)
{
    end_run(w);
    w->impure = true;
}

static void own_char(struct walker *w, const unsigned char *c, size_t len)
{
    if (len == 1 && c[0] >= 'A' && c[0] <= 'Z')
        w->upper = true;
    else if (c[0] >= 0x80)
        sbx_buf_add(&w->high, c, len);
}

static void literal(struct walker *w, const unsigned char *c, size_t len)
{
    own_char(w, c, len);
    if (w->depth > 0) {
        w->last_len = 0;
        return;
    }
    bool folds_wide = lower(c[0]) == 'k' || lower(c[0]) == 's'; /* K also matches U+212A, S U+017F */
    if (w->caseless && (c[0] >= 0x80 || folds_wide)) {
        other(w);
        return;
    }
    if (c[0] >= 0x80)
        w->impure = true; /* around invalid UTF-8, PCRE2 decides */
    if (w->run_cut || w->runlen + len > SBX_LIT_MAX) {
        /* a prefix of a required literal is required too */
        w->run_cut = true;
        w->impure = true;
        w->last_len = 0;
        return;
    }
    for (size_t k = 0; k < len; k++)
        w->run[w->runlen++] = w->caseless ? lower(c[k]) : c[k];
    w->last_len = len;
}

/* A quantifier: an optional character leaves the run, and a repeated one
 * ends it (ab+c needs "ab" and "bc", not "abc"). */
static void quantifier(struct walker *w, bool optional)
{
    if (w->last_len && optional)
        w->runlen -= w->last_len;
    other(w);
    if (w->i < w->n && (w->p[w->i] == '?' || w->p[w->i] == '+'))
        w->i++; /* lazy or possessive */
}

static size_t skip_past(const struct walker *w, size_t at, unsigned char close)
{
    while (at < w->n && w->p[at] != close)
        at++;
    return at < w->n ? at + 1 : w->n;
}

static size_t skip_digits(const struct walker *w, size_t at, size_t max, bool octal)
{
    for (size_t k = 0; k < max && at < w->n; k++, at++) {
        unsigned char c = w->p[at];
        if (c < '0' || c > (octal ? '7' : '9'))
            break;
    }
    return at;
}

static size_t skip_hex(const struct walker *w, size_t at, size_t max)
{
    for (size_t k = 0; k < max && at < w->n; k++, at++) {
        unsigned char c = w->p[at];
        if (!((c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')))
            break;
    }
    return at;
}

/* The arguments of an escape \d whose letter is at p[at - 1]; returns the
 * index after them. \Q…\E is handled by the caller. */
static size_t escape_args(struct walker *w, unsigned char d, size_t at)
{
    unsigned char next = at < w->n ? w->p[at] : 0;
    switch (d) {
    case 'x':
        return next == '{' ? skip_past(w, at, '}') : skip_hex(w, at, 2);
    case 'o':
    case 'N':
        return next == '{' ? skip_past(w, at, '}') : at;
    case 'c':
        return at < w->n ? at + 1 : at;
    case 'p':
    case 'P':
        return next == '{' ? skip_past(w, at, '}') : at < w->n ? at + 1 : at;
    case 'g':
    case 'k':
        if (next == '{')
            return skip_past(w, at, '}');
        if (next == '<')
            return skip_past(w, at, '>');
        if (next == '\'')
            return skip_past(w, at + 1, '\'');
        if (d == 'g' && (next == '+' || next == '-'))
            at++;
        return skip_digits(w, at, SIZE_MAX, false);
    case '0':
        return skip_digits(w, at, 2, true);
    default:
        if (d >= '1' && d <= '9')
            return skip_digits(w, at, SIZE_MAX, false);
        return at;
    }
}

/* \Q…\E: its characters are the pattern's own (smart case), but the walk
 * does not take a literal from it. */
static size_t quoted(struct walker *w, size_t at)
{
    w->no_lit = true;
    other(w);
    while (at < w->n) {
        if (w->p[at] == '\\' && at + 1 < w->n && w->p[at + 1] == 'E')
            return at + 2;
        size_t k = char_len(w, at);
        own_char(w, w->p + at, k);
        at += k;
    }
    return at;
}

static void escape(struct walker *w)
{
    size_t at = w->i + 1;
    if (at >= w->n) {
        other(w);
        w->i = at;
        return;
    }
    unsigned char d = w->p[at];
    if (!is_alnum(d)) {
        size_t k = char_len(w, at);
        literal(w, w->p + at, k);
        w->i = at + k;
        return;
    }
    if (d == 'Q') {
        w->i = quoted(w, at + 1);
        return;
    }
    other(w);
    w->i = escape_args(w, d, at + 1);
}

/* [ … ]: members are own characters for smart case; the class itself is
 * not a literal. */
static void char_class(struct walker *w)
{
    size_t at = w->i + 1;
    if (at < w->n && w->p[at] == '^')
        at++;
    if (at < w->n && w->p[at] == ']') {
        own_char(w, w->p + at, 1);
        at++;
    }
    while (at < w->n && w->p[at] != ']') {
        unsigned char c = w->p[at];
        if (c == '\\' && at + 1 < w->n) {
            unsigned char d = w->p[at + 1];
            if (d == 'Q') {
                at = quoted(w, at + 2);
            } else if (is_alnum(d)) {
                at = escape_args(w, d, at + 2);
            } else {
                size_t k = char_len(w, at + 1);
                own_char(w, w->p + at + 1, k);
                at += 1 + k;
            }
        } else if (c == '[' && at + 1 < w->n &&
                   (w->p[at + 1] == ':' || w->p[at + 1] == '.' || w->p[at + 1] == '=')) {
            /* [:alpha:] and friends: a name, not members */
            unsigned char kind = w->p[at + 1];
            at += 2;
            while (at + 1 < w->n && !(w->p[at] == kind && w->p[at + 1] == ']'))
                at++;
            at = at + 1 < w->n ? at + 2 : w->n;
        } else {
            size_t k = char_len(w, at);
            own_char(w, w->p + at, k);
            at += k;
        }
    }
    other(w);
    w->i = at < w->n ? at + 1 : w->n;
}

static void group(struct walker *w)
{
    other(w);
    size_t at = w->i + 1;
    unsigned char d = at < w->n ? w->p[at] : 0;
    if (d == '*') { /* (*VERB), (*UTF)…: (*ACCEPT) can end a match anywhere */
        w->no_lit = true;
        w->i = skip_past(w, at, ')');
        return;
    }
    if (d != '?') {
        w->depth++;
        w->i = at;
        return;
    }
    at++;
    unsigned char e = at < w->n ? w->p[at] : 0, f = at + 1 < w->n ? w->p[at + 1] : 0;
    if (e && strchr(":=!>|", e)) {
        at++;
    } else if (e == '<' && (f == '=' || f == '!')) {
        at += 2;
    } else if (e == '#') {
        w->i = skip_past(w, at, ')');
        return;
    } else if (e == '<' || e == '\'' || (e == 'P' && f == '<')) {
        at = skip_past(w, at + (e == 'P'), e == '\'' ? '\'' : '>'); /* the group's name */
        if (e == '\'')
            at = skip_past(w, at, '\'');
    } else {
        /* options, recursion, callouts, conditions: no literal is safe */
        w->no_lit = true;
        while (at < w->n && (is_alnum(w->p[at]) || strchr("_&=+-^'<>", w->p[at])))
            at++;
        if (at < w->n && w->p[at] == ')') {
            w->i = at + 1;
            return;
        }
        if (at < w->n && w->p[at] == ':')
            at++;
    }
    w->depth++;
    w->i = at;
}

/* {n}, {n,}, {n,m} (and, in newer PCRE2, {,m} and spaces): one quantifier,
 * skipped whole so its digits are not read as characters. */
static bool brace_quantifier(struct walker *w)
{
    size_t at = w->i + 1;
    while (at < w->n && ((w->p[at] >= '0' && w->p[at] <= '9') || w->p[at] == ',' ||
                         w->p[at] == ' ' || w->p[at] == '\t'))
        at++;
    if (at >= w->n || w->p[at] != '}')
        return false;
    w->i = at + 1;
    return true;
}

static void walk(struct walker *w)
{
    while (w->i < w->n) {
        unsigned char c = w->p[w->i];
        switch (c) {
        case '\\':
            escape(w);
            break;
        case '[':
            char_class(w);
            break;
        case '(':
            group(w);
            break;
        case ')':
            other(w);
            if (w->depth > 0)
                w->depth--;
            w->i++;
            break;
        case '|':
            if (w->depth == 0)
                w->no_lit = true;
            other(w);
            w->i++;
            break;
        case '.': case '^': case '$':
            other(w);
            w->i++;
            break;
        case '?': case '*': case '+':
            w->i++;
            quantifier(w, c != '+');
            break;
        case '{':
            if (brace_quantifier(w)) {
                quantifier(w, true);
            } else {
                other(w); /* a plain '{' in PCRE2; read as nothing, which is safe */
                w->i++;
            }
            break;
        default: {
            size_t k = char_len(w, w->i);
            literal(w, w->p + w->i, k);
            w->i += k;
        }
        }
    }
    end_run(w);
}

static bool high_upper(const struct sbx_buf *high)
{
    if (!high->len)
        return false;
    int code;
    PCRE2_SIZE off;
    pcre2_code *re = pcre2_compile((PCRE2_SPTR) "[\\p{Lu}\\p{Lt}]", PCRE2_ZERO_TERMINATED,
                                   PCRE2_UTF | PCRE2_MATCH_INVALID_UTF, &code, &off, NULL);
    if (!re)
        return false;
    pcre2_match_data *md = pcre2_match_data_create(1, NULL);
    bool found = md && pcre2_match(re, (PCRE2_SPTR)high->p, high->len, 0, 0, md, NULL) >= 0;
    pcre2_match_data_free(md);
    pcre2_code_free(re);
    return found;
}

bool sbx_lit_smartcase(const char *pat, size_t n)
{
    struct walker w = {.p = (const unsigned char *)pat, .n = n};
    walk(&w);
    bool upper = w.upper || high_upper(&w.high);
    sbx_buf_free(&w.high);
    return !upper;
}

/* How common a byte is in logs and code (higher: rarer), to pick the two
 * positions the vector search tests first. */
static int rarity(unsigned char c, bool caseless)
{
    static const char common[] = " etaoinsrlhdcu/.0123456789-_:=\"mpfgwy,bv()kxjqz";
    unsigned char l = lower(c);
    const char *at = l ? strchr(common, l) : NULL;
    int r = at ? (int)(at - common) : (int)sizeof common;
    if (!caseless && c != l)
        r += 8; /* upper case is rarer than lower */
    return r;
}

void sbx_lit_extract(const char *pat, size_t n, bool caseless, struct sbx_lit *lit)
{
    memset(lit, 0, sizeof *lit);
    struct walker w = {.p = (const unsigned char *)pat, .n = n, .caseless = caseless};
    walk(&w);
    sbx_buf_free(&w.high);
    if (w.no_lit || w.bestlen == 0)
        return;
    memcpy(lit->s, w.best, w.bestlen);
    lit->n = w.bestlen;
    lit->caseless = caseless;
    lit->pure = !w.impure;
    int r1 = -1, r2 = -1;
    for (size_t k = 0; k < lit->n; k++) {
        unsigned char c = lit->s[k];
        lit->in[c] = 1;
        if (caseless && is_letter(c))
            lit->in[c & ~0x20u] = 1;
        if (c >= 0x80)
            lit->high = true;
        int r = rarity(c, caseless);
        if (r > r1) {
            r2 = r1;
            lit->rare2 = lit->rare1;
            r1 = r;
            lit->rare1 = k;
        } else if (r > r2) {
            r2 = r;
            lit->rare2 = k;
        }
    }
    static const char short_esc[] = "\"\\/bfnrt", short_dec[] = "\"\\/\b\f\n\r\t";
    for (int k = 0; short_esc[k]; k++)
        if (lit->in[(unsigned char)short_dec[k]])
            lit->esc[lit->nesc++] = short_esc[k];
    lit->nib_lo = '8';
    lit->nib_hi = '0';
    for (unsigned c = 0; c < 0x80; c++) {
        if (!lit->in[c])
            continue;
        char nib = (char)('0' + (c >> 4));
        if (nib < lit->nib_lo)
            lit->nib_lo = nib;
        if (nib > lit->nib_hi)
            lit->nib_hi = nib;
    }
    if (lit->n == 1)
        lit->rare2 = lit->rare1;
    if (lit->rare1 > lit->rare2) {
        size_t t = lit->rare1;
        lit->rare1 = lit->rare2;
        lit->rare2 = t;
    }
}

static bool equal_at(const struct sbx_lit *lit, const unsigned char *s)
{
    if (!lit->caseless)
        return memcmp(s, lit->s, lit->n) == 0;
    for (size_t k = 0; k < lit->n; k++)
        if (lower(s[k]) != lit->s[k])
            return false;
    return true;
}

static int hex_digit(unsigned char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    c |= 0x20;
    return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* Does the escape whose backslash is raw[j] decode to a byte of the
 * literal? A backslash that is itself the second half of "\\" is also
 * tried: that can only say yes more often, which is safe. */
static bool escape_hides(const struct sbx_lit *lit, const unsigned char *raw, size_t n, size_t j)
{
    if (j + 1 >= n)
        return false;
    unsigned char c = raw[j + 1];
    if (c == 'u') {
        if (j + 6 > n)
            return false;
        int cp = 0;
        for (int k = 0; k < 4; k++) {
            int d = hex_digit(raw[j + 2 + k]);
            if (d < 0)
                return false; /* copied through as it stands: plain bytes */
            cp = cp << 4 | d;
        }
        if (cp < 0x80)
            return lit->in[cp];
        if (!lit->high)
            return false;
        if (cp >= 0xD800 && cp <= 0xDFFF)
            return true; /* half of a pair: whatever it makes with the other */
        unsigned char u8[3] = {(unsigned char)(0x80 | (cp & 0x3F)), 0, 0};
        if (cp < 0x800) {
            u8[1] = (unsigned char)(0xC0 | cp >> 6);
        } else {
            u8[1] = (unsigned char)(0x80 | (cp >> 6 & 0x3F));
            u8[2] = (unsigned char)(0xE0 | cp >> 12);
        }
        return lit->in[u8[0]] || lit->in[u8[1]] || (u8[2] && lit->in[u8[2]]);
    }
    static const unsigned char decoded[256] = {
        ['"'] = '"', ['\\'] = '\\', ['/'] = '/', ['b'] = '\b',
        ['f'] = '\f', ['n'] = '\n', ['r'] = '\r', ['t'] = '\t',
    };
    return decoded[c] && lit->in[decoded[c]];
}

/* The scan behind both searches: 64 bytes a round, with one branch for
 * them (JSON output has a backslash every few dozen bytes: a branch per 16
 * would mispredict). The last bytes of a text go through a zero-padded
 * copy, so short texts (most command lines) take the vector path too. */
enum { BLOCK = 64, PAD = SBX_LIT_MAX + 8 }; /* a round reads up to PAD bytes past its 64 */

enum found { FOUND_NONE, FOUND_LITERAL, FOUND_ESCAPE };

#ifdef __SSE2__
struct vec_lit {
    __m128i v1, v2, f1, f2;      /* the two rare bytes, and their case bits */
    __m128i bs, u, zero, lo, hi; /* escapes */
    __m128i esc[8];
    int nesc;
};

#define LOAD(p) _mm_loadu_si128((const __m128i *)(const void *)(p))

/* Where the literal may start in p[0..16). */
static inline unsigned lit_mask(const struct sbx_lit *lit, const struct vec_lit *v,
                                const unsigned char *p)
{
    __m128i a = _mm_or_si128(LOAD(p + lit->rare1), v->f1);
    __m128i b = _mm_or_si128(LOAD(p + lit->rare2), v->f2);
    return (unsigned)_mm_movemask_epi8(_mm_and_si128(_mm_cmpeq_epi8(a, v->v1), _mm_cmpeq_epi8(b, v->v2)));
}

/* Backslashes in p[0..16) whose escape can make a byte of the literal:
 * most are \n, \" or a \u of a character that is not in it, and stop here. */
static inline unsigned esc_mask(const struct vec_lit *v, const unsigned char *p, bool high)
{
    __m128i b = LOAD(p + 1), cand = _mm_cmpeq_epi8(b, v->u);
    if (!high) { /* \u00NX with N in the literal's range */
        __m128i d = LOAD(p + 4);
        cand = _mm_and_si128(cand, _mm_and_si128(_mm_cmpeq_epi8(LOAD(p + 2), v->zero),
                                                 _mm_cmpeq_epi8(LOAD(p + 3), v->zero)));
        cand = _mm_and_si128(cand, _mm_and_si128(_mm_cmpgt_epi8(d, v->lo), _mm_cmplt_epi8(d, v->hi)));
    }
    for (int k = 0; k < v->nesc; k++)
        cand = _mm_or_si128(cand, _mm_cmpeq_epi8(b, v->esc[k]));
    return (unsigned)_mm_movemask_epi8(_mm_and_si128(_mm_cmpeq_epi8(LOAD(p), v->bs), cand));
}
#undef LOAD

static void vec_init(struct vec_lit *v, const struct sbx_lit *lit)
{
    unsigned char c1 = lit->s[lit->rare1], c2 = lit->s[lit->rare2];
    v->v1 = _mm_set1_epi8((char)c1);
    v->v2 = _mm_set1_epi8((char)c2);
    v->f1 = _mm_set1_epi8(lit->caseless && is_letter(c1) ? 0x20 : 0);
    v->f2 = _mm_set1_epi8(lit->caseless && is_letter(c2) ? 0x20 : 0);
    v->bs = _mm_set1_epi8('\\');
    v->u = _mm_set1_epi8('u');
    v->zero = _mm_set1_epi8('0');
    v->lo = _mm_set1_epi8((char)(lit->nib_lo - 1));
    v->hi = _mm_set1_epi8((char)(lit->nib_hi + 1));
    v->nesc = lit->nesc;
    for (int k = 0; k < lit->nesc; k++)
        v->esc[k] = _mm_set1_epi8(lit->esc[k]);
}

/* One round over p[0..64), which stands for raw[base..base+64); starts at or
 * past the limits are not candidates. json and high are constants where it
 * is inlined, so each use gets its own loop. */
__attribute__((always_inline)) static inline enum found
round64(const struct sbx_lit *lit, const struct vec_lit *v, const unsigned char *p,
        const unsigned char *raw, size_t n, size_t base, bool json, bool high, size_t *at)
{
    uint64_t lm = 0, em = 0;
    for (int j = 0; j < BLOCK; j += 16) {
        lm |= (uint64_t)lit_mask(lit, v, p + j) << j;
        if (json)
            em |= (uint64_t)esc_mask(v, p + j, high) << j;
    }
    if (!(lm | em))
        return FOUND_NONE;
    size_t left = n - base;
    if (left < BLOCK) { /* a padded copy: only real bytes count */
        uint64_t real = (UINT64_C(1) << left) - 1;
        lm &= left >= lit->n ? (UINT64_C(1) << (left - lit->n + 1)) - 1 : 0;
        em &= real;
    }
    for (; lm; lm &= lm - 1) {
        size_t k = base + (unsigned)__builtin_ctzll(lm);
        if (k + lit->n <= n && equal_at(lit, raw + k)) {
            *at = k;
            return FOUND_LITERAL;
        }
    }
    for (; em; em &= em - 1)
        if (escape_hides(lit, raw, n, base + (unsigned)__builtin_ctzll(em)))
            return FOUND_ESCAPE;
    return FOUND_NONE;
}

__attribute__((always_inline)) static inline enum found
scan_with(const struct sbx_lit *lit, const unsigned char *raw, size_t n, bool json, bool high,
          size_t *at)
{
    struct vec_lit v;
    vec_init(&v, lit);
    size_t i = 0;
    enum found f;
    for (; n >= BLOCK + PAD && i <= n - BLOCK - PAD; i += BLOCK)
        if ((f = round64(lit, &v, raw + i, raw, n, i, json, high, at)) != FOUND_NONE)
            return f;
    /* the rest, fewer than BLOCK + PAD bytes, from a zero-padded copy */
    unsigned char tmp[2 * BLOCK + 2 * PAD];
    size_t left = n - i;
    memset(tmp + left, 0, sizeof tmp - left);
    memcpy(tmp, raw + i, left);
    for (size_t j = 0; j < left; j += BLOCK)
        if ((f = round64(lit, &v, tmp + j, raw, n, i + j, json, high, at)) != FOUND_NONE)
            return f;
    return FOUND_NONE;
}

static enum found scan(const struct sbx_lit *lit, const unsigned char *raw, size_t n, bool json,
                       size_t *at)
{
    if (!json)
        return scan_with(lit, raw, n, false, false, at);
    if (lit->high)
        return scan_with(lit, raw, n, true, true, at);
    return scan_with(lit, raw, n, true, false, at);
}
#else
static enum found scan(const struct sbx_lit *lit, const unsigned char *raw, size_t n, bool json,
                       size_t *at)
{
    for (size_t i = 0; i < n; i++) {
        if (lit->n <= n - i && equal_at(lit, raw + i)) {
            *at = i;
            return FOUND_LITERAL;
        }
        if (json && raw[i] == '\\' && escape_hides(lit, raw, n, i))
            return FOUND_ESCAPE;
    }
    return FOUND_NONE;
}
#endif

const char *sbx_lit_find(const struct sbx_lit *lit, const char *str, size_t n)
{
    size_t at;
    if (scan(lit, (const unsigned char *)str, n, false, &at) == FOUND_LITERAL)
        return str + at;
    return NULL;
}

bool sbx_lit_json_may_have(const struct sbx_lit *lit, const char *str, size_t n)
{
    size_t at;
    return scan(lit, (const unsigned char *)str, n, true, &at) != FOUND_NONE;
}
