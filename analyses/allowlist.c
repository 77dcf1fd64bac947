#include "analyses/allowlist.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"

enum { HOST_MAX = 253, FILE_MAX = 64 << 20 };

struct sbx_allowlist {
    char **exact;   /* sorted */
    size_t nexact;
    char **domains; /* "*.d" stored as "d", sorted */
    size_t ndomains;
};

static int str_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static char lower(char c)
{
    return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

/* host[0..*len) without brackets, port and trailing dots; *len updated.
 * Returns the start. */
static const char *strip(const char *host, size_t *len)
{
    size_t n = *len;
    if (n && host[0] == '[') { /* [v6] or [v6]:port */
        const char *close = memchr(host, ']', n);
        if (close) {
            *len = (size_t)(close - host - 1);
            return host + 1;
        }
    }
    const char *colon = memchr(host, ':', n);
    /* one colon: a port; more: a bare IPv6 address */
    if (colon && !memchr(colon + 1, ':', n - (size_t)(colon - host) - 1))
        n = (size_t)(colon - host);
    while (n && host[n - 1] == '.')
        n--;
    *len = n;
    return host;
}

static bool lookup(char *const *list, size_t n, const char *key)
{
    return n && bsearch(&key, list, n, sizeof *list, str_cmp) != NULL;
}

bool sbx_allowlist_allows(const struct sbx_allowlist *a, const char *host, size_t len)
{
    host = strip(host, &len);
    if (!len || len > HOST_MAX)
        return false;
    char buf[HOST_MAX + 1];
    for (size_t i = 0; i < len; i++)
        buf[i] = lower(host[i]);
    buf[len] = '\0';
    if (lookup(a->exact, a->nexact, buf))
        return true;
    /* the name, then every parent domain: a.b.c, b.c, c */
    for (const char *p = buf; p; p = strchr(p, '.') ? strchr(p, '.') + 1 : NULL)
        if (lookup(a->domains, a->ndomains, p))
            return true;
    return false;
}

static bool port_ok(const char *p, size_t n)
{
    if (!n || n > 5)
        return false;
    for (size_t i = 0; i < n; i++)
        if (p[i] < '0' || p[i] > '9')
            return false;
    return true;
}

/* Checks one entry (trimmed, not empty); its normal form into out. NULL or
 * a reason. */
static const char *entry(const char *s, size_t n, bool *wild, char *out)
{
    if (memchr(s, ' ', n) || memchr(s, '\t', n))
        return "one host a line (this line holds a space)";
    if (n >= 3 && memmem(s, n, "://", 3))
        return "a URL: write only its host";
    if (memchr(s, '/', n))
        return "not a host name (it holds a '/')";
    *wild = n >= 2 && s[0] == '*' && s[1] == '.';
    if (*wild) {
        s += 2;
        n -= 2;
    }
    if (n && s[0] == '[') {
        const char *close = memchr(s, ']', n);
        if (!close)
            return "an IPv6 address without its closing ']'";
        size_t after = n - (size_t)(close - s) - 1;
        if (after && (close[1] != ':' || !port_ok(close + 2, after - 1)))
            return "only a port may follow ']' (as in [2001:db8::1]:443)";
    } else {
        const char *colon = memchr(s, ':', n);
        if (colon && !memchr(colon + 1, ':', n - (size_t)(colon - s) - 1) &&
            !port_ok(colon + 1, n - (size_t)(colon - s) - 1))
            return "a port must be a number";
    }
    size_t len = n;
    const char *h = strip(s, &len);
    if (!len)
        return *wild ? "'*.' needs a domain after it" : "no host name";
    if (len > HOST_MAX)
        return "longer than a host name can be (253 bytes)";
    if (memchr(h, '*', len))
        return "'*' may only stand for the first label, as in *.example.com";
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)h[i];
        if (c < 0x21 || c == 0x7f || strchr("\"'`<>\\,;@?#%", c))
            return "a character no host name holds";
        if (c == '.' && (i == 0 || h[i - 1] == '.'))
            return "an empty label (two dots, or a leading dot)";
        out[i] = lower((char)c);
    }
    out[len] = '\0';
    return NULL;
}

static void add(char ***list, size_t *n, size_t *cap, const char *s)
{
    SBX_GROW(*list, *n, *cap);
    (*list)[(*n)++] = sbx_xstrndup(s, strlen(s));
}

static void dedupe(char **list, size_t *n)
{
    if (!*n)
        return;
    qsort(list, *n, sizeof *list, str_cmp);
    size_t k = 1;
    for (size_t i = 1; i < *n; i++) {
        if (strcmp(list[i], list[k - 1]) == 0)
            free(list[i]);
        else
            list[k++] = list[i];
    }
    *n = k;
}

struct sbx_allowlist *sbx_allowlist_parse(const char *text, size_t len, const char *name,
                                          char *err, size_t errsz)
{
    struct sbx_allowlist *a = sbx_xcalloc(1, sizeof *a);
    size_t capx = 0, capd = 0;
    uint32_t line_no = 0;
    for (const char *p = text, *end = text + len; p < end;) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *stop = nl ? nl : end;
        line_no++;
        const char *hash = memchr(p, '#', (size_t)(stop - p));
        const char *e = hash ? hash : stop;
        while (p < e && (*p == ' ' || *p == '\t' || *p == '\r'))
            p++;
        while (e > p && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
            e--;
        if (e > p) {
            char norm[HOST_MAX + 1];
            bool wild = false;
            const char *why = memchr(p, '\0', (size_t)(e - p)) ? "a NUL byte"
                              : (size_t)(e - p) > 2 * HOST_MAX
                                  ? "longer than a host name can be (253 bytes)"
                                  : entry(p, (size_t)(e - p), &wild, norm);
            if (why) {
                snprintf(err, errsz, "%s:%u: %s", name, line_no, why);
                sbx_allowlist_free(a);
                return NULL;
            }
            if (wild)
                add(&a->domains, &a->ndomains, &capd, norm);
            else
                add(&a->exact, &a->nexact, &capx, norm);
        }
        p = nl ? nl + 1 : end;
    }
    dedupe(a->exact, &a->nexact);
    dedupe(a->domains, &a->ndomains);
    return a;
}

struct sbx_allowlist *sbx_allowlist_load(const char *path, char *err, size_t errsz)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errsz, "%s: %s", path, strerror(errno));
        return NULL;
    }
    struct sbx_buf b = SBX_BUF_INIT;
    char chunk[8192];
    size_t n;
    bool too_big = false;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
        sbx_buf_add(&b, chunk, n);
        if (b.len > FILE_MAX) {
            too_big = true;
            break;
        }
    }
    bool failed = ferror(f);
    int saved = errno;
    fclose(f);
    struct sbx_allowlist *a = NULL;
    if (failed)
        snprintf(err, errsz, "%s: %s", path, strerror(saved));
    else if (too_big)
        snprintf(err, errsz, "%s: too big for an allow list (over 64 MiB)", path);
    else
        a = sbx_allowlist_parse(b.p ? b.p : "", b.len, path, err, errsz);
    sbx_buf_free(&b);
    return a;
}

void sbx_allowlist_free(struct sbx_allowlist *a)
{
    if (!a)
        return;
    for (size_t i = 0; i < a->nexact; i++)
        free(a->exact[i]);
    for (size_t i = 0; i < a->ndomains; i++)
        free(a->domains[i]);
    free(a->exact);
    free(a->domains);
    free(a);
}

size_t sbx_allowlist_size(const struct sbx_allowlist *a)
{
    return a->nexact + a->ndomains;
}
