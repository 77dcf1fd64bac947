/* The key of a command line for matching across runs (rules in compare.h). */
#include <stdbool.h>
#include <string.h>

#include "analyses/compare/compare.h"
#include "model/program.h"

static bool is_word(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

static bool is_digit(unsigned char c) { return c >= '0' && c <= '9'; }

static bool is_hex(unsigned char c)
{
    return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static bool is_alnum(unsigned char c) { return is_word(c) && c != '_'; }

/* Where a temp path ends: a blank, a quote, shell punctuation. */
static bool ends_path(unsigned char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\'' || c == '"' ||
           strchr(";&|<>()`", c) != NULL;
}

static size_t digits(const unsigned char *s, size_t i, size_t n)
{
    size_t j = i;
    while (j < n && is_digit(s[j]))
        j++;
    return j - i;
}

/* s[i..] holds exactly k digits: the index after them, or 0. */
static size_t exact_digits(const unsigned char *s, size_t i, size_t n, size_t k)
{
    return digits(s, i, n) == k ? i + k : 0;
}

/* A UUID at i (36 bytes, not followed by a word byte): its end, or 0. */
static size_t uuid_at(const unsigned char *s, size_t i, size_t n)
{
    static const unsigned char groups[] = {8, 4, 4, 4, 12};
    size_t j = i;
    for (size_t g = 0; g < 5; g++) {
        if (g) {
            if (j >= n || s[j] != '-')
                return 0;
            j++;
        }
        for (size_t k = 0; k < groups[g]; k++, j++)
            if (j >= n || !is_hex(s[j]))
                return 0;
    }
    return j < n && (is_word(s[j]) || s[j] == '-') ? 0 : j;
}

/* An ISO 8601 date (and time) at i: its end, or 0. */
static size_t time_at(const unsigned char *s, size_t i, size_t n)
{
    size_t j = exact_digits(s, i, n, 4);
    if (!j || j >= n || s[j] != '-' || !(j = exact_digits(s, j + 1, n, 2)) || j >= n ||
        s[j] != '-' || !(j = exact_digits(s, j + 1, n, 2)))
        return 0;
    size_t t, date = j;
    if (j + 1 < n && (s[j] == 'T' || s[j] == ' ') && (t = exact_digits(s, j + 1, n, 2)) &&
        t < n && s[t] == ':' && (t = exact_digits(s, t + 1, n, 2))) {
        j = t;
        if (j < n && s[j] == ':' && (t = exact_digits(s, j + 1, n, 2))) {
            j = t;
            if (j + 1 < n && (s[j] == '.' || s[j] == ',') && is_digit(s[j + 1]))
                j += 1 + digits(s, j + 1, n);
        }
        if (j < n && s[j] == 'Z') {
            j++;
        } else if (j < n && (s[j] == '+' || s[j] == '-') && (t = exact_digits(s, j + 1, n, 2))) {
            size_t u = t < n && s[t] == ':' ? t + 1 : t;
            j = exact_digits(s, u, n, 2) ? u + 2 : t;
        }
    }
    if (j < n && is_word(s[j])) /* a time that runs into a word: the date alone, */
        j = date;                 /* as a key normalised again would read it */
    return j < n && is_word(s[j]) ? 0 : j;
}

/* A temp folder's prefix at i ("/tmp/" …) with something after it: the
 * prefix's length, or 0. */
static size_t temp_prefix(const unsigned char *s, size_t i, size_t n)
{
    static const char *const roots[] = {"/tmp/", "/var/tmp/", "/dev/shm/"};
    for (size_t r = 0; r < sizeof roots / sizeof roots[0]; r++) {
        size_t len = strlen(roots[r]);
        if (n - i > len && memcmp(s + i, roots[r], len) == 0 && !ends_path(s[i + len]))
            return len;
    }
    return 0;
}

/* A word of the line (a maximal run of word bytes, s[i..e)), replaced when
 * it is volatile; returns the index after what was consumed. */
static size_t word(const unsigned char *s, size_t i, size_t n, struct sbx_buf *out)
{
    size_t e = i;
    while (e < n && is_word(s[e]))
        e++;
    size_t j;
    if ((j = uuid_at(s, i, n))) {
        sbx_buf_adds(out, "<uuid>");
        return j;
    }
    if ((j = time_at(s, i, n))) {
        sbx_buf_adds(out, "<time>");
        return j;
    }
    if (e - i == 3 && memcmp(s + i, "tmp", 3) == 0 && e < n && s[e] == '.') {
        size_t r = e + 1;
        while (r < n && is_alnum(s[r]))
            r++;
        if (r - e - 1 >= 6 && (r == n || !is_word(s[r]))) {
            sbx_buf_adds(out, "tmp.<rand>");
            return r;
        }
    }
    if (e - i >= 11 && memcmp(s + i, "tmp", 3) == 0) {
        bool lower = true;
        for (size_t k = i + 3; k < e && lower; k++)
            lower = (s[k] >= 'a' && s[k] <= 'z') || is_digit(s[k]) || s[k] == '_';
        if (lower) {
            sbx_buf_adds(out, "tmp<rand>");
            return e;
        }
    }
    size_t ndig = 0, nhexletter = 0;
    for (size_t k = i; k < e; k++) {
        if (is_digit(s[k]))
            ndig++;
        else if (is_hex(s[k]))
            nhexletter++;
    }
    if (ndig == e - i && ndig >= 5) {
        if (e + 1 < n && s[e] == '.' && is_digit(s[e + 1])) {
            size_t f = e + 1 + digits(s, e + 1, n);
            if (f == n || !is_word(s[f]))
                e = f;
        }
        sbx_buf_adds(out, "<n>");
        return e;
    }
    if (ndig + nhexletter == e - i && e - i >= 7 && ndig && nhexletter) {
        sbx_buf_adds(out, "<hex>");
        return e;
    }
    sbx_buf_add(out, s + i, e - i);
    return e;
}

void sbx_cmp_normalize(const char *cmd, size_t n, struct sbx_buf *out)
{
    char label[256];
    size_t llen = sbx_program_label(cmd, n, label, sizeof label);
    sbx_buf_add(out, label, llen);
    sbx_buf_addc(out, '\t');
    sbx_cmp_normalize_text(cmd, n, out);
}

void sbx_cmp_normalize_text(const char *text, size_t n, struct sbx_buf *out)
{
    const unsigned char *s = (const unsigned char *)text;
    size_t start = out->len;
    bool blank = false;
    size_t i = 0;
    while (i < n) {
        unsigned char c = s[i];
        if (c == ' ' || c == '\t') {
            blank = true;
            i++;
            continue;
        }
        if (blank && out->len > start)
            sbx_buf_addc(out, ' ');
        blank = false;
        /* what precedes in the key, not in the input: so that a key
         * normalised again stays the same ("<port>/tmp/x" after "42:38/tmp/x") */
        unsigned char prev = out->len > start ? (unsigned char)out->p[out->len - 1] : ' ';
        size_t len;
        if (c == '/' && !is_word(prev) && !strchr("./-", prev) && (len = temp_prefix(s, i, n))) {
            sbx_buf_add(out, s + i, len);
            sbx_buf_adds(out, "<tmp>");
            i += len;
            while (i < n && !ends_path(s[i]))
                i++;
        } else if (is_word(c) && !is_word(prev)) {
            i = word(s, i, n, out);
        } else if (c == ':' && i && (is_alnum(prev) || prev == ']')) {
            size_t d = digits(s, i + 1, n);
            if (d >= 2 && d <= 5 && (i + 1 + d == n || !is_word(s[i + 1 + d]))) {
                sbx_buf_adds(out, ":<port>");
                i += 1 + d;
            } else {
                sbx_buf_addc(out, ':');
                i++;
            }
        } else {
            sbx_buf_addc(out, (char)c);
            i++;
        }
    }
}
