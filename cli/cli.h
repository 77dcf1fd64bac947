/* The command line: each sub-command's run function (one file each,
 * cli/cmd_*.c, listed in cli/subcommands.c), the exit statuses and the
 * help. Internal to cli/. */
#ifndef SBX_CLI_H
#define SBX_CLI_H

#include <stdio.h>

enum { SBX_EXIT_OK = 0, SBX_EXIT_FINDINGS = 1, SBX_EXIT_USAGE = 2 };

/* Each takes its arguments with argv[0] its own name (the review: the
 * program's) and returns the exit status. */
int sbx_cmd_view(int argc, char **argv);
int sbx_cmd_summary(int argc, char **argv);
int sbx_cmd_check(int argc, char **argv);
int sbx_cmd_compare(int argc, char **argv);
int sbx_cmd_fetch(int argc, char **argv);
int sbx_cmd_export(int argc, char **argv);
int sbx_cmd_runs(int argc, char **argv);
int sbx_cmd_review(int argc, char **argv);
int sbx_cmd_index(int argc, char **argv);

/* Each command's options (cli/subcommands.h), beside its run function. */
struct sbx_cli_opts;
extern const struct sbx_cli_opts sbx_summary_opts, sbx_check_opts, sbx_compare_opts,
    sbx_fetch_opts, sbx_export_opts, sbx_review_opts, sbx_runs_opts, sbx_index_opts;

/* The finding kinds of sbxview check, a line each, for --help. */
void sbx_check_kinds(FILE *to);
/* The whole help (cli/usage.c). */
void sbx_usage(FILE *to);

#endif
