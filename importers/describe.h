/* Why no format reads a file (or part of one), in words: what its start
 * looks like, so that a file a run folder holds is never passed over without
 * a reason; and the NUL tail left out of a file that was read.
 *
 * The description is short printable ASCII (at most a line) and never holds
 * raw bytes of the input: what it quotes from the file is redacted
 * (credentials masked, a mask's ellipsis written "..."), then escaped
 * (\xNN, \e, \t, \\, \') and cut. Ownership: written into the caller's
 * buffer; nothing is kept. Thread-safe. */
#ifndef SBX_DESCRIBE_H
#define SBX_DESCRIBE_H

#include <stddef.h>
#include <stdint.h>

#include "model/timeline.h"

/* Enough for any description sbx_describe_unread writes. */
#define SBX_DESCRIBE_BUFSZ 256

/* Describes data[0..size) (a whole file, or its start), which no format
 * recognised: "empty file", "only blank lines", "binary (NUL bytes)" (and
 * the other sbx_sniff_not_text reasons), or "no format matches: first line
 * looks like a JSON object with keys ts, level, msg", "… is text: 'Nov 29
 * 08:38:48 host ...'". A UTF-8 BOM is passed over. out gets at most outsz
 * bytes, NUL included. */
void sbx_describe_unread(const char *data, size_t size, char *out, size_t outsz);

/* Reports the run of nul_bytes NUL bytes cut from the end of source `source`
 * (importers/readfile.h, sbx_nul_tail; the source's bytes end where it
 * began) as a skip on the line where it starts: "N NUL bytes from byte B to
 * the end (what a crash leaves)". The reason goes to
 * the timeline. */
void sbx_skip_nul_tail(struct sbx_timeline *tl, uint32_t source, size_t nul_bytes);

#endif
