/* app_headline: a view's header line, made of parts that are shown whole or
 * not at all. Internal to app/. The line is the caller's buffer. */
#ifndef SBX_APP_HEADLINE_H
#define SBX_APP_HEADLINE_H

#include "base/buf.h"

/* Adds dot and the formatted part (at most 199 bytes of it) to h when the
 * line is then at most cols wide; otherwise leaves h as it was. */
void sbx_headline_part(struct sbx_buf *h, int cols, const char *dot, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#endif
