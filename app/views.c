/* The table of one run's views: a row per SBX_VIEWS entry (app/app.h). */
#include "app/view.h"

const struct sbx_view_ops *const sbx_views[SBX_VIEW_COUNT] = {
#define SBX_VIEW_ROW(NAME, name) [SBX_VIEW_##NAME] = &sbx_view_##name,
    SBX_VIEWS(SBX_VIEW_ROW)
#undef SBX_VIEW_ROW
};

enum sbx_view sbx_view_back_to_timeline(const struct sbx_app *a)
{
    (void)a;
    return SBX_VIEW_TIMELINE;
}
