/* The network view's rows: one host each, in columns that drop away on
 * narrow screens (the times first, then the bytes out, then the commands). */
#include <stdio.h>
#include <string.h>

#include "base/numfmt.h"
#include "render/views/views.h"

enum { STATE_W = 9, REQ_W = 6, BYTES_W = 8, TIME_W = 9 };

struct layout {
    bool times, out, commands;
    int host_w;
};

/* The host gets 45% of what the fixed columns leave (at least 20 columns
 * while the commands show), the commands the rest. */
static struct layout layout_for(int cols, bool out_known)
{
    struct layout L = {.times = cols >= 76, .out = out_known && cols >= 60};
    int fixed = 1 + STATE_W + 1 + REQ_W + BYTES_W + (L.out ? BYTES_W : 0) + (L.times ? 2 * TIME_W : 0);
    int rest = cols - fixed;
    L.commands = rest >= 32;
    int share = rest * 45 / 100;
    L.host_w = !L.commands ? rest : share < 20 ? 20 : share > 40 ? 40 : share;
    if (L.host_w < 8)
        L.host_w = 8;
    return L;
}

/* A size (base/numfmt.h), "-" when not known. */
static const char *bytes_cell(int64_t n, char *buf)
{
    return n < 0 ? "-" : sbx_size_text(n, buf);
}

/* Puts text right-aligned in [col, col + w - 1). */
static void right(struct sbx_grid *g, int row, int col, int w, enum sbx_style st, const char *s)
{
    int n = (int)strlen(s);
    if (n > w - 1)
        n = w - 1;
    sbx_grid_text(g, row, col + w - 1 - n, col + w - 1, st, s, (size_t)n);
}

void sbx_draw_host_titles(struct sbx_grid *g, int row, bool out_known)
{
    struct layout L = layout_for(g->cols, out_known);
    sbx_grid_fill(g, row, 0, g->cols, SBX_STYLE_NORMAL);
    int col = 1;
    sbx_grid_text(g, row, col, g->cols, SBX_STYLE_LABEL, "state", 5);
    col += STATE_W;
    sbx_grid_text(g, row, col, g->cols, SBX_STYLE_LABEL, "host", 4);
    col += L.host_w + 1;
    right(g, row, col, REQ_W, SBX_STYLE_LABEL, "reqs");
    col += REQ_W;
    right(g, row, col, BYTES_W, SBX_STYLE_LABEL, "in");
    col += BYTES_W;
    if (L.out) {
        right(g, row, col, BYTES_W, SBX_STYLE_LABEL, "out");
        col += BYTES_W;
    }
    if (L.times) {
        sbx_grid_text(g, row, col + 1, g->cols, SBX_STYLE_LABEL, "first", 5);
        col += TIME_W;
        sbx_grid_text(g, row, col + 1, g->cols, SBX_STYLE_LABEL, "last", 4);
        col += TIME_W;
    }
    if (L.commands)
        sbx_grid_text(g, row, col + 1, g->cols, SBX_STYLE_LABEL, "commands", 8);
}

static const char *state_word(const struct sbx_nethost *h, enum sbx_style *st)
{
    if (h->refused) {
        *st = SBX_STYLE_REFUSED;
        return "refused";
    }
    if (h->unlisted) {
        *st = SBX_STYLE_REFUSED;
        return "unlisted";
    }
    if (h->requests && h->unreached == h->requests) {
        *st = SBX_STYLE_WARNING;
        return "failed";
    }
    if (h->requests) {
        *st = SBX_STYLE_GOOD;
        return "allowed";
    }
    *st = SBX_STYLE_NOTE;
    return "named";
}

void sbx_draw_host_row(struct sbx_grid *g, int row, struct sbx_rows_look *l,
                       const struct sbx_nethost *h, bool out_known, bool selected)
{
    struct layout L = layout_for(g->cols, out_known);
    enum sbx_style base = selected ? SBX_STYLE_CURSOR : SBX_STYLE_NORMAL, st;
    sbx_grid_fill(g, row, 0, g->cols, base);
    const char *word = state_word(h, &st);
    int col = 1;
    sbx_grid_text(g, row, col, col + STATE_W - 1, selected ? base : st, word, strlen(word));
    col += STATE_W;
    sbx_grid_untrusted(g, row, col, col + L.host_w, selected ? base : h->refused ? SBX_STYLE_REFUSED
                                                                              : SBX_STYLE_NORMAL,
                       h->host, strlen(h->host));
    col += L.host_w + 1;
    char buf[40];
    if (h->requests)
        snprintf(buf, sizeof buf, "%zu", h->requests);
    else
        strcpy(buf, "-");
    right(g, row, col, REQ_W, base, buf);
    col += REQ_W;
    right(g, row, col, BYTES_W, base, bytes_cell(h->bytes_in, buf));
    col += BYTES_W;
    if (L.out) {
        right(g, row, col, BYTES_W, base, bytes_cell(h->bytes_out, buf));
        col += BYTES_W;
    }
    if (L.times) {
        enum sbx_style ts = selected ? base : SBX_STYLE_TIME;
        sbx_clock(h->first, l->local, buf);
        sbx_grid_text(g, row, col + 1, col + TIME_W, ts, buf, 8);
        col += TIME_W;
        sbx_clock(h->last, l->local, buf);
        sbx_grid_text(g, row, col + 1, col + TIME_W, ts, buf, 8);
        col += TIME_W;
    }
    if (!L.commands)
        return;
    col++;
    if (!h->ncommands) {
        sbx_grid_text(g, row, col, g->cols, selected ? base : SBX_STYLE_NOTE, "-", 1);
        return;
    }
    if (h->ncommands > 1)
        col = sbx_grid_textf(g, row, col, g->cols, selected ? base : SBX_STYLE_NOTE, "(%zu) ", h->ncommands);
    const struct sbx_event *c = h->commands[0];
    struct sbx_buf tmp = SBX_BUF_INIT;
    size_t n;
    const char *s;
    if (c->u.cmd.flags & SBX_CMD_RECORD) {
        s = sbx_str(l->tl, c->u.cmd.program);
        n = strlen(s);
    } else {
        s = sbx_text_get(l->tl, c, &c->u.cmd.command, &tmp, &n);
    }
    sbx_grid_untrusted(g, row, col, g->cols, base, s, n); /* it redacts, then cuts */
    sbx_buf_free(&tmp);
}
