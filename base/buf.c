#include "base/buf.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void out_of_memory(size_t n)
{
    fprintf(stderr, "sbxview: out of memory (asked for %zu bytes)\n", n);
    abort();
}

void *sbx_xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        out_of_memory(n);
    return p;
}

void *sbx_xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        out_of_memory(n * size);
    return p;
}

void *sbx_xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q)
        out_of_memory(n);
    return q;
}

char *sbx_xstrndup(const char *s, size_t n)
{
    char *p = sbx_xmalloc(n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

void sbx_buf_reserve(struct sbx_buf *b, size_t extra)
{
    size_t need = b->len + extra + 1;
    if (need < b->len) /* overflow */
        out_of_memory(SIZE_MAX);
    if (need <= b->cap)
        return;
    size_t cap = b->cap ? b->cap : 64;
    while (cap < need)
        cap = cap > SIZE_MAX / 2 ? need : cap * 2;
    b->p = sbx_xrealloc(b->p, cap);
    b->cap = cap;
}

void sbx_buf_add(struct sbx_buf *b, const void *data, size_t n)
{
    sbx_buf_reserve(b, n);
    if (n)
        memcpy(b->p + b->len, data, n);
    b->len += n;
    b->p[b->len] = '\0';
}

void sbx_buf_adds(struct sbx_buf *b, const char *s)
{
    sbx_buf_add(b, s, strlen(s));
}

void sbx_buf_addc(struct sbx_buf *b, char c)
{
    sbx_buf_add(b, &c, 1);
}

void sbx_buf_vaddf(struct sbx_buf *b, const char *fmt, va_list ap)
{
    va_list copy;
    va_copy(copy, ap);
    int n = vsnprintf(NULL, 0, fmt, copy);
    va_end(copy);
    if (n < 0)
        return;
    sbx_buf_reserve(b, (size_t)n);
    vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
    b->len += (size_t)n;
}

void sbx_buf_addf(struct sbx_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sbx_buf_vaddf(b, fmt, ap);
    va_end(ap);
}

void sbx_buf_clear(struct sbx_buf *b)
{
    b->len = 0;
    if (b->p)
        b->p[0] = '\0';
}

void sbx_buf_free(struct sbx_buf *b)
{
    free(b->p);
    b->p = NULL;
    b->len = b->cap = 0;
}
