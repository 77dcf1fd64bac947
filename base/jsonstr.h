/* Decoding JSON string bodies that an importer has already validated.
 *
 * Importers keep text fields as they are in the file (the body between the
 * quotes, still escaped) so that loading copies nothing; whoever reads a
 * field decodes it here. The input must be a valid body (the scanner checked
 * it): on anything else the output is unspecified but stays within bounds. */
#ifndef SBX_JSONSTR_H
#define SBX_JSONSTR_H

#include <stddef.h>

/* Decodes body[0..len) into dst, which must hold at least len bytes (a
 * decoded body is never longer than its escaped form). Returns the decoded
 * length. dst may not overlap body. */
size_t sbx_jstr_decode(const char *body, size_t len, char *dst);

#endif
