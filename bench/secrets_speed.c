/* Micro-benchmark: secret scanning speed over a file.
 *
 *   secrets_speed FILE [--lines] [--reps N] [--portable]
 *
 * Reads FILE into memory, scans it N times (default 3) as one text, or line
 * by line with --lines (one scan per line, like one scan per event field),
 * and prints the best MB/s (1 MB = 10^6 bytes) and the number of hits.
 * --portable uses the plain C prefilter instead of SIMD. For scale it also
 * prints how fast memchr reads the same bytes (a file bigger than the CPU
 * caches is bound by memory bandwidth), and with --lines the scan speed on
 * lines already in cache (each line is copied first, as a parser would have
 * touched it; the copy's own time is measured apart and subtracted). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analyses/secrets/secrets.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    struct sbx_buf b = SBX_BUF_INIT;
    char chunk[1 << 16];
    size_t got;
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0)
        sbx_buf_add(&b, chunk, got);
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        sbx_buf_free(&b);
        return NULL;
    }
    *n = b.len;
    return b.p ? b.p : sbx_xstrndup("", 0);
}

int main(int argc, char **argv)
{
    const char *path = NULL;
    int lines = 0, reps = 3;
    unsigned flags = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--lines"))
            lines = 1;
        else if (!strcmp(argv[i], "--portable"))
            flags |= SBX_SECRETS_PORTABLE;
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc)
            reps = atoi(argv[++i]);
        else
            path = argv[i];
    }
    if (!path || reps < 1) {
        fprintf(stderr, "usage: secrets_speed FILE [--lines] [--reps N] [--portable]\n");
        return 2;
    }
    size_t n = 0;
    char *text = slurp(path, &n);
    if (!text) {
        perror(path);
        return 1;
    }
    char err[256];
    struct sbx_secrets *s = sbx_secrets_new_with(flags, err, sizeof err);
    if (!s) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    struct sbx_secrets_scratch *sc = sbx_secrets_scratch_new(s);
    double best = 0;
    size_t hits = 0;
    for (int r = 0; r < reps; r++) {
        double t0 = now();
        hits = 0;
        if (lines) {
            const char *p = text, *end = text + n;
            while (p < end) {
                const char *nl = memchr(p, '\n', (size_t)(end - p));
                size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
                hits += sbx_secrets_scan(s, sc, p, len, NULL, NULL);
                p += len + 1;
            }
        } else {
            hits = sbx_secrets_scan(s, sc, text, n, NULL, NULL);
        }
        double dt = now() - t0;
        if (best == 0 || dt < best)
            best = dt;
    }
    printf("%s: %zu bytes, %s, %zu hits, best of %d: %.3f s, %.0f MB/s\n", path, n,
           lines ? "per line" : "whole file", hits, reps, best, (double)n / best / 1e6);

    double mem = 0;
    for (int r = 0; r < reps; r++) {
        double t0 = now();
        const void *volatile q = memchr(text, '\x01', n);
        (void)q;
        double dt = now() - t0;
        if (mem == 0 || dt < mem)
            mem = dt;
    }
    printf("memchr over the same bytes: %.0f MB/s\n", (double)n / mem / 1e6);

    if (lines) {
        char *copy = sbx_xmalloc(n + 1);
        double t_copy = 0, t_both = 0;
        for (int pass = 0; pass < 2; pass++) {
            double best_pass = 0;
            for (int r = 0; r < reps; r++) {
                double t0 = now();
                const char *p = text, *end = text + n;
                while (p < end) {
                    const char *nl = memchr(p, '\n', (size_t)(end - p));
                    size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
                    memcpy(copy, p, len);
                    if (pass)
                        sbx_secrets_scan(s, sc, copy, len, NULL, NULL);
                    p += len + 1;
                }
                double dt = now() - t0;
                if (best_pass == 0 || dt < best_pass)
                    best_pass = dt;
            }
            *(pass ? &t_both : &t_copy) = best_pass;
        }
        if (t_both > t_copy)
            printf("per line, in cache: %.0f MB/s\n", (double)n / (t_both - t_copy) / 1e6);
        free(copy);
    }
    sbx_secrets_scratch_free(sc);
    sbx_secrets_free(s);
    free(text);
    return 0;
}
