/* Strict UTF-8 decoding, shared by everything that looks at characters.
 * Strict as jansson and RFC 3629 are: no overlongs, no surrogates, nothing
 * above U+10FFFF, no sequence cut short. Owns nothing. */
#ifndef SBX_UTF8_H
#define SBX_UTF8_H

#include <stddef.h>
#include <stdint.h>

/* The length (1-4) of the valid sequence at s[0..n), n > 0, with its code
 * point in *cp; 0 when the bytes there are not valid UTF-8. */
size_t sbx_utf8_decode(const unsigned char *s, size_t n, uint32_t *cp);

#endif
