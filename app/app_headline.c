#include "app/app_headline.h"

#include <stdarg.h>
#include <stdio.h>

#include "render/sanitize.h"

void sbx_headline_part(struct sbx_buf *h, int cols, const char *dot, const char *fmt, ...)
{
    char text[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    size_t before = h->len;
    sbx_buf_adds(h, dot);
    sbx_buf_adds(h, text);
    if (sbx_text_width(h->p, h->len) > cols)
        h->len = before;
}
