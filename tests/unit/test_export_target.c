/* export/target.h: every --to form, and every rule that refuses one. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "export/body.h"
#include "export/target.h"

static void ok(const char *s, struct sbx_target *t)
{
    char err[256] = "";
    if (!sbx_target_parse(s, t, err, sizeof err))
        fail_msg("%s refused: %s", s, err);
}

static void refused(const char *s, const char *why)
{
    struct sbx_target t;
    char err[512] = "";
    if (sbx_target_parse(s, &t, err, sizeof err))
        fail_msg("%s accepted", s);
    assert_non_null(strstr(err, why));
    /* the argument itself is never echoed: it may hold a token */
    if (strlen(s) > 6)
        assert_null(strstr(err, s));
    sbx_target_free(&t);
}

static void files(void **state)
{
    (void)state;
    struct sbx_target t;
    ok("file:out/summary.md", &t);
    assert_int_equal(t.kind, SBX_TARGET_FILE);
    assert_string_equal(t.path, "out/summary.md");
    sbx_target_free(&t);
    ok("summary.md", &t);
    assert_int_equal(t.kind, SBX_TARGET_FILE);
    assert_string_equal(t.path, "summary.md");
    sbx_target_free(&t);
    ok("./a:b.md", &t); /* a colon after a non-word character: a path */
    assert_string_equal(t.path, "./a:b.md");
    sbx_target_free(&t);
    ok("/tmp/x:y", &t);
    assert_string_equal(t.path, "/tmp/x:y");
    sbx_target_free(&t);
    ok("file:-", &t);
    assert_string_equal(t.path, "-");
    sbx_target_free(&t);
    ok("file:file:x", &t); /* everything after the first file: */
    assert_string_equal(t.path, "file:x");
    sbx_target_free(&t);
    refused("file:", "needs a path");
    refused("", "no export target");
    refused("githb:acme/agents#42", "unknown export target kind");
    refused("https://hooks.slack.com/services/T0/B0/XYZ", "unknown export target kind");
}

static void github(void **state)
{
    (void)state;
    struct sbx_target t;
    char buf[128];
    ok("github:acme/agents#42", &t);
    assert_int_equal(t.kind, SBX_TARGET_GITHUB);
    assert_string_equal(t.owner, "acme");
    assert_string_equal(t.repo, "agents");
    assert_int_equal(t.number, 42);
    assert_true(sbx_target_format(&t, buf, sizeof buf));
    assert_string_equal(buf, "github:acme/agents#42");
    assert_false(sbx_target_format(&t, buf, 10));
    sbx_target_free(&t);
    ok("github:my-org/repo.name_x-1#2147483647", &t);
    assert_int_equal(t.number, 2147483647u);
    sbx_target_free(&t);
    ok("github:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/r#1", &t); /* 39 characters */
    sbx_target_free(&t);
    refused("github:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/r#1", "github:OWNER/REPO#N"); /* 40 */
    refused("github:acme/agents", "github:OWNER/REPO#N");
    refused("github:acme/agents#", "github:OWNER/REPO#N");
    refused("github:acme/agents#0", "github:OWNER/REPO#N");
    refused("github:acme/agents#042", "github:OWNER/REPO#N");
    refused("github:acme/agents#2147483648", "github:OWNER/REPO#N");
    refused("github:acme/agents#12a", "github:OWNER/REPO#N");
    refused("github:acme/agents#-1", "github:OWNER/REPO#N");
    refused("github:acme#42", "github:OWNER/REPO#N");
    refused("github:acme/a/b#42", "github:OWNER/REPO#N");
    refused("github:-acme/agents#42", "github:OWNER/REPO#N");
    refused("github:ac_me/agents#42", "github:OWNER/REPO#N");
    refused("github:acme/..#42", "github:OWNER/REPO#N");
    refused("github:acme/ag%2fents#42", "github:OWNER/REPO#N");
    refused("github:acme/ag ents#42", "github:OWNER/REPO#N");
    refused("github:/agents#42", "github:OWNER/REPO#N");
    refused("github:ghp_1234567890abcdefghijklmnopqrstuvwxyzAB@acme/agents#42", "github:OWNER/REPO#N");
}

static void gitlab(void **state)
{
    (void)state;
    struct sbx_target t;
    char buf[128];
    ok("gitlab:group/project#7", &t);
    assert_int_equal(t.kind, SBX_TARGET_GITLAB);
    assert_string_equal(t.project, "group/project");
    assert_int_equal(t.number, 7);
    sbx_target_free(&t);
    ok("gitlab:group/sub.group/my_project-2#15", &t);
    assert_string_equal(t.project, "group/sub.group/my_project-2");
    assert_true(sbx_target_format(&t, buf, sizeof buf));
    assert_string_equal(buf, "gitlab:group/sub.group/my_project-2#15");
    sbx_target_free(&t);
    refused("gitlab:project#7", "gitlab:GROUP/PROJECT#N");
    refused("gitlab:group//project#7", "gitlab:GROUP/PROJECT#N");
    refused("gitlab:group/project/#7", "gitlab:GROUP/PROJECT#N");
    refused("gitlab:group/.hidden#7", "gitlab:GROUP/PROJECT#N");
    refused("gitlab:group/project.git#7", "gitlab:GROUP/PROJECT#N");
    refused("gitlab:group/project.atom#7", "gitlab:GROUP/PROJECT#N");
    refused("gitlab:group/../project#7", "gitlab:GROUP/PROJECT#N");
    refused("gitlab:group/pro?ject#7", "gitlab:GROUP/PROJECT#N");
    refused("gitlab:group/project", "gitlab:GROUP/PROJECT#N");
}

static void jira(void **state)
{
    (void)state;
    struct sbx_target t;
    ok("jira:OPS-123", &t);
    assert_int_equal(t.kind, SBX_TARGET_JIRA);
    assert_string_equal(t.key, "OPS-123");
    assert_int_equal(t.number, 123);
    sbx_target_free(&t);
    ok("jira:AB_2-9", &t);
    sbx_target_free(&t);
    refused("jira:ops-123", "jira:KEY-123");
    refused("jira:OPS", "jira:KEY-123");
    refused("jira:OPS-", "jira:KEY-123");
    refused("jira:-123", "jira:KEY-123");
    refused("jira:1OPS-123", "jira:KEY-123");
    refused("jira:OPS-0123", "jira:KEY-123");
    refused("jira:O.PS-123", "jira:KEY-123");
}

static void slack(void **state)
{
    (void)state;
    struct sbx_target t;
    ok("slack:", &t);
    assert_int_equal(t.kind, SBX_TARGET_SLACK);
    sbx_target_free(&t);
    refused("slack:https://hooks.slack.com/services/T0000/B0000/XXXXXXXXXXXXXXXX", "SLACK_WEBHOOK_URL");
    refused("slack:#general", "SLACK_WEBHOOK_URL");
}

static void kinds_and_limits(void **state)
{
    (void)state;
    assert_int_equal(sbx_target_body_kind(SBX_TARGET_GITHUB, 3), SBX_BODY_MARKDOWN);
    assert_int_equal(sbx_target_body_kind(SBX_TARGET_GITLAB, 3), SBX_BODY_MARKDOWN);
    assert_int_equal(sbx_target_body_kind(SBX_TARGET_FILE, 3), SBX_BODY_MARKDOWN);
    assert_int_equal(sbx_target_body_kind(SBX_TARGET_JIRA, 3), SBX_BODY_JIRA_ADF);
    assert_int_equal(sbx_target_body_kind(SBX_TARGET_JIRA, 2), SBX_BODY_JIRA_TEXT);
    assert_int_equal(sbx_target_body_kind(SBX_TARGET_SLACK, 3), SBX_BODY_SLACK);
    assert_int_equal(sbx_target_limit(SBX_TARGET_GITHUB), 65536);
    assert_int_equal(sbx_target_limit(SBX_TARGET_GITLAB), 1000000);
    assert_int_equal(sbx_target_limit(SBX_TARGET_JIRA), 32767);
    assert_int_equal(sbx_target_limit(SBX_TARGET_SLACK), 40000);
    assert_int_equal(sbx_target_limit(SBX_TARGET_FILE), 0);
    assert_string_equal(sbx_target_kind_name(SBX_TARGET_GITLAB), "gitlab");
    assert_string_equal(sbx_body_kind_name(SBX_BODY_JIRA_ADF), "jira-adf");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(files),  cmocka_unit_test(github), cmocka_unit_test(gitlab),
        cmocka_unit_test(jira),   cmocka_unit_test(slack),  cmocka_unit_test(kinds_and_limits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
