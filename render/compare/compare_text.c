/* The comparison as plain text for an 80-column terminal: the headline
 * differences first (one screen for a run of a few dozen commands), then
 * every aligned row. Every line is cut to 80 columns. */
#include <stdio.h>
#include <string.h>

#include "base/numfmt.h"
#include "base/timefmt.h"
#include "render/compare/compare_common.h"
#include "render/sanitize.h"
#include "render/skips.h"
#include "render/untrusted.h"

enum { COLS = 80, LIST_MAX = 4, PAIR_COLS = 33, CELL_COLS = 33 };

static const char *const LABEL_PAD = "           "; /* 11: the width of "Only in A: " */

struct text {
    struct sbx_cmpctx *x;
    struct sbx_buf line;
    struct sbx_buf *out;
};

static unsigned san_flags(const struct text *t)
{
    return SBX_SAN_ONE_LINE | (t->x->ascii ? SBX_SAN_ASCII : 0);
}

static void emit(struct text *t)
{
    struct sbx_buf cut = SBX_BUF_INIT;
    /* the line is safe text already: this pass only cuts it */
    sbx_sanitize(&cut, t->line.p ? t->line.p : "", t->line.len, t->x->ascii ? SBX_SAN_ASCII : 0,
                 COLS);
    while (cut.len && cut.p[cut.len - 1] == ' ')
        cut.len--;
    sbx_buf_add(t->out, cut.p ? cut.p : "", cut.len);
    sbx_buf_addc(t->out, '\n');
    sbx_buf_free(&cut);
    sbx_buf_clear(&t->line);
}

static void untrusted(struct text *t, const char *s, size_t n, int cols)
{
    sbx_untrusted_text(&t->line, s, n, san_flags(t), cols);
}

/* A command, sanitised and cut to cols; padded to cols when pad. */
static void command(struct text *t, int side, size_t i, int cols, bool pad)
{
    size_t n;
    const char *s = sbx_cmp_cmdline(t->x, side, i, &n);
    size_t start = t->line.len;
    untrusted(t, s, n, cols);
    int w = sbx_text_width(t->line.p + start, t->line.len - start);
    for (; pad && w < cols; w++)
        sbx_buf_addc(&t->line, ' ');
}

static void label(struct text *t, const char *name, size_t k)
{
    if (k == 0)
        sbx_buf_addf(&t->line, "%-11s", name);
    else
        sbx_buf_adds(&t->line, LABEL_PAD);
}

static void more(struct text *t, size_t shown, size_t total)
{
    if (total > shown) {
        sbx_buf_addf(&t->line, "%s+%zu more in the table below", LABEL_PAD, total - shown);
        emit(t);
    }
}

static const char *arrow(const struct text *t) { return t->x->ascii ? " -> " : " \xE2\x86\x92 "; }

static void run_lines(struct text *t)
{
    const struct sbx_compare *c = t->x->c;
    for (int side = 0; side < 2; side++) {
        const struct sbx_cmp_run *r = t->x->run[side];
        sbx_buf_adds(&t->line, side ? "B:         " : "A:         ");
        untrusted(t, r->name, strlen(r->name), 40);
        size_t failed = 0, n = side ? c->nb : c->na;
        for (size_t i = 0; i < n; i++)
            failed += side ? c->cmd_b[i].failed : c->cmd_a[i].failed;
        sbx_buf_addf(&t->line, ": %zu command%s", n, n == 1 ? "" : "s");
        if (failed)
            sbx_buf_addf(&t->line, ", %zu failed", failed);
        const struct sbx_summary *s = r->sum;
        if (sbx_summary_span_ns(s) >= 0) {
            char d[SBX_NUM_BUFSZ];
            sbx_buf_addf(&t->line, ", %s", sbx_duration_text(sbx_summary_span_ns(s), SBX_DUR_WORDS, d));
        }
        emit(t);
    }
}

/* Each run's skipped lines and unread files, every one, uncut: a broken
 * line may be the one that hid a command. */
static void unread_lines(struct text *t)
{
    for (int side = 0; side < 2; side++) {
        const struct sbx_cmp_run *r = t->x->run[side];
        struct sbx_skips_counts k = sbx_skips_count(r->tl, r->sum);
        if (!k.lines && !k.files)
            continue;
        label(t, side ? "Unread B:" : "Unread A:", 0);
        sbx_buf_addf(&t->line, "%zu line%s skipped, %zu file%s not read", k.lines,
                     k.lines == 1 ? "" : "s", k.files, k.files == 1 ? "" : "s");
        emit(t);
        sbx_skips_text(r->tl, r->sum, LABEL_PAD, LABEL_PAD, t->x->ascii, t->out);
    }
}

static void result_line(struct text *t)
{
    const struct sbx_compare *c = t->x->c;
    static const char *const words[SBX_CMP_KIND_COUNT] = {"same",      "changed",   "replaced",
                                                         "only in A", "only in B", "moved"};
    sbx_buf_adds(&t->line, sbx_compare_same(c) ? "Result:    SAME: " : "Result:    DIFFERENT: ");
    bool any = false;
    for (int k = 0; k < SBX_CMP_KIND_COUNT; k++) {
        if (!c->count[k])
            continue;
        char item[48];
        int len = snprintf(item, sizeof item, "%zu %s", c->count[k], words[k]);
        if (any && t->line.len + 2 + (size_t)len + 1 > COLS) {
            sbx_buf_addc(&t->line, ',');
            emit(t);
            sbx_buf_adds(&t->line, LABEL_PAD);
        } else if (any) {
            sbx_buf_adds(&t->line, ", ");
        }
        sbx_buf_adds(&t->line, item);
        any = true;
    }
    if (!any)
        sbx_buf_adds(&t->line, "no commands in either run");
    emit(t);
}

/* The rows of one kind, a line each (at most LIST_MAX). */
static void rows_of(struct text *t, enum sbx_cmp_kind kind, const char *name)
{
    const struct sbx_compare *c = t->x->c;
    size_t k = 0;
    for (size_t r = 0; r < c->nrows; r++) {
        const struct sbx_cmp_row *row = &c->rows[r];
        if (row->kind != kind || (kind == SBX_CMP_MOVED && row->a == SBX_CMP_NONE))
            continue;
        if (k < LIST_MAX) {
            label(t, name, k);
            switch (kind) {
            case SBX_CMP_REPLACED:
                command(t, 0, row->a, PAIR_COLS, true);
                sbx_buf_adds(&t->line, arrow(t));
                command(t, 1, row->b, PAIR_COLS, false);
                break;
            case SBX_CMP_ONLY_A: command(t, 0, row->a, 0, false); break;
            case SBX_CMP_ONLY_B: command(t, 1, row->b, 0, false); break;
            case SBX_CMP_MOVED:
                sbx_buf_addf(&t->line, "A#%zu%sB#%zu ", row->a + 1, arrow(t),
                             c->rows[row->partner].b + 1);
                command(t, 0, row->a, 0, false);
                break;
            default: {
                command(t, 0, row->a, 36, false);
                sbx_buf_adds(&t->line, ": ");
                sbx_cmp_diff_words(c, row, t->x->ascii, &t->line);
                break;
            }
            }
            emit(t);
        }
        k++;
    }
    if (k)
        more(t, LIST_MAX, k);
}

static void failure_lines(struct text *t)
{
    const struct sbx_compare *c = t->x->c;
    size_t k = 0;
    for (int side = 1; side >= 0; side--) {
        const size_t *list = side ? c->fail_new : c->fail_gone;
        size_t n = side ? c->nfail_new : c->nfail_gone;
        for (size_t i = 0; i < n; i++, k++) {
            if (k >= LIST_MAX)
                continue;
            char buf[32];
            label(t, "Failures:", k);
            sbx_buf_adds(&t->line, side ? "new in B: " : "gone in B: ");
            sbx_buf_addf(&t->line, "(%s) ", sbx_cmp_exit_words(sbx_cmp_event(t->x, side, list[i]), buf));
            command(t, side, list[i], 0, false);
            emit(t);
        }
    }
    if (!k) {
        sbx_buf_adds(&t->line, "Failures:  none new, none gone");
        emit(t);
    } else if (k > LIST_MAX) {
        sbx_buf_addf(&t->line, "%s+%zu more", LABEL_PAD, k - LIST_MAX);
        emit(t);
    }
}

static void host_lines(struct text *t)
{
    const struct sbx_compare *c = t->x->c;
    for (size_t i = 0; i < c->nhosts && i < LIST_MAX; i++) {
        const struct sbx_cmp_host *h = &c->hosts[i];
        label(t, "Hosts:", i);
        untrusted(t, h->host, strlen(h->host), 40);
        if (!h->b)
            sbx_buf_addf(&t->line, " %s in A, not in B", sbx_cmp_host_words(h->a));
        else if (!h->a)
            sbx_buf_addf(&t->line, " %s in B, not in A", sbx_cmp_host_words(h->b));
        else
            sbx_buf_addf(&t->line, ": A %s, B %s", sbx_cmp_host_words(h->a),
                         sbx_cmp_host_words(h->b));
        emit(t);
    }
    if (!c->nhosts) {
        sbx_buf_adds(&t->line, "Hosts:     the same hosts reached and refused");
        emit(t);
    } else if (c->nhosts > LIST_MAX) {
        sbx_buf_addf(&t->line, "%s+%zu more", LABEL_PAD, c->nhosts - LIST_MAX);
        emit(t);
    }
}

/* Files: those in both runs alike, in A only, in B only, in both but changed
 * otherwise; a line each. */
static void file_lines(struct text *t)
{
    const struct sbx_compare *c = t->x->c;
    static const char *const groups[] = {"in both: ", "A only: ", "B only: ", "both, otherwise: "};
    size_t k = 0;
    for (int g = 0; g < 4; g++) {
        size_t shown = 0, total = 0;
        for (size_t i = 0; i < c->nfiles; i++) {
            const struct sbx_cmp_file *f = &c->files[i];
            int group = f->change_b < 0 ? 1 : f->change_a < 0 ? 2 : f->change_a == f->change_b ? 0 : 3;
            if (group != g)
                continue;
            total++;
            if (shown == LIST_MAX)
                continue;
            if (!shown) {
                label(t, "Files:", k++);
                sbx_buf_adds(&t->line, groups[g]);
            } else {
                sbx_buf_adds(&t->line, ", ");
            }
            untrusted(t, f->path, strlen(f->path), 40);
            if (f->system)
                sbx_buf_adds(&t->line, " (system)");
            if (g == 3)
                sbx_buf_addf(&t->line, " (A %s, B %s)", sbx_cmp_change_name(f->change_a),
                             sbx_cmp_change_name(f->change_b));
            else
                sbx_buf_addf(&t->line, " %s", sbx_cmp_change_name(g == 2 ? f->change_b : f->change_a));
            shown++;
        }
        if (total > shown)
            sbx_buf_addf(&t->line, ", +%zu more", total - shown);
        if (shown)
            emit(t);
    }
    if (!k) {
        sbx_buf_adds(&t->line, "Files:     no changes seen in either run");
        emit(t);
    }
}

static void count_lines(struct text *t, const char *name, const struct sbx_cmp_count *v, size_t n,
                        const char *none)
{
    for (size_t i = 0; i < n && i < LIST_MAX; i++) {
        label(t, name, i);
        untrusted(t, v[i].name, strlen(v[i].name), 50);
        if (!v[i].b)
            sbx_buf_addf(&t->line, " in A only (%zu)", v[i].a);
        else if (!v[i].a)
            sbx_buf_addf(&t->line, " in B only (%zu)", v[i].b);
        else
            sbx_buf_addf(&t->line, ": A %zu, B %zu", v[i].a, v[i].b);
        emit(t);
    }
    if (!n) {
        sbx_buf_addf(&t->line, "%-11s%s", name, none);
        emit(t);
    } else if (n > LIST_MAX) {
        sbx_buf_addf(&t->line, "%s+%zu more", LABEL_PAD, n - LIST_MAX);
        emit(t);
    }
}

/* Finding names after a lead-in, wrapped at 80 columns under the label. */
static void finding_names(struct text *t, const char *lead, uint32_t bits)
{
    sbx_buf_adds(&t->line, lead);
    const char *sep = "";
    for (size_t i = 0; i < sbx_nfindings; i++) {
        if (!(bits & sbx_findings[i].bit))
            continue;
        const char *name = sbx_findings[i].name;
        if (t->line.len + strlen(sep) + strlen(name) + 1 > COLS) {
            sbx_buf_adds(&t->line, ",");
            emit(t);
            sbx_buf_adds(&t->line, LABEL_PAD);
            sep = "";
        }
        sbx_buf_addf(&t->line, "%s%s", sep, name);
        sep = ", ";
    }
    emit(t);
}

static void findings_lines(struct text *t)
{
    const struct sbx_compare *c = t->x->c;
    const struct {
        const char *words;
        uint32_t bits;
    } lists[] = {
        {"NEW in B: ", c->findings_new},
        {"gone in B: ", c->findings_gone},
        {"not checked in B: ", c->findings_unchecked_b}, /* B's sources cannot tell */
        {"not checked in A: ", c->findings_unchecked_a},
    };
    const char *lead = "Findings:  ";
    for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++) {
        if (!lists[i].bits)
            continue;
        char head[48];
        snprintf(head, sizeof head, "%s%s", lead, lists[i].words);
        finding_names(t, head, lists[i].bits);
        lead = LABEL_PAD;
    }
    if (lead != LABEL_PAD) {
        sbx_buf_adds(&t->line, "Findings:  the same kinds in both runs");
        emit(t);
    }
}

static void table(struct text *t)
{
    const struct sbx_compare *c = t->x->c;
    sbx_buf_addf(&t->line, "Commands, aligned (= same, ! changed, ~ replaced, - only in A, + only in B,");
    emit(t);
    sbx_buf_addf(&t->line, "> moved):");
    emit(t);
    sbx_buf_addf(&t->line, "  A#   B#   %-*s %s", CELL_COLS, "A", "B");
    emit(t);
    for (size_t r = 0; r < c->nrows; r++) {
        const struct sbx_cmp_row *row = &c->rows[r];
        char na[24] = "", nb[24] = "";
        if (row->a != SBX_CMP_NONE)
            snprintf(na, sizeof na, "%zu", row->a + 1);
        if (row->b != SBX_CMP_NONE)
            snprintf(nb, sizeof nb, "%zu", row->b + 1);
        sbx_buf_addf(&t->line, "%4s %4s %c ", na, nb, sbx_cmp_marker(row->kind));
        if (row->a != SBX_CMP_NONE) {
            command(t, 0, row->a, CELL_COLS, true);
        } else {
            char moved[48] = "";
            if (row->kind == SBX_CMP_MOVED)
                snprintf(moved, sizeof moved, "(moved from A#%zu)", c->rows[row->partner].a + 1);
            sbx_buf_addf(&t->line, "%-*s", CELL_COLS, moved);
        }
        sbx_buf_addc(&t->line, ' ');
        if (row->b != SBX_CMP_NONE)
            command(t, 1, row->b, CELL_COLS, false);
        else if (row->kind == SBX_CMP_MOVED)
            sbx_buf_addf(&t->line, "(moved to B#%zu)", c->rows[row->partner].b + 1);
        emit(t);
        if (row->diff && row->kind != SBX_CMP_REPLACED &&
            (row->kind != SBX_CMP_MOVED || row->a != SBX_CMP_NONE)) {
            sbx_buf_addf(&t->line, "%12s", "");
            sbx_cmp_diff_words(c, row, t->x->ascii, &t->line);
            emit(t);
        }
    }
    if (!c->nrows) {
        sbx_buf_adds(&t->line, "  (no commands in either run)");
        emit(t);
    }
}

void sbx_render_compare_text(struct sbx_cmpctx *x, struct sbx_buf *out)
{
    struct text t = {x, SBX_BUF_INIT, out};
    run_lines(&t);
    unread_lines(&t);
    result_line(&t);
    rows_of(&t, SBX_CMP_REPLACED, "Replaced:");
    rows_of(&t, SBX_CMP_ONLY_A, "Only in A:");
    rows_of(&t, SBX_CMP_ONLY_B, "Only in B:");
    rows_of(&t, SBX_CMP_MOVED, "Moved:");
    rows_of(&t, SBX_CMP_CHANGED, "Changed:");
    failure_lines(&t);
    host_lines(&t);
    file_lines(&t);
    count_lines(&t, "Secrets:", x->c->secrets, x->c->nsecrets, "the same in both runs");
    count_lines(&t, "Account:", x->c->account, x->c->naccount, "the same account changes in both");
    findings_lines(&t);
    sbx_buf_addc(out, '\n');
    table(&t);
    sbx_buf_free(&t.line);
}
