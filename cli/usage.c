#include "cli/usage.h"

#include <stdbool.h>
#include <string.h>

#include "importers/formatarg.h"
#include "cli/cli.h"
#include "cli/subcommands.h"

/* The length of the word at s: up to a space that is not inside [ ]. */
static size_t word_len(const char *s)
{
    int depth = 0;
    size_t n = 0;
    for (; s[n] && (s[n] != ' ' || depth > 0); n++)
        depth += s[n] == '[' ? 1 : s[n] == ']' && depth > 0 ? -1 : 0;
    return n;
}

static void pad(FILE *to, int *col, int upto)
{
    for (; *col < upto; (*col)++)
        fputc(' ', to);
}

/* The words of text from column *col on, a space before each but the first
 * (when first_bare); a word that would pass the width starts a new line at
 * column indent. Returns whether it did. */
static bool put_words(FILE *to, const char *text, int *col, int indent, bool first_bare)
{
    bool space = !first_bare, wrapped = false;
    while (*text) {
        size_t len = word_len(text);
        if (*col > indent && *col + (space ? 1 : 0) + (int)len > SBX_USAGE_WIDTH) {
            fputc('\n', to);
            *col = 0;
            pad(to, col, indent);
            space = false;
            wrapped = true;
        }
        if (space) {
            fputc(' ', to);
            (*col)++;
        }
        fwrite(text, 1, len, to);
        *col += (int)len;
        text += len;
        while (*text == ' ')
            text++;
        space = true;
    }
    return wrapped;
}

void sbx_usage_entry(FILE *to, const char *name, const char *args, const char *usage)
{
    fputs("  sbxview", to);
    int col = 9;
    if (name)
        put_words(to, name, &col, col, false);
    bool wrapped = put_words(to, args, &col, col + 1, false);
    if (wrapped || col >= SBX_USAGE_SUMMARY_COL) {
        fputc('\n', to);
        col = 0;
    }
    pad(to, &col, SBX_USAGE_SUMMARY_COL);
    put_words(to, usage, &col, SBX_USAGE_SUMMARY_COL, true);
    fputc('\n', to);
}

/* The review's forms (no sub-command), then the table's rows. */
static void usage_list(FILE *to)
{
    sbx_usage_entry(to, NULL, "[OPTIONS] FILE|FOLDER|- ...", "review a run in the terminal");
    sbx_usage_entry(to, NULL, "[OPTIONS] RUNS_FOLDER",
                    "the runs list: a row per run of a folder of run folders");
    for (size_t i = 0; i < sbx_nsubcommands; i++) {
        const struct sbx_subcommand *c = &sbx_subcommands[i];
        sbx_usage_entry(to, c->name, c->args, c->usage);
    }
}

/* One command's exit statuses (the table's words), wrapped under column 20. */
static void exit_entry(FILE *to, const char *name, const char *exits)
{
    int col = fprintf(to, "  sbxview%s%s", name ? " " : "", name ? name : "");
    pad(to, &col, 20);
    put_words(to, exits, &col, 20, true);
    fputc('\n', to);
}

/* A ", "-separated list, from column col on, wrapped at cols columns,
 * later lines indented to column 24. */
static void wrap_list(FILE *to, const char *list, int col, int cols)
{
    while (*list) {
        const char *sep = strstr(list, ", ");
        int len = sep ? (int)(sep - list) + 1 : (int)strlen(list); /* with its comma */
        if (col > 24 && col + 1 + len > cols) {
            fputs("\n                       ", to);
            col = 23;
        }
        fprintf(to, " %.*s", len, list);
        col += 1 + len;
        list += sep ? len + 1 : len;
    }
    fputc('\n', to);
}

void sbx_usage(FILE *to)
{
    fputs("Usage:\n", to);
    usage_list(to);
    fputs("\n"
          "Inputs: a recorder log (agent-run.jsonl, either spelling), a run folder (every\n"
          "file in it whose content sbxview recognises), or - for standard input. Each\n"
          "file's format is detected from its content; a file in a folder that no format\n"
          "reads is listed as not read, with the reason, in the summary and on stderr.\n"
          "s3://BUCKET/PREFIX reads a run from S3 or an S3-compatible store: the one\n"
          "object of that key, or every object under PREFIX/ as a folder, fetched into\n"
          "$XDG_CACHE_HOME/sbxview/s3 (only what changed, by ETag), its files named by\n"
          "their s3:// URLs in every output, not by the cache; summary -o takes an\n"
          "s3:// URL too. Credentials and region as the AWS tools read them (AWS_* and\n"
          "~/.aws); see docs/object-storage.md.\n"
          "\n"
          "Input options (review, summary, check and compare):\n"
          "      --as FORMAT       read the inputs after it as FORMAT, without detection\n"
          "                        (every file of a folder); --as auto detects again\n"
          "  FORMAT:PATH           read this one input as FORMAT (squid:proxy.log,\n"
          "                        recorder:-); a file whose name holds a colon: ./a:b\n"
          "      --allow-list FILE the hosts the run may reach, one a line (# comments,\n"
          "                        *.example.com for a domain and everything under it);\n"
          "                        every other host it reached or tried is a finding (U)\n"
          "      --skew SOURCE=OFFSET  a source's clock minus the wrapper's (runtime=+45s,\n"
          "                        runtime-commands.json=-90s), instead of the one measured\n"          "      --endpoint URL    the S3-compatible store of s3:// inputs and outputs\n"
          "                        (https://, path-style; default AWS_ENDPOINT_URL, else AWS)\n"
          "  FORMAT is one of:",
          to);
    struct sbx_buf names = SBX_BUF_INIT;
    sbx_buf_adds(&names, "auto, ");
    sbx_format_names(&names);
    wrap_list(to, names.p, 19, 80);
    sbx_buf_free(&names);
    fputs("\n"
          "Review options:\n"
          "      --local           times in the local zone (default: UTC)\n"
          "      --theme NAME      colours from NAME.theme (default, light, high-contrast,\n"
          "                        mono, or your own in $XDG_CONFIG_HOME/sbxview/themes)\n"
          "      --no-mouse        leave the mouse to the terminal (selecting text)\n"
          "  -F, --follow          follow the files as they grow (tail -f; F toggles it)\n"
          "  -j, --threads N       threads for loading, analysis and search\n"
          "      --dump            print the screen instead of showing it, then exit\n"
          "      --size COLSxROWS  the screen size for --dump (default 80x24)\n"
          "      --keys KEYS       keys to press before --dump prints: characters, \\n Enter,\n"
          "                        \\e Esc, \\t Tab, \\\\ backslash, <Down> <PgDn> <Home> <End>\n"
          "                        <F1> <C-d> <Alt-/> ..., <Resize:COLSxROWS>\n"
          "      --dump-styles     with --dump, each row's styles on the line after it\n"
          "      --first-screen    with --dump, the screen a big input shows first (from a\n"
          "                        preview of each file's first 2 MiB), without the full load\n"
          "      --goto ID         open on the event with this id (as check and the detail\n"
          "                        show it; & id:PREFIX filters by id)\n"
          "      --review FILE     the review file the keys m a A t T V write to (default:\n"
          "                        sbxview-review.jsonl in the run folder; --dump writes\n"
          "                        only to a FILE given); an s3:// object, and by default\n"
          "                        beside an s3:// run: sent off the keys' path, a refused\n"
          "                        write said and kept (unsent lines at the end: kept in\n"
          "                        $XDG_STATE_HOME/sbxview/reviews/unsent/, sent next time;\n"
          "                        sbxview review show says how many are kept)\n"
          "      --author NAME     who writes them (default: $SBXVIEW_AUTHOR, git's\n"
          "                        user.name <user.email>, the login name)\n"
          "  In the review, ? shows every key; A edits a note in $VISUAL or $EDITOR.\n"
          "  In the review, ? shows every key; A edits a note in $VISUAL or $EDITOR. v on a row and v on another show the events\n"
          "  of that time range (= notes it, + tags it, Esc clears it); Y, w or | then c,\n"
          "  o or d copy the command line, output or detail to the clipboard (OSC 52 when\n"
          "  terminfo has Ms; SBXVIEW_CLIPBOARD=on|off|auto), a file (0600) or $PAGER.\n"
          "\n"
          "Summary options:\n"
          "  -f, --format FORMAT   text (default), markdown, or json (schema 1)\n"
          "      --width N         text: wrap long lines at N columns (default: the\n"
          "                        terminal's width, or 80 when not writing to one)\n"
          "      --story           text: the Story part whole, not cut to fit a screen (the\n"
          "                        markdown and the JSON always give it whole)\n"
          "  -o, --output FILE     write to FILE (whole or not at all) instead of stdout\n"
          "  -j, --threads N       threads for loading and analysis (default: one per CPU)\n"
          "      --max-input SIZE  the most standard input or a FIFO may hold (default 2G;\n"
          "                        K, M, G, T); every command that reads runs takes it\n"
          "  -q, --quiet           no progress or warnings on standard error\n"
          "      --color WHEN      (or --colour) auto, always or never; text format only.\n"
          "                        auto (default): colour on a terminal whose TERM is not\n"
          "                        dumb; NO_COLOR (set, not empty) turns it off, then\n"
          "                        CLICOLOR_FORCE (set, not empty or 0) turns it on even\n"
          "                        into a pipe; never into a file named by -o\n"
          "      --theme NAME      colours from NAME.theme in $XDG_CONFIG_HOME/sbxview/themes\n"
          "                        or the installed themes (default: default); one that\n"
          "                        is missing or bad is an error, coloured or not\n"
          "\n"
          "Review options (sbxview review VERB RUN ...):\n"
          "      --review FILE     the review file (default: sbxview-review.jsonl in the run\n"
          "                        folder, else $XDG_STATE_HOME/sbxview/reviews/DIGEST.jsonl)\n"
          "      --author NAME     who writes (default: $SBXVIEW_AUTHOR, git's user.name\n"
          "                        <user.email>, the login name)\n"
          "      --reason TEXT     why, for triage (benign, expected, suspicious, malicious,\n"
          "                        follow-up) and verdict (clean, benign, suspicious,\n"
          "                        malicious, inconclusive)\n"
          "  -f, --format FORMAT   show: text (default), markdown, or json\n"
          "  summary, check and export take --review FILE too, and carry the review\n"
          "  (check: --ignore-review leaves it out of the gate)\n"
          "\n"
          "Compare options (also -o, -j, -q as for summary, and the input options):\n"
          "  -f, --format FORMAT   text (default: the differences, then the commands\n"
          "                        aligned side by side), markdown, or json (schema 1)\n"
          "  Commands are matched by program and arguments, with temp paths, ports, hashes,\n"
          "  UUIDs, dates and long numbers set aside. Exit 0 the same, 1 different, 2 could\n"
          "  not compare. On a terminal, without -f or -o: the compare view (A and B side\n"
          "  by side from 100 columns, stacked below; ] [ the next and previous difference,\n"
          "  Enter the pair's outputs as a diff, ? every key).\n"
          "\n"
          "Runs list: a folder holding no log of its own whose subfolders hold logs is a\n"
          "folder of runs (each subfolder with a file in it is a run). Its rows (start,\n"
          "duration, sandboxes, commands, failed, refused hosts, outside the wrapper,\n"
          "account changes, secrets, the review's state and verdict) fill in as the runs\n"
          "are read, several at once. < and > pick the sort column, r reverses, & filters\n"
          "(a name, or failed, refused, outside, account, secret, ..., review:done,\n"
          "verdict:malicious; !word: not), Enter opens a run (q comes\n"
          "back), m marks two runs and c compares them.\n"
          "\n"
          "Check: it checks what the sources allow and names on stderr the kinds they\n"
          "cannot tell (the cross-check needs the wrapper's log and Runtime's command\n"
          "record). Exit 0 no finding, 1 findings, 2 could not check (nothing loaded, or\n"
          "--require record|wrapper names a source that is missing). A finding about an\n"
          "event from outside the wrapper's log ends with what was running then (every\n"
          "wrapper command, outermost first, and the one that ended just before); a\n"
          "request or command that reached a host after the allow list was widened is a\n"
          "reached-after line (no finding: the widening is).\n"
          "Check options (also -j, -q as for summary, and the input options):\n"
          "  -f, --format FORMAT   text (default: a line per finding) or json (schema 1)\n"
          "  -a, --allow KIND,...  kinds that do not fail the check (the names below)\n"
          "      --require SOURCE,...  record, wrapper: could not check (exit 2) when one\n"
          "                        is not among the inputs\n"
          "Finding kinds, heaviest first (--allow accepts them):\n",
          to);
    sbx_check_kinds(to);
    fputs("\n"
          "Fetch options (RUNTIME_API_KEY is needed; RUNTIME_API_URL, SBXVIEW_CA_FILE):\n"
          "  -o, --output DIR      the run folder to save into (made if missing)\n"
          "      --force           replace runtime-* files of the same names in DIR\n"
          "      --deadline S      how long one request may keep retrying (default 60)\n"
          "      --timeout S       one request's time limit (default 60)\n"
          "      --connect-timeout S  (default 10)\n"
          "      --metrics-range R 15m, 1h, 6h, 24h, 7d or 30d (default: the finest that\n"
          "                        reaches back to the sandbox's start)\n"
          "  -v, --verbose         libcurl's trace on stderr, the key redacted\n"
          "  -q, --quiet           no progress line and no list of saved files\n"
          "\n"
          "Export options (and the input options above):\n"
          "  -t, --to TARGET       where the summary goes:\n"
          "                        file:PATH.md or a bare PATH (written whole or not at all;\n"
          "                          file:- for standard output)\n"
          "                        github:OWNER/REPO#N  a comment on issue or pull request N\n"
          "                          (GITHUB_TOKEN; GITHUB_API_URL for GitHub Enterprise)\n"
          "                        gitlab:GROUP/PROJECT#N  a note on issue N, subgroups\n"
          "                          allowed (GITLAB_TOKEN; GITLAB_URL)\n"
          "                        jira:KEY-123  a comment (JIRA_URL, JIRA_USER, JIRA_TOKEN)\n"
          "                        slack:  an incoming webhook (SLACK_WEBHOOK_URL)\n"
          "                        SBXVIEW_CA_FILE: a CA bundle to trust instead of the system's\n"
          "      --include-output  add the last 20 lines of each failed command's output\n"
          "      --dry-run         print the request (tokens masked; an unset service URL\n"
          "                        as <JIRA_URL unset>) or the file's text, without\n"
          "                        sending or writing\n"
          "      --jira-api 2|3    Jira's REST API: 3 (default, Atlassian Document Format)\n"
          "                        or 2 (plain text)\n"
          "      --timeout S       one request's time limit (default 30)\n"
          "      --repost          post even when a comment already holds the marker\n"
          "  -j, --threads N       threads for loading and analysis\n"
          "  -q, --quiet           no warnings or notes on standard error\n"
          "  Log text is quoted in code spans and fences, secrets are redacted, lists are\n"
          "  shortened to fit the service's limit (GitHub 65,536 characters, GitLab\n"
          "  1,000,000, Jira 32,767, Slack 40,000), and the body ends with the marker\n"
          "  <!-- sbxview:DIGEST --> (Jira, Slack: a last line sbxview:DIGEST): before\n"
          "  posting, and again after an unclear answer, the ticket's recent comments are\n"
          "  searched for it, so the same run is never posted twice (a Slack webhook\n"
          "  cannot be searched: it is not sent again after an unclear answer). Rate\n"
          "  limits are waited out (up to 2 minutes); redirects are not followed.\n"
          "  Exported again after the review changed, the comment is edited (GitHub,\n"
          "  GitLab: found by the review marker; Jira: by the id the run's review file\n"
          "  kept for this Jira server, edited only while it still holds its marker, else\n"
          "  posted anew); a Slack message says which one it replaces.\n"
          "\n"
          "Other options:\n"
          "  -h, --help            this help\n"
          "  -V, --version         the version\n"
          "\n"
          "Exit status:\n",
          to);
    exit_entry(to, NULL, sbx_view_exits);
    for (size_t i = 0; i < sbx_nsubcommands; i++)
        exit_entry(to, sbx_subcommands[i].name, sbx_subcommands[i].exits);
    fputs("Messages on stderr start with 'sbxview:' or 'sbxview SUB:' (ASCII only under\n"
          "a locale that is not UTF-8); a usage error is one line, then where to look.\n"
          "Lines that cannot be read are reported with file, line and reason, and the\n"
          "rest loads. See sbxview(1).\n",
          to);
}

