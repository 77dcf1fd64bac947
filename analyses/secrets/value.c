/* Judging a value: entropy and the placeholder allow-list (see secrets.h). */
#include "analyses/secrets/secrets.h"

#include <string.h>

/* log2 of a positive integer to ~1e-7, without libm: integer part from the
 * highest bit, fraction by repeated squaring. */
static double log2_uint(size_t x)
{
    int k = 0;
    while ((x >> k) > 1)
        k++;
    double y = (double)x / (double)((size_t)1 << k);
    double r = k, bit = 0.5;
    for (int i = 0; i < 24; i++) {
        y *= y;
        if (y >= 2.0) {
            y *= 0.5;
            r += bit;
        }
        bit *= 0.5;
    }
    return r;
}

double sbx_secret_entropy(const char *s, size_t n)
{
    if (n == 0)
        return 0.0;
    size_t count[256] = {0};
    for (size_t i = 0; i < n; i++)
        count[(unsigned char)s[i]]++;
    /* H = log2(n) - (1/n) * sum(c * log2(c)) */
    double sum = 0.0;
    for (int c = 0; c < 256; c++)
        if (count[c] > 1)
            sum += (double)count[c] * log2_uint(count[c]);
    return log2_uint(n) - sum / (double)n;
}

static int lower(int c)
{
    return c >= 'A' && c <= 'Z' ? c + 32 : c;
}

static bool starts_ci(const char *s, size_t n, const char *word)
{
    size_t m = strlen(word);
    if (m > n)
        return false;
    for (size_t i = 0; i < m; i++)
        if (lower((unsigned char)s[i]) != word[i])
            return false;
    return true;
}

static bool equals_ci(const char *s, size_t n, const char *word)
{
    return strlen(word) == n && starts_ci(s, n, word);
}

static const char *const placeholder_words[] = {
    "password", "passwd", "secret", "token", "changeme", "example", "sample",
    "placeholder", "dummy", "fake", "test", "testing", "null", "none", "nil",
    "true", "false", "undefined", "empty", "string", "required", "optional",
    "hidden", "masked", "unset", "default", "value", "foobar", "secrets",
    "tokens", "apikey", "api_key", "bearer", "basic",
};

/* True if v contains one of the placeholder fragments ("***", "xxxx",
 * "${", "{{", "}}", "<", ">", "...", "changeme", "change_me", "change-me",
 * "placeholder", "redact", "your"), case-insensitively, in one pass: the
 * scanner calls this on many candidate values. */
static bool has_placeholder_part(const char *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const char *p = v + i;
        size_t left = n - i;
        switch (lower((unsigned char)*p)) {
        case '<':
        case '>':
            return true;
        case '*':
            if (left >= 3 && p[1] == '*' && p[2] == '*')
                return true;
            break;
        case 'x':
            if (left >= 4 && lower((unsigned char)p[1]) == 'x' && lower((unsigned char)p[2]) == 'x' &&
                lower((unsigned char)p[3]) == 'x')
                return true;
            break;
        case '$':
            if (left >= 2 && p[1] == '{')
                return true;
            break;
        case '{':
        case '}':
            if (left >= 2 && p[1] == p[0])
                return true;
            break;
        case '.':
            if (left >= 3 && p[1] == '.' && p[2] == '.')
                return true;
            break;
        case 'c':
            if (starts_ci(p, left, "changeme") || starts_ci(p, left, "change_me") ||
                starts_ci(p, left, "change-me"))
                return true;
            break;
        case 'p':
            if (starts_ci(p, left, "placeholder"))
                return true;
            break;
        case 'r':
            if (starts_ci(p, left, "redact"))
                return true;
            break;
        case 'y':
            if (starts_ci(p, left, "your"))
                return true;
            break;
        default:
            break;
        }
    }
    return false;
}

bool sbx_secret_is_placeholder(const char *v, size_t n)
{
    if (n == 0)
        return true;
    if (memchr("$<%{[", v[0], 5))
        return true;
    size_t same = 1;
    while (same < n && v[same] == v[0])
        same++;
    if (same == n)
        return true;
    for (size_t i = 0; i < sizeof placeholder_words / sizeof *placeholder_words; i++)
        if (equals_ci(v, n, placeholder_words[i]))
            return true;
    return has_placeholder_part(v, n);
}

double sbx_secret_entropy_floor(size_t len)
{
    if (len < 2)
        return 0.0;
    double f = log2_uint(len) - 0.6;
    return f < 3.5 ? f : 3.5;
}
