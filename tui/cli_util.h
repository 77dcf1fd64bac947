/* Helpers the sub-commands share (internal to tui/). */
#ifndef SBX_CLI_UTIL_H
#define SBX_CLI_UTIL_H

#include <stdbool.h>

#include "importers/load.h"
#include "themes/theme.h"

/* "sbxview: MSG" on stderr, MSG sanitised (it may quote file names). */
void sbx_warn(const char *msg);
/* The theme called name, or the built-in default with a warning when the
 * default theme file is missing or bad; false when a named theme cannot load. */
bool sbx_pick_theme(const char *name, struct sbx_theme *t);
/* The load's errors and the files a folder held that nothing reads, on stderr. */
void sbx_warn_load_report(const struct sbx_load_report *rep);
/* Parses -j's number (1-64); false with a message on stderr. */
bool sbx_parse_threads(const char *s, int *threads);

#endif
