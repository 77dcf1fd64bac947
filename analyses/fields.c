/* Records that give a field twice: the importers read the last value (as
 * jansson does) and record the fact; it is a finding, since a line written
 * that way says two things and only one of them is shown. */
#include "analyses/analyses.h"

void sbx_analyze_fields(struct sbx_timeline *tl)
{
    for (size_t i = 0; i < tl->n; i++) {
        struct sbx_event *e = sbx_tl_at(tl, i);
        sbx_prefetch_ahead(tl, i);
        if (e->tflags & SBX_EVT_DUP_FIELD)
            e->findings |= SBX_F_DUP_FIELD;
    }
}
