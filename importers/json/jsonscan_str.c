/* String bodies: validated exactly as jansson's lexer does with
 * JSON_ALLOW_NUL (escapes, \\u surrogate pairs, strict UTF-8, no raw control
 * characters; \\u0000 is reported, for keys, which may not hold it).
 * A reference scanner takes one event at a time and words every error; the
 * fast scanners (SSE2, and AVX2 when the CPU has it, chosen at run time) take
 * 64 bytes at a time with bit masks and hand anything irregular to the
 * reference one, so all of them always agree.
 *
 * Without SSE2 (or with SBX_NO_SIMD) the reference scanner skips plain
 * bytes eight at a time (SWAR) on little-endian targets; with vector code
 * off at run time (base/simd.h) it takes one byte at a time: the scalar
 * twin every other path is compared with. */
#include "importers/json/jsonscan.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "analyses/hidden.h"
#include "base/simd.h"
#include "base/utf8.h"

#if SBX_SSE2
#include <emmintrin.h>
#define USE_SSE2 1
#if SBX_X86_64 && (defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 5))
#include <immintrin.h>
#define USE_AVX2 1
#endif
#elif defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define USE_SWAR 1
#endif

static const char *fail(struct sbx_jscan *s, const char *line, const char *at,
                        enum sbx_jerr code, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

static const char *fail(struct sbx_jscan *s, const char *line, const char *at,
                        enum sbx_jerr code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->err, sizeof s->err, fmt, ap);
    va_end(ap);
    s->err_pos = (size_t)(at - line);
    s->err_code = code;
    s->n = 0;
    s->sorted = false;
    return NULL;
}

static inline bool is_plain(unsigned char c)
{
    return c >= 0x20 && c < 0x80 && c != '"' && c != '\\';
}

/* The first byte in [p, end) that is not plain printable ASCII in a string:
 * '"', '\\', a control character, or a byte >= 0x80; end if none. */
static inline const char *skip_plain(const char *p, const char *end)
{
    bool vector = sbx_simd_on();
    (void)vector;
#if defined(USE_SSE2)
    const __m128i quote = _mm_set1_epi8('"'), bslash = _mm_set1_epi8('\\'),
                  space = _mm_set1_epi8(0x20);
    while (vector && end - p >= 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
        /* signed compare: bytes >= 0x80 are negative, so "< 0x20" catches both */
        __m128i m = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, bslash)),
                                 _mm_cmplt_epi8(v, space));
        unsigned bits = (unsigned)_mm_movemask_epi8(m);
        if (bits)
            return p + __builtin_ctz(bits);
        p += 16;
    }
#elif defined(USE_SWAR)
    const uint64_t ones = 0x0101010101010101ULL, high = 0x8080808080808080ULL;
    while (vector && end - p >= 8) {
        uint64_t x;
        memcpy(&x, p, 8);
        uint64_t q = x ^ (ones * '"'), b = x ^ (ones * '\\');
        /* borrows only run upwards, so the lowest flagged byte is exact */
        uint64_t t = ((q - ones) & ~q) | ((b - ones) & ~b) | ((x - ones * 0x20) & ~x) | x;
        t &= high;
        if (t)
            return p + (__builtin_ctzll(t) >> 3);
        p += 8;
    }
#endif
    while (p < end && is_plain((unsigned char)*p))
        p++;
    return p;
}

/* Length of the strict UTF-8 sequence at p (jansson's utf8_check_full: no
 * overlongs, no surrogates, nothing above U+10FFFF), or 0 if invalid or cut
 * short by end. */
static inline size_t utf8_seq(const unsigned char *p, const unsigned char *end)
{
    unsigned c = p[0];
    size_t avail = (size_t)(end - p);
    if (c < 0xC2)
        return 0;
    if (c < 0xE0)
        return avail >= 2 && (p[1] & 0xC0) == 0x80 ? 2 : 0;
    if (c < 0xF0) {
        unsigned lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
        return avail >= 3 && p[1] >= lo && p[1] <= hi && (p[2] & 0xC0) == 0x80 ? 3 : 0;
    }
    if (c < 0xF5) {
        unsigned lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
        return avail >= 4 && p[1] >= lo && p[1] <= hi && (p[2] & 0xC0) == 0x80 &&
                       (p[3] & 0xC0) == 0x80
                   ? 4
                   : 0;
    }
    return 0;
}

/* A UTF-8 sequence that is a valid prefix but cut by the end of the line. */
static bool utf8_cut(const unsigned char *p, const unsigned char *end)
{
    unsigned char tmp[4] = {0, 0x80, 0x80, 0x80};
    size_t n = (size_t)(end - p);
    if (n >= 4)
        return false;
    /* complete it with the smallest bytes that could follow */
    if (p[0] == 0xE0)
        tmp[1] = 0xA0;
    else if (p[0] == 0xF0)
        tmp[1] = 0x90;
    memcpy(tmp, p, n);
    return utf8_seq(tmp, tmp + 4) > n;
}

/* Whether the valid UTF-8 sequence at p (n bytes left in the line) is a
 * code point that hides (sbx_cp_invisible), read from its bytes without a
 * decode: U+00AD C2 AD; U+061C D8 9C; U+115F-1160 E1 85 9F-A0; U+180E
 * E1 A0 8E; U+200B-200F E2 80 8B-8F; U+2028-202E E2 80 A8-AE; U+2060-206F
 * E2 81 A0-AF; U+3164 E3 85 A4; private use U+E000-F8FF EE, EF 80-A3;
 * U+FEFF EF BB BF; U+FFA0 EF BE A0; U+FFF9-FFFB EF BF B9-BB; tags
 * U+E0000-E007F F3 A0 80-81; private use U+F0000-10FFFF F3 B0-BF, F4. */
static inline bool seq_hides(const unsigned char *p, size_t n)
{
    unsigned a = p[0], b = n > 1 ? p[1] : 0, c = n > 2 ? p[2] : 0, d = n > 3 ? p[3] : 0;
    switch (a) {
    case 0xC2:
        return b == 0xAD;
    case 0xD8:
        return b == 0x9C;
    case 0xE1:
        return (b == 0x85 && (c == 0x9F || c == 0xA0)) || (b == 0xA0 && c == 0x8E);
    case 0xE2:
        return (b == 0x80 && ((c >= 0x8B && c <= 0x8F) || (c >= 0xA8 && c <= 0xAE))) ||
               (b == 0x81 && c >= 0xA0 && c <= 0xAF);
    case 0xE3:
        return b == 0x85 && c == 0xA4;
    case 0xEE:
        return n >= 3;
    case 0xEF:
        return (b >= 0x80 && b <= 0xA3 && c) || (b == 0xBB && c == 0xBF) ||
               (b == 0xBE && c == 0xA0) || (b == 0xBF && c >= 0xB9 && c <= 0xBB);
    case 0xF3:
        return ((b == 0xA0 && (c == 0x80 || c == 0x81)) || b >= 0xB0) && d;
    case 0xF4:
        return n >= 4;
    default:
        return false;
    }
}

/* Whether the \u escape of code unit v hides, lo being the low half that
 * follows a high surrogate (as analyses/hidden.c weighs it: U+0000 too). */
static inline bool unit_hides(int v, int lo)
{
    /* the high bytes of the units that can: 00, 06, 11, 18, 20, 31, D8-DB,
     * E0-F8, FE, FF */
    static const uint64_t high_can[4] = {
        1ULL << 0x00 | 1ULL << 0x06 | 1ULL << 0x11 | 1ULL << 0x18 | 1ULL << 0x20 | 1ULL << 0x31,
        0, 0, 0xFULL << (0xD8 - 0xC0) | 0x1FFFFFFULL << (0xE0 - 0xC0) | 3ULL << (0xFE - 0xC0)};
    unsigned h = (unsigned)v >> 8;
    if (!(high_can[h >> 6] >> (h & 63) & 1))
        return false;
    if (v >= 0xD800 && v <= 0xDBFF)
        return sbx_cp_invisible(0x10000 + ((uint32_t)(v - 0xD800) << 10) + (uint32_t)(lo - 0xDC00));
    return v == 0 || sbx_cp_invisible((uint32_t)v);
}

/* Hex digit value + 1; 0 for anything that is not a hex digit. */
static const unsigned char hex_tab[256] = {
    ['0'] = 1,  ['1'] = 2,  ['2'] = 3,  ['3'] = 4,  ['4'] = 5,  ['5'] = 6,  ['6'] = 7,
    ['7'] = 8,  ['8'] = 9,  ['9'] = 10, ['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14,
    ['e'] = 15, ['f'] = 16, ['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15,
    ['F'] = 16};

/* The \uXXXX code unit at p (pointing at the backslash), -1 if not hex, -2 if
 * the line ends first. */
static inline int uescape(const char *p, const char *end)
{
    if (end - p >= 6) {
        const unsigned char *u = (const unsigned char *)p + 2;
        unsigned a = hex_tab[u[0]] - 1u, b = hex_tab[u[1]] - 1u, c = hex_tab[u[2]] - 1u,
                 d = hex_tab[u[3]] - 1u;
        if ((a | b | c | d) > 15)
            return -1;
        return (int)(a << 12 | b << 8 | c << 4 | d);
    }
    for (int k = 2; k < 6; k++) {
        if (end - p <= k)
            return -2;
        if (!hex_tab[(unsigned char)p[k]])
            return -1;
    }
    return -2;
}

/* Validates the escape at p (the backslash); returns the byte after it and
 * sets SBX_JSTR_HIDES in *esc for a \u escape that hides. */
static const char *scan_escape(struct sbx_jscan *s, const char *line, const char *p,
                               const char *end, unsigned char *esc)
{
    if (end - p < 2)
        return fail(s, line, p, SBX_JERR_TRUNCATED, "unexpected end of line in a string");
    switch (p[1]) {
    case '"': case '\\': case '/': case 'b': case 'f': case 'n': case 'r': case 't':
        return p + 2;
    case 'u':
        break;
    default:
        return fail(s, line, p, SBX_JERR_SYNTAX, "invalid escape in a string");
    }
    int v = uescape(p, end);
    if (v == -2)
        return fail(s, line, p, SBX_JERR_TRUNCATED, "unexpected end of line in a string");
    if (v < 0)
        return fail(s, line, p, SBX_JERR_SYNTAX, "invalid \\u escape in a string");
    if (v >= 0xDC00 && v <= 0xDFFF)
        return fail(s, line, p, SBX_JERR_SYNTAX,
                     "unpaired UTF-16 surrogate \\u%04X in a string", (unsigned)v);
    if (v < 0xD800 || v > 0xDBFF) {
        if (unit_hides(v, 0))
            *esc |= SBX_JSTR_HIDES;
        return p + 6;
    }
    /* a high surrogate must be followed at once by a low one */
    const char *q = p + 6;
    if (end - q >= 2 && q[0] == '\\' && q[1] == 'u') {
        int lo = uescape(q, end);
        if (lo == -2)
            return fail(s, line, q, SBX_JERR_TRUNCATED, "unexpected end of line in a string");
        if (lo == -1)
            return fail(s, line, q, SBX_JERR_SYNTAX, "invalid \\u escape in a string");
        if (lo >= 0xDC00 && lo <= 0xDFFF) {
            if (unit_hides(v, lo))
                *esc |= SBX_JSTR_HIDES;
            return q + 6;
        }
    } else if (end == q || (end - q == 1 && q[0] == '\\')) {
        /* cut after the high half: it fails either way, but as a cut line */
        return fail(s, line, q, SBX_JERR_TRUNCATED, "unexpected end of line in a string");
    }
    return fail(s, line, p, SBX_JERR_SYNTAX, "unpaired UTF-16 surrogate \\u%04X in a string",
                 (unsigned)v);
}

/* Validates a string body starting at p (just after the opening quote);
 * returns the closing quote, sets *esc if the body holds an escape. This is
 * the reference version, one event at a time; it also words every error. */
static const char *scan_string_ref(struct sbx_jscan *s, const char *line, const char *p,
                                   const char *end, unsigned char *esc)
{
    for (;;) {
        p = skip_plain(p, end);
        if (p >= end)
            return fail(s, line, p, SBX_JERR_TRUNCATED, "unexpected end of line in a string");
        unsigned char c = (unsigned char)*p;
        if (c == '"')
            return p;
        if (c == '\\') {
            *esc |= SBX_JSTR_ESCAPED | (p + 1 < end && p[1] == 'u' ? SBX_JSTR_UESCAPE : 0);
            if (end - p >= 6 && memcmp(p + 1, "u0000", 5) == 0)
                *esc |= SBX_JSTR_NUL;
            p = scan_escape(s, line, p, end, esc);
            if (!p)
                return NULL;
        } else if (c < 0x20) {
            return fail(s, line, p, SBX_JERR_SYNTAX, "control character 0x%02x in a string",
                         c);
        } else {
            /* runs of non-ASCII text (CJK, emoji) stay in this loop */
            *esc |= SBX_JSTR_HIGH;
            do {
                size_t n = utf8_seq((const unsigned char *)p, (const unsigned char *)end);
                if (!n) {
                    if (utf8_cut((const unsigned char *)p, (const unsigned char *)end))
                        return fail(s, line, p, SBX_JERR_TRUNCATED,
                                     "UTF-8 sequence cut by the end of the line");
                    return fail(s, line, p, SBX_JERR_UTF8, "invalid UTF-8 in a string");
                }
                if (seq_hides((const unsigned char *)p, n))
                    *esc |= SBX_JSTR_HIDES;
                p += n;
            } while (p < end && (unsigned char)*p >= 0x80);
        }
    }
}

#if defined(USE_SSE2)
/* The fast version, 64 bytes at a time with bit masks (the escape logic is
 * simdjson's): it looks at individual bytes only for \u escapes and non-ASCII
 * runs. Anything irregular sends the whole string to scan_string_ref(), which
 * decides and words the error, so both always agree. */

struct blockmask {
    uint64_t quote, bslash, ctl, high;
};

static inline uint64_t mask16(__m128i v)
{
    return (uint64_t)(unsigned)_mm_movemask_epi8(v);
}

static inline void classify16(const char *p, int k, struct blockmask *m)
{
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(p + 16 * k));
    uint64_t hi = mask16(v);
    m->quote |= mask16(_mm_cmpeq_epi8(v, _mm_set1_epi8('"'))) << 16 * k;
    m->bslash |= mask16(_mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))) << 16 * k;
    /* signed "< 0x20" holds for controls and for bytes >= 0x80 */
    m->ctl |= (mask16(_mm_cmplt_epi8(v, _mm_set1_epi8(0x20))) & ~hi) << 16 * k;
    m->high |= hi << 16 * k;
}

static inline void classify64(const char *p, struct blockmask *m)
{
    m->quote = m->bslash = m->ctl = m->high = 0;
    classify16(p, 0, m);
    classify16(p, 1, m);
    classify16(p, 2, m);
    classify16(p, 3, m);
}

/* Bytes that may follow a backslash, and separately the 'u's. */
static inline void escape_letters16(const char *p, int k, uint64_t *ok, uint64_t *u)
{
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(p + 16 * k));
    __m128i uu = _mm_cmpeq_epi8(v, _mm_set1_epi8('u'));
    __m128i a = _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')),
                             _mm_cmpeq_epi8(v, _mm_set1_epi8('\\')));
    __m128i b = _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('/')),
                             _mm_cmpeq_epi8(v, _mm_set1_epi8('b')));
    __m128i c = _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('f')),
                             _mm_cmpeq_epi8(v, _mm_set1_epi8('n')));
    __m128i d = _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('r')),
                             _mm_cmpeq_epi8(v, _mm_set1_epi8('t')));
    __m128i all = _mm_or_si128(_mm_or_si128(a, b), _mm_or_si128(_mm_or_si128(c, d), uu));
    *ok |= mask16(all) << 16 * k;
    *u |= mask16(uu) << 16 * k;
}

static inline uint64_t escape_letters64(const char *p, uint64_t *u)
{
    uint64_t ok = 0;
    *u = 0;
    escape_letters16(p, 0, &ok, u);
    escape_letters16(p, 1, &ok, u);
    escape_letters16(p, 2, &ok, u);
    escape_letters16(p, 3, &ok, u);
    return ok;
}

/* Positions escaped by a backslash (the byte after an odd run of them);
 * *carry says whether the block's first byte is escaped, and is updated. */
static inline uint64_t find_escaped(uint64_t bs, uint64_t *carry)
{
    uint64_t escaped = *carry;
    if (!bs) {
        *carry = 0;
        return escaped;
    }
    bs &= ~escaped;
    uint64_t follows = bs << 1 | escaped;
    const uint64_t even = 0x5555555555555555ULL;
    uint64_t odd_starts = bs & ~even & ~follows;
    uint64_t seq_even;
    *carry = __builtin_add_overflow(odd_starts, bs, &seq_even);
    return (even ^ (seq_even << 1)) & follows;
}

static const char *scan_string_sse2(struct sbx_jscan *s, const char *line, const char *start,
                                    const char *from, const char *end, unsigned char *esc)
{
    const char *blk = from;
    const char *u_skip = NULL;   /* the 'u' of a low surrogate already checked */
    const char *utf8_done = from; /* non-ASCII bytes below this are checked */
    uint64_t carry = 0;
    char tmp[64];
    for (;;) {
        const char *src = blk;
        uint64_t valid = ~0ULL;
        if (end - blk < 64) {
            size_t n = (size_t)(end - blk);
            memcpy(tmp, blk, n);
            memset(tmp + n, ' ', 64 - n);
            src = tmp;
            valid = n ? ~0ULL >> (64 - n) : 0;
        }
        struct blockmask m;
        classify64(src, &m);
        uint64_t escaped = find_escaped(m.bslash & valid, &carry);
        uint64_t endq = m.quote & ~escaped & valid;
        uint64_t inside = endq ? (endq & (0 - endq)) - 1 : valid;
        if (m.ctl & inside)
            goto slow;
        uint64_t e = escaped & inside;
        if (e) {
            uint64_t u;
            *esc |= SBX_JSTR_ESCAPED;
            if (e & ~escape_letters64(src, &u))
                goto slow;
            if (u & e)
                *esc |= SBX_JSTR_UESCAPE;
            for (u &= e; u; u &= u - 1) {
                const char *q = blk + __builtin_ctzll(u);
                if (q == u_skip)
                    continue;
                int v = uescape(q - 1, end), lo = 0;
                if (v <= 0 || (v >= 0xDC00 && v <= 0xDFFF))
                    goto slow;
                if (v >= 0xD800 && v <= 0xDBFF) {
                    if (end - q < 11 || q[5] != '\\' || q[6] != 'u')
                        goto slow;
                    lo = uescape(q + 5, end);
                    if (lo < 0xDC00 || lo > 0xDFFF)
                        goto slow;
                    u_skip = q + 6;
                }
                if (unit_hides(v, lo))
                    *esc |= SBX_JSTR_HIDES;
            }
        }
        uint64_t h = m.high & inside;
        if (h)
            *esc |= SBX_JSTR_HIGH;
        if (h && utf8_done > blk)
            h = utf8_done - blk >= 64 ? 0 : h & (~0ULL << (utf8_done - blk));
        while (h) {
            const char *q = blk + __builtin_ctzll(h);
            do {
                size_t n = utf8_seq((const unsigned char *)q, (const unsigned char *)end);
                if (!n)
                    goto slow;
                if (seq_hides((const unsigned char *)q, n))
                    *esc |= SBX_JSTR_HIDES;
                q += n;
            } while (q < end && (unsigned char)*q >= 0x80);
            utf8_done = q;
            h = q - blk >= 64 ? 0 : h & (~0ULL << (q - blk));
        }
        if (endq)
            return blk + __builtin_ctzll(endq);
        if (valid != ~0ULL)
            goto slow; /* the line ends inside the string */
        blk += 64;
    }
slow:
    return scan_string_ref(s, line, start, end, esc);
}
#endif /* USE_SSE2 */

#if defined(USE_AVX2)
/* The AVX2 version also validates UTF-8 with vectors: the lookup algorithm
 * of Keiser and Lemire (as in simdjson), which flags an error at the byte
 * that completes an invalid pattern, so errors up to the closing quote are
 * exactly the string's. */

#define AVX2 __attribute__((target("avx2")))

/* The broadcast bytes the loop compares with, made once per string and then
 * read from memory (one load, folded into the instruction that uses it):
 * GCC otherwise builds each from an immediate in three instructions, in
 * every block. */
struct bytes32 {
    __m256i quote, bslash, space, low4, u, zero, lower, a, d, e2, fe, x80, e0_80, f0_80;
};

static AVX2 inline void bytes32_init(struct bytes32 *k)
{
    k->quote = _mm256_set1_epi8('"');
    k->bslash = _mm256_set1_epi8('\\');
    k->space = _mm256_set1_epi8(0x20);
    k->low4 = _mm256_set1_epi8(0x0F);
    k->u = _mm256_set1_epi8('u');
    k->zero = _mm256_set1_epi8('0');
    k->lower = _mm256_set1_epi8(0x20);
    k->a = _mm256_set1_epi8('a');
    k->d = _mm256_set1_epi8('d');
    k->e2 = _mm256_set1_epi8((char)0xE2);
    k->fe = _mm256_set1_epi8((char)0xFE);
    k->x80 = _mm256_set1_epi8((char)0x80);
    k->e0_80 = _mm256_set1_epi8((char)(0xE0 - 0x80));
    k->f0_80 = _mm256_set1_epi8((char)(0xF0 - 0x80));
    /* the compiler must now read them back rather than rebuild them */
    __asm__ volatile("" : : "r"(k) : "memory");
}

enum {
    TOO_SHORT = 1 << 0,  /* lead or ASCII followed by a lead or ASCII where a continuation is due */
    TOO_LONG = 1 << 1,   /* ASCII followed by a continuation */
    OVERLONG_3 = 1 << 2, /* E0 80..9F */
    TOO_LARGE = 1 << 3,  /* F4 90.., F5+ */
    SURROGATE = 1 << 4,  /* ED A0..BF */
    OVERLONG_2 = 1 << 5, /* C0, C1 */
    TOO_LARGE_1000 = 1 << 6,
    OVERLONG_4 = 1 << 6, /* F0 80..8F */
    TWO_CONTS = 1 << 7   /* continuation after continuation */
};
#define CARRY (TOO_SHORT | TOO_LONG | TWO_CONTS)

static AVX2 inline __m256i lookup16(__m256i idx, __m256i table)
{
    return _mm256_shuffle_epi8(table, idx);
}

static AVX2 inline __m256i shr4(const struct bytes32 *k, __m256i v)
{
    return _mm256_and_si256(_mm256_srli_epi16(v, 4), k->low4);
}

/* v shifted back by n bytes, with the last bytes of prev shifted in */
#define PREV(v, prev, n) _mm256_alignr_epi8((v), _mm256_permute2x128_si256((prev), (v), 0x21), 16 - (n))

static const uint8_t utf8_byte1_high[16] = {
    TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG,
    TWO_CONTS, TWO_CONTS, TWO_CONTS, TWO_CONTS,
    TOO_SHORT | OVERLONG_2, TOO_SHORT, TOO_SHORT | OVERLONG_3 | SURROGATE,
    TOO_SHORT | TOO_LARGE | TOO_LARGE_1000 | OVERLONG_4};
static const uint8_t utf8_byte1_low[16] = {
    CARRY | OVERLONG_3 | OVERLONG_2 | OVERLONG_4, CARRY | OVERLONG_2, CARRY, CARRY,
    CARRY | TOO_LARGE, CARRY | TOO_LARGE | TOO_LARGE_1000, CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000, CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000, CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000, CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000 | SURROGATE, CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000};
static const uint8_t utf8_byte2_high[16] = {
    TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT,
    TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE_1000 | OVERLONG_4,
    TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE,
    TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE,
    TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE,
    TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT};

static AVX2 inline __m256i table16(const uint8_t *t)
{
    return _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)t));
}

static AVX2 inline __m256i utf8_errors(const struct bytes32 *k, __m256i v, __m256i prev)
{
    const __m256i t1 = table16(utf8_byte1_high), t2 = table16(utf8_byte1_low),
                  t3 = table16(utf8_byte2_high);
    __m256i prev1 = PREV(v, prev, 1);
    __m256i sc = _mm256_and_si256(
        _mm256_and_si256(lookup16(shr4(k, prev1), t1),
                         lookup16(_mm256_and_si256(prev1, k->low4), t2)),
        lookup16(shr4(k, v), t3));
    /* third and fourth bytes must be continuations: only TWO_CONTS there */
    __m256i third = _mm256_subs_epu8(PREV(v, prev, 2), k->e0_80);
    __m256i fourth = _mm256_subs_epu8(PREV(v, prev, 3), k->f0_80);
    __m256i must23 = _mm256_and_si256(_mm256_or_si256(third, fourth), k->x80);
    return _mm256_xor_si256(must23, sc);
}

/* Bytes at the end of v that start a sequence the next bytes must finish. */
static AVX2 inline __m256i utf8_incomplete(__m256i v)
{
    const __m256i max = _mm256_setr_epi8(-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
                                         -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
                                         -1, (char)(0xF0 - 1), (char)(0xE0 - 1), (char)(0xC0 - 1));
    return _mm256_subs_epu8(v, max);
}

static AVX2 inline uint64_t mask32(__m256i v)
{
    return (uint64_t)(uint32_t)_mm256_movemask_epi8(v);
}

/* 'u's and the bytes that may follow a backslash ("\/bfnrtu), by nibbles:
 * a byte is in the set when lo_tab[low nibble] & hi_tab[high nibble]. */
static AVX2 inline uint64_t escape_letters32(const struct bytes32 *k, __m256i v, uint64_t *u)
{
    const __m256i lo_tab = _mm256_setr_epi8(0, 0, 1 | 4 | 8, 0, 8, 8, 4, 0, 0, 0, 0, 0, 2, 0, 4, 1,
                                            0, 0, 1 | 4 | 8, 0, 8, 8, 4, 0, 0, 0, 0, 0, 2, 0, 4, 1);
    const __m256i hi_tab = _mm256_setr_epi8(0, 0, 1, 0, 0, 2, 4, 8, 0, 0, 0, 0, 0, 0, 0, 0,
                                            0, 0, 1, 0, 0, 2, 4, 8, 0, 0, 0, 0, 0, 0, 0, 0);
    __m256i in = _mm256_and_si256(lookup16(_mm256_and_si256(v, k->low4), lo_tab),
                                  lookup16(shr4(k, v), hi_tab));
    *u = mask32(_mm256_cmpeq_epi8(v, k->u));
    return ~mask32(_mm256_cmpeq_epi8(in, _mm256_setzero_si256())) & 0xFFFFFFFFu;
}

/* Hex digits, '0's, 'a'/'A's and 'd'/'D's of a 32-byte half, as bit masks. */
static AVX2 inline void hex_digits32(const struct bytes32 *k, __m256i v, uint64_t *hex, uint64_t *zero, uint64_t *a,
                                     uint64_t *d)
{
    /* low nibble: 1 for 0..9, 2 for 1..6; high nibble: 1 for 0x3_, 2 for 0x4_/0x6_ */
    const __m256i lo_tab = _mm256_setr_epi8(1, 3, 3, 3, 3, 3, 3, 1, 1, 1, 0, 0, 0, 0, 0, 0,
                                            1, 3, 3, 3, 3, 3, 3, 1, 1, 1, 0, 0, 0, 0, 0, 0);
    const __m256i hi_tab = _mm256_setr_epi8(0, 0, 0, 1, 2, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                            0, 0, 0, 1, 2, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    __m256i in = _mm256_and_si256(lookup16(_mm256_and_si256(v, k->low4), lo_tab),
                                  lookup16(shr4(k, v), hi_tab));
    *hex = ~mask32(_mm256_cmpeq_epi8(in, _mm256_setzero_si256())) & 0xFFFFFFFFu;
    *zero = mask32(_mm256_cmpeq_epi8(v, k->zero));
    __m256i lower = _mm256_or_si256(v, k->lower);
    *a = mask32(_mm256_cmpeq_epi8(lower, k->a));
    *d = mask32(_mm256_cmpeq_epi8(lower, k->d));
}

/* Of the escaped 'u's in u, those whose four hex digits lie in this block
 * and make a code unit that is neither 0 nor a surrogate (nor D000..D7FF,
 * left to the scalar check with the surrogates): uescape() would accept
 * them. Of those, *shown gets the \u00XX ones but \u00AX, which cannot
 * hide (unit_hides): nothing else is to be done for them. */
static AVX2 inline uint64_t plain_uescapes(const struct bytes32 *k, __m256i v0, __m256i v1, uint64_t u, uint64_t *shown)
{
    uint64_t h0, h1, z0, z1, a0, a1, d0, d1;
    hex_digits32(k, v0, &h0, &z0, &a0, &d0);
    hex_digits32(k, v1, &h1, &z1, &a1, &d1);
    uint64_t hex = h0 | h1 << 32, zero = z0 | z1 << 32, a = a0 | a1 << 32, d = d0 | d1 << 32;
    uint64_t four_hex = hex >> 1 & hex >> 2 & hex >> 3 & hex >> 4;
    uint64_t four_zero = zero >> 1 & zero >> 2 & zero >> 3 & zero >> 4;
    uint64_t plain = u & four_hex & ~four_zero & ~(d >> 1);
    *shown = plain & zero >> 1 & zero >> 2 & ~(a >> 3);
    return plain;
}

/* The bytes of a 32-byte half that may start a sequence seq_hides holds
 * for (C2, D8, E1, E3, EE, EF, F3, F4; E2 apart, in *e2), by nibbles:
 * lo_tab[low nibble] & hi_tab[high nibble]. *e2_next gets the bytes 80 and
 * 81, which must follow an E2. */
static AVX2 inline uint64_t hide_leads32(const struct bytes32 *k, __m256i v, uint64_t *e2, uint64_t *e2_next)
{
    const __m256i lo_tab = _mm256_setr_epi8(0, 4, 1, 4 | 8, 8, 0, 0, 0, 2, 0, 0, 0, 0, 0, 4, 4,
                                            0, 4, 1, 4 | 8, 8, 0, 0, 0, 2, 0, 0, 0, 0, 0, 4, 4);
    const __m256i hi_tab = _mm256_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 4, 8,
                                            0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 4, 8);
    __m256i in = _mm256_and_si256(lookup16(_mm256_and_si256(v, k->low4), lo_tab),
                                  lookup16(shr4(k, v), hi_tab));
    *e2 = mask32(_mm256_cmpeq_epi8(v, k->e2));
    *e2_next = mask32(_mm256_cmpeq_epi8(_mm256_and_si256(v, k->fe), k->x80));
    return ~mask32(_mm256_cmpeq_epi8(in, _mm256_setzero_si256())) & 0xFFFFFFFFu;
}

static AVX2 const char *scan_string_avx2(struct sbx_jscan *s, const char *line,
                                         const char *start, const char *from,
                                         const char *end, unsigned char *esc)
{
    const char *blk = from;
    const char *u_skip = NULL; /* the 'u' of a low surrogate already checked */
    uint64_t carry = 0;
    __m256i prev = _mm256_setzero_si256(), incomplete = _mm256_setzero_si256();
    char tmp[64];
    struct bytes32 k;
    bytes32_init(&k);
    unsigned char f = *esc; /* written back on the way out: a store a block otherwise */
    for (;;) {
        const char *src = blk;
        uint64_t valid = ~0ULL;
        if (end - blk < 64) {
            size_t n = (size_t)(end - blk);
            memcpy(tmp, blk, n);
            memset(tmp + n, ' ', 64 - n);
            src = tmp;
            valid = n ? ~0ULL >> (64 - n) : 0;
        }
        __m256i v0 = _mm256_loadu_si256((const __m256i *)(const void *)src);
        __m256i v1 = _mm256_loadu_si256((const __m256i *)(const void *)(src + 32));
        uint64_t high = mask32(v0) | mask32(v1) << 32;
        uint64_t q = mask32(_mm256_cmpeq_epi8(v0, k.quote)) | mask32(_mm256_cmpeq_epi8(v1, k.quote)) << 32;
        uint64_t bs = mask32(_mm256_cmpeq_epi8(v0, k.bslash)) |
                      mask32(_mm256_cmpeq_epi8(v1, k.bslash)) << 32;
        /* signed "< 0x20" holds for controls and for bytes >= 0x80 */
        uint64_t ctl = (mask32(_mm256_cmpgt_epi8(k.space, v0)) |
                        mask32(_mm256_cmpgt_epi8(k.space, v1)) << 32) & ~high;

        uint64_t escaped = find_escaped(bs & valid, &carry);
        uint64_t endq = q & ~escaped & valid;
        uint64_t inside = endq ? (endq & (0 - endq)) - 1 : valid;
        if (ctl & inside)
            break;

        /* UTF-8 through the closing quote, which completes any cut sequence */
        uint64_t upto = endq ? inside << 1 | 1 : valid;
        if (high & inside) {
            f |= SBX_JSTR_HIGH;
            if (!(f & SBX_JSTR_HIDES)) {
                uint64_t e0, e1, n0, n1;
                uint64_t lead = hide_leads32(&k, v0, &e0, &n0) | hide_leads32(&k, v1, &e1, &n1) << 32;
                /* an E2 only before 80 or 81 (or at the block's end) */
                lead |= (e0 | e1 << 32) & ((n0 | n1 << 32) >> 1 | 1ULL << 63);
                lead &= inside;
                for (; lead; lead &= lead - 1) {
                    const char *p = blk + __builtin_ctzll(lead);
                    if (seq_hides((const unsigned char *)p, (size_t)(end - p))) {
                        f |= SBX_JSTR_HIDES;
                        break;
                    }
                }
            }
        }
        if (high) {
            __m256i e0 = utf8_errors(&k, v0, prev), e1 = utf8_errors(&k, v1, v0);
            uint64_t bad = ~(mask32(_mm256_cmpeq_epi8(e0, _mm256_setzero_si256())) |
                             mask32(_mm256_cmpeq_epi8(e1, _mm256_setzero_si256())) << 32);
            if (bad & upto)
                break;
            incomplete = utf8_incomplete(v1);
            prev = v1;
        } else {
            /* a sequence cut by a block of ASCII (or the quote at its start) */
            if (!_mm256_testz_si256(incomplete, incomplete))
                break;
            prev = v1;
        }

        uint64_t e = escaped & inside;
        if (e) {
            uint64_t u0, u1;
            f |= SBX_JSTR_ESCAPED;
            uint64_t ok = escape_letters32(&k, v0, &u0) | escape_letters32(&k, v1, &u1) << 32;
            if (e & ~ok)
                break;
            uint64_t u = (u0 | u1 << 32) & e, plain = 0, shown = 0;
            if (u) {
                f |= SBX_JSTR_UESCAPE;
                plain = plain_uescapes(&k, v0, v1, u, &shown);
            }
            for (u &= ~shown; u; u &= u - 1) {
                const char *p = blk + __builtin_ctzll(u);
                if (p == u_skip)
                    continue;
                int val = uescape(p - 1, end), lo = 0;
                if (!(plain >> __builtin_ctzll(u) & 1)) {
                    if (val <= 0 || (val >= 0xDC00 && val <= 0xDFFF))
                        goto slow;
                    if (val >= 0xD800 && val <= 0xDBFF) {
                        if (end - p < 11 || p[5] != '\\' || p[6] != 'u')
                            goto slow;
                        lo = uescape(p + 5, end);
                        if (lo < 0xDC00 || lo > 0xDFFF)
                            goto slow;
                        u_skip = p + 6;
                    }
                }
                if (unit_hides(val, lo))
                    f |= SBX_JSTR_HIDES;
            }
        }
        if (endq) {
            *esc = f;
            return blk + __builtin_ctzll(endq);
        }
        if (valid != ~0ULL)
            break; /* the line ends inside the string */
        blk += 64;
    }
slow:
    *esc = f;
    return scan_string_ref(s, line, start, end, esc);
}
#endif /* USE_AVX2 */

#if defined(USE_SSE2)
/* The block scanners start at `from`, any point of the body before which
 * every byte is plain ASCII (no escape, no UTF-8 sequence in progress). Out
 * of line, so that the common case below needs no stack frame. */
static __attribute__((noinline)) const char *
scan_string_blocks(struct sbx_jscan *s, const char *line, const char *start, const char *from,
                   const char *end, unsigned char *escaped)
{
#if defined(USE_AVX2)
    if (sbx_cpu_avx2())
        return scan_string_avx2(s, line, start, from, end, escaped);
#endif
    return scan_string_sse2(s, line, start, from, end, escaped);
}
#endif

const char *sbx_jscan_string(struct sbx_jscan *s, const char *line, const char *p,
                             const char *end, unsigned char *escaped)
{
#if defined(USE_SSE2)
    if (!sbx_simd_on())
        return scan_string_ref(s, line, p, end, escaped); /* the scalar twin */
    /* most strings are plain ASCII up to their closing quote */
    const __m128i quote = _mm_set1_epi8('"'), bslash = _mm_set1_epi8('\\'),
                  space = _mm_set1_epi8(0x20);
    const char *q = p;
    while (end - q >= 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)q);
        /* signed compare: bytes >= 0x80 are negative, so "< 0x20" catches both */
        __m128i m = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, bslash)),
                                 _mm_cmplt_epi8(v, space));
        unsigned bits = (unsigned)_mm_movemask_epi8(m);
        if (bits) {
            q += __builtin_ctz(bits);
            if (*q == '"')
                return q;
            break;
        }
        q += 16;
    }
    return scan_string_blocks(s, line, p, q, end, escaped);
#else
    return scan_string_ref(s, line, p, end, escaped);
#endif
}
