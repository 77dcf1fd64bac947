/* Reading a PCRE2 pattern without running it: smart case and the required
 * literal (query_scan.c finds it). The walk is one linear pass (no
 * recursion: hostile nesting costs nothing) and errs on the side of "no
 * literal": anything it does not understand ends a run. */
#define PCRE2_CODE_UNIT_WIDTH 8
#include "query/lit.h"

#include <pcre2.h>
#include <string.h>

#include "base/buf.h"

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
    /* an empty \Q\E is nothing at all: a quantifier after it applies to
       what came before */
    if (at + 1 < w->n && w->p[at] == '\\' && w->p[at + 1] == 'E')
        return at + 2;
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
    if (d == 'E') { /* \E without \Q: PCRE2 ignores it, so a quantifier after
                       it applies to the character before */
        w->i = at + 1;
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
            /* [:alpha:] and friends: a name, not members, when PCRE2 reads
             * one: its ":]" comes before any "]" or another "[:" (else the
             * "[" is a member and the class goes on) */
            unsigned char kind = w->p[at + 1];
            size_t k = at + 2;
            bool name = false;
            while (k < w->n) {
                if (w->p[k] == '\\' && k + 1 < w->n && (w->p[k + 1] == ']' || w->p[k + 1] == '\\')) {
                    k += 2;
                    continue;
                }
                if (w->p[k] == ']' || (w->p[k] == '[' && k + 1 < w->n && w->p[k + 1] == kind))
                    break;
                if (w->p[k] == kind && k + 1 < w->n && w->p[k + 1] == ']') {
                    name = true;
                    break;
                }
                k++;
            }
            if (name) {
                at = k + 2;
            } else {
                own_char(w, w->p + at, 1);
                at++;
            }
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
