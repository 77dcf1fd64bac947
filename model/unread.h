/* An input file that was not read, and why. The loader's report
 * (importers/load.h) lists them; the summary (analyses/summary.h) keeps a copy
 * so that every format shows them.
 *
 * Ownership: whoever holds the array owns both strings (freed with it). */
#ifndef SBX_UNREAD_H
#define SBX_UNREAD_H

#include <stdbool.h>

struct sbx_unread {
    char *path;
    char *reason;   /* ASCII, quotes no raw input bytes ("empty file", …) */
    bool in_folder; /* found in a run folder (else named on the command line) */
};

#endif
