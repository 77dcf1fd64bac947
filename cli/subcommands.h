/* The sub-commands: the one table main dispatches through and --help lists.
 * Adding one is a file cli/cmd_NAME.c with its run function (declared in
 * cli/cli.h) and a row in cli/subcommands.c; the help lays the row out itself.
 * Arguments that name no sub-command are the review's (sbx_cmd_view).
 * Internal to cli/.
 *
 * Ownership: the table and its strings are static. */
#ifndef SBX_SUBCOMMANDS_H
#define SBX_SUBCOMMANDS_H

#include <stddef.h>

struct sbx_subcommand {
    const char *name;  /* the first argument that picks it */
    const char *args;  /* what follows the name in the help's synopsis */
    const char *usage; /* the one-line summary the help lists beside it */
    /* argv[0] is the name; returns the exit status */
    int (*run)(int argc, char **argv);
};

/* In the order the help lists them. */
extern const struct sbx_subcommand sbx_subcommands[];
extern const size_t sbx_nsubcommands;

/* The row called name, or NULL. */
const struct sbx_subcommand *sbx_subcommand_find(const char *name);

#endif
