/* What the cross-check's matching and its clock alignment share (only
 * analyses/crosscheck*.c include it). Nothing to free; safe from any thread. */
#ifndef SBX_CROSSCHECK_INTERNAL_H
#define SBX_CROSSCHECK_INTERNAL_H

#include <stdbool.h>

#include "model/event.h"

/* A command from Runtime's record; a command from any other log (the wrapper's side). */
bool sbx_cc_is_record(const struct sbx_event *e);
bool sbx_cc_is_wrapper(const struct sbx_event *e);
/* Exit codes agree: equal, both unknown, or the record is running or unread. */
bool sbx_cc_exits_agree(const struct sbx_event *w, const struct sbx_event *r);

#endif
