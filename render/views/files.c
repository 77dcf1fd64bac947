/* The files view: the tree's rows, and one file's changes and diff. */
#include <stdio.h>
#include <string.h>

#include "analyses/summary.h"
#include "analyses/writers.h"
#include "model/diffs.h"
#include "render/summary/summary_common.h"
#include "render/views/views.h"
#include "render/untrusted.h"

/* A part of a path, redacted as if after "://": splitting at '/' cut the
 * "user:password@host" of a URL from the scheme that marks it, and a
 * credential never shows because a path held it. */
static int part_name(struct sbx_grid *g, int row, int col, int end, enum sbx_style style, const char *name)
{
    struct sbx_buf url = SBX_BUF_INIT, red = SBX_BUF_INIT;
    sbx_buf_adds(&url, "x://");
    sbx_buf_adds(&url, name);
    size_t len;
    const char *r = sbx_untrusted_redact(&red, url.p, url.len, &len);
    col = sbx_grid_untrusted(g, row, col, end, style, r + 4, len - 4);
    sbx_buf_free(&url);
    sbx_buf_free(&red);
    return col;
}

static const char change_mark[SBX_CHANGE_COUNT] = {'A', 'C', 'R'};
static const char *const change_word[SBX_CHANGE_COUNT] = {"added", "changed", "removed"};

static enum sbx_style change_style(int change)
{
    return change == SBX_ADDED     ? SBX_STYLE_DIFF_ADD
           : change == SBX_REMOVED ? SBX_STYLE_DIFF_DEL
                                   : SBX_STYLE_WARNING;
}

/* "2 added, 1 changed" into out. */
static void counts(const uint32_t *below, struct sbx_buf *out)
{
    const char *sep = "";
    for (int c = 0; c < SBX_CHANGE_COUNT; c++)
        if (below[c]) {
            sbx_buf_addf(out, "%s%u %s", sep, below[c], change_word[c]);
            sep = ", ";
        }
}

void sbx_draw_file_row(struct sbx_grid *g, int row, const struct sbx_filetree *t, size_t node,
                       bool folded, bool selected)
{
    const struct sbx_ftnode *n = &t->nodes[node];
    enum sbx_style base = selected ? SBX_STYLE_CURSOR : SBX_STYLE_NORMAL;
    bool any = n->changed || n->below[SBX_ADDED] || n->below[SBX_CHANGED] || n->below[SBX_REMOVED];
    enum sbx_style name_style = selected ? base : n->system && any ? SBX_STYLE_SYSTEM
                                           : n->depth == 0 ? SBX_STYLE_LABEL
                                                           : SBX_STYLE_NORMAL;
    sbx_grid_fill(g, row, 0, g->cols, base);
    int indent = (int)(n->depth > 40 ? 80 : n->depth * 2);
    if (indent > g->cols / 3)
        indent = g->cols / 3;
    int col = 1 + indent;
    bool dir = sbx_ftnode_is_dir(t, node);
    if (dir) {
        const char *glyph = g->ascii ? (folded ? "+" : "-") : folded ? "\xe2\x96\xb8" : "\xe2\x96\xbe";
        sbx_grid_text(g, row, col, g->cols, selected ? base : SBX_STYLE_KIND, glyph, strlen(glyph));
    }
    col += 2;
    if (n->changed)
        sbx_grid_textf(g, row, col, g->cols, selected ? base : n->system ? SBX_STYLE_SYSTEM
                                                                         : change_style(n->state),
                       "%c", change_mark[n->state]);
    col += 2;

    struct sbx_buf suffix = SBX_BUF_INIT;
    if (n->depth == 0 && n->system)
        sbx_buf_adds(&suffix, "system folder: ");
    if (dir && (folded || n->depth == 0))
        counts(n->below, &suffix);
    else if (n->depth == 0 && !any)
        sbx_buf_adds(&suffix, "checked, nothing changed");
    if (n->changed && n->nchanges > 1)
        sbx_buf_addf(&suffix, "%s%u records", suffix.len ? "; " : "", n->nchanges);
    int sw = suffix.len ? (int)suffix.len + 2 : 0;
    int end = g->cols - sw > col + 8 ? g->cols - sw : g->cols;
    if (n->depth == 0 && !n->name[0])
        col = sbx_grid_text(g, row, col, end, name_style, "workspace", 9);
    else
        col = part_name(g, row, col, end, name_style, n->name);
    if (dir && n->depth > 0 && col < end)
        col = sbx_grid_text(g, row, col, end, name_style, "/", 1);
    if (suffix.len && end < g->cols)
        sbx_grid_text(g, row, col + 2, g->cols, selected ? base : SBX_STYLE_NOTE, suffix.p, suffix.len);
    sbx_buf_free(&suffix);
}

/* ---- one file ---- */

enum { DIFF_LINES_MAX = 5000 };

static void where(struct sbx_doc *d, const struct sbx_timeline *tl, const struct sbx_event *e)
{
    const char *path = sbx_display_path(tl->sources[e->source].path);
    sbx_doc_adds(d, SBX_STYLE_NOTE, " (");
    sbx_doc_untrusted(d, SBX_STYLE_NOTE, path, strlen(path), true);
    sbx_doc_addf(d, SBX_STYLE_NOTE, ":%u)", sbx_ev_line_no(e));
}

static void change_line(struct sbx_doc *d, struct sbx_rows_look *l, const struct sbx_ftchange *c)
{
    const struct sbx_event *e = c->event;
    char clock[16];
    sbx_doc_set_indent(d, 2);
    sbx_doc_addf(d, SBX_STYLE_TIME, "  %s", sbx_clock(e->start, l->local, clock));
    sbx_doc_addf(d, change_style(c->change), "  %-9s", change_word[c->change]);
    const struct sbx_files *f = e->u.files;
    sbx_doc_adds(d, SBX_STYLE_NORMAL, f && (f->flags & SBX_FILES_MANIFESTS) ? "by the manifests"
                                      : f && (f->flags & SBX_FILES_DIFF)    ? "by a diff"
                                                                            : "by a files record");
    const char *sb = sbx_str(l->tl, e->sandbox);
    if (sb[0]) {
        sbx_doc_adds(d, SBX_STYLE_NORMAL, ", sandbox ");
        sbx_doc_untrusted(d, SBX_STYLE_NORMAL, sb, strlen(sb), true);
    }
    if (e->tflags & SBX_EVT_TIME_INFERRED)
        sbx_doc_adds(d, SBX_STYLE_WARNING, " (no time of its own: placed after the run)");
    where(d, l->tl, e);
    sbx_doc_end_line(d);
}

static void command_line(struct sbx_doc *d, struct sbx_rows_look *l, const struct sbx_event *c,
                         const char *rule)
{
    char clock[16];
    sbx_doc_set_indent(d, 4);
    sbx_doc_addf(d, SBX_STYLE_TIME, "  %s", sbx_clock(c->start, l->local, clock));
    const struct sbx_command *k = &c->u.cmd;
    if (k->flags & SBX_CMD_TIMED_OUT)
        sbx_doc_adds(d, SBX_STYLE_TIMEDOUT, "  T/O ");
    else if (k->flags & SBX_CMD_EXIT_KNOWN)
        sbx_doc_addf(d, sbx_cmd_exit(k) ? SBX_STYLE_FAILED : SBX_STYLE_EXIT_OK, "  %4d", (int)sbx_cmd_exit(k));
    else
        sbx_doc_adds(d, SBX_STYLE_WARNING, "     ?");
    sbx_doc_addf(d, SBX_STYLE_LABEL, "  %s", rule);
    sbx_doc_adds(d, SBX_STYLE_KIND, "  $ ");
    struct sbx_buf tmp = SBX_BUF_INIT;
    size_t n;
    const char *s = k->flags & SBX_CMD_RECORD ? sbx_str(l->tl, k->program)
                                              : sbx_text_get(l->tl, c, &k->command, &tmp, &n);
    if (k->flags & SBX_CMD_RECORD)
        n = strlen(s);
    sbx_doc_untrusted(d, SBX_STYLE_NORMAL, s, n, true); /* it redacts, then wraps */
    sbx_buf_free(&tmp);
    where(d, l->tl, c);
    sbx_doc_end_line(d);
}

/* The commands that name the path as a write target (analyses/written.h),
 * each with the rule that found it; a system file's lines beneath. */
static void written_block(struct sbx_doc *d, struct sbx_rows_look *l, const struct sbx_ftnode *n)
{
    sbx_doc_heading(d, "Written by");
    const struct sbx_written *w = l->sum ? sbx_written_find(&l->sum->written, n->path) : NULL;
    if (!w || !w->nby) {
        sbx_doc_adds(d, SBX_STYLE_NOTE, l->sum ? "No command names this path." : "Not worked out (no summary).");
        sbx_doc_end_line(d);
    }
    for (size_t i = 0; w && i < w->nby; i++)
        command_line(d, l, w->by[i].command, sbx_write_rule_words(w->by[i].rule));
    if (w && w->nlines) {
        sbx_doc_adds(d, SBX_STYLE_NOTE, w->lines_from_diff ? "Lines the diff adds and removes:"
                                                           : "Lines the commands' text writes:");
        sbx_doc_end_line(d);
        sbx_doc_set_indent(d, 4);
        for (size_t i = 0; i < w->nlines; i++) {
            sbx_doc_adds(d, SBX_STYLE_NORMAL, "    ");
            sbx_doc_untrusted(d, w->lines[i][0] == '+' ? SBX_STYLE_DIFF_ADD : SBX_STYLE_DIFF_DEL, w->lines[i],
                              strlen(w->lines[i]), true);
            sbx_doc_end_line(d);
        }
        if (w->more_lines) {
            sbx_doc_addf(d, SBX_STYLE_NOTE, "    and %zu more", w->more_lines);
            sbx_doc_end_line(d);
        }
        sbx_doc_set_indent(d, 0);
    }
}

static enum sbx_style diff_style(enum sbx_diff_kind k)
{
    switch (k) {
    case SBX_DIFF_ADD: return SBX_STYLE_DIFF_ADD;
    case SBX_DIFF_DEL: return SBX_STYLE_DIFF_DEL;
    case SBX_DIFF_HUNK: return SBX_STYLE_DIFF_HUNK;
    case SBX_DIFF_CONTEXT: return SBX_STYLE_NORMAL;
    case SBX_DIFF_HEADER:
    case SBX_DIFF_BINARY:
    case SBX_DIFF_NO_NEWLINE:
    case SBX_DIFF_OTHER: break;
    }
    return SBX_STYLE_NOTE;
}

static void diff_block(struct sbx_doc *d, struct sbx_rows_look *l, const struct sbx_ftnode *n)
{
    const struct sbx_diff_file *f = sbx_diff_find(l->tl, n->path);
    if (!f) {
        sbx_doc_heading(d, "Diff");
        sbx_doc_adds(d, SBX_STYLE_NOTE, l->tl->ndiffs ? "The diff loaded does not name this file."
                                                      : "No diff loaded: open a unified diff with the run "
                                                        "(git diff > changes.patch) to see the content.");
        sbx_doc_end_line(d);
        return;
    }
    char what[160];
    snprintf(what, sizeof what, "Diff: %u hunk%s, +%u -%u%s", f->hunks, f->hunks == 1 ? "" : "s",
             f->added_lines, f->removed_lines, f->binary ? " (binary: no lines to show)" : "");
    sbx_doc_heading(d, what);
    const char *src = sbx_display_path(l->tl->sources[f->source].path);
    sbx_doc_adds(d, SBX_STYLE_NOTE, "from ");
    sbx_doc_untrusted(d, SBX_STYLE_NOTE, src, strlen(src), true);
    sbx_doc_addf(d, SBX_STYLE_NOTE, ":%u", f->line_no);
    sbx_doc_end_line(d);
    if (f->old_path) {
        sbx_doc_adds(d, SBX_STYLE_NOTE, f->renamed ? "renamed from " : "copied from ");
        sbx_doc_untrusted(d, SBX_STYLE_NOTE, f->old_path, strlen(f->old_path), true);
        sbx_doc_end_line(d);
    }
    struct sbx_diff_iter it;
    struct sbx_diff_line line;
    sbx_diff_iter_init(&it, l->tl, f);
    size_t shown = 0, more = 0;
    sbx_doc_set_indent(d, 1);
    while (sbx_diff_next(&it, &line)) {
        if (line.kind == SBX_DIFF_HEADER)
            continue; /* the heading names the file */
        if (shown >= DIFF_LINES_MAX) {
            more++;
            continue;
        }
        sbx_doc_untrusted(d, diff_style(line.kind), line.text, line.len, true);
        sbx_doc_end_line(d);
        shown++;
    }
    if (more) {
        sbx_doc_addf(d, SBX_STYLE_WARNING, "... %zu more lines (the whole diff: ", more);
        sbx_doc_untrusted(d, SBX_STYLE_WARNING, src, strlen(src), true);
        sbx_doc_adds(d, SBX_STYLE_WARNING, ")");
        sbx_doc_end_line(d);
    }
    sbx_doc_set_indent(d, 0);
}

void sbx_file_doc(struct sbx_doc *d, struct sbx_rows_look *l, const struct sbx_filetree *t,
                  size_t node)
{
    const struct sbx_ftnode *n = &t->nodes[node];
    sbx_doc_field(d, "Path");
    sbx_doc_untrusted(d, n->system ? SBX_STYLE_SYSTEM : SBX_STYLE_NORMAL, n->path, strlen(n->path), true);
    sbx_doc_end_line(d);
    sbx_doc_field(d, "Under");
    if (n->root) {
        const char *root = sbx_str(l->tl, n->root);
        sbx_doc_untrusted(d, SBX_STYLE_SYSTEM, root, strlen(root), true);
        sbx_doc_adds(d, SBX_STYLE_SYSTEM, ", a system folder: a change here is a finding");
    } else {
        sbx_doc_adds(d, SBX_STYLE_NORMAL, "the workspace");
    }
    sbx_doc_end_line(d);
    if (!n->changed) {
        sbx_doc_field(d, "State");
        sbx_doc_adds(d, SBX_STYLE_NOTE, "a folder: ");
        struct sbx_buf c = SBX_BUF_INIT;
        counts(n->below, &c);
        sbx_doc_add(d, SBX_STYLE_NOTE, c.p, c.len);
        sbx_doc_adds(d, SBX_STYLE_NOTE, " beneath it");
        sbx_buf_free(&c);
        sbx_doc_end_line(d);
        return;
    }
    sbx_doc_field(d, "State");
    sbx_doc_adds(d, change_style(n->state), change_word[n->state]);
    if (n->nchanges > 1)
        sbx_doc_addf(d, SBX_STYLE_WARNING, " (named by %u records: this is the latest)", n->nchanges);
    sbx_doc_end_line(d);

    diff_block(d, l, n);

    written_block(d, l, n);

    sbx_doc_heading(d, n->nchanges > 1 ? "The records that name it, in time order" : "The record that names it");
    for (uint32_t i = 0; i < n->nchanges; i++)
        change_line(d, l, &t->changes[n->change0 + i]);
}
