/* base/selfpath.h: the binary's own path, and folders named beside it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>
#include <unistd.h>

#include "base/selfpath.h"
#include "cases.h"

static void check_case(const struct test_case *c, void *ctx)
{
    (void)ctx;
    if (strcmp(c->table, "beside") != 0)
        case_fail(c, "no such table in this file's runner");
    if (c->n != 2 && c->n != 3)
        case_fail(c, "%zu fields, this table's cases have 2 or 3", c->n);
    char out[256];
    bool ok = sbx_path_beside(c->field[0], c->field[1], out, sizeof out);
    if (c->n == 2 && ok)
        case_fail(c, "%s beside %s: got [%s], want it refused", c->field[1], c->field[0], out);
    if (c->n == 3 && (!ok || strcmp(out, c->field[2]) != 0))
        case_fail(c, "%s beside %s: got [%s], want [%s]", c->field[1], c->field[0],
                  ok ? out : "refused", c->field[2]);
}

static void test_case_file(void **state)
{
    (void)state;
    cases_run("selfpath.test", check_case, NULL);
}

/* Every buffer too small by one byte is refused, never cut; the exact size
 * fits. */
static void test_short_buffers(void **state)
{
    (void)state;
    const char *want = "/usr/share/sbxview/themes";
    size_t need = strlen(want) + 1;
    char out[64];
    for (size_t n = 0; n < need; n++) {
        memset(out, 'x', sizeof out);
        assert_false(sbx_path_beside("/usr/bin/sbxview", "../share/sbxview/themes", out, n));
        for (size_t i = n; i < sizeof out; i++)
            assert_int_equal(out[i], 'x'); /* nothing written past n */
    }
    assert_true(sbx_path_beside("/usr/bin/sbxview", "../share/sbxview/themes", out, need));
    assert_string_equal(out, want);
}

/* The test binary's own path: absolute, and the file that is running. */
static void test_self_exe(void **state)
{
    (void)state;
    char exe[4096];
    assert_true(sbx_self_exe(exe, sizeof exe));
    assert_int_equal(exe[0], '/');
    assert_non_null(strstr(exe, "test_selfpath"));
    assert_int_equal(access(exe, X_OK), 0);
    size_t len = strlen(exe);
    assert_false(sbx_self_exe(exe, len + 1)); /* no room to tell a whole path from a cut one */
    assert_true(sbx_self_exe(exe, len + 2));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_case_file),
        cmocka_unit_test(test_short_buffers),
        cmocka_unit_test(test_self_exe),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
