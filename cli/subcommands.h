/* The sub-commands: the one table main dispatches through and --help lists.
 * Adding one is a file cli/cmd_NAME.c with its run function (declared in
 * cli/cli.h) and a row in cli/subcommands.c; the help lays the row out itself.
 * Arguments that name no sub-command are the review's (sbx_cmd_view).
 * Internal to cli/.
 *
 * Ownership: the table and its strings are static. */
#ifndef SBX_SUBCOMMANDS_H
#define SBX_SUBCOMMANDS_H

#include <getopt.h>
#include <stddef.h>

/* A command's options, as getopt_long takes them: shorts is its optstring,
 * longs its table (ending in a zero row). The one list of what a command
 * accepts: --help, sbxview.1 and the shell completions are checked against
 * it (tests/unit/test_cli_docs.c), so a new option is a row in longs plus
 * the lines those tests ask for. */
struct sbx_cli_opts {
    const char *shorts;
    const struct option *longs;
};

struct sbx_subcommand {
    const char *name;  /* the first argument that picks it */
    const char *args;  /* what follows the name in the help's synopsis */
    const char *usage; /* the one-line summary the help lists beside it */
    /* argv[0] is the name; returns the exit status */
    int (*run)(int argc, char **argv);
    const struct sbx_cli_opts *opts; /* what it accepts */
    /* its exit statuses, "CODE what, CODE what, ...": the help's list,
     * and what sbxview.1's EXIT STATUS is checked against */
    const char *exits;
};

/* The review's (no sub-command: cli/cmd_view.c). */
extern const struct sbx_cli_opts sbx_view_opts;
extern const char sbx_view_exits[];

/* In the order the help lists them. */
extern const struct sbx_subcommand sbx_subcommands[];
extern const size_t sbx_nsubcommands;

/* The row called name, or NULL. */
const struct sbx_subcommand *sbx_subcommand_find(const char *name);

#endif
