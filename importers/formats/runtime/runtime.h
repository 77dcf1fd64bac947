/* Runtime's own records of a sandbox (docs/formats/runtime.md), as importers:
 *
 *   runtime-commands  command records  -> command events with SBX_CMD_RECORD
 *   runtime-events    lifecycle events -> lifecycle events; sandbox.files.changed
 *                                         -> a files event; snapshot.*, volume.*
 *                                         and unknown types -> notes
 *   runtime-audit     audit log        -> audit events
 *   runtime-metrics   metrics          -> one metric event per point
 *   runtime-webhooks  deliveries saved with their headers, one per line:
 *                     {"headers": {...}, "body": "<raw body>"} -> the body's
 *                     lifecycle event, flagged SBX_EVT_WEBHOOK and, with a
 *                     secret, SBX_EVT_SIG_OK or SBX_EVT_SIG_BAD (which
 *                     the summary makes the finding SBX_F_BAD_SIGNATURE)
 *
 * Each is told by content, never by name: the first item that can be read
 * (the file's first object, an array's first element, a page's first item)
 * has its kind's keys (startedAt + program; type + createdAt; action + at +
 * seq; points + sandboxId; headers + body; either spelling). An empty audit
 * page ({"events": [], "next": …}) is the audit log too; an empty
 * {"data": [], …} page says nothing and is not recognised.
 *
 * Every saved shape loads the same way: items as JSONL, a JSON array of
 * items, one page ({"data": [...], "nextCursor": …} or {"events": [...],
 * "next": …}), pages one per line, and any of them printed over many lines
 * (read whole, on one thread; JSONL is split across threads). camelCase and
 * snake_case names are both read. An event's raw text is its own item's JSON
 * (a metrics point's for a metric; the whole delivery for a webhook) and its
 * line the line where that item starts. Unknown fields stay in the raw text.
 * An item that cannot be read (not an object, no time, no type or action)
 * is a skip with its line and why; a field of the wrong type is
 * SBX_F_BAD_FIELD and reads as absent.
 *
 * Webhook secrets come from the caller in the import options
 * (importers/format.h; sbxview's command line reads RUNTIME_WEBHOOK_SECRET),
 * parsed when an import starts; they are never printed. The signature rule
 * and its time check are analyses/webhook.h's.
 *
 * Ownership: the formats are static; see importers/format.h. */
#ifndef SBX_RUNTIME_H
#define SBX_RUNTIME_H

#include <stddef.h>

#include "importers/format.h"
#include "analyses/webhook.h"

/* The signature check of one saved delivery (its JSON text, as one line of
 * a runtime-webhooks file holds it), as the importer does it: for a reviewer
 * or `check` that wants to say why a delivery failed. A delivery that is not
 * JSON, has no body or a body that is not a lifecycle event with a time is
 * SBX_SIG_MALFORMED (with secrets; SBX_SIG_UNCHECKED without). */
enum sbx_sig sbx_runtime_delivery_check(const char *json, size_t len,
                                        const struct sbx_webhook_secrets *secrets);

#endif
