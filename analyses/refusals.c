#define PCRE2_CODE_UNIT_WIDTH 8
#include "analyses/refusals.h"

#include <pcre2.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/simd.h"
#if SBX_X86_64
#include <immintrin.h>
#elif SBX_SSE2
#include <emmintrin.h>
#endif

/* Every pattern captures the host in group 1. Host names are bounded so that
 * no match can run long; hostile output only ever costs a linear scan. */
#define HOST "([A-Za-z0-9_.-]{1,253}|\\[[0-9A-Fa-f:.]{2,45}\\])"
static const struct {
    const char *client;
    const char *re;
} refusal_patterns[] = {
    {"curl", "curl: \\(\\d{1,3}\\) (?:Could not resolve host: |Failed to connect to |"
             "Could not connect to |Connection refused to )" HOST},
    {"wget", "unable to resolve host address [\\x{2018}'\"`]" HOST},
    {"wget", "Connecting to " HOST "[^\\n]{0,200}failed: (?:Connection refused|No route to host|"
             "Network is unreachable|Connection timed out)"},
    {"git", "unable to access '[a-z+]{1,10}://(?:[^@/'\\s]{0,200}@)?" HOST
            "[^'\\n]{0,1000}': (?:Could not resolve host|Failed to connect|Couldn't connect)"},
    {"ssh", "ssh: Could not resolve hostname " HOST},
    {"ssh", "ssh: connect to host " HOST " port \\d{1,5}: (?:Connection refused|No route to host|"
            "Network is unreachable|Connection timed out)"},
    {"pip", "HTTPS?ConnectionPool\\(host='" HOST "'[^\\n]{0,300}(?:NewConnectionError|"
            "NameResolutionError|ConnectTimeoutError|ProxyError|Max retries exceeded)"},
    {"python", "NameResolutionError\\([^\\n]{0,200}Failed to resolve '" HOST "'"},
    {"npm", "getaddrinfo (?:ENOTFOUND|EAI_AGAIN) " HOST},
    {"node", "connect (?:ECONNREFUSED|ETIMEDOUT|EHOSTUNREACH) " HOST ":\\d{1,5}"},
    {"apt", "(?:Temporary failure resolving|Could not resolve) '" HOST "'"},
    {"apt", "Could not connect to " HOST ":\\d{1,5} \\("},
};
#define NPATTERNS (sizeof refusal_patterns / sizeof refusal_patterns[0])

static const char url_pattern[] =
    "(?:\\b(?:https?|ftp|ftps|git|ssh|wss?|rsync|s3)://(?:[^@/\\s'\"]{0,200}@)?" HOST
    "|\\bgit@" HOST ":)";

struct sbx_netpat {
    pcre2_code *refusal[NPATTERNS];
    pcre2_code *url;
};

struct sbx_netpat_scratch {
    pcre2_match_data *md;
    pcre2_match_context *mc;
};

static pcre2_code *compile(const char *re, char *err, size_t errsz)
{
    int code;
    PCRE2_SIZE off;
    pcre2_code *c = pcre2_compile((PCRE2_SPTR)re, PCRE2_ZERO_TERMINATED, PCRE2_UTF, &code, &off, NULL);
    if (!c) {
        PCRE2_UCHAR msg[128];
        pcre2_get_error_message(code, msg, sizeof msg);
        snprintf(err, errsz, "pattern %s: %s at %zu", re, (char *)msg, (size_t)off);
        return NULL;
    }
    pcre2_jit_compile(c, PCRE2_JIT_COMPLETE); /* without the JIT it is slower, not wrong */
    return c;
}

struct sbx_netpat *sbx_netpat_new(char *err, size_t errsz)
{
    struct sbx_netpat *p = sbx_xcalloc(1, sizeof *p);
    for (size_t i = 0; i < NPATTERNS; i++)
        if (!(p->refusal[i] = compile(refusal_patterns[i].re, err, errsz))) {
            sbx_netpat_free(p);
            return NULL;
        }
    if (!(p->url = compile(url_pattern, err, errsz))) {
        sbx_netpat_free(p);
        return NULL;
    }
    return p;
}

void sbx_netpat_free(struct sbx_netpat *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < NPATTERNS; i++)
        pcre2_code_free(p->refusal[i]);
    pcre2_code_free(p->url);
    free(p);
}

struct sbx_netpat_scratch *sbx_netpat_scratch_new(const struct sbx_netpat *p)
{
    (void)p;
    struct sbx_netpat_scratch *s = sbx_xcalloc(1, sizeof *s);
    s->md = pcre2_match_data_create(4, NULL);
    s->mc = pcre2_match_context_create(NULL);
    pcre2_set_match_limit(s->mc, 100000);
    pcre2_set_depth_limit(s->mc, 1000);
    return s;
}

void sbx_netpat_scratch_free(struct sbx_netpat_scratch *s)
{
    if (!s)
        return;
    pcre2_match_data_free(s->md);
    pcre2_match_context_free(s->mc);
    free(s);
}

/* Texts come from validated JSON strings, so they are valid UTF-8 and
 * PCRE2 need not check them again on every call. */
static int match_at(const pcre2_code *re, struct sbx_netpat_scratch *s, const char *text, size_t n,
                    size_t from)
{
    return pcre2_match(re, (PCRE2_SPTR)text, n, from, PCRE2_NO_UTF_CHECK, s->md, s->mc);
}

static const char *group(struct sbx_netpat_scratch *s, const char *text, int g, size_t *len)
{
    PCRE2_SIZE *ov = pcre2_get_ovector_pointer(s->md);
    if (ov[2 * g] == PCRE2_UNSET)
        return NULL;
    *len = ov[2 * g + 1] - ov[2 * g];
    return text + ov[2 * g];
}

/* Every refusal message above contains "onnect", "esol" or "ddrinfo"
 * (connect/Connection, resolve/Resolution, getaddrinfo). Most output holds
 * none of them, so one pass for their letter pairs ("nn", "so", "dd") spares
 * decoding the output and running a dozen patterns over it. */
static bool keyword_at(const char *text, const char *p, const char *end)
{
    size_t left = (size_t)(end - p);
    switch (p[0]) {
    case 'n': return p > text && p[-1] == 'o' && left >= 5 && memcmp(p, "nnect", 5) == 0;
    case 's': return p > text && p[-1] == 'e' && left >= 3 && memcmp(p, "sol", 3) == 0;
    case 'd': return left >= 7 && memcmp(p, "ddrinfo", 7) == 0;
    default: return false;
    }
}

static bool pair_at(const char *p)
{
    return (p[0] == 'n' && p[1] == 'n') || (p[0] == 's' && p[1] == 'o') || (p[0] == 'd' && p[1] == 'd');
}

#if SBX_X86_64
/* Where the 32 bytes at p start one of the pairs. The three first letters
 * have distinct low nibbles (n 0x6e, d 0x64, s 0x73), so one shuffle by
 * each byte gives the pair letter it could be, compared with the byte
 * itself, and one more the letter that must follow it (n, d, o), compared
 * with the next byte. A byte of 0x80 or more shuffles to 0, no letter. */
__attribute__((target("avx2"))) static inline uint32_t pairs32(const char *p, __m256i first, __m256i then)
{
    __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)p);
    __m256i b = _mm256_loadu_si256((const __m256i *)(const void *)(p + 1));
    __m256i is_first = _mm256_cmpeq_epi8(_mm256_shuffle_epi8(first, a), a);
    __m256i next_ok = _mm256_cmpeq_epi8(_mm256_shuffle_epi8(then, a), b);
    return (uint32_t)_mm256_movemask_epi8(_mm256_and_si256(is_first, next_ok));
}

/* The same pass 64 bytes a round (then 32), where the CPU has AVX2 (chosen
 * at run time: the build targets plain x86-64). */
__attribute__((target("avx2"))) static size_t pairs_avx2(const char *text, size_t n, bool *found)
{
    const char *end = text + n;
    /* by low nibble: the pair letter a byte could be (0xff, no byte below
       0x80, where none is) and the letter after it */
    const __m256i first = _mm256_setr_epi8(-1, -1, -1, 's', 'd', -1, -1, -1, -1, -1, -1, -1, -1, -1, 'n', -1,
                                           -1, -1, -1, 's', 'd', -1, -1, -1, -1, -1, -1, -1, -1, -1, 'n', -1);
    const __m256i then = _mm256_setr_epi8(0, 0, 0, 'o', 'd', 0, 0, 0, 0, 0, 0, 0, 0, 0, 'n', 0,
                                          0, 0, 0, 'o', 'd', 0, 0, 0, 0, 0, 0, 0, 0, 0, 'n', 0);
    size_t i = 0;
    while (i + 33 <= n) {
        uint64_t mask;
        size_t step;
        if (i + 65 <= n) {
            mask = (uint64_t)pairs32(text + i, first, then) | (uint64_t)pairs32(text + i + 32, first, then) << 32;
            step = 64;
        } else {
            mask = pairs32(text + i, first, then);
            step = 32;
        }
        for (; mask; mask &= mask - 1) {
            if (keyword_at(text, text + i + (unsigned)__builtin_ctzll(mask), end)) {
                *found = true;
                return i;
            }
        }
        i += step;
    }
    return i;
}
#endif

bool sbx_netpat_might_refuse(const char *text, size_t n)
{
    const char *end = text + n;
    size_t i = 0;
#if SBX_X86_64
    if (sbx_cpu_avx2()) {
        bool found = false;
        i = pairs_avx2(text, n, &found);
        if (found)
            return true;
    }
#endif
#if SBX_SSE2
    const __m128i N = _mm_set1_epi8('n'), S = _mm_set1_epi8('s'), O = _mm_set1_epi8('o'),
                  D = _mm_set1_epi8('d');
    for (bool vector = sbx_simd_on(); vector && i + 17 <= n; i += 16) {
        __m128i a = _mm_loadu_si128((const __m128i *)(const void *)(text + i));
        __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(text + i + 1));
        __m128i nn = _mm_and_si128(_mm_cmpeq_epi8(a, N), _mm_cmpeq_epi8(b, N));
        __m128i so = _mm_and_si128(_mm_cmpeq_epi8(a, S), _mm_cmpeq_epi8(b, O));
        __m128i dd = _mm_and_si128(_mm_cmpeq_epi8(a, D), _mm_cmpeq_epi8(b, D));
        unsigned mask = (unsigned)_mm_movemask_epi8(_mm_or_si128(nn, _mm_or_si128(so, dd)));
        while (mask) {
            if (keyword_at(text, text + i + (unsigned)__builtin_ctz(mask), end))
                return true;
            mask &= mask - 1;
        }
    }
#endif
    /* the scalar twin, and the vector passes' last bytes */
    for (; i + 1 < n; i++)
        if (pair_at(text + i) && keyword_at(text, text + i, end))
            return true;
    return false;
}

size_t sbx_netpat_refusals(const struct sbx_netpat *p, struct sbx_netpat_scratch *s,
                           const char *text, size_t n,
                           void (*cb)(const struct sbx_refused_hit *hit, void *ctx), void *ctx)
{
    size_t found = 0;
    for (size_t i = 0; i < NPATTERNS; i++) {
        size_t from = 0;
        while (from < n && match_at(p->refusal[i], s, text, n, from) > 0) {
            PCRE2_SIZE *ov = pcre2_get_ovector_pointer(s->md);
            struct sbx_refused_hit hit = {.client = refusal_patterns[i].client};
            hit.host = group(s, text, 1, &hit.host_len);
            size_t ls = ov[0], le = ov[1];
            while (ls > 0 && text[ls - 1] != '\n')
                ls--;
            const char *nl = memchr(text + le, '\n', n - le);
            le = nl ? (size_t)(nl - text) : n;
            hit.line = text + ls;
            hit.line_len = le - ls;
            if (hit.host) {
                cb(&hit, ctx);
                found++;
            }
            from = ov[1] > from ? ov[1] : from + 1;
        }
    }
    return found;
}

size_t sbx_netpat_hosts(const struct sbx_netpat *p, struct sbx_netpat_scratch *s,
                        const char *text, size_t n,
                        void (*cb)(const char *host, size_t len, void *ctx), void *ctx)
{
    size_t found = 0, from = 0;
    while (from < n && match_at(p->url, s, text, n, from) > 0) {
        PCRE2_SIZE *ov = pcre2_get_ovector_pointer(s->md);
        size_t len;
        const char *h = group(s, text, 1, &len);
        if (!h)
            h = group(s, text, 2, &len);
        if (h) {
            while (len && h[len - 1] == '.')
                len--; /* "see https://pypi.org." ends a sentence, not the host */
            if (len) {
                cb(h, len, ctx);
                found++;
            }
        }
        from = ov[1] > from ? ov[1] : from + 1;
    }
    return found;
}
