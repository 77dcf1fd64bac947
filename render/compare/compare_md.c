/* The comparison as Markdown for a ticket. Everything from a log goes into
 * an inline code span whose backtick fence is longer than any run inside it,
 * after sanitising to one line; in a table a | is escaped too (GitHub ends a
 * cell at a bare | even inside a code span). */
#include <stdio.h>
#include <string.h>

#include "base/numfmt.h"
#include "base/timefmt.h"
#include "render/compare/compare_common.h"
#include "render/skips.h"
#include "render/sanitize.h"
#include "render/untrusted.h"

enum { LIST_MAX = 10 };

static void code(struct sbx_cmpctx *x, struct sbx_buf *out, const char *s, size_t n, bool in_table)
{
    struct sbx_buf safe = SBX_BUF_INIT;
    sbx_untrusted_text(&safe, s, n, SBX_SAN_ONE_LINE | (x->ascii ? SBX_SAN_ASCII : 0), 0);
    size_t longest = 0, run = 0;
    for (size_t i = 0; i < safe.len; i++) {
        run = safe.p[i] == '`' ? run + 1 : 0;
        if (run > longest)
            longest = run;
    }
    for (size_t i = 0; i <= longest; i++)
        sbx_buf_addc(out, '`');
    bool pad = safe.len && (safe.p[0] == '`' || safe.p[safe.len - 1] == '`' || safe.p[0] == ' ');
    if (pad)
        sbx_buf_addc(out, ' ');
    if (!safe.len)
        sbx_buf_addc(out, ' ');
    for (size_t i = 0; i < safe.len; i++) {
        if (in_table && safe.p[i] == '|')
            sbx_buf_addc(out, '\\');
        sbx_buf_addc(out, safe.p[i]);
    }
    if (pad)
        sbx_buf_addc(out, ' ');
    for (size_t i = 0; i <= longest; i++)
        sbx_buf_addc(out, '`');
    sbx_buf_free(&safe);
}

static void command(struct sbx_cmpctx *x, struct sbx_buf *out, int side, size_t i, bool in_table)
{
    size_t n;
    const char *s = sbx_cmp_cmdline(x, side, i, &n);
    code(x, out, s, n, in_table);
}

static void runs(struct sbx_cmpctx *x, struct sbx_buf *out)
{
    const struct sbx_compare *c = x->c;
    sbx_buf_adds(out, "| | A | B |\n|---|---|---|\n| Run |");
    for (int side = 0; side < 2; side++) {
        sbx_buf_addc(out, ' ');
        code(x, out, x->run[side]->name, strlen(x->run[side]->name), true);
        sbx_buf_adds(out, " |");
    }
    sbx_buf_adds(out, "\n| Commands |");
    for (int side = 0; side < 2; side++) {
        size_t n = side ? c->nb : c->na, failed = 0;
        for (size_t i = 0; i < n; i++)
            failed += side ? c->cmd_b[i].failed : c->cmd_a[i].failed;
        sbx_buf_addf(out, " %zu (%zu failed) |", n, failed);
    }
    sbx_buf_adds(out, "\n| Duration |");
    for (int side = 0; side < 2; side++) {
        const struct sbx_summary *s = x->run[side]->sum;
        char d[SBX_NUM_BUFSZ];
        if (sbx_summary_span_ns(s) >= 0)
            sbx_buf_addf(out, " %s |", sbx_duration_text(sbx_summary_span_ns(s), SBX_DUR_WORDS, d));
        else
            sbx_buf_adds(out, " unknown |");
    }
    sbx_buf_adds(out, "\n\n");
    static const char *const words[SBX_CMP_KIND_COUNT] = {"same",      "changed",   "replaced",
                                                         "only in A", "only in B", "moved"};
    sbx_buf_adds(out, sbx_compare_same(c) ? "**Same**: " : "**Different**: ");
    bool any = false;
    for (int k = 0; k < SBX_CMP_KIND_COUNT; k++)
        if (c->count[k]) {
            sbx_buf_addf(out, "%s%zu %s", any ? ", " : "", c->count[k], words[k]);
            any = true;
        }
    sbx_buf_adds(out, any ? ".\n" : "no commands in either run.\n");
}

static void rows_of(struct sbx_cmpctx *x, struct sbx_buf *out, enum sbx_cmp_kind kind,
                    const char *name)
{
    const struct sbx_compare *c = x->c;
    size_t k = 0;
    for (size_t r = 0; r < c->nrows; r++) {
        const struct sbx_cmp_row *row = &c->rows[r];
        if (row->kind != kind || (kind == SBX_CMP_MOVED && row->a == SBX_CMP_NONE))
            continue;
        if (k++ >= LIST_MAX)
            continue;
        sbx_buf_addf(out, "- %s: ", name);
        switch (kind) {
        case SBX_CMP_REPLACED:
            command(x, out, 0, row->a, false);
            sbx_buf_adds(out, x->ascii ? " -> " : " \xE2\x86\x92 ");
            command(x, out, 1, row->b, false);
            break;
        case SBX_CMP_ONLY_A: command(x, out, 0, row->a, false); break;
        case SBX_CMP_ONLY_B: command(x, out, 1, row->b, false); break;
        case SBX_CMP_MOVED:
            command(x, out, 0, row->a, false);
            sbx_buf_addf(out, " (A#%zu, B#%zu)", row->a + 1, c->rows[row->partner].b + 1);
            break;
        default:
            command(x, out, 0, row->a, false);
            sbx_buf_adds(out, ": ");
            sbx_cmp_diff_words(c, row, x->ascii, out);
            break;
        }
        sbx_buf_addc(out, '\n');
    }
    if (k > LIST_MAX)
        sbx_buf_addf(out, "- %s: %zu more (in the table)\n", name, k - LIST_MAX);
}

static void failures(struct sbx_cmpctx *x, struct sbx_buf *out)
{
    const struct sbx_compare *c = x->c;
    for (int side = 1; side >= 0; side--) {
        const size_t *list = side ? c->fail_new : c->fail_gone;
        size_t n = side ? c->nfail_new : c->nfail_gone;
        for (size_t i = 0; i < n && i < LIST_MAX; i++) {
            char buf[32];
            sbx_buf_adds(out, side ? "- Failure new in B: " : "- Failure gone in B: ");
            command(x, out, side, list[i], false);
            sbx_buf_addf(out, " (%s)\n", sbx_cmp_exit_words(sbx_cmp_event(x, side, list[i]), buf));
        }
        if (n > LIST_MAX)
            sbx_buf_addf(out, "- %zu more failures %s in B\n", n - LIST_MAX, side ? "new" : "gone");
    }
}

static const char *or_else(const char *s, const char *none) { return *s ? s : none; }

static void run_level(struct sbx_cmpctx *x, struct sbx_buf *out)
{
    const struct sbx_compare *c = x->c;
    for (size_t i = 0; i < c->nhosts; i++) {
        sbx_buf_adds(out, "- Host ");
        code(x, out, c->hosts[i].host, strlen(c->hosts[i].host), false);
        sbx_buf_addf(out, ": A %s, B %s\n", or_else(sbx_cmp_host_words(c->hosts[i].a), "not seen"),
                     or_else(sbx_cmp_host_words(c->hosts[i].b), "not seen"));
    }
    for (size_t i = 0; i < c->nfiles; i++) {
        const struct sbx_cmp_file *f = &c->files[i];
        sbx_buf_adds(out, f->system ? "- System file " : "- File ");
        code(x, out, f->path, strlen(f->path), false);
        sbx_buf_addf(out, ": A %s, B %s\n", or_else(sbx_cmp_change_name(f->change_a), "unchanged"),
                     or_else(sbx_cmp_change_name(f->change_b), "unchanged"));
    }
    for (size_t i = 0; i < c->nsecrets; i++) {
        sbx_buf_adds(out, "- Secret ");
        code(x, out, c->secrets[i].name, strlen(c->secrets[i].name), false);
        sbx_buf_addf(out, ": A %zu, B %zu\n", c->secrets[i].a, c->secrets[i].b);
    }
    for (size_t i = 0; i < c->naccount; i++) {
        sbx_buf_adds(out, "- Account change ");
        code(x, out, c->account[i].name, strlen(c->account[i].name), false);
        sbx_buf_addf(out, ": A %zu, B %zu\n", c->account[i].a, c->account[i].b);
    }
    const struct {
        const char *words;
        uint32_t bits;
        bool in_a; /* the counts are A's */
    } lists[] = {
        {"- **Findings new in B**:", c->findings_new, false},
        {"- Findings gone in B:", c->findings_gone, true},
        {"- Findings not checked in B (its sources cannot tell):", c->findings_unchecked_b, true},
        {"- Findings not checked in A (its sources cannot tell):", c->findings_unchecked_a, false},
    };
    for (size_t g = 0; g < sizeof lists / sizeof lists[0]; g++) {
        if (!lists[g].bits)
            continue;
        sbx_buf_adds(out, lists[g].words);
        const char *sep = " ";
        for (size_t i = 0; i < sbx_nfindings; i++)
            if (lists[g].bits & sbx_findings[i].bit) {
                unsigned bit = (unsigned)__builtin_ctz(sbx_findings[i].bit);
                sbx_buf_addf(out, "%s%s (%zu)", sep, sbx_findings[i].name,
                             lists[g].in_a ? c->findings_a[bit] : c->findings_b[bit]);
                sep = ", ";
            }
        sbx_buf_addc(out, '\n');
    }
}

static void table(struct sbx_cmpctx *x, struct sbx_buf *out)
{
    const struct sbx_compare *c = x->c;
    sbx_buf_adds(out, "\n## Commands, aligned\n\n"
                      "`=` same, `!` changed, `~` replaced, `-` only in A, `+` only in B, "
                      "`>` moved\n\n"
                      "| A# | B# | | A | B | Differs |\n|---:|---:|:-:|---|---|---|\n");
    for (size_t r = 0; r < c->nrows; r++) {
        const struct sbx_cmp_row *row = &c->rows[r];
        sbx_buf_adds(out, "| ");
        if (row->a != SBX_CMP_NONE)
            sbx_buf_addf(out, "%zu", row->a + 1);
        sbx_buf_adds(out, " | ");
        if (row->b != SBX_CMP_NONE)
            sbx_buf_addf(out, "%zu", row->b + 1);
        sbx_buf_addf(out, " | `%c` | ", sbx_cmp_marker(row->kind));
        if (row->a != SBX_CMP_NONE)
            command(x, out, 0, row->a, true);
        else if (row->kind == SBX_CMP_MOVED)
            sbx_buf_addf(out, "(moved from A#%zu)", c->rows[row->partner].a + 1);
        sbx_buf_adds(out, " | ");
        if (row->b != SBX_CMP_NONE)
            command(x, out, 1, row->b, true);
        else if (row->kind == SBX_CMP_MOVED)
            sbx_buf_addf(out, "(moved to B#%zu)", c->rows[row->partner].b + 1);
        sbx_buf_adds(out, " | ");
        if (row->kind != SBX_CMP_REPLACED)
            sbx_cmp_diff_words(c, row, x->ascii, out);
        sbx_buf_adds(out, " |\n");
    }
}

/* Each run's skipped lines and unread files, every one, as code spans. */
static void unread(struct sbx_cmpctx *x, struct sbx_buf *out)
{
    for (int side = 0; side < 2; side++) {
        const struct sbx_cmp_run *r = x->run[side];
        struct sbx_skips_counts k = sbx_skips_count(r->tl, r->sum);
        if (!k.lines && !k.files)
            continue;
        sbx_buf_addf(out, "\n**Not read in %c**: %zu line%s skipped, %zu file%s not read\n\n",
                     side ? 'B' : 'A', k.lines, k.lines == 1 ? "" : "s", k.files,
                     k.files == 1 ? "" : "s");
        struct sbx_buf lines = SBX_BUF_INIT;
        sbx_skips_text(r->tl, r->sum, "", "", x->ascii, &lines);
        for (const char *p = lines.p, *end = lines.p + lines.len; p && p < end;) {
            const char *nl = memchr(p, '\n', (size_t)(end - p));
            size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
            sbx_buf_adds(out, "- ");
            code(x, out, p, n, false);
            sbx_buf_addc(out, '\n');
            p += n + 1;
        }
        sbx_buf_free(&lines);
    }
}

void sbx_render_compare_md(struct sbx_cmpctx *x, struct sbx_buf *out)
{
    sbx_buf_adds(out, "# Comparison of two runs\n\n");
    runs(x, out);
    unread(x, out);
    sbx_buf_adds(out, "\n## Differences\n\n");
    size_t before = out->len;
    rows_of(x, out, SBX_CMP_REPLACED, "Replaced");
    rows_of(x, out, SBX_CMP_ONLY_A, "Only in A");
    rows_of(x, out, SBX_CMP_ONLY_B, "Only in B");
    rows_of(x, out, SBX_CMP_MOVED, "Moved");
    rows_of(x, out, SBX_CMP_CHANGED, "Changed");
    failures(x, out);
    run_level(x, out);
    if (out->len == before)
        sbx_buf_adds(out, "None.\n");
    table(x, out);
}
