/* The runs list's and the compare view's terminal loop, and their --dump. */
#include "cli/view_runs.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/output.h"
#include "importers/runs.h"
#include "app/app_cmp.h"
#include "app/app_runs.h"
#include "cli/cli.h"
#include "cli/cli_util.h"
#include "cli/copy_out.h"
#include "app/keys.h"
#include "app/termrules.h"
#include "tui/term.h"

/* Runs the key script and prints the screen. */
static int dump(const struct sbx_screen_opts *o, struct sbx_runs_app *a)
{
    const char *k = o->keys ? o->keys : "";
    size_t n = strlen(k);
    for (size_t i = 0; i < n;) {
        int key = 0, cols = 0, rows = 0;
        size_t used = sbx_key_parse(k + i, n - i, &key, &cols, &rows);
        if (used == SIZE_MAX || used == 0) {
            sbx_errf("--keys: cannot read the key at byte %zu (see --help)", i);
            return SBX_EXIT_USAGE;
        }
        i += used;
        if (key == SBX_KEY_RESIZE) {
            sbx_runs_app_resize(a, cols, rows);
            continue;
        }
        unsigned f = sbx_runs_app_key(a, key, 1, 0);
        if (f & SBX_APP_OUTPUT)
            sbx_copy_out(&a->app, false);
        sbx_runs_app_poll(a);
        if (f & SBX_APP_QUIT)
            break;
    }
    struct sbx_grid g;
    sbx_grid_init(&g, o->app.ascii);
    sbx_runs_app_draw(a, &g);
    struct sbx_buf out = SBX_BUF_INIT;
    sbx_grid_dump(&g, o->dump_styles, &out);
    char err[256];
    bool written = sbx_write_output(NULL, out.p ? out.p : "", out.len, err, sizeof err);
    if (!written)
        sbx_warn(err);
    sbx_buf_free(&out);
    sbx_grid_free(&g);
    return written ? SBX_EXIT_OK : SBX_EXIT_USAGE;
}

static int loop(const struct sbx_screen_opts *o, struct sbx_runs_app *a)
{
    struct sbx_grid grid;
    sbx_grid_init(&grid, o->app.ascii);
    int quit_signal = 0;
    for (;;) {
        /* asked before the poll: runs that finish after it are drawn on the
         * next wake-up, not left "reading…" until a key */
        bool busy = sbx_runs_app_busy(a);
        sbx_runs_app_poll(a);
        sbx_runs_app_draw(a, &grid);
        sbx_term_draw(&grid);
        int mrow = 0, mcol = 0;
        /* while runs are read behind, wake up to show them */
        int key = sbx_term_key(busy ? 100 : -1, &mrow, &mcol);
        int sig = sbx_term_signal();
        if (sig) {
            sbx_term_clear_signal();
            if (sig == SIGINT && (a->prompt || (a->app_open && a->app.prompt))) {
                a->prompt = 0;
                if (a->app_open)
                    a->app.prompt = 0;
                continue;
            }
            quit_signal = sig;
            break;
        }
        if (!key)
            continue;
        if (key == SBX_KEY_RESIZE) {
            int cols, rows;
            sbx_term_size(&cols, &rows);
            sbx_runs_app_resize(a, cols, rows);
            continue;
        }
        unsigned f = sbx_runs_app_key(a, key, mrow, mcol);
        if (f & SBX_APP_OUTPUT)
            sbx_copy_out(&a->app, true);
        if (f & SBX_APP_QUIT)
            break;
    }
    sbx_grid_free(&grid);
    return quit_signal ? sbx_signal_exit_status(quit_signal) : SBX_EXIT_OK;
}

int sbx_view_runs(const struct sbx_screen_opts *o, struct sbx_runs *runs,
                  const struct sbx_allowlist *allow)
{
    struct sbx_app_opts aopts = o->app;
    int cols = o->cols, rows = o->rows;
    if (!o->dump) {
        aopts.background = true;
        if (!sbx_screen_begin(o->theme, o->mouse, &cols, &rows))
            return SBX_EXIT_USAGE;
        sbx_msg_hold(true); /* a fetch behind the list warns after the screen is gone */
    }
    /* --dump reads every run first, so that its screen is always the same */
    struct sbx_runs_fill *fill =
        sbx_runs_fill_start_skewed(runs, allow, &o->app.import, o->app.skews, o->app.nskews,
                                   o->app.threads, !o->dump);
    struct sbx_runs_app a;
    sbx_runs_app_init(&a, &aopts, allow, runs, cols, rows);
    int status = o->dump ? dump(o, &a) : loop(o, &a);
    if (!o->dump) {
        sbx_term_end();
        sbx_runs_fill_free(fill); /* no row waits on the store any more */
        fill = NULL;
        sbx_msg_hold(false);
    }
    sbx_runs_app_free(&a);
    sbx_runs_fill_free(fill);
    return status;
}

/* The last part of a path, trailing slashes left out, into b. */
static const char *base_name(const char *path, char *b, size_t n)
{
    size_t len = strlen(path);
    while (len > 1 && path[len - 1] == '/')
        len--;
    size_t start = len;
    while (start && path[start - 1] != '/')
        start--;
    snprintf(b, n, "%.*s", (int)(len - start), path + start);
    return b;
}

int sbx_view_compare(const struct sbx_screen_opts *o, const char *path_a, const char *source_a,
                     const struct sbx_format *fmt_a, const char *path_b, const char *source_b,
                     const struct sbx_format *fmt_b, const struct sbx_allowlist *allow)
{
    struct sbx_runs none;
    sbx_runs_init(&none, "");
    struct sbx_app_opts aopts = o->app;
    struct sbx_runs_app a;
    sbx_runs_app_init(&a, &aopts, allow, &none, o->cols, o->rows);
    char na[256], nb[256], err[512];
    base_name(path_a, na, sizeof na);
    base_name(path_b, nb, sizeof nb);
    /* both runs are read before the terminal is taken: an error reads as one */
    struct sbx_cmp_input in_a = {path_a, source_a, na, fmt_a}, in_b = {path_b, source_b, nb, fmt_b};
    bool ok = sbx_runs_app_compare(&a, &in_a, &in_b, err, sizeof err);
    int status = SBX_EXIT_USAGE;
    if (!ok) {
        sbx_warn(err);
    } else if (o->dump) {
        status = dump(o, &a);
    } else {
        int cols, rows;
        if (sbx_screen_begin(o->theme, o->mouse, &cols, &rows)) {
            a.opts.background = true;
            sbx_runs_app_resize(&a, cols, rows);
            status = loop(o, &a);
            sbx_term_end();
        }
    }
    sbx_runs_app_free(&a);
    sbx_runs_free(&none);
    return status;
}
