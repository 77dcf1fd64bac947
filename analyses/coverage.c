/* What a run's sources can tell: the finding kinds whose evidence was
 * loaded. A finding is absent for two reasons, "looked and found none" and
 * "could not look"; compare, check and the runs list say which. */
#include <string.h>

#include "analyses/analyses.h"
#include "analyses/risky.h"

static bool has_format(const struct sbx_timeline *tl, const char *name)
{
    for (size_t i = 0; i < tl->nsources; i++)
        if (strcmp(tl->sources[i].format, name) == 0)
            return true;
    return false;
}

/* A log of the commands themselves (not only the provider's record). */
static bool has_commands(const struct sbx_timeline *tl)
{
    if (has_format(tl, "recorder") || has_format(tl, "sandboxio") || has_format(tl, "otlp"))
        return true;
    for (size_t i = 0; i < tl->n; i++)
        if (sbx_tl_at(tl, i)->kind == SBX_EV_COMMAND && !(sbx_tl_at(tl, i)->u.cmd.flags & SBX_CMD_RECORD))
            return true;
    return false;
}

bool sbx_summary_has_wrapper(const struct sbx_timeline *tl)
{
    return has_format(tl, "recorder");
}

uint32_t sbx_summary_checkable(const struct sbx_timeline *tl, const struct sbx_summary *sum)
{
    /* any text can hold a secret, any record a bad or doubled field */
    uint32_t bits = SBX_F_SECRET | SBX_F_BAD_FIELD | SBX_F_DUP_FIELD;
    bool commands = has_commands(tl);
    if (commands)
        bits |= SBX_F_FAILED | SBX_F_TIMED_OUT | SBX_F_HIDDEN_TEXT | SBX_F_RISKY;
    if (commands || has_format(tl, "squid"))
        bits |= SBX_F_REFUSED_HOST | SBX_F_METADATA_ENDPOINT;
    if (has_format(tl, "diff"))
        bits |= SBX_F_HOSTS_REDIRECT;
    if (sum->allow_list)
        bits |= SBX_F_UNLISTED_HOST;
    if (sbx_summary_has_wrapper(tl) && sum->cross.records)
        bits |= SBX_F_OUTSIDE_WRAPPER | SBX_F_REMOVED_FROM_LOG | SBX_F_MISSING_FROM_RECORD | SBX_F_EXIT_MISMATCH;
    if (sbx_summary_has_wrapper(tl) && (has_format(tl, "sandboxio") || has_format(tl, "otlp")))
        bits |= SBX_F_UNWRAPPED;
    if (sum->audit_entries)
        bits |= SBX_F_ACCOUNT_CHANGE | SBX_F_ACCOUNT_INSIDE;
    if (sum->signatures_verified || sum->signatures_failed)
        bits |= SBX_F_BAD_SIGNATURE;
    if (sum->hash_verified || sum->hash_mismatched) /* "unverifiable" counts commands without one */
        bits |= SBX_F_HASH_MISMATCH;
    if (sum->system_roots.n || sum->system[SBX_ADDED].n || sum->system[SBX_CHANGED].n ||
        sum->system[SBX_REMOVED].n)
        bits |= SBX_F_SYSTEM_FILES;
    return bits;
}

const char *sbx_finding_needs(uint32_t bit)
{
    const struct sbx_finding_info *f = sbx_finding_of(bit);
    return f ? f->needs : NULL;
}
