/* JSON number tokens, decoded exactly as jansson 2.14's lexer does: integers
 * through strtoll's range (int64), reals through a correctly rounded strtod
 * whose overflow to +-inf is an error and whose underflow is not. */
#include "importers/json/jsonscan.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define IS_DIGIT(c) ((unsigned char)((c) - '0') < 10)

/* Exactly representable powers of ten: one multiplication or division by one
 * of these rounds correctly (Clinger's fast path). */
static const double pow10_exact[23] = {
    1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/* Any double rounding boundary has at most 767 significant decimal digits, so
 * keeping 800 digits plus a sticky non-zero digit for the rest rounds the
 * same as the full text, and bounds strtod's work on absurdly long tokens. */
#define MAX_SIG 800
#define EXP_CLAMP 1000000000000000LL /* far beyond any finite non-zero double */

/* The value ip[0..ni) fp[0..nf) x 10^e, through strtod on a rewritten token
 * with no decimal point (so the locale's decimal point plays no part). */
static double slow_real(const char *ip, size_t ni, const char *fp, size_t nf, long long e)
{
    char buf[MAX_SIG + 48];
    size_t n = 0, total = ni + nf, dropped = 0;
    bool sticky = false;

    for (size_t j = 0; j < total; j++) {
        char c = j < ni ? ip[j] : fp[j - ni];
        if (n == 0 && c == '0')
            continue; /* leading zeros carry no value */
        if (n < MAX_SIG) {
            buf[n++] = c;
        } else {
            dropped++;
            if (c != '0')
                sticky = true;
        }
    }
    if (n == 0)
        return 0.0;
    e = e - (long long)nf + (long long)dropped;
    if (sticky) {
        buf[n++] = '1';
        e--;
    }
    snprintf(buf + n, sizeof buf - n, "e%lld", e);
    return strtod(buf, NULL);
}

const char *sbx_json_number(const char *tok, size_t len, enum sbx_jtype *type, int64_t *i,
                            double *d)
{
    const char *p = tok, *end = tok + len;
    bool neg = false;

    if (p < end && *p == '-') {
        neg = true;
        p++;
    }
    if (p == end || !IS_DIGIT(*p))
        return "invalid number";
    const char *ip = p;
    if (*p == '0') {
        p++;
        if (p < end && IS_DIGIT(*p))
            return "invalid number (leading zero)";
    } else {
        while (p < end && IS_DIGIT(*p))
            p++;
    }
    size_t ni = (size_t)(p - ip);

    if (p == end) {
        /* An integer: exactly strtoll's range. */
        if (ni > 19)
            return "integer out of range";
        uint64_t u = 0;
        for (size_t j = 0; j < ni; j++)
            u = u * 10 + (uint64_t)(ip[j] - '0');
        if (u > (uint64_t)INT64_MAX + (neg ? 1 : 0))
            return "integer out of range";
        *type = SBX_JINT;
        *i = !neg ? (int64_t)u : u == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)u;
        *d = (double)*i;
        return NULL;
    }

    const char *fp = p;
    size_t nf = 0;
    if (*p == '.') {
        p++;
        fp = p;
        while (p < end && IS_DIGIT(*p))
            p++;
        nf = (size_t)(p - fp);
        if (nf == 0)
            return "invalid number";
    }
    long long e = 0;
    if (p < end && (*p == 'e' || *p == 'E')) {
        p++;
        bool eneg = false;
        if (p < end && (*p == '+' || *p == '-'))
            eneg = *p++ == '-';
        if (p == end || !IS_DIGIT(*p))
            return "invalid number";
        while (p < end && IS_DIGIT(*p)) {
            if (e < EXP_CLAMP)
                e = e * 10 + (*p - '0');
            p++;
        }
        if (eneg)
            e = -e;
    }
    if (p != end)
        return "invalid number";

    /* Fast path: at most 19 significant digits that fit in 53 bits, and a
     * small power of ten. */
    size_t nd = ni + nf;
    size_t lead = 0;
    while (lead < nd && (lead < ni ? ip[lead] : fp[lead - ni]) == '0')
        lead++;
    size_t trail = 0;
    while (trail < nd - lead && (nd - 1 - trail < ni ? ip[nd - 1 - trail]
                                                     : fp[nd - 1 - trail - ni]) == '0')
        trail++;
    size_t sig = nd - lead - trail;
    double v;
    if (sig == 0) {
        v = 0.0;
    } else if (sig <= 19) {
        uint64_t w = 0;
        for (size_t j = lead; j < lead + sig; j++)
            w = w * 10 + (uint64_t)((j < ni ? ip[j] : fp[j - ni]) - '0');
        long long e10 = e + (long long)trail - (long long)nf;
        if (w <= (1ULL << 53) && e10 >= -22 && e10 <= 22)
            v = e10 < 0 ? (double)w / pow10_exact[-e10] : (double)w * pow10_exact[e10];
        else
            v = slow_real(ip, ni, fp, nf, e);
    } else {
        v = slow_real(ip, ni, fp, nf, e);
    }
    if (isinf(v))
        return "number out of range";
    *type = SBX_JREAL;
    *i = 0;
    *d = neg ? -v : v;
    return NULL;
}
