/* Helpers the diff and manifest tests share: the fixtures made by the real
 * tools (tests/fixtures/mdiff/), and a temporary run folder to load. Header-
 * only (each test is one program); include after <cmocka.h>. The bytes
 * mdifftest_fixture returns and the path mdifftest_put returns are the
 * caller's to free; the folder is removed by mdifftest_teardown. */
#ifndef SBX_TEST_MDIFFTEST_H
#define SBX_TEST_MDIFFTEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"

/* tests/fixtures/mdiff/NAME, found beside this file or from the top of the
 * tree. */
static inline char *mdifftest_fixture(const char *name, size_t *n)
{
    char path[4096];
    const char *me = __FILE__, *slash = strrchr(me, '/');
    int k = slash ? (int)(slash - me) : 0;
    snprintf(path, sizeof path, "%.*s%s../fixtures/mdiff/%s", k, me, slash ? "/" : "", name);
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        snprintf(path, sizeof path, "tests/fixtures/mdiff/%s", name);
        fp = fopen(path, "rb");
    }
    assert_non_null(fp);
    struct sbx_buf b = SBX_BUF_INIT;
    char chunk[4096];
    size_t got;
    while ((got = fread(chunk, 1, sizeof chunk, fp)) > 0)
        sbx_buf_add(&b, chunk, got);
    fclose(fp);
    *n = b.len;
    return b.p;
}

struct fixture_dir {
    char dir[64];
};

/* A new folder from tmpl (mkdtemp's form) as *state. */
static inline int mdifftest_setup(void **state, const char *tmpl)
{
    struct fixture_dir *fx = calloc(1, sizeof *fx);
    snprintf(fx->dir, sizeof fx->dir, "%s", tmpl);
    if (!mkdtemp(fx->dir))
        return -1;
    *state = fx;
    return 0;
}

static inline int mdifftest_teardown(void **state)
{
    struct fixture_dir *fx = *state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", fx->dir);
    int rc = system(cmd);
    free(fx);
    return rc;
}

/* Writes data as the folder's file name; returns its path. */
static inline char *mdifftest_put(const struct fixture_dir *fx, const char *name, const char *data,
                                  size_t n)
{
    struct sbx_buf path = SBX_BUF_INIT;
    sbx_buf_addf(&path, "%s/%s", fx->dir, name);
    FILE *fp = fopen(path.p, "wb");
    assert_non_null(fp);
    assert_int_equal(fwrite(data, 1, n, fp), n);
    fclose(fp);
    return path.p;
}

#endif
