/* sbxview FILE...: the interactive review, and --dump, which prints the
 * screen it would show after a key script. */
#include <getopt.h>
#include <signal.h>
#include <langinfo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "base/numfmt.h"
#include "export/output.h"
#include "importers/follow.h"
#include "app/app.h"
#include "cli/cli.h"
#include "cli/subcommands.h"
#include "cli/cli_util.h"
#include "cli/export_send.h"
#include "cli/review_cli.h"
#include "app/keys.h"
#include "app/termrules.h"
#include "app/loader.h"
#include "tui/term.h"
#include "cli/copy_out.h"
#include "cli/review_cli.h"
#include "cli/s3_fetch.h"
#include "cli/view_runs.h"
#include "importers/runs.h"
#include "model/evid.h"
#include "cli/review_cli.h"
#include "cli/review_store.h"
#include "cli/s3_fetch.h"
#include "importers/review.h"

struct view_opts {
    struct sbx_app_opts app;
    const char *theme;
    bool mouse, dump, dump_styles, follow, first_screen;
    int cols, rows;
    const char *keys;
    const char *review_file, *author; /* --review, --author */
    const struct sbx_inputs *in;      /* its s3_review: beside an s3:// run once fetched, or NULL */
    const char *editor, *tmpdir;      /* $VISUAL or $EDITOR, $TMPDIR */
};

/* The run's review (docs/review-file.md), once tl is the whole run: read,
 * and handed to the app with where new operations go and who writes them.
 * quiet: the unreadable lines are not printed (the interface says so).
 * --dump writes only to a --review FILE given: a key script's operations
 * are otherwise kept in memory, so a screen dump never changes a run. */
static void open_review(struct sbx_app *app, const struct view_opts *o, const struct sbx_timeline *tl,
                        bool quiet)
{
    const char *given = o->review_file ? o->review_file : o->in->s3_review;
    if (sbx_is_s3_url(given)) { /* an object in the store (cli/review_store.h) */
        char *author = sbx_review_author(o->author);
        sbx_review_store_open(app, given, author, o->dump && !o->review_file);
        free(author);
        return;
    }
    struct sbx_review_place place;
    sbx_review_place_find(&place, o->review_file, o->app.inputs, o->app.ninputs, tl);
    struct sbx_review r;
    sbx_review_init(&r);
    bool read = true;
    if (quiet) { /* the interface is on the terminal: a file that cannot be read is said there */
        for (size_t i = 0; i < place.nread; i++) {
            char err[512];
            read = sbx_review_read_file(&r, place.read[i], err, sizeof err) && read;
        }
    } else {
        read = sbx_review_load(&place, &r, false);
    }
    size_t problems = r.nproblems;
    char *author = sbx_review_author(o->author);
    sbx_app_set_review(app, &r, o->dump && !o->review_file ? NULL : place.write, place.make_dirs, author);
    if (!read)
        sbx_app_message(app, true, "the review file could not be read (see sbxview review show)");
    else if (problems)
        sbx_app_message(app, true, "%zu line%s of the review could not be read (R lists them)", problems,
                        problems == 1 ? "" : "s");
    free(author);
    sbx_review_place_free(&place);
}

/* app/app.h's review_place: where `sbxview export` would read and keep
 * the run's review (cli/review_cli.h; --review FILE when given), and its
 * author (--author, or the chain). ctx is the view's options. */
static bool review_place(void *ctx, const struct sbx_timeline *tl, const char *const *inputs,
                         size_t n, struct sbx_app_review_place *out)
{
    const struct view_opts *o = ctx;
    struct sbx_review_place p;
    sbx_review_place_find(&p, o->review_file, inputs, n, tl);
    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < p.nread && i < 2; i++) {
        out->read[i] = p.read[i];
        p.read[i] = NULL;
    }
    out->nread = p.nread < 2 ? p.nread : 2;
    out->write = p.write;
    p.write = NULL;
    out->make_dirs = p.make_dirs;
    out->author = sbx_review_author(o->author);
    sbx_review_place_free(&p);
    return true;
}

static bool utf8_locale(void)
{
    return strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
}

static bool has_preview_source(const struct sbx_timeline *tl)
{
    for (size_t i = 0; i < tl->nsources; i++)
        if (tl->sources[i].preview)
            return true;
    return false;
}

/* Runs a key script against the app over tl and sum (may be NULL), as
 * --dump does, and prints the screen. */
static int dump(struct view_opts *o, struct sbx_timeline *tl, struct sbx_summary *sum)
{
    struct sbx_app app;
    sbx_app_init(&app, &o->app, o->cols, o->rows);
    sbx_app_set_data(&app, tl, sum, has_preview_source(tl));
    if (!o->first_screen)
        open_review(&app, o, tl, false);
    const char *k = o->keys ? o->keys : "";
    size_t n = strlen(k);
    int status = SBX_EXIT_OK;
    for (size_t i = 0; i < n;) {
        int key = 0, cols = 0, rows = 0;
        size_t used = sbx_key_parse(k + i, n - i, &key, &cols, &rows);
        if (used == SIZE_MAX || used == 0) {
            sbx_errf("--keys: cannot read the key at byte %zu (see --help)", i);
            status = SBX_EXIT_USAGE;
            break;
        }
        i += used;
        if (key == SBX_KEY_RESIZE) {
            sbx_app_resize(&app, cols, rows);
            continue;
        }
        unsigned flags = sbx_app_key(&app, key, 1, 0);
        if (flags & SBX_APP_EDIT)
            sbx_app_edit_done(&app, NULL, 0, "--dump runs no editor");
        if (flags & SBX_APP_OUTPUT)
            sbx_copy_out(&app, false);
        if (flags & SBX_APP_QUIT)
            break;
    }
    if (status == SBX_EXIT_OK) {
        struct sbx_grid g;
        sbx_grid_init(&g, o->app.ascii);
        sbx_app_draw(&app, &g);
        struct sbx_buf out = SBX_BUF_INIT;
        sbx_grid_dump(&g, o->dump_styles, &out);
        char err[256];
        if (!sbx_write_output(NULL, out.p ? out.p : "", out.len, err, sizeof err)) {
            sbx_warn(err);
            status = SBX_EXIT_USAGE;
        }
        sbx_buf_free(&out);
        sbx_grid_free(&g);
    }
    sbx_review_store_quit(&app);
    sbx_app_free(&app);
    return status;
}

enum { PREVIEW_BYTES = 2 << 20, PREVIEW_AFTER_MS = 120, FOLLOW_POLL_MS = 250 };

/* The s3:// inputs of the interface, fetched behind it one after another
 * (b[k] the fetch of input input[k]; n 0: none, or every one in); loading
 * once the loader is started on them. */
struct fetch_behind {
    struct sbx_s3_behind **b;
    size_t *input;
    size_t n;
    struct sbx_inputs *in;
    bool loading;
};

/* The rows of the terminal the review is about to take (60 when it cannot
 * tell): the runs a store's listing must give before the list opens. */
static size_t first_screen_rows(void)
{
    struct winsize ws;
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 0)
        return ws.ws_row;
    return 60;
}

static void fetch_behind_add(struct fetch_behind *fb, struct sbx_s3_behind *b, size_t input)
{
    fb->b = sbx_xrealloc(fb->b, (fb->n + 1) * sizeof *fb->b);
    fb->input = sbx_xrealloc(fb->input, (fb->n + 1) * sizeof *fb->input);
    fb->b[fb->n] = b;
    fb->input[fb->n++] = input;
}

/* Quit during the fetch: each stops after the requests under way. */
static void fetch_behind_free(struct fetch_behind *fb)
{
    for (size_t k = 0; k < fb->n; k++)
        sbx_s3_behind_free(fb->b[k]);
    free(fb->b);
    free(fb->input);
    fb->b = NULL;
    fb->input = NULL;
    fb->n = 0;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* What the interface shows, and who owns it: the preview until the full
 * load lands, then the loader's timeline with the loader's summary or, once
 * a followed log grew, a summary made here. */
struct live {
    struct sbx_loader *l;
    bool taken;                 /* the full load is shown */
    struct sbx_timeline ptl;    /* the preview */
    struct sbx_summary psum;
    bool have_preview;
    struct sbx_summary *fsum;   /* the latest summary made while following, or NULL */
    struct sbx_follow *follow;
    double next_poll, summarize_ms;
};

static void drop_preview(struct live *v)
{
    if (!v->have_preview)
        return;
    sbx_summary_free(&v->psum);
    sbx_timeline_free(&v->ptl);
    v->have_preview = false;
}

static void take_loaded(struct sbx_app *app, struct live *v, const struct view_opts *o)
{
    struct sbx_loader *l = v->l;
    sbx_loader_wait(l);
    sbx_app_cancel(app, false); /* a search over the preview is moot */
    sbx_app_set_progress(app, "");
    sbx_app_set_data(app, &l->tl, l->summarized ? &l->sum : NULL, false);
    open_review(app, o, &l->tl, true);
    drop_preview(v); /* the app no longer points into it */
    v->taken = true;
    if (l->report.nerrors) {
        sbx_app_message(app, true, "%s%s", l->report.errors[0],
                        l->report.nerrors > 1 ? " (and more: listed when you quit)" : "");
    } else if (l->report.nunread && app->msg[0]) { /* the heaviest finding's hint: keep it, after this */
        char hint[sizeof app->msg];
        snprintf(hint, sizeof hint, "%s", app->msg);
        sbx_app_message(app, app->msg_error, "%zu file%s not read; %s", l->report.nunread,
                        l->report.nunread == 1 ? "" : "s", hint);
    } else if (l->report.nunread) { /* files in a folder: the summary lists them all */
        sbx_app_message(app, true, "%s: not read: %s%s", l->report.unread[0].path,
                        l->report.unread[0].reason,
                        l->report.nunread > 1 ? " (and more: see the summary)" : "");
    } else if (l->err[0]) {
        sbx_app_message(app, true, "%s", l->err);
    }
}

static void follow_toggle(struct sbx_app *app, struct live *v)
{
    if (!app->following) {
        sbx_follow_free(v->follow);
        v->follow = NULL;
        sbx_app_message(app, false, "stopped following");
        return;
    }
    if (!v->taken) {
        sbx_app_message(app, false, "following: starts once the load is done");
        return;
    }
    v->follow = sbx_follow_start(&v->l->tl, &v->l->in->import);
    if (!sbx_follow_count(v->follow)) {
        sbx_follow_free(v->follow);
        v->follow = NULL;
        app->following = false;
        sbx_app_message(app, true, "nothing to follow: only local files can be followed, not standard input, pipes or objects in a store");
        return;
    }
    v->next_poll = 0;
    sbx_app_message(app, false, "following: new lines show as they are written (F stops)");
}

/* Takes in what the followed files gained, and analyses the run again. */
static void follow_poll(struct sbx_app *app, struct live *v)
{
    double t0 = now_ms();
    if (!v->follow || t0 < v->next_poll)
        return;
    struct sbx_follow_report rep = {0};
    size_t added = sbx_follow_poll(v->follow, &v->l->tl, &rep);
    for (size_t i = 0; i < rep.nfiles; i++)
        if (rep.files[i].message && rep.files[i].status != SBX_FOLLOW_GREW)
            sbx_app_message(app, true, "%s", rep.files[i].message);
    sbx_follow_report_free(&rep);
    if (added) {
        struct sbx_summary *s = sbx_xmalloc(sizeof *s);
        char err[256];
        struct sbx_summary_opts so = {.allow = v->l->in->allow, .unread = v->l->report.unread,
                                      .nunread = v->l->report.nunread, .skews = v->l->in->skews,
                                      .nskews = v->l->in->nskews};
        if (sbx_summarize(&v->l->tl, &so, s, err, sizeof err)) {
            sbx_app_set_data(app, &v->l->tl, s, false);
            if (v->fsum) {
                sbx_summary_free(v->fsum);
                free(v->fsum);
            }
            v->fsum = s;
        } else {
            free(s);
            sbx_app_set_data(app, &v->l->tl, app->sum, false);
        }
    } else if (sbx_follow_count(v->follow) == 0) {
        app->following = false;
    }
    /* a big run takes a while to analyse again: look less often then */
    v->summarize_ms = added ? now_ms() - t0 : v->summarize_ms;
    v->next_poll = now_ms() + (FOLLOW_POLL_MS > 4 * v->summarize_ms ? FOLLOW_POLL_MS : 4 * v->summarize_ms);
}

static void live_free(struct live *v)
{
    drop_preview(v);
    sbx_follow_free(v->follow);
    if (v->fsum) {
        sbx_summary_free(v->fsum);
        free(v->fsum);
    }
}

/* The loader started on in: a small run loads at once; a big one shows a
 * preview of its start. */
static void start_loading(struct view_opts *o, struct sbx_app *app, struct live *v,
                          const struct sbx_loader_inputs *in)
{
    struct sbx_loader *l = v->l;
    sbx_loader_start(l, in, o->app.threads, true);
    double until = now_ms() + PREVIEW_AFTER_MS;
    while (!sbx_loader_done(l) && now_ms() < until)
        nanosleep(&(struct timespec){0, 5000000}, NULL);
    if (!sbx_loader_done(l) && sbx_loader_preview(in, PREVIEW_BYTES, &v->ptl, &v->psum)) {
        v->have_preview = true;
        sbx_app_set_data(app, &v->ptl, &v->psum, has_preview_source(&v->ptl));
    }
}

/* The store inputs fetched behind the interface, one after another: their
 * progress together on the status line; once every one is in, each input
 * is its cache path and the load starts. False when a fetch failed (the
 * reasons are held for after the screen): the ones after it are not
 * fetched. */
static bool fetch_step(struct view_opts *o, struct sbx_app *app, struct live *v,
                       const struct sbx_loader_inputs *in, struct fetch_behind *fb)
{
    size_t k = 0;
    while (k < fb->n && sbx_s3_behind_done(fb->b[k])) { /* in, or failed: waited for below */
        size_t got, total;
        unsigned long long bytes;
        sbx_s3_behind_progress(fb->b[k], &got, &total, &bytes);
        if (got < total)
            break;
        k++;
    }
    if (k < fb->n && !sbx_s3_behind_done(fb->b[k])) {
        sbx_s3_behind_start(fb->b[k]); /* the next, once the one before is in */
        size_t got = 0, total = 0;
        unsigned long long bytes = 0;
        for (size_t i = 0; i < fb->n; i++) {
            size_t g, t;
            unsigned long long by;
            sbx_s3_behind_progress(fb->b[i], &g, &t, &by);
            got += g, total += t, bytes += by;
        }
        char sz[SBX_NUM_BUFSZ], line[160];
        sbx_size_text((int64_t)bytes, sz);
        snprintf(line, sizeof line, "fetching %zu/%zu objects, %s", got, total,
                 sz + strspn(sz, " "));
        sbx_app_set_progress(app, line);
        return true;
    }
    bool whole = true;
    for (size_t i = 0; i < fb->n && whole; i++) { /* every one in, or fb->b[k] failed */
        char *local = sbx_s3_behind_wait(fb->b[i], true);
        if (local)
            sbx_inputs_fetched(fb->in, fb->input[i], local);
        whole = local != NULL;
    }
    fetch_behind_free(fb);
    if (!whole)
        return false;
    sbx_app_set_progress(app, "");
    start_loading(o, app, v, in);
    fb->loading = true;
    return true;
}

static int interactive(struct view_opts *o, struct sbx_loader *l, const struct sbx_loader_inputs *in,
                       struct fetch_behind *fb)
{
    int cols, rows;
    if (!sbx_screen_begin(o->theme, o->mouse, &cols, &rows))
        return SBX_EXIT_USAGE;
    sbx_msg_hold(true); /* a fetch behind warns after the screen is gone */
    struct sbx_app app;
    struct sbx_app_opts aopts = o->app;
    aopts.background = true;
    sbx_app_init(&app, &aopts, cols, rows);
    app.following = o->follow;
    struct sbx_grid grid;
    sbx_grid_init(&grid, o->app.ascii);
    struct live v = {.l = l};
    if (!fb->n) {
        start_loading(o, &app, &v, in);
        fb->loading = true;
    }
    bool quit = false, failed = false;
    int quit_signal = 0;
    char progress[160] = "";
    while (!quit) {
        if (fb->n) {
            if (!fetch_step(o, &app, &v, in, fb)) {
                failed = true;
                break;
            }
        } else if (!v.taken && sbx_loader_done(l)) {
            take_loaded(&app, &v, o);
            if (app.following) {
                sbx_app_key(&app, SBX_KEY_END, 0, 0);
                follow_toggle(&app, &v);
            }
        } else if (!v.taken) {
            sbx_loader_progress(l, progress, sizeof progress);
            sbx_app_set_progress(&app, progress);
        }
        if (app.following && !sbx_app_busy(&app))
            follow_poll(&app, &v);
        sbx_app_poll(&app);
        sbx_app_draw(&app, &grid);
        sbx_term_draw(&grid);
        int mrow = 0, mcol = 0;
        /* while something runs behind, wake up to show how far it got */
        int wait = fb->n || !v.taken || sbx_app_busy(&app) || sbx_app_review_sending(&app) ? 100
                   : app.following ? FOLLOW_POLL_MS : -1;
        int key = sbx_term_key(wait, &mrow, &mcol);
        int sig = sbx_term_signal();
        if (sig) {
            sbx_term_clear_signal();
            /* Ctrl-C leaves a prompt or stops a search, as in less; otherwise every signal quits */
            if (sig == SIGINT && sbx_app_typing(&app)) {
                sbx_app_stop_typing(&app);
                continue;
            }
            if (sig == SIGINT && sbx_app_busy(&app)) {
                sbx_app_cancel(&app, true);
                continue;
            }
            quit_signal = sig;
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
            follow_toggle(&app, &v);
        if (flags & SBX_APP_EDIT) {
            struct sbx_buf text = SBX_BUF_INIT;
            char err[320];
            bool ok = sbx_term_edit(o->editor, o->tmpdir, sbx_app_edit_text(&app), &text, err, sizeof err);
            sbx_app_edit_done(&app, ok ? (text.p ? text.p : "") : NULL, text.len, err);
            sbx_buf_free(&text);
        }
        if (flags & SBX_APP_OUTPUT)
            sbx_copy_out(&app, true);
    }
    sbx_term_end();
    sbx_review_store_quit(&app); /* lines not sent: said on stderr, the terminal back */
    sbx_app_free(&app);
    sbx_grid_free(&grid);
    live_free(&v);
    sbx_msg_hold(false);
    if (failed)
        return SBX_EXIT_USAGE;
    return quit_signal ? sbx_signal_exit_status(quit_signal) : SBX_EXIT_OK; /* as a shell reports a signal */
}

/* --dump --first-screen: the screen a big input shows first, from the preview. */
static int dump_first_screen(struct view_opts *o, const struct sbx_loader_inputs *in)
{
    struct sbx_timeline tl;
    struct sbx_summary sum;
    if (!sbx_loader_preview(in, PREVIEW_BYTES, &tl, &sum)) {
        sbx_errf("nothing could be previewed (see sbxview --dump without --first-screen)");
        return SBX_EXIT_USAGE;
    }
    int status = dump(o, &tl, &sum);
    sbx_summary_free(&sum);
    sbx_timeline_free(&tl);
    return status;
}

static int run_view(int argc, char **argv, struct sbx_cli_runs *r);

int sbx_cmd_view(int argc, char **argv)
{
    struct sbx_cli_runs r = {0};
    int status = run_view(argc, argv, &r);
    sbx_cli_runs_free(&r);
    return status;
}

static const struct option longopts[] = {
    {"local", no_argument, NULL, 'L'},      {"theme", required_argument, NULL, 'T'},
    {"no-mouse", no_argument, NULL, 'M'},   {"dump", no_argument, NULL, 'D'},
    {"dump-styles", no_argument, NULL, 'S'}, {"size", required_argument, NULL, 'z'},
    {"keys", required_argument, NULL, 'k'}, {"follow", no_argument, NULL, 'F'},
    {"first-screen", no_argument, NULL, 'P'}, {"help", no_argument, NULL, 'h'},
    {"goto", required_argument, NULL, 'G'},  {"review", required_argument, NULL, 'V'},
    {"author", required_argument, NULL, 'U'},
    SBX_CLI_RUNS_LONGOPTS,                  {NULL, 0, NULL, 0},
};
const struct sbx_cli_opts sbx_view_opts = {"-:j:Fh", longopts};
const char sbx_view_exits[] = "0 quit, 2 a usage error, no terminal, or nothing loaded, "
                              "128+N ended by signal N (the terminal put back first)";

static int run_view(int argc, char **argv, struct sbx_cli_runs *r)
{
    struct view_opts o = {.theme = "default", .mouse = true, .cols = 80, .rows = 24,
                          .app.open_on_finding = true};
    o.app.ascii = !utf8_locale();
    const char *visual = getenv("VISUAL"), *editor = getenv("EDITOR"), *tmpdir = getenv("TMPDIR");
    o.editor = visual && *visual ? visual : editor && *editor ? editor : "vi";
    o.tmpdir = tmpdir && *tmpdir ? tmpdir : "/tmp";
    int c;
    optind = 1;
    opterr = 0;
    /* "-": inputs come back in place, so --as applies to those after it */
    while ((c = getopt_long(argc, argv, sbx_view_opts.shorts, longopts, NULL)) != -1) {
        int took = sbx_cli_runs_option(r, c, optarg);
        if (took < 0)
            return SBX_EXIT_USAGE;
        if (took)
            continue;
        switch (c) {
        case 'L': o.app.local = true; break;
        case 'T': o.theme = optarg; break;
        case 'M': o.mouse = false; break;
        case 'D': o.dump = true; break;
        case 'S': o.dump = o.dump_styles = true; break;
        case 'z':
            if (!sbx_parse_size(optarg, &o.cols, &o.rows)) {
                return sbx_bad_value("--size", optarg, "COLSxROWS, like 80x24");
            }
            break;
        case 'k': o.keys = optarg; break;
        case 'V': o.review_file = optarg; break;
        case 'U': o.author = optarg; break;
        case 'F': o.follow = true; break;
        case 'P': o.dump = o.first_screen = true; break;
        case 'G':
            if (strlen(optarg) < SBX_EVID_CHARS || !sbx_evid_prefix_valid(optarg, strlen(optarg))) {
                sbx_errf("--goto wants an event id (10 letters and digits, as check and the detail show them)");
                return SBX_EXIT_USAGE;
            }
            o.app.goto_id = optarg;
            break;
        case 'h': sbx_usage(stdout); return SBX_EXIT_OK;
        default: return sbx_bad_option(c, argv, longopts);
        }
    }
    if (!sbx_cli_runs_rest(r, argc, argv)) /* after "--" */
        return SBX_EXIT_USAGE;
    o.app.threads = r->threads;
    struct sbx_inputs *in = &r->in;
    if (!in->n) {
        return sbx_usage_errorf("no input given (a file, a run folder, or - for stdin)");
    }
    /* inputs in the store, fetched behind: a folder of runs opens its list
     * as its first runs come in; a run or an object, or several inputs,
     * open the interface at once, the fetch's progress on its status line */
    struct sbx_runs runs;
    struct fetch_behind fb = {.in = in};
    bool as_list = in->n == 1 && !in->formats[0] && !o.follow && !o.first_screen, listed = false;
    bool behind = !in->last_as && !o.follow && !o.first_screen;
    size_t in_store = 0;
    for (size_t i = 0; i < in->n; i++)
        in_store += sbx_is_s3_url(in->paths[i]);
    if (behind && in->n == 1 && in_store) {
        /* the review opens its list once the first screen's runs are listed
         * (--dump's screen waits for the whole listing, so it is always the same) */
        struct sbx_s3_behind *b = sbx_s3_fetch_runs(in->paths[0], &runs, &listed,
                                                    as_list && !o.dump ? first_screen_rows() : 0);
        if (!b)
            return SBX_EXIT_USAGE;
        fetch_behind_add(&fb, b, 0);
        if (listed && !as_list) {
            sbx_runs_free(&runs);
            listed = false;
        }
        if (!listed && o.dump) { /* --dump's screen is of the whole run */
            char *local = sbx_s3_behind_wait(b, false);
            fetch_behind_free(&fb);
            if (!local)
                return SBX_EXIT_USAGE;
            sbx_inputs_fetched(in, 0, local);
        }
    } else if (behind && in_store && !o.dump) {
        /* each listed now (its total known, a bad URL said before the
         * screen), fetched one after another behind the interface; the
         * other inputs must exist */
        if (!sbx_inputs_exist(in))
            return SBX_EXIT_USAGE;
        for (size_t i = 0; i < in->n; i++) {
            if (!sbx_is_s3_url(in->paths[i]))
                continue;
            struct sbx_s3_behind *b = sbx_s3_fetch_planned(in->paths[i]);
            if (!b) {
                fetch_behind_free(&fb);
                return SBX_EXIT_USAGE;
            }
            fetch_behind_add(&fb, b, i);
        }
    }
    if (!fb.n && !sbx_inputs_done(in))
        return SBX_EXIT_USAGE;
    o.in = in;
    /* --dump draws no colour, but a theme that cannot load is an error there too */
    struct sbx_theme theme;
    if (!sbx_pick_theme(o.theme, &theme)) {
        fetch_behind_free(&fb); /* first: its listing may still grow the runs */
        if (listed)
            sbx_runs_free(&runs);
        return SBX_EXIT_USAGE;
    }
    struct sbx_loader_inputs li = {.paths = in->paths, .formats = in->formats, .names = in->names,
                                   .n = in->n,
                                   .allow = r->allow, .import = sbx_cli_import_opts(r),
                                   .skews = r->skews, .nskews = r->nskews};
    o.app.import = li.import; /* for the runs the runs list and compare view load */
    o.app.skews = r->skews;
    o.app.nskews = r->nskews;
    o.app.exports = true;
    struct sbx_send_env services;
    sbx_export_settings(&services);
    o.app.services = &services;
    o.app.review_place = review_place;
    o.app.review_place_ctx = &o;
    /* one folder whose subfolders are runs: the runs list (importers/runs.h has the rule) */
    if (listed || (!fb.n && as_list && sbx_runs_discover(in->paths[0], &runs))) {
        if (!listed && in->names[0]) /* a store's folder of runs, fetched whole */
            sbx_runs_sources_under(&runs, in->names[0]);
        runs.review_of = sbx_review_of_run;
        struct sbx_screen_opts so = {.app = o.app, .theme = o.theme, .mouse = o.mouse,
                                     .dump = o.dump, .dump_styles = o.dump_styles,
                                     .cols = o.cols, .rows = o.rows, .keys = o.keys};
        int status = sbx_view_runs(&so, &runs, r->allow);
        fetch_behind_free(&fb); /* after the fill that waited on it */
        sbx_runs_free(&runs);
        return status;
    }
    o.app.inputs = in->given; /* an export's "review again" line names them (s3:// as given) */
    o.app.ninputs = in->n;
    if (o.first_screen)
        return dump_first_screen(&o, &li);
    struct sbx_loader *l = sbx_xmalloc(sizeof *l);
    int status;
    if (o.dump) {
        sbx_loader_start(l, &li, o.app.threads, false);
        sbx_warn_load_report(&l->report);
        status = l->loaded ? dump(&o, &l->tl, l->summarized ? &l->sum : NULL) : SBX_EXIT_USAGE;
    } else {
        status = interactive(&o, l, &li, &fb); /* starts the loader (fb.loading) */
        fetch_behind_free(&fb); /* quit during the fetch: it stops after the requests under way */
        if (!fb.loading) { /* nothing was loaded */
            free(l);
            return status;
        }
        sbx_loader_stop(l); /* quit during a load: it stops within a few MiB */
        sbx_warn_load_report(&l->report);
        if (!l->loaded && !l->report.cancelled)
            status = SBX_EXIT_USAGE;
    }
    sbx_loader_free(l);
    free(l);
    return status;
}
