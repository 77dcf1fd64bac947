/* Editing the comment an export posted before (export/service.h's edit):
 * each service that can edit builds the comment's own URL from its id —
 * never from a URL in the server's answer — and its verb; a comment with
 * no usable id is not edited. A table. Jira's edit by the id the review
 * file kept, the ids read from answers, and what an export keeps of a post
 * for the next one (export/posted.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "export/posted.h"
#include "export/review_write.h"
#include "export/service.h"
#include "importers/review.h"

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

/* Jira edits the comment whose id the review file kept (hostile: only
 * digits make a URL); the other services keep no id. */
static void edits_by_kept_id(void **state)
{
    (void)state;
    static const struct {
        const char *id, *url; /* url NULL: refused */
    } cases[] = {
        {"10042", "https://j.test/rest/api/3/issue/OPS-1/comment/10042"},
        {"1", "https://j.test/rest/api/3/issue/OPS-1/comment/1"},
        {"12345678901234567890", "https://j.test/rest/api/3/issue/OPS-1/comment/12345678901234567890"},
        {"123456789012345678901", NULL},
        {"", NULL},
        {"12a", NULL},
        {"../1", NULL},
        {"1/2", NULL},
        {"1?x=2", NULL},
        {" 1", NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        struct sbx_buf u = SBX_BUF_INIT;
        sbx_buf_adds(&u, "https://j.test/rest/api/3/issue/OPS-1/comment");
        const char *method = NULL;
        bool ok = sbx_service_jira.edit_kept(cases[i].id, &u, &method);
        if (ok != (cases[i].url != NULL))
            fail_msg("jira id '%s': edit %s", cases[i].id, ok ? "made" : "refused");
        if (ok) {
            assert_string_equal(u.p, cases[i].url);
            assert_string_equal(method, "PUT");
        }
        sbx_buf_free(&u);
    }
    assert_int_equal(sbx_send_memory_of(SBX_TARGET_JIRA), SBX_SEND_EDITS_ID);
    assert_int_equal(sbx_send_memory_of(SBX_TARGET_SLACK), SBX_SEND_REPLACES);
    assert_int_equal(sbx_send_memory_of(SBX_TARGET_GITHUB), SBX_SEND_FINDS);
    assert_int_equal(sbx_send_memory_of(SBX_TARGET_GITLAB), SBX_SEND_FINDS);
    assert_int_equal(sbx_send_memory_of(SBX_TARGET_FILE), SBX_SEND_FINDS);
}

/* The id an answer names: a positive integer or a string of id characters. */
static void comment_ids(void **state)
{
    (void)state;
    static const struct {
        const char *json, *id; /* id "": none */
    } cases[] = {
        {"{\"id\": \"10042\", \"self\": \"https://x\"}", "10042"},
        {"{\"id\": 77}", "77"},
        {"{\"id\": \"a_B-9\"}", "a_B-9"},
        {"{\"id\": 0}", ""},
        {"{\"id\": -5}", ""},
        {"{\"id\": \"\"}", ""},
        {"{\"id\": \"1/../2\"}", ""},
        {"{\"id\": \"\\u001b[2J\"}", ""},
        {"{\"id\": \"0123456789012345678901234567890123456789012345678901234567890123\"}", "0123456789012345678901234567890123456789012345678901234567890123"},
        {"{\"id\": \"01234567890123456789012345678901234567890123456789012345678901234\"}", ""},
        {"{\"id\": 1.5}", ""},
        {"[{\"id\": 3}]", ""},
        {"ok", ""},
        {"", ""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char id[SBX_SEND_ID_MAX];
        bool got = sbx_send_comment_id(cases[i].json, strlen(cases[i].json), id);
        if (got != (cases[i].id[0] != '\0') || strcmp(id, cases[i].id) != 0)
            fail_msg("%s: id '%s', wanted '%s'", cases[i].json, id, cases[i].id);
    }
}

/* What an export keeps after a send, and what the next one finds: only for
 * the services that need it, only a post or an edit, Jira only with an id
 * and its server (the base URL's host and port, lower case, never its
 * user info or path), found again only on that server. */
static void kept_posts(void **state)
{
    (void)state;
    static const char E[] = "c17ff8c752384f10fdedcc676f498ff7bf401083b2637ef9ad43d34392e3fdba";
    static const char B[] = "5a2cb2cf496305a1afcb8c7bf5207f7a2dd0fddf1d1b2e6234a6787c4915e4f2";
    struct sbx_body_info info = {0};
    memcpy(info.review_marker, E, sizeof E);
    memcpy(info.marker, B, sizeof B);
    static const struct {
        const char *to;
        enum sbx_send_status status;
        const char *id;
        const char *url;    /* JIRA_URL */
        const char *server; /* what is kept of it; NULL: none */
        bool kept;
    } cases[] = {
        {"jira:OPS-1", SBX_SEND_POSTED, "10042", "https://jira.example.com", "jira.example.com", true},
        {"jira:OPS-1", SBX_SEND_EDITED, "10042", "https://Ann:s3cret@JIRA.Example.com:8443/jira/",
         "jira.example.com:8443", true},
        {"jira:OPS-1", SBX_SEND_POSTED, "10042", "https://[::1]:9/", "[::1]:9", true},
        {"jira:OPS-1", SBX_SEND_POSTED, "10042", "https://a@b@jira.example.com", "jira.example.com", true},
        {"jira:OPS-1", SBX_SEND_POSTED, "10042", NULL, NULL, false},  /* no server to keep it for */
        {"jira:OPS-1", SBX_SEND_POSTED, "10042", "https://", NULL, false},
        {"jira:OPS-1", SBX_SEND_POSTED, "10042", "https://jira_x.example.com", NULL, false},
        {"jira:OPS-1", SBX_SEND_POSTED, "", "https://jira.example.com", NULL, false},
        {"jira:OPS-1", SBX_SEND_EXISTED, "10042", "https://jira.example.com", NULL, false},
        {"jira:OPS-1", SBX_SEND_FAILED, "10042", "https://jira.example.com", NULL, false},
        {"slack:", SBX_SEND_POSTED, "", "https://jira.example.com", NULL, true},
        {"slack:", SBX_SEND_FAILED, "", NULL, NULL, false},
        {"github:o/r#1", SBX_SEND_POSTED, "5", NULL, NULL, false},
        {"gitlab:g/p#1", SBX_SEND_EDITED, "5", NULL, NULL, false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        struct sbx_target t;
        char err[256];
        assert_true(sbx_target_parse(cases[i].to, &t, err, sizeof err));
        struct sbx_send_result res = {.status = cases[i].status};
        snprintf(res.comment_id, sizeof res.comment_id, "%s", cases[i].id);
        struct sbx_review_post p;
        struct sbx_send_env env = {.jira_url = cases[i].url};
        bool kept = sbx_export_posted(&t, &env, &info, &res, "ann", 1000000000, &p);
        if (kept != cases[i].kept)
            fail_msg("%s, status %d: %s", cases[i].to, cases[i].status, kept ? "kept" : "not kept");
        if (kept) {
            /* written to a review and read back, the next export finds it */
            struct sbx_buf line = SBX_BUF_INIT;
            sbx_review_post_line(&p, &line);
            struct sbx_review r;
            sbx_review_init(&r);
            sbx_review_read_bytes(&r, sbx_review_add_file(&r, "f"), line.p, line.len);
            const struct sbx_review_post *e = sbx_export_earlier(&r, &t, &env, E);
            assert_non_null(e);
            assert_string_equal(e->target, cases[i].to);
            assert_string_equal(e->body, B);
            if (t.kind == SBX_TARGET_JIRA)
                assert_string_equal(e->comment, cases[i].id);
            else
                assert_null(e->comment);
            if (cases[i].server) {
                assert_non_null(e->server);
                assert_string_equal(e->server, cases[i].server);
                assert_null(strstr(line.p, "s3cret"));
                /* another server (another host, port or none) finds nothing */
                static const char *const others[] = {"https://jira.other.example",
                                                     "https://jira.example.com:444", NULL};
                for (size_t k = 0; k < 3; k++) {
                    struct sbx_send_env o = {.jira_url = others[k]};
                    assert_null(sbx_export_earlier(&r, &t, &o, E));
                }
            } else {
                assert_null(e->server);
            }
            assert_null(sbx_export_earlier(&r, &t, &env, B)); /* another export */
            sbx_review_free(&r);
            sbx_buf_free(&line);
            sbx_review_post_free(&p);
        }
        sbx_target_free(&t);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(edits), cmocka_unit_test(edits_by_kept_id),
                                       cmocka_unit_test(comment_ids), cmocka_unit_test(kept_posts)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
