/* Editing the comment an export posted before (export/service.h's edit):
 * each service that can edit builds the comment's own URL from its id —
 * never from a URL in the server's answer — and its verb; a comment with
 * no usable id is not edited. A table. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "export/service.h"

static void edits(void **state)
{
    (void)state;
    static const struct {
        const struct sbx_service *svc;
        const char *post, *comment, *url, *method; /* url NULL: not edited */
    } cases[] = {
        {&sbx_service_github, "https://api.test/repos/o/r/issues/7/comments",
         "{\"id\": 42, \"url\": \"https://evil.test/x\"}", "https://api.test/repos/o/r/issues/comments/42", "PATCH"},
        {&sbx_service_github, "https://api.test/repos/o/r/issues/7/comments", "{\"id\": \"42\"}", NULL, NULL},
        {&sbx_service_github, "https://api.test/repos/o/r/issues/7/comments", "{\"id\": 0}", NULL, NULL},
        {&sbx_service_github, "https://api.test/repos/o/r/issues/7/comments", "{}", NULL, NULL},
        {&sbx_service_gitlab, "https://gl.test/api/v4/projects/g%2Fp/issues/7/notes",
         "{\"id\": 9, \"web_url\": \"https://evil.test/\"}", "https://gl.test/api/v4/projects/g%2Fp/issues/7/notes/9", "PUT"},
        {&sbx_service_gitlab, "https://gl.test/api/v4/projects/g%2Fp/issues/7/notes", "{\"id\": -3}", NULL, NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        json_t *c = json_loads(cases[i].comment, 0, NULL);
        assert_non_null(c);
        struct sbx_buf u = SBX_BUF_INIT;
        sbx_buf_adds(&u, cases[i].post);
        const char *method = NULL;
        bool ok = cases[i].svc->edit(c, &u, &method);
        if (ok != (cases[i].url != NULL))
            fail_msg("%s %s: edit %s", cases[i].svc->name, cases[i].comment, ok ? "made" : "refused");
        if (ok) {
            assert_string_equal(u.p, cases[i].url);
            assert_string_equal(method, cases[i].method);
        }
        sbx_buf_free(&u);
        json_decref(c);
    }
    /* the services that cannot edit a post say so */
    assert_null(sbx_service_slack.edit);
    assert_null(sbx_service_file.edit);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(edits)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
