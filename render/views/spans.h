/* The part of the detail view that an OpenTelemetry span adds (internal to
 * render/, called by sbx_detail_doc): the span's status, ids, service and
 * parent agent, its attributes, and the tree of spans beneath it, one line
 * each with the marks the timeline rows use.
 *
 * Ownership: everything is drawn into the caller's doc. */
#ifndef SBX_VIEW_SPANS_H
#define SBX_VIEW_SPANS_H

#include "render/views/views.h"

/* Adds the span's fields and tree for e, when e came from an OTLP source
 * (nothing otherwise). The tree needs l->sum (the spans are built there). */
void sbx_span_detail(struct sbx_doc *d, struct sbx_rows_look *l, const struct sbx_event *e);

#endif
