/* The files and network views: their lists (made from the data when first
 * shown), moving in them, folding, opening, drawing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/sanitize.h"
#include "app/app_internal.h"
#include "app/list_window.h"

/* ---- the lists ---- */

static void tree_rows(struct sbx_app *a)
{
    free(a->frows);
    a->frows = sbx_xmalloc((a->tree.n ? a->tree.n : 1) * sizeof *a->frows);
    a->nfrows = 0;
    for (size_t i = 0; i < a->tree.n;) {
        a->frows[a->nfrows++] = (uint32_t)i;
        i = a->folded[i] ? a->tree.nodes[i].end : i + 1;
    }
}


/* The name of the root node i is under ("" for the workspace). */
static const char *root_of(const struct sbx_filetree *t, size_t i)
{
    while (i > 0 && t->nodes[i].depth > 0)
        i--;
    return t->nodes[i].name;
}

/* What finds node i again in a tree made from new data (whose string ids
 * may differ): its root's name, a newline, its path. */
static char *node_key(const struct sbx_app *a, size_t i)
{
    struct sbx_buf b = SBX_BUF_INIT;
    sbx_buf_adds(&b, root_of(&a->tree, i));
    sbx_buf_addc(&b, '\n');
    sbx_buf_adds(&b, a->tree.nodes[i].path);
    return b.p;
}

static size_t find_node(const struct sbx_app *a, const char *key)
{
    for (size_t i = 0; i < a->tree.n; i++) {
        char *k = node_key(a, i);
        bool same = strcmp(k, key) == 0;
        free(k);
        if (same)
            return i;
    }
    return SIZE_MAX;
}

/* The tree, made when first needed; the selection back on the path it
 * was on in the tree made from the data before, when that is still there. */
static void ensure_tree(struct sbx_app *a)
{
    if (a->have_tree || !a->tl)
        return;
    sbx_filetree_build(&a->tree, a->tl);
    a->folded = sbx_xcalloc(a->tree.n ? a->tree.n : 1, sizeof *a->folded);
    a->have_tree = true;
    tree_rows(a);
    if (a->keep_path) {
        size_t at = find_node(a, a->keep_path);
        a->fcur = 0;
        for (size_t r = 0; at != SIZE_MAX && r < a->nfrows; r++)
            if (a->frows[r] == at)
                a->fcur = r;
        free(a->keep_path);
        a->keep_path = NULL;
    }
}

static void ensure_net(struct sbx_app *a)
{
    if (a->have_net || !a->tl)
        return;
    sbx_netview_build(&a->net, a->tl, a->sum);
    a->have_net = true;
    if (a->keep_host) {
        a->ncur = 0;
        for (size_t i = 0; i < a->net.n; i++)
            if (strcmp(a->net.hosts[i].host, a->keep_host) == 0)
                a->ncur = i;
        free(a->keep_host);
        a->keep_host = NULL;
    }
}

void sbx_app_lists_drop(struct sbx_app *a)
{
    if (a->have_tree)
        sbx_filetree_free(&a->tree);
    if (a->have_net)
        sbx_netview_free(&a->net);
    free(a->folded);
    free(a->frows);
    a->folded = NULL;
    a->frows = NULL;
    a->nfrows = 0;
    a->have_tree = a->have_net = false;
}

void sbx_app_lists_free(struct sbx_app *a)
{
    sbx_app_lists_drop(a);
    free(a->keep_path);
    free(a->keep_host);
    a->keep_path = a->keep_host = NULL;
}

void sbx_app_lists_reload(struct sbx_app *a)
{
    if (a->have_tree && a->fcur < a->nfrows) {
        free(a->keep_path);
        a->keep_path = node_key(a, a->frows[a->fcur]);
    }
    char *file = a->have_tree && a->view == SBX_VIEW_FILE && a->fnode < a->tree.n
                     ? node_key(a, a->fnode)
                     : NULL;
    if (a->have_net && a->ncur < a->net.n) {
        free(a->keep_host);
        a->keep_host = sbx_xstrndup(a->net.hosts[a->ncur].host, strlen(a->net.hosts[a->ncur].host));
    }
    sbx_app_lists_drop(a);
    /* made again now only for the view in sight (a followed log brings new
       data often); the others when they are next shown */
    if ((a->view == SBX_VIEW_FILES || a->view == SBX_VIEW_FILE) && a->tl) {
        ensure_tree(a);
        size_t f = file ? find_node(a, file) : SIZE_MAX;
        if (a->view == SBX_VIEW_FILE) {
            if (f == SIZE_MAX)
                a->view = SBX_VIEW_FILES;
            else
                a->fnode = (uint32_t)f;
        }
    }
    if (a->view == SBX_VIEW_NETWORK && a->tl)
        ensure_net(a);
    free(file);
}

static size_t count_in(const struct sbx_app *a, enum sbx_view v)
{
    return v == SBX_VIEW_FILES ? a->nfrows : v == SBX_VIEW_NETWORK ? a->net.n : 0;
}

size_t sbx_app_list_count(const struct sbx_app *a)
{
    return count_in(a, a->view);
}

/* Rows the list shows (the network view has a row of column titles). */
static size_t height_in(const struct sbx_app *a, enum sbx_view v)
{
    int h = sbx_app_body(a) - (v == SBX_VIEW_NETWORK);
    return h > 0 ? (size_t)h : 1;
}

size_t sbx_app_list_height(const struct sbx_app *a)
{
    return height_in(a, a->view);
}

static void place_in(struct sbx_app *a, enum sbx_view v, size_t *cur, size_t *top)
{
    sbx_list_select(cur, top, *cur, count_in(a, v), height_in(a, v));
}

static void list_place(struct sbx_app *a, size_t *cur, size_t *top)
{
    place_in(a, a->view, cur, top);
}

void sbx_app_list_fix(struct sbx_app *a)
{
    place_in(a, SBX_VIEW_FILES, &a->fcur, &a->ftop);
    place_in(a, SBX_VIEW_NETWORK, &a->ncur, &a->ntop);
}

static size_t *cur_of(struct sbx_app *a)
{
    return a->view == SBX_VIEW_FILES ? &a->fcur : &a->ncur;
}

static size_t *top_of(struct sbx_app *a)
{
    return a->view == SBX_VIEW_FILES ? &a->ftop : &a->ntop;
}

void sbx_app_list_move(struct sbx_app *a, long delta, bool to_end)
{
    size_t n = sbx_app_list_count(a);
    if (!n)
        return;
    size_t *cur = cur_of(a), *top = top_of(a);
    long h = (long)sbx_app_list_height(a);
    long c = to_end ? (delta < 0 ? 0 : (long)n - 1) : (long)*cur + delta;
    c = c < 0 ? 0 : c >= (long)n ? (long)n - 1 : c;
    if (!to_end && (delta >= h / 2 || delta <= -(h / 2))) { /* a page keeps the row's place */
        long t = (long)*top + delta, max_top = (long)n > h ? (long)n - h : 0;
        *top = (size_t)(t < 0 ? 0 : t > max_top ? max_top : t);
    }
    *cur = (size_t)c;
    list_place(a, cur, top);
}

void sbx_app_list_wheel(struct sbx_app *a, long delta)
{
    size_t n = sbx_app_list_count(a), h = sbx_app_list_height(a);
    size_t *cur = cur_of(a), *top = top_of(a);
    long t = (long)*top + delta, max_top = n > h ? (long)(n - h) : 0;
    *top = (size_t)(t < 0 ? 0 : t > max_top ? max_top : t);
    if (*cur < *top)
        *cur = *top;
    if (*cur >= *top + h)
        *cur = *top + h - 1;
    list_place(a, cur, top);
}

/* ---- opening ---- */

static void open_list(struct sbx_app *a, enum sbx_view v)
{
    if (!a->tl) {
        sbx_app_message(a, false, "nothing loaded yet");
        return;
    }
    if (v == SBX_VIEW_FILES)
        ensure_tree(a);
    else
        ensure_net(a);
    if (a->view != v && a->view != SBX_VIEW_HELP)
        a->back_to = a->view;
    a->view = v;
    sbx_app_list_fix(a);
}

void sbx_app_open_files(struct sbx_app *a)
{
    open_list(a, SBX_VIEW_FILES);
}

void sbx_app_open_network(struct sbx_app *a)
{
    open_list(a, SBX_VIEW_NETWORK);
}

static void fold(struct sbx_app *a, size_t node, bool on)
{
    if (a->folded[node] == on || !sbx_ftnode_is_dir(&a->tree, node))
        return;
    a->folded[node] = on;
    tree_rows(a);
    for (size_t r = 0; r < a->nfrows; r++)
        if (a->frows[r] == node)
            a->fcur = r;
    sbx_app_list_fix(a);
}

void sbx_app_list_fold(struct sbx_app *a, bool on)
{
    if (a->view != SBX_VIEW_FILES || a->fcur >= a->nfrows)
        return;
    size_t node = a->frows[a->fcur];
    if (sbx_ftnode_is_dir(&a->tree, node) && a->folded[node] != on) {
        fold(a, node, on);
        return;
    }
    if (!on)
        return;
    /* on a file or a folded folder: up to the folder it is in */
    uint32_t depth = a->tree.nodes[node].depth;
    for (size_t r = a->fcur; depth && r-- > 0;)
        if (a->tree.nodes[a->frows[r]].depth < depth) {
            a->fcur = r;
            sbx_app_list_fix(a);
            return;
        }
}

/* A host's name as a filter value: quoted when it holds anything a filter
 * word may not (a host from a log can hold anything). */
static void host_filter(const char *host, struct sbx_buf *out)
{
    bool plain = true;
    for (const char *p = host; *p; p++)
        if ((unsigned char)*p <= ' ' || *p == '"' || *p == '\\')
            plain = false;
    sbx_buf_adds(out, "host:");
    if (plain) {
        sbx_buf_adds(out, host);
        return;
    }
    sbx_buf_addc(out, '"');
    for (const char *p = host; *p; p++)
        if (*p != '"' && *p != '\\')
            sbx_buf_addc(out, *p);
    sbx_buf_addc(out, '"');
}

void sbx_app_list_open(struct sbx_app *a)
{
    if (a->view == SBX_VIEW_FILES) {
        if (a->fcur >= a->nfrows)
            return;
        size_t node = a->frows[a->fcur];
        if (!a->tree.nodes[node].changed) {
            fold(a, node, !a->folded[node]);
            return;
        }
        a->fnode = (uint32_t)node;
        a->view = SBX_VIEW_FILE;
        a->doc_top = 0;
        sbx_app_rebuild_doc(a);
        return;
    }
    if (a->view != SBX_VIEW_NETWORK || a->ncur >= a->net.n)
        return;
    const struct sbx_nethost *h = &a->net.hosts[a->ncur];
    struct sbx_buf f = SBX_BUF_INIT;
    host_filter(h->host, &f);
    a->findings_mode = 0;
    a->view = SBX_VIEW_TIMELINE;
    if (sbx_app_set_filter(a, f.p)) {
        sbx_app_select(a, 0);
        size_t n = sbx_app_count(a);
        if (a->job) /* a filter on a thread: the count comes when it lands */
            sbx_app_message(a, false, "finding the events of this host (& then Enter clears the filter)");
        else
            sbx_app_message(a, false, "%zu event%s of this host (& then Enter clears the filter)", n,
                            n == 1 ? "" : "s");
    }
    sbx_buf_free(&f);
}

void sbx_app_list_click(struct sbx_app *a, int row, bool twice)
{
    long r = row - 1 - (a->view == SBX_VIEW_NETWORK);
    if (r < 0)
        return;
    size_t i = *top_of(a) + (size_t)r;
    if (i >= sbx_app_list_count(a))
        return;
    *cur_of(a) = i;
    if (twice)
        sbx_app_list_open(a);
}

void sbx_app_list_empty(struct sbx_grid *g, int row, const char *what, const char *how)
{
    sbx_grid_text(g, row, 2, g->cols, SBX_STYLE_NOTE, what, strlen(what));
    if (row + 1 < g->rows - 1)
        sbx_grid_text(g, row + 1, 2, g->cols, SBX_STYLE_NOTE, how, strlen(how));
}
