/* Text that hides itself: invisible and bidi code points and NUL bytes
 * (docs/hostile-inputs.md, "What reaches the terminal"), in a JSON string body whether written raw
 * or as \u escapes, and the ASCII that Unicode tag characters spell.
 * Owns nothing; no state: safe from any thread. */
#ifndef SBX_HIDDEN_H
#define SBX_HIDDEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"

/* The code points docs/hostile-inputs.md lists as invisible: U+00AD, U+061C,
 * U+115F-1160, U+180E, U+200B-200F, U+2028-202E, U+2060-206F, U+3164, U+FEFF,
 * U+FFA0, U+FFF9-FFFB, tags U+E0000-E007F, and private use. */
bool sbx_cp_invisible(uint32_t c);

/* Whether s[0..n) holds an invisible code point or a NUL (which a terminal
 * shows as nothing: a command's output can hide behind it): raw UTF-8, or
 * with escaped (a JSON string body) also as \uXXXX (surrogate pairs joined). */
bool sbx_text_hides(const char *s, size_t n, bool escaped);

struct sbx_timeline;
struct sbx_event;
struct sbx_text;
/* sbx_text_hides for an event's text field however it is kept: raw,
 * escaped, an argv (whose strings are escaped bodies), an argv inside a
 * string (decoded once into scratch first). */
bool sbx_field_hides(const struct sbx_timeline *tl, const struct sbx_event *e,
                     const struct sbx_text *t, struct sbx_buf *scratch);

/* The text tag characters U+E0020-E007E spell (each stands for the ASCII
 * character 0x20-0x7E), in decoded text s, appended to out; returns how
 * many tag characters there were. */
size_t sbx_tag_text(const char *s, size_t n, struct sbx_buf *out);

#endif
