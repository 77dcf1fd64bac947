/* What an account audit entry changed and who made it, in words, from the
 * facts the importer kept (model/event.h's struct sbx_audit; the rules are
 * in docs/formats/runtime.md):
 *   network  "allow list: + a, + b, - c"; "upstream proxy set to P" or
 *            "upstream proxy unset"
 *   key      "key created: ID (role R)", "key revoked: ID"
 *   secret   "secret set: NAME", "secret deleted: NAME" (never a value)
 *   preview  "preview visibility: from A to B"
 *   other    "ACTION: k=v, k=v" (bounded by the importer, "and N more")
 * and who: "from inside sandbox S by ACTOR (PERSON) from IP, request R".
 *
 * The words hold log text: they are appended unsanitised and unredacted to
 * the caller's sbx_buf, and every output passes them through
 * render/untrusted.h. Safe from any thread; keeps nothing. */
#ifndef SBX_AUDIT_CHANGE_H
#define SBX_AUDIT_CHANGE_H

#include <stdbool.h>
#include <stddef.h>

#include "base/buf.h"
#include "model/timeline.h"

/* What the entry e (kind audit) changed, appended to out; the words of an
 * action of no known family (SBX_AUDIT_OTHER) begin with the action. */
void sbx_audit_change_words(const struct sbx_timeline *tl, const struct sbx_event *e,
                            struct sbx_buf *out);
/* Who made it and from where, appended to out ("" when the entry says none of it). */
void sbx_audit_who_words(const struct sbx_timeline *tl, const struct sbx_event *e,
                         struct sbx_buf *out);
/* Both, as the summaries and check write them: "CHANGE, WHO". */
void sbx_audit_words(const struct sbx_timeline *tl, const struct sbx_event *e, struct sbx_buf *out);
/* Whether e adds host (lower case, no port) to the allow list. */
bool sbx_audit_adds_host(const struct sbx_timeline *tl, const struct sbx_event *e,
                         const char *host, size_t n);

#endif
