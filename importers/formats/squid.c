/* Squid's access.log, in its two usual shapes, one request (kind network)
 * per line:
 *   native   %ts.%03tu %6tr %>a %Ss/%03>Hs %<st %rm %ru %[un %Sh/%<a %mt
 *   combined %>a %[ui %[un [%tl] "%rm %ru HTTP/%rv" %>Hs %<st "referer" "agent" [%Ss:%Sh]
 * The shape is chosen per line (a combined line's fourth field opens with
 * '['). Squid writes a line when the request finished: the time is the end,
 * the native elapsed milliseconds give the start. A hand parser over the
 * line, no allocation but the event; short repeated strings (hosts, methods,
 * result codes, clients) go through small per-thread caches before the
 * timeline's string table. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "importers/format.h"
#include "base/timefmt.h"

enum { CACHE_SIZE = 256, CACHE_MAX = 62 };

/* A direct-mapped cache: raw bytes -> strtab id. */
struct cache_entry {
    uint32_t id;
    uint8_t len;
    char raw[CACHE_MAX];
};

struct squid_state {
    struct sbx_timeline *tl;
    uint32_t source;
    struct sbx_buf scratch;
    struct cache_entry hosts[CACHE_SIZE]; /* raw host -> id of its lower case */
    struct cache_entry words[CACHE_SIZE]; /* method, result, client: as they are */
};

struct span {
    const char *p;
    size_t n;
};

/* One line read, before it becomes an event. */
struct request {
    bool combined;
    int64_t end_ns, elapsed_ms; /* elapsed -1: not given */
    struct span client, result, method, url, hier;
    int32_t status;             /* -1: not given */
    int64_t bytes;              /* -1: not given */
};

static bool is_ws(char c)
{
    return c == ' ' || c == '\t';
}

/* Eight bytes at s as a little-endian word (the byte at s lowest). */
static inline uint64_t word_at(const char *s)
{
    uint64_t w;
    memcpy(&w, s, 8);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    w = __builtin_bswap64(w);
#endif
    return w;
}

#define ONES 0x0101010101010101ull
#define HIGHS 0x8080808080808080ull

/* The high bit of each byte of w below c (c <= 0x80); exact for the lowest
 * such byte, which is all the callers use (a borrow only spills upwards). */
static inline uint64_t bytes_below(uint64_t w, unsigned char c)
{
    return (w - ONES * c) & ~w & HIGHS;
}

/* The end of the field that starts at s: the first space or tab, or end.
 * Eight bytes at a time while eight remain: a field's bytes are nearly all
 * above ' ', so a word with none at or below it is skipped whole. */
static inline const char *field_end(const char *s, const char *end)
{
    while (end - s >= 8) {
        uint64_t m = bytes_below(word_at(s), ' ' + 1);
        if (!m) {
            s += 8;
            continue;
        }
        s += __builtin_ctzll(m) >> 3;
        if (is_ws(*s))
            return s;
        s++; /* a control byte inside the field */
    }
    while (s < end && !is_ws(*s))
        s++;
    return s;
}

/* The next whitespace-separated field at *p, or an empty span at the end. */
static inline __attribute__((always_inline)) struct span next_field(const char **p,
                                                                    const char *end)
{
    const char *s = *p;
    while (s < end && is_ws(*s))
        s++;
    const char *e = field_end(s, end);
    *p = e;
    return (struct span){s, (size_t)(e - s)};
}

/* The first c in s[0..n), or NULL: memchr for the short spans of a line,
 * without a call. */
static inline const char *find_byte(const char *s, size_t n, char c)
{
    const char *end = s + n;
    for (; end - s >= 8; s += 8) {
        uint64_t m = bytes_below(word_at(s) ^ (ONES * (unsigned char)c), 1);
        if (m)
            return s + (__builtin_ctzll(m) >> 3);
    }
    for (; s < end; s++)
        if (*s == c)
            return s;
    return NULL;
}

/* Digits only, at most max: 1 read, 0 above max, -1 not a number. */
static int parse_uint(struct span f, int64_t max, int64_t *out)
{
    if (f.n == 0)
        return -1;
    uint64_t v = 0;
    for (size_t i = 0; i < f.n; i++) {
        unsigned d = (unsigned)(unsigned char)f.p[i] - '0';
        if (d > 9)
            return -1;
        if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, d, &v) ||
            v > (uint64_t)max)
            return 0;
    }
    *out = (int64_t)v;
    return 1;
}

#define FAIL(...) (snprintf(reason, reasonsz, __VA_ARGS__), false)

/* Squid's seconds.milliseconds (1 to 9 fraction digits) as ns. */
static bool parse_epoch(struct span f, int64_t *ns, char *reason, size_t reasonsz)
{
    /* the usual shape, ten digits, a dot, three: no search, no overflow */
    if (f.n == 14 && f.p[10] == '.') {
        uint64_t s = 0, ms = 0;
        unsigned bad = 0;
        for (int i = 0; i < 10; i++) {
            unsigned d = (unsigned)(unsigned char)f.p[i] - '0';
            bad |= d > 9;
            s = s * 10 + d;
        }
        for (int i = 11; i < 14; i++) {
            unsigned d = (unsigned)(unsigned char)f.p[i] - '0';
            bad |= d > 9;
            ms = ms * 10 + d;
        }
        if (!bad && s <= INT64_MAX / 1000000000 - 1) {
            *ns = (int64_t)(s * 1000000000 + ms * 1000000);
            return true;
        }
    }
    const char *dot = find_byte(f.p, f.n, '.');
    if (!dot)
        return FAIL("the time is not seconds.milliseconds");
    struct span sec = {f.p, (size_t)(dot - f.p)}, frac = {dot + 1, f.n - sec.n - 1};
    int64_t s = 0, fr = 0;
    if (frac.n == 0 || frac.n > 9 || parse_uint(frac, INT64_MAX, &fr) < 0)
        return FAIL("the time is not seconds.milliseconds");
    int r = parse_uint(sec, INT64_MAX / 1000000000 - 1, &s);
    if (r < 0)
        return FAIL("the time is not seconds.milliseconds");
    if (r == 0)
        return FAIL("the time is out of range");
    for (size_t i = frac.n; i < 9; i++)
        fr *= 10;
    *ns = s * 1000000000 + fr;
    return true;
}

/* The longest a request may take: a year (tunnels stay open long). */
#define MAX_ELAPSED_MS (366LL * 24 * 3600 * 1000)
#define MAX_BYTES (1LL << 53)

static bool parse_status(struct span f, int32_t *status, char *reason, size_t reasonsz)
{
    int64_t v;
    int r = f.n > 3 ? 0 : parse_uint(f, 999, &v);
    if (r < 0)
        return FAIL("the HTTP status is not a number");
    if (r == 0)
        return FAIL("the HTTP status is out of range");
    *status = (int32_t)v;
    return true;
}

static bool parse_bytes(struct span f, int64_t *bytes, char *reason, size_t reasonsz)
{
    int r = parse_uint(f, MAX_BYTES, bytes);
    if (r < 0)
        return FAIL("the byte count is not a number");
    if (r == 0)
        return FAIL("the byte count is out of range");
    return true;
}

/* f[0..3] are already split; p is past them. */
static bool parse_native(struct span *f, const char *p, const char *end, struct request *rq,
                         char *reason, size_t reasonsz)
{
    static const char *const names[] = {
        "time", "elapsed time", "client", "result/status", "byte count",
        "method", "URL", "user", "hierarchy/peer", "MIME type",
    };
    for (int i = 0; i < 10; i++) {
        if (i >= 4)
            f[i] = next_field(&p, end);
        if (f[i].n == 0)
            return FAIL("missing field: %s", names[i]);
    }
    if (!parse_epoch(f[0], &rq->end_ns, reason, reasonsz))
        return false;
    int r = parse_uint(f[1], MAX_ELAPSED_MS, &rq->elapsed_ms);
    if (r < 0)
        return FAIL("the elapsed time is not a number");
    if (r == 0)
        return FAIL("the elapsed time is out of range");
    rq->client = f[2];
    const char *slash = find_byte(f[3].p, f[3].n, '/');
    if (!slash || slash == f[3].p)
        return FAIL("the result/status is not CODE/STATUS");
    rq->result = (struct span){f[3].p, (size_t)(slash - f[3].p)};
    struct span st = {slash + 1, f[3].n - rq->result.n - 1};
    if (!parse_status(st, &rq->status, reason, reasonsz))
        return false;
    if (!parse_bytes(f[4], &rq->bytes, reason, reasonsz))
        return false;
    rq->method = f[5];
    rq->url = f[6];
    const char *hs = find_byte(f[8].p, f[8].n, '/');
    rq->hier = (struct span){f[8].p, hs ? (size_t)(hs - f[8].p) : f[8].n};
    return true;
}

/* A double-quoted field at *p (backslash escapes a quote); the span is its
 * inside. -1: not quoted, 0: unterminated. */
static int quoted_field(const char **p, const char *end, struct span *out)
{
    const char *s = *p;
    while (s < end && is_ws(*s))
        s++;
    if (s == end || *s != '"')
        return -1;
    const char *e = ++s;
    while (e < end && *e != '"')
        e += *e == '\\' && e + 1 < end ? 2 : 1;
    if (e >= end)
        return 0;
    *out = (struct span){s, (size_t)(e - s)};
    *p = e + 1;
    return 1;
}

/* The user agent at *p: like quoted_field, but Squid writes the quotes
 * inside an agent as they came ("say "hi""), so it closes at the line's last
 * quote that no backslash escapes; only Squid's codes follow it. */
static int agent_field(const char **p, const char *end, struct span *out)
{
    const char *s = *p;
    while (s < end && is_ws(*s))
        s++;
    if (s == end || *s != '"')
        return -1;
    const char *e = end;
    while ((e = memrchr(s + 1, '"', (size_t)(e - s - 1))) && e[-1] == '\\')
        ;
    if (!e)
        return 0;
    *out = (struct span){s + 1, (size_t)(e - s - 1)};
    *p = e + 1;
    return 1;
}

/* [10/Oct/2026:13:55:36 +0000] at *p, as ns. */
static bool parse_clf_time(const char **p, const char *end, int64_t *ns, char *reason,
                           size_t reasonsz)
{
    static const char months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
    const char *s = *p;
    while (s < end && is_ws(*s))
        s++;
    /* [dd/Mon/yyyy:HH:MM:SS +zzzz] is 28 bytes */
    if (end - s < 28 || s[0] != '[' || s[3] != '/' || s[7] != '/' || s[12] != ':' ||
        s[21] != ' ' || s[27] != ']')
        return FAIL("the time is not [dd/Mon/yyyy:HH:MM:SS +zzzz]");
    int month = -1;
    for (int m = 0; m < 12; m++)
        if (memcmp(s + 4, months + 3 * m, 3) == 0)
            month = m + 1;
    if (month < 0)
        return FAIL("the time has no month name");
    /* as ISO 8601 for the exact parser: yyyy-mm-ddTHH:MM:SS+zzzz */
    char iso[24];
    memcpy(iso, s + 8, 4);
    iso[4] = '-';
    iso[5] = (char)('0' + month / 10);
    iso[6] = (char)('0' + month % 10);
    iso[7] = '-';
    memcpy(iso + 8, s + 1, 2);
    iso[10] = 'T';
    memcpy(iso + 11, s + 13, 8);
    memcpy(iso + 19, s + 22, 5);
    unsigned tf;
    if (!sbx_time_parse(iso, sizeof iso, ns, &tf))
        return FAIL("the time is not a valid date and time");
    *p = s + 28;
    return true;
}

static bool is_code(struct span s)
{
    if (s.n == 0)
        return false;
    for (size_t i = 0; i < s.n; i++)
        if (!((s.p[i] >= 'A' && s.p[i] <= 'Z') || s.p[i] == '_'))
            return false;
    return true;
}

static bool parse_combined(const char *p, const char *end, struct request *rq, char *reason,
                           size_t reasonsz)
{
    rq->combined = true;
    rq->elapsed_ms = -1;
    rq->client = next_field(&p, end);
    if (next_field(&p, end).n == 0)
        return FAIL("missing field: ident");
    if (next_field(&p, end).n == 0)
        return FAIL("missing field: user");
    if (!parse_clf_time(&p, end, &rq->end_ns, reason, reasonsz))
        return false;
    struct span req;
    int q = quoted_field(&p, end, &req);
    if (q < 0)
        return FAIL("missing field: quoted request");
    if (q == 0)
        return FAIL("the request's quote is not closed");
    const char *rp = req.p, *rend = req.p + req.n;
    rq->method = next_field(&rp, rend);
    rq->url = next_field(&rp, rend);
    struct span f = next_field(&p, end);
    if (f.n == 0)
        return FAIL("missing field: HTTP status");
    if (f.n == 1 && f.p[0] == '-')
        rq->status = -1;
    else if (!parse_status(f, &rq->status, reason, reasonsz))
        return false;
    f = next_field(&p, end);
    if (f.n == 0)
        return FAIL("missing field: byte count");
    if (f.n == 1 && f.p[0] == '-')
        rq->bytes = -1;
    else if (!parse_bytes(f, &rq->bytes, reason, reasonsz))
        return false;
    /* referer and user agent: absent in the common format, quoted when there */
    struct span ignored;
    for (int i = 0; i < 2; i++) {
        q = i ? agent_field(&p, end, &ignored) : quoted_field(&p, end, &ignored);
        if (q == 0)
            return FAIL("the %s's quote is not closed", i ? "user agent" : "referer");
        if (q < 0) {
            if (next_field(&p, end).n)
                return FAIL("the %s is not quoted", i ? "user agent" : "referer");
            return true;
        }
    }
    /* Squid's combined format ends with %Ss:%Sh; other trailing fields pass */
    f = next_field(&p, end);
    const char *colon = f.n ? memchr(f.p, ':', f.n) : NULL;
    if (colon) {
        struct span code = {f.p, (size_t)(colon - f.p)}, hier = {colon + 1, f.n - code.n - 1};
        if (is_code(code) && is_code(hier)) {
            rq->result = code;
            rq->hier = hier;
        }
    }
    return true;
}

/* The request of line[0..len) (no newline); false with the reason. */
static bool parse_request(const char *line, size_t len, struct request *rq, char *reason,
                          size_t reasonsz)
{
    rq->combined = false;
    rq->result = (struct span){line, 0};
    rq->hier = (struct span){line, 0};
    const char *end = line + len, *p = line;
    /* the fourth field tells the shapes apart */
    struct span f[10];
    for (int i = 0; i < 4; i++)
        f[i] = next_field(&p, end);
    if (f[3].n && f[3].p[0] == '[')
        return parse_combined(line, end, rq, reason, reasonsz);
    return parse_native(f, p, end, rq, reason, reasonsz);
}

/* Four bytes at s as a number (any byte order: a hash and a comparison). */
static inline uint32_t u32_at(const char *s)
{
    uint32_t v;
    memcpy(&v, s, 4);
    return v;
}

/* The first and last eight bytes of s (overlapping when shorter; never read
 * outside it), for hashing and a first comparison. */
static inline void ends_of(const char *s, size_t n, uint64_t *head, uint64_t *tail)
{
    if (n >= 8) {
        *head = word_at(s);
        *tail = word_at(s + n - 8);
    } else if (n >= 4) {
        *head = u32_at(s);
        *tail = u32_at(s + n - 4);
    } else {
        *head = (uint64_t)(unsigned char)s[0] << 16 | (uint64_t)(unsigned char)s[n / 2] << 8 |
                (unsigned char)s[n - 1];
        *tail = 0;
    }
}

/* Whether a[0..n) and b[0..n) are equal, for strings of a few words. */
static inline bool same_bytes(const char *a, const char *b, size_t n)
{
    if (n < 8)
        return memcmp(a, b, n) == 0;
    for (size_t i = 0; i + 8 < n; i += 8)
        if (word_at(a + i) != word_at(b + i))
            return false;
    return word_at(a + n - 8) == word_at(b + n - 8);
}

/* The id of s (lower-cased first when lower), through the cache c. */
static uint32_t intern_cached(struct squid_state *st, struct cache_entry *c, struct span s,
                              bool lower)
{
    if (s.n == 0)
        return 0;
    struct cache_entry *e = NULL;
    if (s.n <= CACHE_MAX) {
        uint64_t head, tail;
        ends_of(s.p, s.n, &head, &tail);
        uint64_t h = head * 0x9E3779B97F4A7C15ull ^ (tail + s.n) * 0xC2B2AE3D27D4EB4Full;
        e = &c[(h >> 40) & (CACHE_SIZE - 1)];
        if (e->id && e->len == s.n && same_bytes(e->raw, s.p, s.n))
            return e->id;
    }
    const char *str = s.p;
    if (lower) {
        sbx_buf_clear(&st->scratch);
        sbx_buf_reserve(&st->scratch, s.n);
        for (size_t i = 0; i < s.n; i++) {
            char ch = s.p[i];
            st->scratch.p[i] = ch >= 'A' && ch <= 'Z' ? (char)(ch + ('a' - 'A')) : ch;
        }
        str = st->scratch.p;
    }
    uint32_t id = sbx_strtab_intern(&st->tl->strings, str, s.n);
    if (e) {
        e->id = id;
        e->len = (uint8_t)s.n;
        memcpy(e->raw, s.p, s.n);
    }
    return id;
}

static bool span_is(struct span s, const char *word)
{
    size_t n = strlen(word);
    return s.n == n && memcmp(s.p, word, n) == 0;
}

/* The first '/', '?', '#' or '@' in [p, end), or end. */
static inline const char *authority_mark(const char *p, const char *end)
{
    for (; end - p >= 8; p += 8) {
        uint64_t w = word_at(p);
        uint64_t m = bytes_below(w ^ (ONES * '/'), 1) | bytes_below(w ^ (ONES * '?'), 1) |
                     bytes_below(w ^ (ONES * '#'), 1) | bytes_below(w ^ (ONES * '@'), 1);
        if (m)
            return p + (__builtin_ctzll(m) >> 3);
    }
    while (p < end && *p != '/' && *p != '?' && *p != '#' && *p != '@')
        p++;
    return p;
}

/* The host of a URL (CONNECT: host:port), without port, user info or the
 * brackets of an IPv6 address; empty when the URL names none. */
static struct span url_host(struct span url, bool connect)
{
    const char *p = url.p, *end = url.p + url.n;
    if (!connect) {
        const char *s = p;
        while (s < end && ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
                           (*s >= '0' && *s <= '9') || *s == '+' || *s == '-' || *s == '.'))
            s++;
        if (s == p || end - s < 3 || memcmp(s, "://", 3) != 0)
            return (struct span){p, 0};
        p = s + 3;
    }
    /* the authority ends at '/', '?' or '#'; user info before its last '@' */
    const char *a = authority_mark(p, end);
    while (a < end && *a == '@') {
        p = a + 1;
        a = authority_mark(p, end);
    }
    end = a;
    if (p < end && *p == '[') {
        const char *close = memchr(p, ']', (size_t)(end - p));
        if (close)
            return (struct span){p + 1, (size_t)(close - p - 1)};
        return (struct span){p, (size_t)(end - p)};
    }
    const char *colon = find_byte(p, (size_t)(end - p), ':');
    /* more than one colon: a bare IPv6 address, no port to strip */
    if (colon && !find_byte(colon + 1, (size_t)(end - colon - 1), ':'))
        end = colon;
    return (struct span){p, (size_t)(end - p)};
}

/* Non-zero when a byte of w is below 0x20, 0x7f or above (the high bit set,
 * or 0x7f + 1 carrying into it), or a backslash. */
static inline uint64_t unusual_word(uint64_t w)
{
    return bytes_below(w, 0x20) | (((w & ~HIGHS) + ONES) & HIGHS) | (w & HIGHS) |
           bytes_below(w ^ (ONES * '\\'), 1);
}

/* A byte outside printable ASCII, or a backslash: eight at a time. */
static bool unusual(struct span s)
{
    const char *p = s.p, *end = s.p + s.n;
    if (s.n >= 8) {
        uint64_t bad = 0;
        for (; end - p > 8; p += 8)
            bad |= unusual_word(word_at(p));
        return bad | unusual_word(word_at(end - 8)); /* the last eight, overlapping */
    }
    unsigned char bad = 0;
    for (; p < end; p++) {
        unsigned char c = (unsigned char)*p;
        bad |= (unsigned char)(c < 0x20 || c >= 0x7f || c == '\\');
    }
    return bad;
}

static void make_event(struct squid_state *st, struct sbx_evbuf *out, const struct request *rq,
                       const char *line, size_t len, uint64_t off, uint32_t line_no)
{
    struct sbx_event *e = sbx_evbuf_push_from(out, st->source, off, len, line_no);
    e->kind = SBX_EV_NETWORK;
    e->end = rq->end_ns;
    e->start = rq->elapsed_ms > 0 ? rq->end_ns - rq->elapsed_ms * 1000000 : rq->end_ns;
    struct sbx_network *n = &e->u.net;
    bool connect = span_is(rq->method, "CONNECT");
    n->host = intern_cached(st, st->hosts, url_host(rq->url, connect), true);
    n->method = intern_cached(st, st->words, rq->method, false);
    n->result = intern_cached(st, st->words, rq->result, false);
    n->client = intern_cached(st, st->words, rq->client, false);
    n->status = rq->status;
    n->bytes_in = rq->bytes;
    n->bytes_out = -1;
    if (rq->url.n) {
        n->url = sbx_text_make(out, e, off + (uint64_t)(rq->url.p - line), rq->url.n,
                               SBX_TEXT_PRESENT | (unusual(rq->url) ? SBX_TEXT_UNUSUAL : 0));
    }
    if (connect)
        n->flags |= SBX_NET_CONNECT;
    if (rq->result.n >= 10 && memcmp(rq->result.p, "TCP_DENIED", 10) == 0)
        n->flags |= SBX_NET_DENIED; /* the network analysis makes it a refused host */
    if ((rq->status == 0 && span_is(rq->result, "NONE_NONE")) ||
        (rq->status == 503 && span_is(rq->hier, "HIER_NONE")))
        n->flags |= SBX_NET_UNREACHED;
    e->label = rq->combined ? n->method : n->result;
}

static enum sbx_line_status import_line(void *state, struct sbx_evbuf *out, const char *line,
                                        size_t len, uint64_t off, uint32_t line_no, char *reason,
                                        size_t reasonsz)
{
    struct squid_state *st = state;
    while (len && (line[len - 1] == '\r' || is_ws(line[len - 1])))
        len--;
    size_t i = 0;
    while (i < len && is_ws(line[i]))
        i++;
    if (i == len)
        return SBX_LINE_BLANK;
    struct request rq;
    if (!parse_request(line, len, &rq, reason, reasonsz))
        return SBX_LINE_BAD;
    make_event(st, out, &rq, line, len, off, line_no);
    return SBX_LINE_OK;
}

static void *state_new(struct sbx_timeline *tl, uint32_t source,
                       const struct sbx_import_opts *opts)
{
    (void)opts; /* this format needs nothing from outside its file */
    struct squid_state *st = sbx_xcalloc(1, sizeof *st);
    st->tl = tl;
    st->source = source;
    return st;
}

static void state_free(void *p)
{
    struct squid_state *st = p;
    sbx_buf_free(&st->scratch);
    free(st);
}

/* A Squid log: of its first non-blank lines (up to 20, within 64 KiB), at
 * least one reads as a request and no fewer read than fail. JSON (a recorder
 * log, Runtime's records) never reads: its first field is no time and its
 * fourth no '['. */
static bool detect(const char *data, size_t size)
{
    const char *p = data, *end = data + (size < (64u << 10) ? size : (64u << 10));
    int ok = 0, bad = 0;
    char reason[160];
    while (p < end && ok + bad < 20) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
        const char *line = p;
        p += len + 1;
        while (len && (line[len - 1] == '\r' || is_ws(line[len - 1])))
            len--;
        size_t i = 0;
        while (i < len && is_ws(line[i]))
            i++;
        if (i == len)
            continue;
        if (!nl && size > (64u << 10))
            break; /* cut by the window: not a whole line */
        struct request rq;
        if (parse_request(line, len, &rq, reason, sizeof reason))
            ok++;
        else
            bad++;
    }
    return ok > 0 && ok >= bad;
}

const struct sbx_format sbx_format_squid = {
    .name = "squid",
    .detect = detect,
    .state_new = state_new,
    .state_free = state_free,
    .line = import_line,
};
