/* sbxview --help: the Usage list laid out from the sub-command table
 * (cli/subcommands.h), then the options of each. sbx_usage is in cli/cli.h.
 * Internal to cli/. */
#ifndef SBX_USAGE_H
#define SBX_USAGE_H

#include <stdio.h>

/* The column where a synopsis's summary starts, and the widest line. */
enum { SBX_USAGE_SUMMARY_COL = 43, SBX_USAGE_WIDTH = 79 };

/* One entry of the Usage list: "  sbxview NAME ARGS" (name NULL: the review,
 * without one), wrapped under its first argument, and usage from column
 * SBX_USAGE_SUMMARY_COL: beside a synopsis of one line that leaves room,
 * else below it.
 * Words are split at spaces, but not inside [ ]. */
void sbx_usage_entry(FILE *to, const char *name, const char *args, const char *usage);

#endif
