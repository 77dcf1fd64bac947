/* sbxview FILE...: the interactive review, and --dump, which prints the
 * screen it would show after a key script. */
#include <getopt.h>
#include <signal.h>
#include <langinfo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tui/app.h"
#include "tui/cli.h"
#include "tui/cli_util.h"
#include "tui/keys.h"
#include "tui/loader.h"
#include "tui/term.h"

struct view_opts {
    struct sbx_app_opts app;
    const char *theme;
    bool mouse, dump, dump_styles, follow;
    int cols, rows;
    const char *keys;
};

static bool parse_size(const char *s, int *cols, int *rows)
{
    char x;
    return sscanf(s, "%d%c%d", cols, &x, rows) == 3 && x == 'x' && *cols >= 1 && *rows >= 1 &&
           *cols <= 1000 && *rows <= 1000;
}

static bool utf8_locale(void)
{
    return strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
}

/* Runs a key script against the app, as --dump does. */
static int dump(struct view_opts *o, struct sbx_loader *l)
{
    struct sbx_app app;
    sbx_app_init(&app, &o->app, o->cols, o->rows);
    sbx_app_set_data(&app, &l->tl, l->summarized ? &l->sum : NULL, false);
    const char *k = o->keys ? o->keys : "";
    size_t n = strlen(k);
    int status = SBX_EXIT_OK;
    for (size_t i = 0; i < n;) {
        int key = 0, cols = 0, rows = 0;
        size_t used = sbx_key_parse(k + i, n - i, &key, &cols, &rows);
        if (used == SIZE_MAX || used == 0) {
            fprintf(stderr, "sbxview: --keys: cannot read the key at byte %zu (see --help)\n", i);
            status = SBX_EXIT_USAGE;
            break;
        }
        i += used;
        if (key == SBX_KEY_RESIZE) {
            sbx_app_resize(&app, cols, rows);
            continue;
        }
        if (sbx_app_key(&app, key, 1, 0) & SBX_APP_QUIT)
            break;
    }
    if (status == SBX_EXIT_OK) {
        struct sbx_grid g;
        sbx_grid_init(&g, o->app.ascii);
        sbx_app_draw(&app, &g);
        struct sbx_buf out = SBX_BUF_INIT;
        sbx_grid_dump(&g, o->dump_styles, &out);
        fwrite(out.p, 1, out.len, stdout);
        sbx_buf_free(&out);
        sbx_grid_free(&g);
    }
    sbx_app_free(&app);
    return status;
}

static void take_loaded(struct sbx_app *app, struct sbx_loader *l)
{
    sbx_app_set_progress(app, "");
    sbx_app_set_data(app, &l->tl, l->summarized ? &l->sum : NULL, false);
    if (l->report.nerrors)
        sbx_app_message(app, true, "%s%s", l->report.errors[0],
                        l->report.nerrors > 1 ? " (and more: listed when you quit)" : "");
    else if (l->err[0])
        sbx_app_message(app, true, "%s", l->err);
}

static int interactive(struct view_opts *o, struct sbx_loader *l)
{
    struct sbx_theme theme;
    if (!sbx_pick_theme(o->theme, &theme))
        return SBX_EXIT_USAGE;
    const char *no_color = getenv("NO_COLOR");
    struct sbx_term_opts topts = {.theme = &theme, .colour = !(no_color && *no_color),
                                  .mouse = o->mouse};
    char err[256];
    if (!sbx_term_begin(&topts, err, sizeof err)) {
        fprintf(stderr, "sbxview: %s\n", err);
        return SBX_EXIT_USAGE;
    }
    int cols, rows;
    sbx_term_size(&cols, &rows);
    struct sbx_app app;
    struct sbx_app_opts aopts = o->app;
    aopts.background = true;
    sbx_app_init(&app, &aopts, cols, rows);
    struct sbx_grid grid;
    sbx_grid_init(&grid, o->app.ascii);
    bool taken = false, quit = false;
    char progress[160] = "";
    while (!quit) {
        if (!taken && sbx_loader_done(l)) {
            sbx_loader_wait(l);
            sbx_app_cancel(&app, false); /* a search over the old data is moot */
            take_loaded(&app, l);
            taken = true;
        } else if (!taken) {
            sbx_loader_progress(l, progress, sizeof progress);
            sbx_app_set_progress(&app, progress);
        }
        sbx_app_poll(&app);
        sbx_app_draw(&app, &grid);
        sbx_term_draw(&grid);
        int mrow = 0, mcol = 0;
        /* while something runs behind, wake up to show how far it got */
        int key = sbx_term_key(taken && !sbx_app_busy(&app) ? -1 : 100, &mrow, &mcol);
        int sig = sbx_term_signal();
        if (sig) {
            sbx_term_clear_signal();
            /* Ctrl-C leaves a prompt, as in less; otherwise every signal quits */
            if (sig == SIGINT && app.prompt) {
                app.prompt = 0;
                continue;
            }
            if (sig == SIGINT && sbx_app_busy(&app)) {
                sbx_app_cancel(&app, true);
                continue;
            }
            break;
        }
        if (!key)
            continue;
        if (key == SBX_KEY_RESIZE) {
            sbx_term_size(&cols, &rows);
            sbx_app_resize(&app, cols, rows);
            continue;
        }
        unsigned flags = sbx_app_key(&app, key, mrow, mcol);
        if (flags & SBX_APP_QUIT)
            quit = true;
        if (flags & SBX_APP_FOLLOW)
            sbx_app_message(&app, false, "%s", app.following ? "following" : "stopped following");
    }
    sbx_term_end();
    sbx_grid_free(&grid);
    sbx_app_free(&app);
    if (!taken)
        return -1; /* still loading: the caller exits without waiting for it */
    return SBX_EXIT_OK;
}

static void usage_view(FILE *to)
{
    sbx_usage(to);
}

int sbx_cmd_view(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"local", no_argument, NULL, 'L'},      {"theme", required_argument, NULL, 'T'},
        {"no-mouse", no_argument, NULL, 'M'},   {"threads", required_argument, NULL, 'j'},
        {"dump", no_argument, NULL, 'D'},       {"dump-styles", no_argument, NULL, 'S'},
        {"size", required_argument, NULL, 'z'}, {"keys", required_argument, NULL, 'k'},
        {"help", no_argument, NULL, 'h'},       {NULL, 0, NULL, 0},
    };
    struct view_opts o = {.theme = "default", .mouse = true, .cols = 80, .rows = 24};
    o.app.ascii = !utf8_locale();
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "j:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'L': o.app.local = true; break;
        case 'T': o.theme = optarg; break;
        case 'M': o.mouse = false; break;
        case 'j':
            if (!sbx_parse_threads(optarg, &o.app.threads))
                return SBX_EXIT_USAGE;
            break;
        case 'D': o.dump = true; break;
        case 'S': o.dump = o.dump_styles = true; break;
        case 'z':
            if (!parse_size(optarg, &o.cols, &o.rows)) {
                fprintf(stderr, "sbxview: --size wants COLSxROWS, like 80x24\n");
                return SBX_EXIT_USAGE;
            }
            break;
        case 'k': o.keys = optarg; break;
        case 'h': usage_view(stdout); return SBX_EXIT_OK;
        default: usage_view(stderr); return SBX_EXIT_USAGE;
        }
    }
    if (optind >= argc) {
        fprintf(stderr, "sbxview: no input given (a file, a run folder, or - for stdin)\n");
        usage_view(stderr);
        return SBX_EXIT_USAGE;
    }
    const char *const *paths = (const char *const *)argv + optind;
    size_t npaths = (size_t)(argc - optind);
    struct sbx_loader *l = sbx_xmalloc(sizeof *l);
    sbx_loader_start(l, paths, npaths, o.app.threads, !o.dump);
    int status;
    if (o.dump) {
        sbx_warn_load_report(&l->report);
        status = l->loaded ? dump(&o, l) : SBX_EXIT_USAGE;
    } else {
        status = interactive(&o, l);
        if (status < 0) {
            fflush(stdout);
            _exit(SBX_EXIT_OK); /* quit during a load: no need to wait for it */
        }
        sbx_warn_load_report(&l->report);
        if (!l->loaded)
            status = SBX_EXIT_USAGE;
    }
    sbx_loader_free(l);
    free(l);
    return status;
}
