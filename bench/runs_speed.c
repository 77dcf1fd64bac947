/* How soon the runs list shows and fills, on a folder of runs: the folder
 * read (which subfolders are runs), the pool started and the first screen
 * drawn into the grid (what the terminal copies); then the time until every
 * row is read, polling as the interface does; then a sort key's answer on
 * the full list.
 *
 *   runs_speed FOLDER [COLSxROWS] [THREADS]
 *
 * Prints: "runs N", "first_screen MS", "rows_at_first_screen K",
 * "full_list MS", "sort_key MS". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "importers/runs.h"
#include "app/app_runs.h"
#include "app/keys.h"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: runs_speed FOLDER [COLSxROWS] [THREADS]\n");
        return 2;
    }
    int cols = 80, rows = 24, threads = argc > 3 ? atoi(argv[3]) : 0;
    if (argc > 2 && !sbx_parse_size(argv[2], &cols, &rows))
        return 2;
    double t0 = now_ms();
    struct sbx_runs runs;
    if (!sbx_runs_discover(argv[1], &runs)) {
        fprintf(stderr, "runs_speed: %s is not a folder of runs\n", argv[1]);
        return 2;
    }
    struct sbx_runs_fill *fill = sbx_runs_fill_start(&runs, NULL, NULL, threads, true);
    struct sbx_app_opts opts = {.threads = threads, .background = true};
    struct sbx_runs_app a;
    sbx_runs_app_init(&a, &opts, NULL, &runs, cols, rows);
    struct sbx_grid g;
    sbx_grid_init(&g, false);
    sbx_runs_app_draw(&a, &g);
    double first = now_ms() - t0;
    size_t at_first = atomic_load(&runs.done);
    /* the interface wakes every 100 ms while rows come in; a tighter poll
     * here times the last row, not the last wake-up */
    while (!sbx_runs_fill_done(fill)) {
        nanosleep(&(struct timespec){0, 2000000}, NULL);
        if (sbx_runs_app_poll(&a))
            sbx_runs_app_draw(&a, &g);
    }
    sbx_runs_app_poll(&a);
    sbx_runs_app_draw(&a, &g);
    double full = now_ms() - t0;
    double s0 = now_ms();
    sbx_runs_app_key(&a, '>', 0, 0);
    sbx_runs_app_draw(&a, &g);
    double sort = now_ms() - s0;
    printf("runs %zu\nfirst_screen %.1f\nrows_at_first_screen %zu\nfull_list %.1f\nsort_key %.2f\n",
           runs.n, first, at_first, full, sort);
    sbx_grid_free(&g);
    sbx_runs_app_free(&a);
    sbx_runs_fill_free(fill);
    sbx_runs_free(&runs);
    return 0;
}
