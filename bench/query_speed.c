/* Times the terminal view's search over a whole log: loads LOG (as sbxview
 * does), compiles PATTERN as a SEARCH, runs sbx_query_run RUNS times (5) on
 * every online CPU (at most 8) and prints one machine-readable line:
 *
 *   query_speed: events=N matches=M median_s=S min_s=S threads=T runs=R
 *
 * usage: query_speed [--threads T] [--filter] LOG PATTERN [RUNS]
 * (--filter compiles PATTERN as a filter expression instead). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "importers/load.h"
#include "query/query.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static int usage(void)
{
    fprintf(stderr, "usage: query_speed [--threads T] [--filter] LOG PATTERN [RUNS]\n");
    return 2;
}

int main(int argc, char **argv)
{
    int threads = 0, a = 1;
    enum sbx_query_kind kind = SBX_QUERY_SEARCH;
    for (; a < argc && argv[a][0] == '-' && argv[a][1] == '-'; a++) {
        if (strcmp(argv[a], "--threads") == 0 && a + 1 < argc)
            threads = atoi(argv[++a]);
        else if (strcmp(argv[a], "--filter") == 0)
            kind = SBX_QUERY_FILTER;
        else
            return usage();
    }
    if (argc - a < 2 || argc - a > 3)
        return usage();
    const char *log = argv[a], *pattern = argv[a + 1];
    long runs = argc - a == 3 ? strtol(argv[a + 2], NULL, 10) : 5;
    if (runs < 1)
        return usage();

    struct sbx_timeline tl;
    sbx_timeline_init(&tl);
    struct sbx_load_opts lo = {0};
    struct sbx_load_report rep = {0};
    const char *paths[] = {log};
    double t0 = now();
    if (sbx_load_paths(&tl, paths, 1, &lo, &rep) != 1 || rep.nerrors) {
        fprintf(stderr, "query_speed: %s: %s\n", log, rep.nerrors ? rep.errors[0] : "not loaded");
        return 1;
    }
    double load_s = now() - t0;
    sbx_load_report_free(&rep);

    char err[256];
    struct sbx_query_time tm = {sbx_query_day_start(tl.n ? sbx_tl_at(&tl, 0)->start : 0, false), false};
    struct sbx_query *q = sbx_query_compile(kind, pattern, strlen(pattern), &tm, err, sizeof err);
    if (!q) {
        fprintf(stderr, "query_speed: %s\n", err);
        return 1;
    }
    double *t = calloc((size_t)runs, sizeof *t);
    size_t matches = 0;
    struct sbx_query_job job = {.threads = threads};
    for (long r = 0; r < runs; r++) {
        uint32_t *out;
        double s = now();
        matches = sbx_query_run(q, &tl, NULL, 0, &out, &job);
        t[r] = now() - s;
        free(out);
    }
    qsort(t, (size_t)runs, sizeof *t, cmp_double);
    double median = runs % 2 ? t[runs / 2] : (t[runs / 2 - 1] + t[runs / 2]) / 2;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    int used = threads > 0 ? threads : (int)(cpus < 1 ? 1 : cpus > 8 ? 8 : cpus);
    printf("query_speed: events=%zu matches=%zu median_s=%.4f min_s=%.4f threads=%d runs=%ld "
           "load_s=%.3f too_complex=%zu\n",
           tl.n, matches, median, t[0], used, runs, load_s, (size_t)job.too_complex);
    free(t);
    sbx_query_free(q);
    sbx_timeline_free(&tl);
    return 0;
}
