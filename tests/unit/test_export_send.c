/* export/send: the requests of each service, the --dry-run print with its
 * masks, the marker search in listings, the services' error words. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>
#include <openssl/evp.h>

#include "export/send.h"
#include "export/send_internal.h"

#define TOKEN "ghp_unitTOKEN0123456789abcdefABCDEF0123"
#define DIGEST "0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0"
#define HOOK "https://hooks.slack.test/services/T0/B0/hookSECRETpart"

static const struct sbx_send_env ENV = {
    .github_api_url = "https://ghe.test/api/v3/",
    .github_token = TOKEN,
    .gitlab_url = "https://gitlab.test",
    .gitlab_token = "glpat-unitSECRET",
    .jira_url = "https://acme.atlassian.test",
    .jira_user = "me@example.com",
    .jira_token = "jiraSECRET",
    .slack_webhook_url = HOOK,
    .jira_api = 3,
};

static struct sbx_target target(enum sbx_target_kind k)
{
    struct sbx_target t = {.kind = k, .number = 42};
    t.owner = (char *)"acme";
    t.repo = (char *)"agents";
    t.project = (char *)"acme/sub/agents";
    t.key = (char *)"OPS-7";
    return t;
}

static const char MD[] = "## sbxview summary\n\nrefused `evil.test`\n\n<!-- sbxview:" DIGEST " -->\n";

static char *formatted(const struct sbx_send_request *r)
{
    struct sbx_buf b = SBX_BUF_INIT;
    sbx_send_format(&b, r);
    return b.p;
}

static void test_github(void **state)
{
    (void)state;
    struct sbx_target t = target(SBX_TARGET_GITHUB);
    struct sbx_send_request r;
    char err[256];
    assert_true(sbx_send_build(&t, &ENV, MD, strlen(MD), DIGEST, &r, err, sizeof err));
    assert_string_equal(r.method, "POST");
    /* the trailing '/' of the base is dropped */
    assert_string_equal(r.url, "https://ghe.test/api/v3/repos/acme/agents/issues/42/comments");
    assert_string_equal(r.bearer, TOKEN);
    assert_string_equal(r.headers[0], "Accept: application/vnd.github+json");
    assert_string_equal(r.headers[1], "X-GitHub-Api-Version: 2022-11-28");
    assert_string_equal(r.headers[2], "Content-Type: application/json");
    assert_null(r.headers[3]);
    json_t *j = json_loadb(r.body.p, r.body.len, 0, NULL);
    assert_non_null(j);
    assert_int_equal(json_object_size(j), 1);
    assert_string_equal(json_string_value(json_object_get(j, "body")), MD);
    json_decref(j);
    char *shown = formatted(&r);
    assert_non_null(strstr(shown, "POST https://ghe.test/api/v3/repos/acme/agents/issues/42/comments\n"
                                  "Authorization: Bearer ****\n"
                                  "Accept: application/vnd.github+json\n"));
    assert_null(strstr(shown, TOKEN));
    assert_non_null(strstr(shown, "\n\n{\"body\":"));
    free(shown);
    sbx_send_request_free(&r);

    /* the default API, and no token */
    struct sbx_send_env e = ENV;
    e.github_api_url = NULL;
    assert_true(sbx_send_build(&t, &e, MD, strlen(MD), DIGEST, &r, err, sizeof err));
    assert_string_equal(r.url, "https://api.github.com/repos/acme/agents/issues/42/comments");
    sbx_send_request_free(&r);
    e.github_token = NULL;
    assert_false(sbx_send_build(&t, &e, MD, strlen(MD), DIGEST, &r, err, sizeof err));
    assert_non_null(strstr(err, "GITHUB_TOKEN is not set"));
    e = ENV;
    e.github_api_url = "http://ghe.test";
    assert_false(sbx_send_build(&t, &e, MD, strlen(MD), DIGEST, &r, err, sizeof err));
    assert_non_null(strstr(err, "GITHUB_API_URL must be an https:// URL"));
}

static void test_gitlab_jira(void **state)
{
    (void)state;
    char err[256];
    struct sbx_send_request r;
    struct sbx_target t = target(SBX_TARGET_GITLAB);
    assert_true(sbx_send_build(&t, &ENV, MD, strlen(MD), DIGEST, &r, err, sizeof err));
    /* the project's path is one URL-encoded segment */
    assert_string_equal(r.url, "https://gitlab.test/api/v4/projects/acme%2Fsub%2Fagents/issues/42/notes");
    assert_null(r.bearer);
    assert_string_equal(r.headers[0], "PRIVATE-TOKEN: glpat-unitSECRET");
    char *shown = formatted(&r);
    assert_non_null(strstr(shown, "PRIVATE-TOKEN: ****\n"));
    assert_null(strstr(shown, "glpat-unitSECRET"));
    free(shown);
    sbx_send_request_free(&r);

    t = target(SBX_TARGET_JIRA);
    const char adf[] = "{\"type\":\"doc\",\"version\":1,\"content\":[{\"type\":\"paragraph\","
                       "\"content\":[{\"type\":\"text\",\"text\":\"sbxview:" DIGEST "\"}]}]}";
    assert_true(sbx_send_build(&t, &ENV, adf, strlen(adf), DIGEST, &r, err, sizeof err));
    assert_string_equal(r.url, "https://acme.atlassian.test/rest/api/3/issue/OPS-7/comment");
    unsigned char want[64];
    const char cred[] = "me@example.com:jiraSECRET";
    EVP_EncodeBlock(want, (const unsigned char *)cred, (int)strlen(cred));
    char line[128];
    snprintf(line, sizeof line, "Authorization: Basic %s", (char *)want);
    assert_string_equal(r.headers[0], line);
    json_t *j = json_loadb(r.body.p, r.body.len, 0, NULL);
    assert_string_equal(json_string_value(json_object_get(json_object_get(j, "body"), "type")), "doc");
    json_decref(j);
    shown = formatted(&r);
    assert_non_null(strstr(shown, "Authorization: Basic ****\n"));
    assert_null(strstr(shown, (char *)want));
    free(shown);
    sbx_send_request_free(&r);
    /* ADF must be a JSON object */
    assert_false(sbx_send_build(&t, &ENV, "sbxview:" DIGEST, 72, DIGEST, &r, err, sizeof err));

    struct sbx_send_env e = ENV;
    e.jira_api = 2;
    const char text[] = "{noformat}\nls\n{noformat}\nsbxview:" DIGEST;
    assert_true(sbx_send_build(&t, &e, text, strlen(text), DIGEST, &r, err, sizeof err));
    assert_string_equal(r.url, "https://acme.atlassian.test/rest/api/2/issue/OPS-7/comment");
    j = json_loadb(r.body.p, r.body.len, 0, NULL);
    assert_string_equal(json_string_value(json_object_get(j, "body")), text);
    json_decref(j);
    sbx_send_request_free(&r);

    e.jira_user = NULL;
    assert_false(sbx_send_build(&t, &e, text, strlen(text), DIGEST, &r, err, sizeof err));
    assert_non_null(strstr(err, "JIRA_USER is not set"));
}

static void test_slack(void **state)
{
    (void)state;
    char err[256];
    struct sbx_send_request r;
    struct sbx_target t = target(SBX_TARGET_SLACK);
    const char payload[] = "{\"text\":\"```ls```\\nsbxview:" DIGEST "\",\"mrkdwn\":true}";
    assert_true(sbx_send_build(&t, &ENV, payload, strlen(payload), DIGEST, &r, err, sizeof err));
    assert_string_equal(r.url, HOOK);
    assert_string_equal(r.body.p, payload); /* as given */
    char *shown = formatted(&r);
    assert_non_null(strstr(shown, "POST https://hooks.slack.test/****\n"));
    assert_null(strstr(shown, "hookSECRETpart"));
    assert_null(strstr(shown, "services"));
    free(shown);
    sbx_send_request_free(&r);
    /* a webhook cannot be listed */
    assert_false(sbx_send_build_list(&t, &ENV, 0, &r, err, sizeof err));
}

static void test_refusals(void **state)
{
    (void)state;
    char err[256];
    struct sbx_send_request r;
    struct sbx_target t = target(SBX_TARGET_GITHUB);
    /* no marker, the wrong one, or one followed by another hex digit */
    assert_false(sbx_send_build(&t, &ENV, "hello", 5, DIGEST, &r, err, sizeof err));
    assert_non_null(strstr(err, "marker"));
    const char longer[] = "<!-- sbxview:" DIGEST "a -->";
    assert_false(sbx_send_build(&t, &ENV, longer, strlen(longer), DIGEST, &r, err, sizeof err));
    /* a body holding the token is not sent */
    const char leak[] = "token " TOKEN "\n<!-- sbxview:" DIGEST " -->";
    assert_false(sbx_send_build(&t, &ENV, leak, strlen(leak), DIGEST, &r, err, sizeof err));
    assert_null(strstr(err, TOKEN));
    /* path tricks never reach a URL */
    t.owner = (char *)"..";
    assert_false(sbx_send_build(&t, &ENV, MD, strlen(MD), DIGEST, &r, err, sizeof err));
    t = target(SBX_TARGET_JIRA);
    t.key = (char *)"OPS-7/../../admin";
    assert_false(sbx_send_build(&t, &ENV, MD, strlen(MD), DIGEST, &r, err, sizeof err));
    t = target(SBX_TARGET_FILE);
    assert_false(sbx_send_build(&t, &ENV, MD, strlen(MD), DIGEST, &r, err, sizeof err));
}

static void test_listing_requests(void **state)
{
    (void)state;
    char err[256];
    struct sbx_send_request r;
    struct sbx_target t = target(SBX_TARGET_GITHUB);
    assert_true(sbx_send_build_list(&t, &ENV, 0, &r, err, sizeof err));
    assert_string_equal(r.method, "GET");
    assert_string_equal(r.url, "https://ghe.test/api/v3/repos/acme/agents/issues/42");
    assert_int_equal(r.body.len, 0);
    sbx_send_request_free(&r);
    assert_true(sbx_send_build_list(&t, &ENV, 3, &r, err, sizeof err));
    assert_string_equal(r.url, "https://ghe.test/api/v3/repos/acme/agents/issues/42/comments"
                               "?per_page=100&page=3");
    sbx_send_request_free(&r);
    t = target(SBX_TARGET_GITLAB);
    assert_true(sbx_send_build_list(&t, &ENV, 0, &r, err, sizeof err));
    assert_non_null(strstr(r.url, "/notes?sort=desc&order_by=created_at&per_page=100&page=1"));
    sbx_send_request_free(&r);
    t = target(SBX_TARGET_JIRA);
    assert_true(sbx_send_build_list(&t, &ENV, 1, &r, err, sizeof err));
    assert_non_null(strstr(r.url, "/comment?orderBy=-created&maxResults=100&startAt=100"));
    sbx_send_request_free(&r);
}

static void test_find_marker(void **state)
{
    (void)state;
    char *url = NULL;
    unsigned long count = 0;
    struct sbx_target gh = target(SBX_TARGET_GITHUB);
    const char issue[] = "{\"number\":42,\"comments\":250}";
    assert_false(sbx_send_find_marker(&gh, &ENV, issue, strlen(issue), DIGEST, &url, &count));
    assert_int_equal(count, 250);

    const char page[] =
        "[{\"id\":1,\"body\":\"sbxview:" DIGEST "0\",\"html_url\":\"https://gh.test/x#1\"},"
        "{\"id\":2,\"body\":\"<!-- sbxview:" DIGEST " -->\",\"html_url\":\"https://gh.test/x#2\"}]";
    assert_true(sbx_send_find_marker(&gh, &ENV, page, strlen(page), DIGEST, &url, &count));
    assert_string_equal(url, "https://gh.test/x#2");
    free(url);
    const char none[] = "[{\"id\":1,\"body\":\"nothing\"}]";
    assert_false(sbx_send_find_marker(&gh, &ENV, none, strlen(none), DIGEST, &url, &count));
    assert_null(url);
    /* nor one that holds a credential the server was sent */
    const char echo[] = "[{\"id\":2,\"body\":\"sbxview:" DIGEST "\",\"html_url\":\"https://gh.test/" TOKEN "\"}]";
    assert_true(sbx_send_find_marker(&gh, &ENV, echo, strlen(echo), DIGEST, &url, &count));
    assert_null(url);
    /* a URL with a control character is not passed on */
    const char evil[] = "[{\"id\":2,\"body\":\"sbxview:" DIGEST "\",\"html_url\":\"https://gh.test/\\u001b]0;x\"}]";
    assert_true(sbx_send_find_marker(&gh, &ENV, evil, strlen(evil), DIGEST, &url, &count));
    assert_null(url);

    struct sbx_target gl = target(SBX_TARGET_GITLAB);
    const char notes[] = "[{\"id\":77,\"body\":\"x\\n<!-- sbxview:" DIGEST " -->\"}]";
    assert_true(sbx_send_find_marker(&gl, &ENV, notes, strlen(notes), DIGEST, &url, &count));
    assert_string_equal(url, "https://gitlab.test/acme/sub/agents/-/issues/42#note_77");
    free(url);

    struct sbx_target jr = target(SBX_TARGET_JIRA);
    const char comments[] =
        "{\"comments\":[{\"id\":\"10001\",\"body\":{\"type\":\"doc\",\"version\":1,\"content\":"
        "[{\"type\":\"paragraph\",\"content\":[{\"type\":\"text\",\"text\":\"sbxview:" DIGEST
        "\"}]}]}}]}";
    assert_true(sbx_send_find_marker(&jr, &ENV, comments, strlen(comments), DIGEST, &url, &count));
    assert_string_equal(url, "https://acme.atlassian.test/browse/OPS-7?focusedCommentId=10001");
    free(url);
    /* not JSON at all */
    assert_false(sbx_send_find_marker(&jr, &ENV, "<html>", 6, DIGEST, &url, &count));
}

static void test_comment_url_and_words(void **state)
{
    (void)state;
    struct sbx_target gh = target(SBX_TARGET_GITHUB);
    const char created[] = "{\"id\":5,\"html_url\":\"https://github.test/acme/agents/issues/42#issuecomment-5\"}";
    char *url = sbx_send_comment_url(&gh, &ENV, created, strlen(created));
    assert_string_equal(url, "https://github.test/acme/agents/issues/42#issuecomment-5");
    free(url);
    struct sbx_target sl = target(SBX_TARGET_SLACK);
    assert_null(sbx_send_comment_url(&sl, &ENV, "ok", 2));

    struct sbx_send_request r;
    char err[256];
    assert_true(sbx_send_build(&gh, &ENV, MD, strlen(MD), DIGEST, &r, err, sizeof err));
    struct sbx_buf m = SBX_BUF_INIT;
    const char gh422[] = "{\"message\":\"Validation Failed\",\"errors\":[{\"resource\":\"IssueComment\","
                         "\"code\":\"custom\",\"field\":\"body\",\"message\":\"body is too long\"}]}";
    sbx_send_service_message(&m, gh422, strlen(gh422), &r);
    assert_non_null(strstr(m.p, "Validation Failed"));
    assert_non_null(strstr(m.p, "body is too long"));
    sbx_buf_clear(&m);
    /* escapes made harmless, an echoed token masked */
    const char hostile[] = "{\"message\":\"bad \\u001b]0;pwned\\u0007 " TOKEN " \\u202e\"}";
    sbx_send_service_message(&m, hostile, strlen(hostile), &r);
    assert_null(strstr(m.p, TOKEN));
    assert_non_null(strstr(m.p, "****"));
    assert_null(memchr(m.p, 0x1b, m.len));
    assert_null(memchr(m.p, 0x07, m.len));
    assert_null(strstr(m.p, "\xe2\x80\xae"));
    sbx_buf_clear(&m);
    const char jira[] = "{\"errorMessages\":[\"Issue does not exist\"],\"errors\":{}}";
    sbx_send_service_message(&m, jira, strlen(jira), &r);
    assert_string_equal(m.p, "Issue does not exist");
    sbx_buf_clear(&m);
    sbx_send_service_message(&m, "invalid_payload", 15, &r);
    assert_string_equal(m.p, "invalid_payload");
    sbx_buf_clear(&m);
    /* a Slack answer echoing the webhook's last part alone: masked */
    struct sbx_target sl2 = target(SBX_TARGET_SLACK);
    struct sbx_send_request rs;
    const char payload[] = "{\"text\":\"sbxview:" DIGEST "\"}";
    assert_true(sbx_send_build(&sl2, &ENV, payload, strlen(payload), DIGEST, &rs, err, sizeof err));
    sbx_send_service_message(&m, "no_such_hook hookSECRETpart", 27, &rs);
    assert_string_equal(m.p, "no_such_hook ****");
    sbx_buf_clear(&m);
    sbx_send_request_free(&rs);
    /* long words are cut on a character boundary */
    struct sbx_buf big = SBX_BUF_INIT;
    sbx_buf_adds(&big, "{\"message\":\"");
    for (int i = 0; i < 400; i++)
        sbx_buf_adds(&big, "é");
    sbx_buf_adds(&big, "\"}");
    sbx_send_service_message(&m, big.p, big.len, &r);
    assert_true(m.len < 340);
    assert_non_null(strstr(m.p, "…"));
    for (size_t i = 0; i + 3 < m.len; i += 2) /* é é … : all whole characters */
        assert_true((unsigned char)m.p[i] == 0xc3 || (unsigned char)m.p[i] == 0xe2);
    sbx_buf_free(&big);
    sbx_buf_free(&m);
    sbx_send_request_free(&r);
}

static void test_printable_and_host(void **state)
{
    (void)state;
    struct sbx_buf b = SBX_BUF_INIT;
    sbx_send_url_host(&b, "https://user:pw@hooks.slack.test:8443/services/x?y");
    assert_string_equal(b.p, "hooks.slack.test");
    sbx_buf_clear(&b);
    sbx_send_url_host(&b, "https://[::1]:443/x");
    assert_string_equal(b.p, "[::1]");
    sbx_buf_clear(&b);
    sbx_send_printable(&b, "a\xc2\x9b" "b\xff" "c\n", 7, 100, NULL, 0);
    assert_string_equal(b.p, "a?b?c ");
    sbx_buf_free(&b);
    assert_string_equal(sbx_send_secret_vars(SBX_TARGET_JIRA), "JIRA_USER and JIRA_TOKEN");
}

static void test_post_refused_early(void **state)
{
    (void)state;
    /* nothing is sent: the base URL is not https; the message names it */
    struct sbx_send_env e = ENV;
    e.gitlab_url = "http://gitlab.test";
    struct sbx_target t = target(SBX_TARGET_GITLAB);
    struct sbx_send_result res;
    assert_false(sbx_send_post(&t, &e, MD, strlen(MD), DIGEST, NULL, &res));
    assert_int_equal(res.status, SBX_SEND_FAILED);
    assert_int_equal(res.posts, 0);
    assert_non_null(strstr(res.message, "GITLAB_URL must be an https:// URL"));
    sbx_send_result_free(&res);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_github),
        cmocka_unit_test(test_gitlab_jira),
        cmocka_unit_test(test_slack),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_listing_requests),
        cmocka_unit_test(test_find_marker),
        cmocka_unit_test(test_comment_url_and_words),
        cmocka_unit_test(test_printable_and_host),
        cmocka_unit_test(test_post_refused_early),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
