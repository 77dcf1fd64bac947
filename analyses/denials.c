/* Connections the sandbox's own network policy refused (sandboxio's
 * network_denials): no host name is known, so they are not in the refused
 * hosts; each operation with denials is a refused-host finding and is its
 * own evidence. */
#include "analyses/analyses.h"

uint64_t sbx_event_denials(const struct sbx_event *e)
{
    if (e->kind == SBX_EV_FILES)
        return e->u.files ? sbx_files_more(e->u.files)->denials : 0;
    /* commands, and notes for operations sbxview does not know */
    if (e->kind == SBX_EV_COMMAND || e->kind == SBX_EV_NOTE)
        return e->u.cmd.flags & SBX_CMD_DENIALS ? e->u.cmd.denials : 0;
    return 0;
}

void sbx_analyze_denials(struct sbx_timeline *tl, struct sbx_summary *sum)
{
    size_t cap = 0;
    for (size_t i = 0; i < tl->n; i++) {
        struct sbx_event *e = sbx_tl_at(tl, i);
        sbx_prefetch_ahead(tl, i);
        uint64_t n = sbx_event_denials(e);
        if (!n)
            continue;
        e->findings |= SBX_F_REFUSED_HOST;
        SBX_GROW(sum->denials, sum->ndenials, cap);
        sum->denials[sum->ndenials++] = e;
        sum->denied_connections += n;
    }
}
