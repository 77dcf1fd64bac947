/* The parts of a request, and a request freed, printed and formatted. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/send_internal.h"
#include "base/http.h"

void sbx_send_errf(char *err, size_t errsz, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errsz, fmt, ap);
    va_end(ap);
}

static char *xstr(const char *s) { return sbx_xstrndup(s, strlen(s)); }

char *sbx_send_take(struct sbx_buf *b)
{
    char *p = b->p ? b->p : xstr("");
    *b = (struct sbx_buf)SBX_BUF_INIT;
    return p;
}

bool sbx_send_add_path(struct sbx_buf *u, const char *path, bool one_segment)
{
    if (!path || !*path || path[0] == '/' || path[strlen(path) - 1] == '/' || strstr(path, "//"))
        return false;
    for (const char *p = path; *p;) {
        size_t n = strcspn(p, "/");
        if ((n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.'))
            return false;
        sbx_http_escape(u, p, n);
        p += n;
        if (*p == '/') {
            sbx_buf_adds(u, one_segment ? "%2F" : "/");
            p++;
        }
    }
    return true;
}

static size_t count(char **l)
{
    size_t n = 0;
    while (l && l[n])
        n++;
    return n;
}

void sbx_send_add_header(struct sbx_send_request *r, const char *line, const char *shown)
{
    if (line) {
        size_t nh = count(r->headers);
        r->headers = sbx_xrealloc(r->headers, (nh + 2) * sizeof *r->headers);
        r->headers[nh] = xstr(line);
        r->headers[nh + 1] = NULL;
    }
    size_t ns = count(r->headers_shown);
    r->headers_shown = sbx_xrealloc(r->headers_shown, (ns + 2) * sizeof *r->headers_shown);
    r->headers_shown[ns] = xstr(shown ? shown : line);
    r->headers_shown[ns + 1] = NULL;
}

void sbx_send_add_secret_header(struct sbx_send_request *r, const char *prefix,
                                const char *value)
{
    struct sbx_buf line = SBX_BUF_INIT, shown = SBX_BUF_INIT;
    sbx_buf_addf(&line, "%s%s", prefix, value);
    sbx_buf_addf(&shown, "%s" SBX_SEND_MASK, prefix);
    sbx_send_add_header(r, line.p, shown.p);
    explicit_bzero(line.p, line.cap);
    sbx_buf_free(&line);
    sbx_buf_free(&shown);
}

void sbx_send_add_secret(struct sbx_send_request *r, const char *s)
{
    for (size_t i = 0; i < 3; i++)
        if (!r->secrets[i]) {
            r->secrets[i] = xstr(s);
            return;
        }
}

bool sbx_send_has_control(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7f)
            return true;
    return false;
}

static void free_list(char **l, bool wipe)
{
    for (size_t i = 0; l && l[i]; i++) {
        if (wipe)
            explicit_bzero(l[i], strlen(l[i]));
        free(l[i]);
    }
    free(l);
}

void sbx_send_request_free(struct sbx_send_request *r)
{
    free(r->method);
    if (r->url)
        explicit_bzero(r->url, strlen(r->url));
    free(r->url);
    free(r->url_shown);
    if (r->bearer)
        explicit_bzero(r->bearer, strlen(r->bearer));
    free(r->bearer);
    free_list(r->headers, true);
    free_list(r->headers_shown, false);
    sbx_buf_free(&r->body);
    for (size_t i = 0; i < 3; i++) {
        if (r->secrets[i])
            explicit_bzero(r->secrets[i], strlen(r->secrets[i]));
        free(r->secrets[i]);
    }
    memset(r, 0, sizeof *r);
}

void sbx_send_format(struct sbx_buf *out, const struct sbx_send_request *r)
{
    sbx_buf_addf(out, "%s %s\n", r->method, r->url_shown);
    for (size_t i = 0; r->headers_shown && r->headers_shown[i]; i++)
        sbx_buf_addf(out, "%s\n", r->headers_shown[i]);
    sbx_buf_addc(out, '\n');
    if (r->body.len) {
        sbx_buf_add(out, r->body.p, r->body.len);
        if (r->body.p[r->body.len - 1] != '\n')
            sbx_buf_addc(out, '\n');
    }
}

void sbx_send_print(FILE *f, const struct sbx_send_request *r)
{
    struct sbx_buf b = SBX_BUF_INIT;
    sbx_send_format(&b, r);
    fwrite(b.p, 1, b.len, f);
    sbx_buf_free(&b);
}
