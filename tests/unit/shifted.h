/* A run folder copied with Runtime's clock moved: every quoted ISO time
 * ("2026-05-04T10:00:01.040Z") in the files whose names start with
 * "runtime" is moved by an offset, the other files (the wrapper's log) are
 * copied as they are. For the tests of the clock rules (analyses/skew.h).
 *
 * Header-only; include after <cmocka.h>. The folders made are the
 * caller's: shifted_run_remove deletes one shifted_run_make made. */
#ifndef SBX_TEST_SHIFTED_H
#define SBX_TEST_SHIFTED_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/buf.h"
#include "base/timefmt.h"

/* Copies one file, moving its quoted times by offset_ms when shift. */
static inline void shifted_copy(const char *from, const char *to, bool shift, int64_t offset_ms)
{
    FILE *in = fopen(from, "r");
    assert_non_null(in);
    struct sbx_buf b = SBX_BUF_INIT;
    int c;
    while ((c = fgetc(in)) != EOF)
        sbx_buf_addc(&b, (char)c);
    fclose(in);
    FILE *out = fopen(to, "w");
    assert_non_null(out);
    for (size_t i = 0; i < b.len; i++) {
        int64_t ns;
        if (shift && b.p[i] == '"' && i + 25 < b.len && b.p[i + 25] == '"' &&
            sbx_time_parse(b.p + i + 1, 24, &ns, NULL)) {
            char t[SBX_TIME_BUFSZ];
            fprintf(out, "\"%s\"", sbx_time_format(ns + offset_ms * INT64_C(1000000), t));
            i += 25;
            continue;
        }
        fputc(b.p[i], out);
    }
    fclose(out);
    sbx_buf_free(&b);
}

/* The run folder `from` copied into the folder dir (made here), Runtime's
 * times moved by offset_ms. */
static inline void shifted_run_into(const char *from, const char *dir, int64_t offset_ms)
{
    assert_int_equal(mkdir(dir, 0700), 0);
    DIR *d = opendir(from);
    assert_non_null(d);
    struct dirent *de;
    while ((de = readdir(d))) {
        if (de->d_name[0] == '.')
            continue;
        char src[1024], dst[1024];
        snprintf(src, sizeof src, "%s/%s", from, de->d_name);
        snprintf(dst, sizeof dst, "%s/%s", dir, de->d_name);
        shifted_copy(src, dst, strncmp(de->d_name, "runtime", 7) == 0, offset_ms);
    }
    closedir(d);
}

/* The same into a new folder under /tmp, its path into dir. */
static inline void shifted_run_make(char *dir, size_t n, const char *from, int64_t offset_ms)
{
    char tmpl[] = "/tmp/sbx-shifted-XXXXXX";
    assert_non_null(mkdtemp(tmpl));
    snprintf(dir, n, "%s/run", tmpl);
    shifted_run_into(from, dir, offset_ms);
}

/* Removes what shifted_run_make made (dir's parent folder with it). */
static inline void shifted_run_remove(const char *dir)
{
    char cmd[1100];
    snprintf(cmd, sizeof cmd, "rm -rf '%.*s'", (int)(strrchr(dir, '/') - dir), dir);
    assert_int_equal(system(cmd), 0);
}

#endif
