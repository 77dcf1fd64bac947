/* Micro-benchmark for importers/json/jsonscan: maps a JSONL file, scans every
 * line on one core and prints lines, valid lines, bytes, seconds and MB/s.
 *
 *   jsonscan_speed [--jansson | --lines] [--repeat N] FILE
 *
 * --jansson times json_loadb(JSON_REJECT_DUPLICATES) per line instead, and
 * --lines only splits lines (the `wc -l` floor), for comparison. */
#include "importers/json/jsonscan.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

enum mode { MODE_SCAN, MODE_JANSSON, MODE_LINES };

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int usage(void)
{
    fprintf(stderr, "usage: jsonscan_speed [--jansson | --lines] [--repeat N] FILE\n");
    return 2;
}

int main(int argc, char **argv)
{
    enum mode mode = MODE_SCAN;
    const char *path = NULL;
    long repeat = 1;
    for (int a = 1; a < argc; a++) {
        if (strcmp(argv[a], "--jansson") == 0)
            mode = MODE_JANSSON;
        else if (strcmp(argv[a], "--lines") == 0)
            mode = MODE_LINES;
        else if (strcmp(argv[a], "--repeat") == 0 && a + 1 < argc)
            repeat = strtol(argv[++a], NULL, 10);
        else if (argv[a][0] == '-' || path)
            return usage();
        else
            path = argv[a];
    }
    if (!path || repeat < 1)
        return usage();

    int fd = open(path, O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        fprintf(stderr, "jsonscan_speed: %s: %s\n", path, strerror(errno));
        return 1;
    }
    size_t size = (size_t)st.st_size;
    const char *data = "";
    if (size) {
        void *map = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (map == MAP_FAILED) {
            fprintf(stderr, "jsonscan_speed: mmap %s: %s\n", path, strerror(errno));
            return 1;
        }
        data = map;
        madvise(map, size, MADV_SEQUENTIAL);
        /* touch every page first, so the timing is of scanning, not disk */
        volatile unsigned char sink = 0;
        for (size_t i = 0; i < size; i += 4096)
            sink ^= (unsigned char)data[i];
        (void)sink;
    }
    close(fd);

    struct sbx_jscan s;
    sbx_jscan_init(&s);
    size_t lines = 0, valid = 0;
    double best = 0;
    for (long r = 0; r < repeat; r++) {
        lines = valid = 0;
        double t0 = now();
        const char *p = data, *end = data + size;
        while (p < end) {
            const char *nl = memchr(p, '\n', (size_t)(end - p));
            const char *le = nl ? nl : end;
            size_t len = (size_t)(le - p);
            lines++;
            if (mode == MODE_SCAN) {
                valid += sbx_jscan_line(&s, p, len);
            } else if (mode == MODE_JANSSON) {
                json_t *j = json_loadb(p, len, JSON_REJECT_DUPLICATES, NULL);
                valid += j && json_is_object(j);
                json_decref(j);
            }
            p = nl ? nl + 1 : end;
        }
        double t = now() - t0;
        if (r == 0 || t < best)
            best = t;
    }
    sbx_jscan_free(&s);

    const char *name = mode == MODE_SCAN ? "jsonscan" : mode == MODE_JANSSON ? "jansson" : "lines";
    printf("%s: %zu lines, %zu valid, %zu bytes, %.3f s, %.1f MB/s\n", name, lines,
           mode == MODE_LINES ? lines : valid, size, best,
           best > 0 ? (double)size / 1e6 / best : 0.0);
    return 0;
}
