/* sbx_buf: a growable byte buffer for building text.
 *
 * Ownership: the buffer owns p; free it with sbx_buf_free(). p is always
 * NUL-terminated after any append (so it can be printed), but may also hold
 * NUL bytes inside: len is the truth. Allocation failure aborts the program
 * (there is nothing sensible a log viewer can do half-way through a line). */
#ifndef SBX_BUF_H
#define SBX_BUF_H

#include <stdarg.h>
#include <stddef.h>

struct sbx_buf {
    char *p;
    size_t len;
    size_t cap;
};

#define SBX_BUF_INIT {NULL, 0, 0}

void sbx_buf_reserve(struct sbx_buf *b, size_t extra);
void sbx_buf_add(struct sbx_buf *b, const void *data, size_t n);
void sbx_buf_adds(struct sbx_buf *b, const char *s);
void sbx_buf_addc(struct sbx_buf *b, char c);
void sbx_buf_addf(struct sbx_buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void sbx_buf_vaddf(struct sbx_buf *b, const char *fmt, va_list ap)
    __attribute__((format(printf, 2, 0)));
void sbx_buf_clear(struct sbx_buf *b); /* len = 0, keeps the memory */
void sbx_buf_free(struct sbx_buf *b);

/* Makes room for one more element in a growable array (ptr, n, cap). */
#define SBX_GROW(ptr, n, cap)                                            \
    do {                                                                 \
        if ((n) == (cap)) {                                              \
            (cap) = (cap) ? (cap) * 2 : 16;                              \
            (ptr) = sbx_xrealloc((ptr), (cap) * sizeof *(ptr));          \
        }                                                                \
    } while (0)

/* Aborting allocators used across the project. */
void *sbx_xmalloc(size_t n);
void *sbx_xcalloc(size_t n, size_t size);
void *sbx_xrealloc(void *p, size_t n);
char *sbx_xstrndup(const char *s, size_t n);

#endif
