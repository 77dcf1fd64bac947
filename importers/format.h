/* The contract between the loader and one format's importer.
 *
 * The loader finds lines and hands them over; the importer turns one line
 * into events (pushed to out: usually one, several for a line that holds a
 * list, none for one it cannot read) or says why it cannot. A format whose
 * items may span lines (a JSON array or page printed over many lines) also
 * has spans_lines and file: when spans_lines says so, the loader hands the
 * whole file to file() on one thread instead of running its line loop. An importer
 * keeps per-thread state (made by state_new) so that two threads can import
 * halves of one file at once; it never touches the timeline except to intern
 * strings (thread-safe) and to read its source's bytes.
 *
 * What an import needs from outside the file (a secret to check signatures
 * with) comes in struct sbx_import_opts, from the caller: importers read no
 * environment.
 *
 * Ownership: state_new's result is freed by state_free; the import options
 * are borrowed for the state's life; reasons are written into the caller's
 * buffer (ASCII, quoting no input bytes). */
#ifndef SBX_FORMAT_H
#define SBX_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/timeline.h"

enum sbx_line_status { SBX_LINE_OK, SBX_LINE_BLANK, SBX_LINE_BAD };

/* What the caller gives every import (zeroed: nothing). */
struct sbx_import_opts {
    /* Runtime's webhook secrets, comma-separated (two during a rotation):
     * deliveries are checked against them. NULL or "": not checked. */
    const char *webhook_secrets;
    /* The most a stream (standard input, a FIFO) may hold, in bytes; 0:
     * SBX_MAX_INPUT_DEFAULT (importers/readfile.h). Read by the loader. */
    uint64_t max_input;
};

struct sbx_format {
    const char *name;
    /* Whether data (the start of a file, already past any BOM) is this format. */
    bool (*detect)(const char *data, size_t size);
    /* opts is never NULL. */
    void *(*state_new)(struct sbx_timeline *tl, uint32_t source,
                       const struct sbx_import_opts *opts);
    void (*state_free)(void *state);
    /* line excludes its '\n'; off is the line's offset in the source. */
    enum sbx_line_status (*line)(void *state, struct sbx_evbuf *out, const char *line, size_t len,
                                 uint64_t off, uint32_t line_no, char *reason, size_t reasonsz);
    /* Optional, and then used instead of line(): the same for the line that
     * starts at p, whose end (a newline or limit) the importer finds itself
     * and reports in *len: a format that parses as it goes saves the loader
     * a separate search for line ends. */
    enum sbx_line_status (*scan)(void *state, struct sbx_evbuf *out, const char *p,
                                 const char *limit, size_t *len, uint64_t off, uint32_t line_no,
                                 char *reason, size_t reasonsz);
    /* Optional (both or neither): whether data[0..size) (what an import
     * starts with, past any BOM) must be read whole because its first item
     * does not end on its first line. */
    bool (*spans_lines)(const char *data, size_t size);
    /* Then reads all of data[0..size) (at offset off in the source): events
     * to out, each with the line where its item starts (counted from 1 at
     * data: the loader renumbers), and what cannot be read as skips
     * (sbx_evbuf_skip, same numbering) with a reason; the rest loads. */
    void (*file)(void *state, struct sbx_evbuf *out, const char *data, size_t size, uint64_t off);
    /* Its events come from a step over the whole run after loading
     * (manifests paired, a diff's files), not from its lines: following the
     * file as it grows would miss them, so it is not followed. */
    bool derived;
};

extern const struct sbx_format sbx_format_recorder;
/* Runtime's own records (importers/formats/runtime/runtime.h): each kind in every saved shape. */
extern const struct sbx_format sbx_format_runtime_commands, sbx_format_runtime_events,
    sbx_format_runtime_audit, sbx_format_runtime_metrics, sbx_format_runtime_webhooks;
/* Squid's access.log (importers/formats/squid.c), native and Apache combined: one
 * network event per request. Hosts are lower case, without port, user info or
 * an IPv6 address's brackets. */
extern const struct sbx_format sbx_format_squid;
/* sandboxio's audit lines (importers/formats/sandboxio.c): exec, run_code, stream
 * as commands, file_* as files events naming no path, others as notes. */
extern const struct sbx_format sbx_format_sandboxio;
/* OpenTelemetry traces as OTLP/JSON (importers/formats/otlp.c): one event per span. */
extern const struct sbx_format sbx_format_otlp;
/* sha256sum manifests and unified diffs (importers/mdiff.h): no events of their own. */
extern const struct sbx_format sbx_format_manifest;
extern const struct sbx_format sbx_format_diff;

/* Every format, in detection order; NULL-terminated. */
extern const struct sbx_format *const sbx_formats[];

/* The format whose detect() accepts data, or NULL. */
const struct sbx_format *sbx_detect_format(const char *data, size_t size);

#endif
