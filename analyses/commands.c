/* Commands: how many, which failed (exit not 0, or timed out), by program,
 * and the longest. Also the run's sandboxes. */
#include <stdlib.h>
#include <string.h>

#include "analyses/analyses.h"

static int by_failures(const void *a, const void *b, void *tl)
{
    const struct sbx_timeline *sort_tl = tl;
    const struct sbx_program_count *x = a, *y = b;
    if (x->count != y->count)
        return x->count > y->count ? -1 : 1;
    return strcmp(sbx_str(sort_tl, x->program), sbx_str(sort_tl, y->program));
}

static int by_name(const void *a, const void *b, void *tl)
{
    const struct sbx_timeline *sort_tl = tl;
    return strcmp(sbx_str(sort_tl, *(const uint32_t *)a), sbx_str(sort_tl, *(const uint32_t *)b));
}

void sbx_analyze_commands(struct sbx_timeline *tl, struct sbx_summary *sum)
{
    /* counts per program id: ids are dense, so an array indexed by id */
    uint32_t nids = tl->strings.n;
    size_t *fails = sbx_xcalloc(nids, sizeof *fails);
    bool *sandbox_seen = sbx_xcalloc(nids, sizeof *sandbox_seen);
    int64_t longest_ms = -1;

    for (size_t i = 0; i < tl->n; i++) {
        struct sbx_event *e = sbx_tl_at(tl, i);
        sbx_prefetch_ahead(tl, i);
        if (e->kind == SBX_EV_AUDIT) /* the whole account's log: its sandboxes are not the run's */
            continue;
        if (e->sandbox && !sandbox_seen[e->sandbox]) {
            sandbox_seen[e->sandbox] = true;
            sum->sandboxes = sbx_xrealloc(sum->sandboxes, (sum->nsandboxes + 1) * sizeof *sum->sandboxes);
            sum->sandboxes[sum->nsandboxes++] = e->sandbox;
        }
        /* the provider's records are cross-checked, and a second log's
         * account of a command is that command: neither is counted again */
        if (e->kind != SBX_EV_COMMAND || (e->u.cmd.flags & SBX_CMD_RECORD) ||
            sbx_witness_is_second(&sum->witness, e))
            continue;
        const struct sbx_command *c = &e->u.cmd;
        sum->commands++;
        bool timed_out = c->flags & SBX_CMD_TIMED_OUT;
        bool failed = sbx_command_failed(c);
        if (timed_out) {
            sum->timed_out++;
            e->findings |= SBX_F_TIMED_OUT;
        }
        if (failed) {
            sum->failed++;
            e->findings |= SBX_F_FAILED;
            fails[c->program]++;
        }
        /* the longest: ties go to the earlier command (timeline order) */
        if ((c->flags & SBX_CMD_MS_KNOWN) && sbx_cmd_ms(c) > longest_ms) {
            longest_ms = sbx_cmd_ms(c);
            sum->longest = e;
        }
    }
    for (uint32_t id = 0; id < nids; id++) {
        if (!fails[id])
            continue;
        sum->failed_by = sbx_xrealloc(sum->failed_by, (sum->nfailed_by + 1) * sizeof *sum->failed_by);
        sum->failed_by[sum->nfailed_by++] = (struct sbx_program_count){id, fails[id]};
    }
    if (sum->nfailed_by)
        qsort_r(sum->failed_by, sum->nfailed_by, sizeof *sum->failed_by, by_failures, tl);
    if (sum->nsandboxes)
        qsort_r(sum->sandboxes, sum->nsandboxes, sizeof *sum->sandboxes, by_name, tl);
    free(fails);
    free(sandbox_seen);
}
