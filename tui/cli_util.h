/* Helpers the sub-commands share (internal to tui/). */
#ifndef SBX_CLI_UTIL_H
#define SBX_CLI_UTIL_H

#include <stdbool.h>

#include "importers/format.h"
#include "importers/load.h"
#include "model/allowlist.h"
#include "themes/theme.h"

/* "sbxview: MSG" on stderr, MSG sanitised (it may quote file names). */
void sbx_warn(const char *msg);
/* The theme called name, or the built-in default with a warning when the
 * default theme file is missing or bad; false when a named theme cannot load. */
bool sbx_pick_theme(const char *name, struct sbx_theme *t);
/* The load's errors and the files a folder held that nothing reads (a line
 * each, with the reason), on stderr. */
void sbx_warn_load_report(const struct sbx_load_report *rep);

/* The inputs of a command line in order, each with the format it is read as
 * (NULL: detected): --as FORMAT sets it for the inputs after it (--as auto
 * goes back to detecting), FORMAT:path for one input. The arrays point into
 * argv; free them with sbx_inputs_free. */
struct sbx_inputs {
    const char **paths;
    const struct sbx_format **formats;
    size_t n, cap;
    const struct sbx_format *as;
    const char *last_as; /* the last --as value, until an input follows it */
};
/* --as's value; false with a message on stderr (the known names). */
bool sbx_inputs_as(struct sbx_inputs *in, const char *name);
/* One input argument; false with a message on stderr. */
bool sbx_inputs_add(struct sbx_inputs *in, const char *arg);
/* After the last argument: false with a message on stderr when an --as
 * has no input after it (it would apply to nothing). */
bool sbx_inputs_done(const struct sbx_inputs *in);
void sbx_inputs_free(struct sbx_inputs *in);

/* --allow-list FILE: the list, replacing *list (freed); false with the
 * file, line and reason on stderr. */
bool sbx_load_allow_list(const char *path, struct sbx_allowlist **list);
/* Parses -j's number (1-64); false with a message on stderr. */
bool sbx_parse_threads(const char *s, int *threads);

#endif
