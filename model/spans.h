/* OpenTelemetry spans as trees.
 *
 * The OTLP importer (importers/formats/otlp.c) turns each span into one event (an
 * execute_tool span a command, an invoke_agent span a span event, any other
 * a note) whose line_off/line_len are the span's own JSON object. The spans
 * of one trace arrive on many lines in any order, so the tree is built after
 * loading, here, from the ids re-read out of each event's JSON: parent and
 * children by (traceId, spanId, parentSpanId). A span whose parent was not
 * loaded is a root marked orphan; a loop of parents is cut (the span where
 * it closes becomes a root marked as such); of two spans with the same ids
 * the first in the timeline gets the children.
 *
 * Ownership: sbx_spans owns its arrays (free with sbx_spans_free); event
 * pointers belong to the timeline, which must outlive it. Results of the
 * JSON helpers point into the caller's bytes. */
#ifndef SBX_SPANS_H
#define SBX_SPANS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/jsonwalk.h"
#include "model/timeline.h"

/* The OTLP importer's format name: its sources' format. */
#define SBX_OTLP_FORMAT "otlp"

#define SBX_SPAN_NONE UINT32_MAX

enum sbx_span_flags {
    SBX_SPAN_ORPHAN = 1u << 0,    /* names a parent that was not loaded */
    SBX_SPAN_CYCLE = 1u << 1,     /* its parent chain looped back to it: cut here */
    SBX_SPAN_DUPLICATE = 1u << 2, /* another span came first with the same ids */
    SBX_SPAN_NO_IDS = 1u << 3,    /* its JSON held no readable ids */
};

struct sbx_span_node {
    const struct sbx_event *event;
    uint32_t parent;       /* node index, or SBX_SPAN_NONE for a root */
    uint32_t first_child;  /* children in timeline order */
    uint32_t next_sibling;
    uint32_t depth;        /* 0 for a root */
    uint32_t flags;        /* enum sbx_span_flags */
    uint32_t descendants;  /* spans beneath it, at any depth */
};

struct sbx_spans {
    struct sbx_span_node *nodes; /* every span event, in timeline order */
    size_t n;
    uint32_t *roots;             /* node indexes, in timeline order */
    size_t nroots;
    size_t traces;               /* distinct trace ids */
    size_t orphans, cycles;
};

/* Whether e came from an OTLP source. */
bool sbx_span_event(const struct sbx_timeline *tl, const struct sbx_event *e);

/* Builds the trees of every OTLP span event of a finished timeline. */
void sbx_spans_build(const struct sbx_timeline *tl, struct sbx_spans *out);
void sbx_spans_free(struct sbx_spans *s);

/* The index of e's node, or SBX_SPAN_NONE. O(log n). */
uint32_t sbx_spans_find(const struct sbx_spans *s, const struct sbx_event *e);
/* Pre-order walk of the subtree under top (top itself not included): the
 * node after cur (start with cur = top), or SBX_SPAN_NONE at the end. */
uint32_t sbx_spans_next_in(const struct sbx_spans *s, uint32_t top, uint32_t cur);
/* The nearest ancestor that is an agent (an event of kind span), or
 * SBX_SPAN_NONE. */
uint32_t sbx_spans_agent_of(const struct sbx_spans *s, uint32_t node);

/* The ids of the span object json[0..len). False when traceId or spanId is
 * missing or not hex of the right length (32 and 16 digits); a missing or
 * empty parentSpanId is a root (has_parent false). */
struct sbx_span_ids {
    uint64_t trace_hi, trace_lo, span, parent;
    bool has_parent;
};
bool sbx_span_ids_parse(const char *json, size_t len, struct sbx_span_ids *ids);

/* One OTLP attribute: {"key": …, "value": {"<kind>Value": …}}. */
struct sbx_span_attr {
    const char *key;        /* the key's body, still escaped */
    size_t key_len;
    const char *kind;       /* "string", "int", "bool", "double", "array", "kvlist",
                               "bytes", or "empty" (static) */
    const char *val, *val_end; /* the value's JSON text (a string with its quotes) */
};

/* Walks the "attributes" list of the object at json[0..len) (a span, a
 * resource): begin, then next until false. Entries that are not of that
 * shape are passed over. */
void sbx_span_attrs_begin(struct sbx_jwk *it, const char *json, size_t len);
bool sbx_span_attrs_next(struct sbx_jwk *it, struct sbx_span_attr *a);

/* The "resource" object of the resourceSpans entry that holds the span whose
 * JSON starts at byte span_off of data[0..size) (the span's line is read
 * from its start): true with its text in [*res, *res_end). */
bool sbx_span_resource(const char *data, size_t size, uint64_t span_off, const char **res,
                       const char **res_end);

#endif
