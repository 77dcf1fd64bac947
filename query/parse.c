/* sbx_query_compile: a search pattern or a filter expression into terms. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "base/buf.h"
#include "model/evid.h"
#include "query/impl.h"
#include "base/timefmt.h"

#define NS_PER_SEC INT64_C(1000000000)
#define NS_PER_DAY (INT64_C(86400) * NS_PER_SEC)

/* One space-separated word of a filter, its quotes removed. */
struct token {
    struct sbx_buf text;
    size_t *map; /* map[k]: offset in the expression of text byte k */
    size_t cap;
    size_t start, end;
    size_t key_len; /* > 0: text[0..key_len) is a key and text[key_len] is ':' */
    bool neg, quoted;
};

static void add(struct token *t, char c, size_t from)
{
    if (t->text.len == t->cap) {
        t->cap = t->cap ? t->cap * 2 : 32;
        t->map = sbx_xrealloc(t->map, t->cap * sizeof *t->map);
    }
    t->map[t->text.len] = from;
    sbx_buf_addc(&t->text, c);
}

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

static bool is_key_char(char c)
{
    return ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') || c == '_';
}

/* Reads the token at *i; false at the end of the text or on an error
 * (then err is set). */
static bool next_token(const char *p, size_t len, size_t *pi, struct token *t, char *err,
                       size_t errsz)
{
    size_t i = *pi;
    while (i < len && is_space(p[i]))
        i++;
    if (i == len)
        return false;
    sbx_buf_clear(&t->text);
    t->start = i;
    t->neg = t->quoted = false;
    if (p[i] == '!') {
        t->neg = true;
        i++;
    }
    size_t k = i;
    while (k < len && is_key_char(p[k]))
        k++;
    t->key_len = k > i && k < len && p[k] == ':' ? k - i : 0;
    while (i < len && !is_space(p[i])) {
        if (p[i] != '"') {
            add(t, p[i], i);
            i++;
            continue;
        }
        size_t open = i++;
        t->quoted = true;
        while (i < len && p[i] != '"') {
            if (p[i] == '\\' && i + 1 < len && (p[i + 1] == '"' || p[i + 1] == '\\')) {
                if (p[i + 1] == '\\')
                    add(t, '\\', i); /* kept for PCRE2: \\ is its escaped backslash */
                add(t, p[i + 1], i + 1);
                i += 2;
            } else {
                add(t, p[i], i);
                i++;
            }
        }
        if (i == len) {
            snprintf(err, errsz, "unterminated quote (opened at offset %zu)", open);
            return false;
        }
        i++;
    }
    t->end = i;
    if (t->neg && !t->text.len && !t->quoted) {
        snprintf(err, errsz, "'!' at offset %zu needs a term after it", t->start);
        return false;
    }
    *pi = i;
    return true;
}

/* A word from the user, for a message: at most 40 bytes of it. */
static const char *shown(const char *s, size_t n, char *buf, size_t bufsz)
{
    size_t k = n < bufsz - 4 ? n : bufsz - 4;
    memcpy(buf, s, k);
    strcpy(buf + k, n > k ? "..." : "");
    return buf;
}

static bool compile_pattern(struct sbx_qpattern *pat, const char *s, size_t n,
                            pcre2_compile_context *cc, const struct token *tok, char *err,
                            size_t errsz)
{
    bool caseless = sbx_lit_smartcase(s, n);
    uint32_t opts = PCRE2_UTF | PCRE2_MATCH_INVALID_UTF | PCRE2_MULTILINE |
                    PCRE2_NEVER_BACKSLASH_C | (caseless ? PCRE2_CASELESS : 0);
    int code;
    PCRE2_SIZE off;
    pat->re = pcre2_compile((PCRE2_SPTR)s, n, opts, &code, &off, cc);
    if (!pat->re) {
        PCRE2_UCHAR msg[256];
        pcre2_get_error_message(code, msg, sizeof msg);
        size_t at = off;
        if (tok)
            at = off < tok->text.len ? tok->map[off] : tok->end;
        snprintf(err, errsz, "bad pattern: %s (at offset %zu)", (const char *)msg, at);
        return false;
    }
    pcre2_jit_compile(pat->re, PCRE2_JIT_COMPLETE); /* without the JIT: slower, not wrong */
    sbx_lit_extract(s, n, caseless, &pat->lit);
    return true;
}

/* H:MM, HH:MM, then :SS, then .f (1 to 9 digits). */
static bool parse_clock(const char *s, size_t n, int64_t *secs, int64_t *frac)
{
    size_t i = 0;
    int v[3] = {0, 0, 0};
    int parts = 0;
    while (parts < 3) {
        size_t d = 0;
        int x = 0;
        while (i < n && d < 2 && s[i] >= '0' && s[i] <= '9') {
            x = x * 10 + (s[i++] - '0');
            d++;
        }
        if (d == 0 || (parts > 0 && d != 2))
            return false;
        v[parts++] = x;
        if (i < n && s[i] == ':' && parts < 3)
            i++;
        else
            break;
    }
    if (parts < 2 || v[0] > 23 || v[1] > 59 || v[2] > 59)
        return false;
    *frac = 0;
    if (i < n && s[i] == '.' && parts == 3) {
        i++;
        int64_t scale = NS_PER_SEC;
        size_t d0 = i;
        while (i < n && s[i] >= '0' && s[i] <= '9' && i - d0 < 9) {
            scale /= 10;
            *frac += (s[i++] - '0') * scale;
        }
        if (i == d0)
            return false;
    }
    if (i != n)
        return false;
    *secs = (int64_t)v[0] * 3600 + v[1] * 60 + v[2];
    return true;
}

static int64_t floor_div(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

/* The local-time instant of a civil date and time (mktime: DST-aware). */
static int64_t local_instant(struct tm *tm, int64_t frac)
{
    tm->tm_isdst = -1;
    time_t t = mktime(tm);
    return (int64_t)t * NS_PER_SEC + frac;
}

int64_t sbx_query_day_start(int64_t t_ns, bool local)
{
    if (t_ns == SBX_TIME_UNKNOWN)
        return SBX_TIME_UNKNOWN;
    if (!local)
        return floor_div(t_ns, NS_PER_DAY) * NS_PER_DAY;
    time_t secs = (time_t)floor_div(t_ns, NS_PER_SEC);
    struct tm tm;
    if (!localtime_r(&secs, &tm))
        return floor_div(t_ns, NS_PER_DAY) * NS_PER_DAY;
    tm.tm_hour = tm.tm_min = tm.tm_sec = 0;
    return local_instant(&tm, 0);
}

static bool parse_time(const char *key, const char *s, size_t n, const struct sbx_query_time *tm,
                       int64_t *out, char *err, size_t errsz)
{
    int64_t secs, frac;
    char buf[48];
    if (parse_clock(s, n, &secs, &frac)) {
        if (!tm || tm->day_start_ns == SBX_TIME_UNKNOWN) {
            snprintf(err, errsz, "%s%s: no run start to put the time on; give a full timestamp",
                     key, shown(s, n, buf, sizeof buf));
            return false;
        }
        if (!tm->local) {
            *out = tm->day_start_ns + secs * NS_PER_SEC + frac;
            return true;
        }
        time_t day = (time_t)floor_div(tm->day_start_ns, NS_PER_SEC);
        struct tm t;
        if (!localtime_r(&day, &t)) {
            snprintf(err, errsz, "%s: the run's day is out of range", key);
            return false;
        }
        t.tm_hour = (int)(secs / 3600);
        t.tm_min = (int)(secs / 60 % 60);
        t.tm_sec = (int)(secs % 60);
        *out = local_instant(&t, frac);
        return true;
    }
    unsigned flags;
    if (sbx_time_parse(s, n, out, &flags)) {
        if ((flags & SBX_TIME_NO_ZONE) && tm && tm->local) {
            /* the same wall-clock reading, in local time */
            int64_t ns = *out;
            time_t whole = (time_t)floor_div(ns, NS_PER_SEC);
            struct tm t;
            if (gmtime_r(&whole, &t))
                *out = local_instant(&t, ns - (int64_t)whole * NS_PER_SEC);
        }
        return true;
    }
    snprintf(err, errsz,
             "%s needs a time (HH:MM, HH:MM:SS[.fff] or YYYY-MM-DDTHH:MM:SS[Z]), not \"%s\"", key,
             shown(s, n, buf, sizeof buf));
    return false;
}

static bool parse_exit(const char *s, size_t n, int32_t *out)
{
    size_t i = 0;
    bool neg = false;
    if (i < n && (s[i] == '-' || s[i] == '+'))
        neg = s[i++] == '-';
    if (i == n)
        return false;
    int64_t v = 0;
    for (; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        v = v * 10 + (s[i] - '0');
        if (v > (int64_t)INT32_MAX + 1)
            return false;
    }
    v = neg ? -v : v;
    if (v > INT32_MAX)
        return false;
    *out = (int32_t)v;
    return true;
}

/* Words with a term of their own; every other finding's word is in
 * model/findings.h (failed and timedout there too: these come first, so
 * they also hold for a command the summary has not seen). */
static const struct {
    const char *word;
    enum sbx_term_type type;
} keywords[] = {
    {"failed", SBX_T_FAILED},
    {"timedout", SBX_T_TIMEDOUT},
    {"findings", SBX_T_FINDINGS},
};

/* host:NAME: the host as a whole name (not part of a longer one), without
 * case; the pattern finds it in texts, the name decides network events. */
static bool host_term(struct sbx_term *term, const char *v, size_t vn, char *err, size_t errsz)
{
    term->type = SBX_T_HOST;
    if (vn > 253) {
        snprintf(err, errsz, "host: a host name is at most 253 characters");
        return false;
    }
    struct sbx_buf re = SBX_BUF_INIT;
    term->host = sbx_xstrndup(v, vn);
    sbx_buf_adds(&re, "(?<![a-z0-9_.-])");
    for (size_t i = 0; i < vn; i++) {
        char c = v[i] >= 'A' && v[i] <= 'Z' ? (char)(v[i] + 32) : v[i];
        term->host[i] = c;
        if ((unsigned char)c < 0x80 && !((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')))
            sbx_buf_addc(&re, '\\');
        sbx_buf_addc(&re, c);
    }
    sbx_buf_adds(&re, "(?![a-z0-9_-]|\\.[a-z0-9_-])");
    bool ok = compile_pattern(&term->u.pat, re.p, re.len, NULL, NULL, err, errsz);
    sbx_buf_free(&re);
    return ok;
}

/* id:PREFIX, or id:ID/KIND (a finding's id: the event has that finding). */
static bool id_term(struct sbx_term *term, const char *v, size_t vn, char *err, size_t errsz)
{
    char buf[48];
    const char *slash = memchr(v, '/', vn);
    size_t idn = slash ? (size_t)(slash - v) : vn;
    if (!sbx_evid_prefix_valid(v, idn)) {
        snprintf(err, errsz, "id: \"%s\" is not an event id (10 letters and digits, then .N for a repeat)",
                 shown(v, vn, buf, sizeof buf));
        return false;
    }
    if (slash) {
        size_t kn = vn - idn - 1;
        char kind[64];
        uint32_t bit = 0;
        if (kn < sizeof kind) {
            memcpy(kind, slash + 1, kn);
            kind[kn] = '\0';
            bit = sbx_finding_by_name(kind);
        }
        if (!bit) {
            snprintf(err, errsz, "id: no finding kind called \"%s\"", shown(slash + 1, kn, buf, sizeof buf));
            return false;
        }
        term->id_kind = bit;
    }
    term->type = SBX_T_ID;
    term->u.str.s = sbx_xstrndup(v, idn);
    term->u.str.n = idn;
    return true;
}

/* One key:value term. */
static bool key_term(struct sbx_term *term, const struct token *tok, const struct sbx_query_time *tm,
                     char *err, size_t errsz)
{
    const char *key = tok->text.p;
    size_t klen = tok->key_len;
    const char *v = key + klen + 1;
    size_t vn = tok->text.len - klen - 1;
    char buf[48];
#define KEY(word) (klen == sizeof word - 1 && strncasecmp(key, word, klen) == 0)
    bool known = KEY("kind") || KEY("sandbox") || KEY("exit") || KEY("since") || KEY("until") ||
                 KEY("program") || KEY("host") || KEY("id");
    if (!known) {
        snprintf(err, errsz,
                 "unknown filter key \"%s:\" (keys: kind sandbox exit since until program host id; "
                 "quote text to search for it)",
                 shown(key, klen, buf, sizeof buf));
        return false;
    }
    if (vn == 0 && !(tok->quoted && KEY("program"))) {
        snprintf(err, errsz, "\"%s:\" needs a value", shown(key, klen, buf, sizeof buf));
        return false;
    }
    if (KEY("kind")) {
        term->type = SBX_T_KIND;
        for (unsigned k = 0; k < SBX_EV_KIND_COUNT; k++) {
            const char *name = sbx_kind_name((enum sbx_kind)k);
            if (strlen(name) == vn && strncasecmp(name, v, vn) == 0) {
                term->u.kind = k;
                return true;
            }
        }
        snprintf(err, errsz,
                 "unknown kind \"%s\" (kinds: command files network lifecycle audit metric span note)",
                 shown(v, vn, buf, sizeof buf));
        return false;
    }
    if (KEY("exit")) {
        term->type = SBX_T_EXIT;
        if (!parse_exit(v, vn, &term->u.exit)) {
            snprintf(err, errsz, "exit: needs a whole number, not \"%s\"", shown(v, vn, buf, sizeof buf));
            return false;
        }
        return true;
    }
    if (KEY("host"))
        return host_term(term, v, vn, err, errsz);
    if (KEY("id"))
        return id_term(term, v, vn, err, errsz);
    if (KEY("since") || KEY("until")) {
        term->type = KEY("since") ? SBX_T_SINCE : SBX_T_UNTIL;
        return parse_time(KEY("since") ? "since:" : "until:", v, vn, tm, &term->u.t, err, errsz);
    }
    term->type = KEY("sandbox") ? SBX_T_SANDBOX : SBX_T_PROGRAM;
    term->u.str.s = sbx_xstrndup(v, vn);
    term->u.str.n = vn;
    return true;
#undef KEY
}

static bool word_term(struct sbx_term *term, const struct token *tok, pcre2_compile_context *cc,
                      char *err, size_t errsz)
{
    if (!tok->quoted) {
        for (size_t k = 0; k < sizeof keywords / sizeof *keywords; k++) {
            if (strlen(keywords[k].word) == tok->text.len &&
                memcmp(keywords[k].word, tok->text.p, tok->text.len) == 0) {
                term->type = keywords[k].type;
                return true;
            }
        }
        uint32_t bits = sbx_findings_by_word(tok->text.p, tok->text.len, false);
        if (bits) {
            term->type = SBX_T_FINDING;
            term->u.mask = bits;
            return true;
        }
    }
    term->type = SBX_T_PATTERN;
    if (!tok->text.len) {
        snprintf(err, errsz, "empty pattern at offset %zu", tok->start);
        return false;
    }
    return compile_pattern(&term->u.pat, tok->text.p, tok->text.len, cc, tok, err, errsz);
}

static void term_free(struct sbx_term *t)
{
    if (t->type == SBX_T_PATTERN || t->type == SBX_T_HOST)
        pcre2_code_free(t->u.pat.re);
    else if (t->type == SBX_T_SANDBOX || t->type == SBX_T_PROGRAM || t->type == SBX_T_ID)
        free(t->u.str.s);
    free(t->host);
}

void sbx_query_free(struct sbx_query *q)
{
    if (!q)
        return;
    for (size_t i = 0; i < q->nterms; i++)
        term_free(&q->terms[i]);
    free(q->terms);
    pcre2_match_context_free(q->mc);
    free(q);
}

static bool parse_filter(struct sbx_query *q, const char *text, size_t len,
                         const struct sbx_query_time *tm, pcre2_compile_context *cc, char *err,
                         size_t errsz)
{
    struct token tok = {.text = SBX_BUF_INIT};
    size_t i = 0, cap = 0;
    bool ok = true;
    err[0] = '\0';
    while (ok && next_token(text, len, &i, &tok, err, errsz)) {
        SBX_GROW(q->terms, q->nterms, cap);
        struct sbx_term *t = &q->terms[q->nterms];
        memset(t, 0, sizeof *t);
        t->neg = tok.neg;
        ok = tok.key_len ? key_term(t, &tok, tm, err, errsz) : word_term(t, &tok, cc, err, errsz);
        if (ok)
            q->nterms++;
        else
            term_free(t);
    }
    sbx_buf_free(&tok.text);
    free(tok.map);
    if (err[0])
        return false;
    if (!q->nterms) {
        snprintf(err, errsz, "empty filter");
        return false;
    }
    /* patterns last, in their order: the cheap terms usually decide */
    size_t k = 0;
    struct sbx_term *sorted = sbx_xcalloc(q->nterms, sizeof *sorted);
    for (int pass = 0; pass < 2; pass++)
        for (size_t j = 0; j < q->nterms; j++)
            if ((q->terms[j].type == SBX_T_PATTERN || q->terms[j].type == SBX_T_HOST) ==
                (pass == 1))
                sorted[k++] = q->terms[j];
    free(q->terms);
    q->terms = sorted;
    return true;
}

struct sbx_query *sbx_query_compile(enum sbx_query_kind kind, const char *text, size_t len,
                                    const struct sbx_query_time *tm, char *err, size_t errsz)
{
    char spare[8];
    if (!err || !errsz) {
        err = spare;
        errsz = sizeof spare;
    }
    struct sbx_query *q = sbx_xcalloc(1, sizeof *q);
    q->kind = kind;
    q->mc = pcre2_match_context_create(NULL);
    if (!q->mc)
        abort(); /* as sbx_xmalloc does */
    pcre2_set_match_limit(q->mc, SBX_QUERY_MATCH_LIMIT);
    pcre2_set_depth_limit(q->mc, SBX_QUERY_DEPTH_LIMIT);
    pcre2_compile_context *cc = pcre2_compile_context_create(NULL);
    if (!cc)
        abort();
    pcre2_set_max_pattern_length(cc, 1u << 16);
    bool ok;
    if (kind == SBX_QUERY_SEARCH) {
        if (len == 0) {
            snprintf(err, errsz, "empty pattern");
            ok = false;
        } else {
            q->terms = sbx_xcalloc(1, sizeof *q->terms);
            /* "id:PREFIX" searches for the event with that id, when it is one */
            const char *slash = len > 3 ? memchr(text + 3, '/', len - 3) : NULL;
            if (len > 3 && strncasecmp(text, "id:", 3) == 0 &&
                sbx_evid_prefix_valid(text + 3, slash ? (size_t)(slash - text - 3) : len - 3) &&
                id_term(&q->terms[0], text + 3, len - 3, err, errsz)) {
                ok = true;
            } else {
                err[0] = '\0';
                memset(&q->terms[0], 0, sizeof q->terms[0]);
                q->terms[0].type = SBX_T_PATTERN;
                ok = compile_pattern(&q->terms[0].u.pat, text, len, cc, NULL, err, errsz);
            }
            q->nterms = ok;
        }
    } else {
        ok = parse_filter(q, text, len, tm, cc, err, errsz);
    }
    pcre2_compile_context_free(cc);
    if (!ok) {
        sbx_query_free(q);
        return NULL;
    }
    return q;
}

bool sbx_query_has_pattern(const struct sbx_query *q)
{
    for (size_t i = 0; i < q->nterms; i++)
        if ((q->terms[i].type == SBX_T_PATTERN || q->terms[i].type == SBX_T_HOST) &&
            !q->terms[i].neg)
            return true;
    return false;
}
