/* Naming a format on the command line: --as FORMAT and FORMAT:path.
 *
 * The names are the formats' own (sbx_format->name), taken from
 * sbx_formats[], so a format added there can be named at once; "auto" means
 * "detect from the content". Ownership: the formats returned are static;
 * a path returned points into the caller's argument; messages are written
 * into the caller's buffer. Thread-safe. */
#ifndef SBX_FORMATARG_H
#define SBX_FORMATARG_H

#include <stdbool.h>
#include <stddef.h>

#include "importers/format.h"
#include "base/buf.h"

/* The format called name[0..len), exactly, or NULL. */
const struct sbx_format *sbx_format_named(const char *name, size_t len);

/* Every format's name, ", "-separated, appended to out. */
void sbx_format_names(struct sbx_buf *out);

/* Parses --as's value: a format's name (*fmt = it) or "auto" (*fmt = NULL).
 * False for anything else, with "unknown format 'x' (known: auto, recorder,
 * …)" in err (the name escaped to ASCII). */
bool sbx_format_arg(const char *name, const struct sbx_format **fmt, char *err, size_t errsz);

/* Splits an input argument. "FORMAT:path" (a known format or "auto" before
 * the first colon, something after it) gives *named = true, *fmt and *path
 * = the part after the colon. Anything else is a path as it is (*named =
 * false, *path = arg): "-", a path that exists (a file called "a:b" wins
 * over the prefix form), one that starts with "/" or ".", or one whose part
 * before the colon could not be a format name. A part that could be a name
 * (letters, digits, '-' and '_') but is none is an error: false with a
 * message in err naming the known formats. */
bool sbx_input_arg(const char *arg, bool *named, const struct sbx_format **fmt, const char **path,
                   char *err, size_t errsz);

#endif
