/* analyses/hostindex.h: names to positions, through growth, with
 * replacement, colliding names and names that are prefixes of others. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analyses/hostindex.h"

static void finds_what_was_put(void **state)
{
    (void)state;
    enum { N = 50000 };
    char(*names)[32] = malloc(N * sizeof *names);
    struct sbx_hostindex ix = SBX_HOSTINDEX_INIT;
    assert_int_equal(sbx_hostindex_find(&ix, "a", 1), SIZE_MAX); /* empty */
    for (size_t i = 0; i < N; i++) {
        snprintf(names[i], sizeof names[i], "h%zu.example", i);
        sbx_hostindex_put(&ix, names[i], strlen(names[i]), i);
        assert_int_equal(ix.n, i + 1);
        assert_true(ix.nslots >= 2 * ix.n);
    }
    for (size_t i = 0; i < N; i++)
        assert_int_equal(sbx_hostindex_find(&ix, names[i], strlen(names[i])), i);
    /* a prefix, a longer name, a name never put: not found */
    assert_int_equal(sbx_hostindex_find(&ix, "h1.exampl", 9), SIZE_MAX);
    assert_int_equal(sbx_hostindex_find(&ix, "h1.examplex", 11), SIZE_MAX);
    assert_int_equal(sbx_hostindex_find(&ix, "nowhere", 7), SIZE_MAX);
    /* by length, not by the terminator: "h12" within "h12.example" */
    assert_int_equal(sbx_hostindex_find(&ix, names[12], 11), 12);
    /* put again: replaced, not added */
    sbx_hostindex_put(&ix, names[7], strlen(names[7]), 99);
    assert_int_equal(ix.n, N);
    assert_int_equal(sbx_hostindex_find(&ix, names[7], strlen(names[7])), 99);
    sbx_hostindex_free(&ix);
    assert_int_equal(sbx_hostindex_find(&ix, names[0], strlen(names[0])), SIZE_MAX);
    free(names);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(finds_what_was_put)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
