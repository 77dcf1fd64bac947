/* The network view: one row per host, refused first (the lists' state and
 * moves are app/app_lists.c's). */
#include "app/app_headline.h"
#include "app/app_internal.h"
#include "app/keymap.h"
#include "app/view.h"

static void header(struct sbx_app *a, struct sbx_buf *h, int cols, const char *dot)
{
    char b[64];
    sbx_headline_part(h, cols, dot, "network");
    sbx_headline_part(h, cols, dot, "%s host%s", sbx_thousands(a->net.n, b), a->net.n == 1 ? "" : "s");
    if (a->net.refused)
        sbx_headline_part(h, cols, dot, "%s refused", sbx_thousands(a->net.refused, b));
    if (a->net.unlisted)
        sbx_headline_part(h, cols, dot, "%s not on the allow list", sbx_thousands(a->net.unlisted, b));
    if (a->net.requests)
        sbx_headline_part(h, cols, dot, "%s proxy request%s", sbx_thousands(a->net.requests, b),
                          a->net.requests == 1 ? "" : "s");
    else
        sbx_headline_part(h, cols, dot, "no proxy log");
    sbx_headline_part(h, cols, dot, "Enter: its events");
}

static void draw(struct sbx_app *a, struct sbx_grid *g)
{
    if (!a->net.n) {
        sbx_app_list_empty(g, 2, "No network activity recorded.",
                           "Load a proxy log (Squid's access.log), or a log whose commands name hosts.");
        return;
    }
    sbx_draw_host_titles(g, 1, a->net.bytes_out_known);
    size_t h = sbx_app_list_height(a);
    for (size_t r = 0; r < h; r++) {
        size_t i = a->ntop + r;
        if (i >= a->net.n)
            break;
        sbx_draw_host_row(g, 2 + (int)r, &a->look, &a->net.hosts[i], a->net.bytes_out_known,
                          i == a->ncur);
    }
}

static void place(const struct sbx_app *a, size_t *cur, size_t *n)
{
    *cur = a->ncur;
    *n = a->net.n;
}


const struct sbx_view_ops sbx_view_network = {
    .name = "network",
    .keys = SBX_KEYS_MOVE | SBX_KEYS_ALWAYS | SBX_KEYS_BACK | SBX_KEYS_GOTO | SBX_KEYS_OPEN | SBX_KEYS_EXPORT,
    .rebuild = sbx_app_list_fix,
    .header = header,
    .draw = draw,
    .place = place,
    .move = sbx_app_list_move,
    .wheel = sbx_app_list_wheel,
    .click = sbx_app_list_click,
    .enter = sbx_app_list_open,
    .back = sbx_view_back_to_timeline,
};
