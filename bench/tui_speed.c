/* How long the interface takes to answer a key at a given size, on a
 * loaded log: the key handled and the whole screen drawn into the grid
 * (what the terminal then copies is the cells that changed).
 *
 *   tui_speed LOG [COLSxROWS]
 *   tui_speed LOG COLSxROWS --first-builds RUNS [LOG2]
 *
 * Prints one line per key: "key NAME median_ms MAX_ms runs". With
 * --first-builds, instead, how long each view takes to open the first time
 * (a fresh app each run: the data set, the view's key, the screen drawn;
 * the timeline's is the data set and the first screen): one line per view,
 * "view NAME median_ms MAX_ms runs", and with LOG2 (loaded too, its runs
 * interleaved with LOG's) "view2 NAME ..." for it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "importers/load.h"
#include "analyses/summary.h"
#include "app/app.h"
#include "app/keys.h"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Presses the keys of script (one press = the whole script) runs times. */
static void measure(struct sbx_app *a, struct sbx_grid *g, const char *name, const char *script,
                    int runs)
{
    double *t = malloc((size_t)runs * sizeof *t);
    for (int r = 0; r < runs; r++) {
        double t0 = now_ms();
        for (size_t i = 0, n = strlen(script); i < n;) {
            int key, c, w;
            size_t used = sbx_key_parse(script + i, n - i, &key, &c, &w);
            if (!used || used == SIZE_MAX)
                break;
            sbx_app_key(a, key, 1, 0);
            i += used;
        }
        sbx_app_draw(a, g);
        t[r] = now_ms() - t0;
    }
    qsort(t, (size_t)runs, sizeof *t, by_value);
    printf("key %-14s %8.3f %8.3f %d\n", name, t[runs / 2], t[runs - 1], runs);
    free(t);
}

/* One first build of view (key 0: the timeline) on a fresh app, in ms. */
static double first_build(struct sbx_timeline *tl, struct sbx_summary *sum, int cols, int rows,
                          int key)
{
    struct sbx_app_opts o = {0};
    struct sbx_app a;
    struct sbx_grid g;
    sbx_grid_init(&g, false);
    sbx_app_init(&a, &o, cols, rows);
    double t0 = now_ms();
    sbx_app_set_data(&a, tl, sum, false);
    if (key) {
        sbx_app_draw(&a, &g);
        t0 = now_ms();
        sbx_app_key(&a, key, 1, 0);
    }
    sbx_app_draw(&a, &g);
    double t = now_ms() - t0;
    sbx_app_free(&a);
    sbx_grid_free(&g);
    return t;
}

/* Each view's first build on each loaded log (one or two), the logs'
 * runs interleaved so that a slow patch of the machine hurts both alike. */
static void first_builds(struct sbx_timeline *tl, struct sbx_summary *sum, int nlogs, int cols,
                         int rows, int runs)
{
    static const struct {
        const char *name;
        int key; /* 0: the timeline, the view the data opens on */
    } views[] = {
        {"timeline", 0},          {"summary", 's'},          {"files", SBX_KEY_F2},
        {"network", SBX_KEY_F3},  {"detail", SBX_KEY_ENTER}, {"help", '?'},
    };
    double *t[2] = {malloc((size_t)runs * sizeof(double)), malloc((size_t)runs * sizeof(double))};
    for (size_t v = 0; v < sizeof views / sizeof *views; v++) {
        for (int r = 0; r < runs; r++)
            for (int l = 0; l < nlogs; l++)
                t[l][r] = first_build(&tl[l], &sum[l], cols, rows, views[v].key);
        for (int l = 0; l < nlogs; l++) {
            qsort(t[l], (size_t)runs, sizeof *t[l], by_value);
            printf("%s %-14s %8.3f %8.3f %d\n", l ? "view2" : "view", views[v].name, t[l][runs / 2],
                   t[l][runs - 1], runs);
        }
    }
    free(t[0]);
    free(t[1]);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: tui_speed LOG [COLSxROWS]\n");
        return 2;
    }
    int cols = 80, rows = 24;
    if (argc > 2 && sscanf(argv[2], "%dx%d", &cols, &rows) != 2)
        return 2;
    struct sbx_timeline tl;
    sbx_timeline_init(&tl);
    struct sbx_load_report rep = {0};
    const char *paths[] = {argv[1]};
    if (!sbx_load_paths(&tl, paths, 1, NULL, &rep))
        return 2;
    struct sbx_summary sum;
    char err[256];
    if (!sbx_summarize(&tl, NULL, &sum, err, sizeof err))
        return 2;
    if (argc > 4 && strcmp(argv[3], "--first-builds") == 0) {
        struct sbx_timeline tls[2];
        struct sbx_summary sums[2];
        struct sbx_load_report reps[2] = {{0}};
        int nlogs = argc > 5 ? 2 : 1;
        tls[0] = tl;
        sums[0] = sum;
        reps[0] = rep;
        if (nlogs == 2) {
            sbx_timeline_init(&tls[1]);
            const char *second[] = {argv[5]};
            if (!sbx_load_paths(&tls[1], second, 1, NULL, &reps[1]) ||
                !sbx_summarize(&tls[1], NULL, &sums[1], err, sizeof err))
                return 2;
        }
        first_builds(tls, sums, nlogs, cols, rows, atoi(argv[4]) > 0 ? atoi(argv[4]) : 1);
        for (int l = 0; l < nlogs; l++) {
            sbx_summary_free(&sums[l]);
            sbx_load_report_free(&reps[l]);
            sbx_timeline_free(&tls[l]);
        }
        return 0;
    }
    struct sbx_app_opts o = {0};
    struct sbx_app a;
    sbx_app_init(&a, &o, cols, rows);
    sbx_app_set_data(&a, &tl, &sum, false);
    struct sbx_grid g;
    sbx_grid_init(&g, false);
    sbx_app_draw(&a, &g);
    printf("events %zu size %dx%d\n", tl.n, cols, rows);
    measure(&a, &g, "j", "j", 2000);
    measure(&a, &g, "k", "k", 2000);
    measure(&a, &g, "Space", " ", 500);
    measure(&a, &g, "b", "b", 500);
    measure(&a, &g, "G", "G", 50);
    measure(&a, &g, "g", "g", 50);
    measure(&a, &g, "]", "]", 200);
    measure(&a, &g, "Enter(detail)", "G\n", 50);
    measure(&a, &g, "q(back)", "q", 50);
    measure(&a, &g, "s(summary)", "s", 20);
    measure(&a, &g, "q(back)", "q", 20);
    measure(&a, &g, "f(findings)", "f", 9);
    sbx_app_free(&a);
    sbx_grid_free(&g);
    sbx_summary_free(&sum);
    sbx_load_report_free(&rep);
    sbx_timeline_free(&tl);
    return 0;
}
