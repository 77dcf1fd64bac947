/* Typographic characters in ASCII, for messages shown under a locale that
 * is not UTF-8: × → … – — ‘ ’ “ ” and their kind become x -> ... - -- ' "
 * (the table is in asciifold.c). Every other byte is copied as it is, so a
 * sanitiser in ASCII mode still shows what is left as an escape.
 *
 * Safe from any thread. Ownership: appended to the caller's sbx_buf. */
#ifndef SBX_ASCIIFOLD_H
#define SBX_ASCIIFOLD_H

#include <stddef.h>

#include "base/buf.h"

void sbx_ascii_fold(struct sbx_buf *out, const char *s, size_t n);

#endif
