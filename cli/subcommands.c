#include "cli/subcommands.h"

#include <string.h>

#include "cli/cli.h"

const struct sbx_subcommand sbx_subcommands[] = {
    {"summary", "[OPTIONS] FILE|FOLDER|- ...", "the one-screen summary of a run", sbx_cmd_summary,
     &sbx_summary_opts, "0 written, 2 a usage error, nothing loaded, or the output not written"},
    {"check",
     "[--format text|json] [--allow KIND,...] [--require record,wrapper] [--allow-list FILE] "
     "[--review FILE] [--ignore-review] [--as FORMAT] FILE|FOLDER ...",
     "every finding, a line each (for CI)", sbx_cmd_check, &sbx_check_opts,
     "0 no finding (or every finding triaged benign or expected), 1 findings or lines not read, "
     "2 could not check (a usage error, nothing loaded, or a source --require names missing)"},
    {"compare", "[OPTIONS] RUN_A RUN_B",
     "what the agent did differently in two runs (files or run folders)", sbx_cmd_compare,
     &sbx_compare_opts, "0 the same, 1 different, 2 could not compare"},
    {"fetch", "runtime [OPTIONS] SANDBOX_ID... -o DIR", "save Runtime's records of sandboxes",
     sbx_cmd_fetch, &sbx_fetch_opts,
     "0 saved, 2 a usage error or nothing saved (the message names the sandbox, record and page)"},
    {"export", "--to TARGET [OPTIONS] FILE|FOLDER ...",
     "the summary, findings and digests as a markdown file or a ticket comment", sbx_cmd_export,
     &sbx_export_opts,
     "0 written, posted, edited, found posted before, or shown (--dry-run), 2 none of those"},
    {"review",
     "show|note|tag|triage|verdict RUN [ID] [TEXT|TAG|STATE] [--reason TEXT] [--review FILE] "
     "[--author NAME] [-f text|markdown|json]",
     "a run's review from scripts: show it, or add a note, tag, triage or verdict", sbx_cmd_review,
     &sbx_review_opts, "0 shown or written, 2 a usage error, nothing read, or nothing written"},
    {"runs", "--from FILE [--dump] [OPTIONS]",
     "the runs list of the runs a file names (folders, logs or s3:// URLs)", sbx_cmd_runs,
     &sbx_runs_opts,
     "0 quit or dumped, 2 a usage error, a list that names no run or a run that cannot be "
     "read, or no terminal, 128+N ended by signal N (the terminal put back first)"},
    {"index", "[-q] [--endpoint URL] FOLDER|s3://BUCKET/PREFIX/",
     "write the missing or stale summary.json manifest of each run of a folder of runs",
     sbx_cmd_index, &sbx_index_opts,
     "0 every manifest written or current, 1 some run's manifest could not be written, "
     "2 a usage error or not a folder of runs"},
};
const size_t sbx_nsubcommands = sizeof sbx_subcommands / sizeof *sbx_subcommands;

const struct sbx_subcommand *sbx_subcommand_find(const char *name)
{
    for (size_t i = 0; i < sbx_nsubcommands; i++)
        if (strcmp(sbx_subcommands[i].name, name) == 0)
            return &sbx_subcommands[i];
    return NULL;
}
