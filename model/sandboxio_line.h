/* sandboxio's audit lines read again for the views (the importer is
 * importers/formats/sandboxio.c): what a line holds beyond its event.
 *
 * An event keeps what every source has (times, sandbox, argv, exit,
 * duration, denials); the rest of a sandboxio line (backend, isolation,
 * tenant, session, bytes, the code's hash, fields sbxview does not know)
 * is listed from the line when the detail asks for it. The line was
 * validated when it was imported; these walks still stay inside it.
 *
 * Ownership: the callback's strings point into the line or into a buffer
 * valid only during the call (copy them to keep them). No state: safe from
 * any thread. */
#ifndef SBX_SANDBOXIO_LINE_H
#define SBX_SANDBOXIO_LINE_H

#include <stdbool.h>
#include <stddef.h>

/* sha256 of the empty string: sandboxio's code_sha256 when no code was sent. */
#define SBX_SANDBOXIO_EMPTY_SHA256 "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

/* One field of a line, its key decoded. A string's value is decoded (string
 * is true); any other value is its JSON text (numbers, null, true, arrays,
 * objects). */
typedef void (*sbx_sandboxio_field_fn)(void *ctx, const char *key, size_t klen, const char *val,
                                       size_t vlen, bool string);

/* Calls fn, in the line's order, for each field the event does not keep:
 * backend, isolation, tenant_id, session_id, bytes_in, bytes_out,
 * code_sha256 and any key sandboxio's format does not name (ts, event,
 * sandbox_id, argv, exit_code, duration_ms, network_denials and code are
 * left out: the event or the detail show them). Returns false, calling
 * nothing, when line[0..len) is not a JSON object. */
bool sbx_sandboxio_extras(const char *line, size_t len, sbx_sandboxio_field_fn fn, void *ctx);

/* The line's "code" (the code sent, when sandboxio captured it), decoded,
 * through fn (key "code"); false when there is none. */
bool sbx_sandboxio_code(const char *line, size_t len, sbx_sandboxio_field_fn fn, void *ctx);

#endif
