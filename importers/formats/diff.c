/* Unified diffs (git diff, diff -u, diff -ruN): read whole (a hunk's lines
 * are only known from its header), checked here; their files become
 * evidence when the whole run is read (importers/mdiff.h), so this importer
 * makes no events, only skips for lines that are not part of a diff. */
#include <stdio.h>
#include <stdlib.h>

#include "importers/format.h"
#include "model/diffs.h"

struct diff_state {
    struct sbx_timeline *tl;
    uint32_t source;
};

static void *state_new(struct sbx_timeline *tl, uint32_t source,
                       const struct sbx_import_opts *opts)
{
    (void)opts; /* this format needs nothing from outside its file */
    struct diff_state *st = sbx_xcalloc(1, sizeof *st);
    st->tl = tl;
    st->source = source;
    return st;
}

static void state_free(void *p)
{
    free(p);
}

static void import_file(void *state, struct sbx_evbuf *out, const char *data, size_t size,
                        uint64_t off)
{
    struct diff_state *st = state;
    (void)off;
    struct sbx_diff_parsed parsed;
    sbx_diff_parse(data, size, &parsed);
    for (size_t i = 0; i < parsed.nproblems; i++)
        sbx_evbuf_skip(out, st->tl, st->source, parsed.problems[i].line_no, "%s",
                       parsed.problems[i].reason);
    sbx_diff_parsed_free(&parsed);
}

/* Never used by the loader (a diff is always read whole): one line read
 * as a diff of one line. */
static enum sbx_line_status import_line(void *state, struct sbx_evbuf *out, const char *line,
                                        size_t len, uint64_t off, uint32_t line_no, char *reason,
                                        size_t reasonsz)
{
    (void)state;
    (void)out;
    (void)off;
    (void)line_no;
    struct sbx_diff_parsed parsed;
    sbx_diff_parse(line, len, &parsed);
    bool bad = parsed.nproblems > 0;
    if (bad)
        snprintf(reason, reasonsz, "%s", parsed.problems[0].reason);
    sbx_diff_parsed_free(&parsed);
    return bad ? SBX_LINE_BAD : SBX_LINE_OK;
}

static bool whole(const char *data, size_t size)
{
    (void)data;
    (void)size;
    return true;
}

const struct sbx_format sbx_format_diff = {
    .name = "diff",
    .detect = sbx_diff_looks_like,
    .state_new = state_new,
    .state_free = state_free,
    .line = import_line,
    .spans_lines = whole,
    .file = import_file,
    .derived = true,
};
