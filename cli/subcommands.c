#include "cli/subcommands.h"

#include <string.h>

#include "cli/cli.h"

const struct sbx_subcommand sbx_subcommands[] = {
    {"summary", "[OPTIONS] FILE|FOLDER|- ...", "the one-screen summary of a run", sbx_cmd_summary},
    {"check",
     "[--format text|json] [--allow KIND,...] [--require record,wrapper] [--allow-list FILE] "
     "[--as FORMAT] FILE|FOLDER ...",
     "every finding, a line each (for CI)", sbx_cmd_check},
    {"compare", "[OPTIONS] RUN_A RUN_B",
     "what the agent did differently in two runs (files or run folders)", sbx_cmd_compare},
    {"fetch", "runtime [OPTIONS] SANDBOX_ID... -o DIR", "save Runtime's records of sandboxes",
     sbx_cmd_fetch},
    {"export", "--to TARGET [OPTIONS] FILE|FOLDER ...",
     "the summary, findings and digests as a markdown file or a ticket comment", sbx_cmd_export},
    {"runs", "--from FILE [--dump] [OPTIONS]",
     "the runs list of the runs a file names (folders, logs or s3:// URLs)", sbx_cmd_runs},
};
const size_t sbx_nsubcommands = sizeof sbx_subcommands / sizeof *sbx_subcommands;

const struct sbx_subcommand *sbx_subcommand_find(const char *name)
{
    for (size_t i = 0; i < sbx_nsubcommands; i++)
        if (strcmp(sbx_subcommands[i].name, name) == 0)
            return &sbx_subcommands[i];
    return NULL;
}
