/* export/services.h's table: every service has what it must, the names
 * and settings are unique, each target round-trips through parse and
 * format, and the settings reach the fields their services name. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "export/service.h"
#include "export/services.h"
#include "export/target.h"

#define DIGEST "0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0"

/* One target of each service in canonical form; a service without one here
 * fails the test, so a new service brings its own. */
static const char *const samples[] = {
    "github:acme/agents#42", "gitlab:acme/sub/agents#7", "jira:OPS-12",
    "slack:",                "file:out/review.md",
};

static const struct sbx_service *at(size_t k)
{
    return sbx_service_of((enum sbx_target_kind)k);
}

static size_t nsettings(const struct sbx_service *s)
{
    size_t n = 0;
    while (n < SBX_SERVICE_SETTINGS_MAX && s->settings[n].var)
        n++;
    return n;
}

static void every_service_whole(void **state)
{
    (void)state;
    for (size_t k = 0; k < SBX_TARGET_KINDS; k++) {
        const struct sbx_service *s = at(k);
        assert_non_null(s);
        assert_non_null(s->name);
        assert_non_null(s->form);
        assert_non_null(s->parse);
        assert_non_null(s->format);
        assert_non_null(s->body_kind);
        /* the form starts with the name and its colon */
        size_t n = strlen(s->name);
        assert_true(n > 0 && strncmp(s->form, s->name, n) == 0 && s->form[n] == ':');
        assert_string_equal(sbx_target_kind_name((enum sbx_target_kind)k), s->name);
        enum sbx_target_kind found = SBX_TARGET_KINDS;
        assert_ptr_equal(sbx_service_named(s->name, n, &found), s);
        assert_int_equal(found, k);
        for (size_t j = 0; j < k; j++)
            assert_string_not_equal(at(j)->name, s->name);
        if (!s->request) { /* written, not sent: nothing of a sender */
            assert_int_equal(nsettings(s), 0);
            assert_null(s->list_page);
            assert_int_equal(s->limit, 0);
            continue;
        }
        assert_non_null(s->secret_vars);
        assert_true(nsettings(s) > 0);
        assert_true(s->limit > 0);
        /* listed: how to read a listing; else why nothing is sent twice */
        if (s->list_page)
            assert_non_null(s->comments);
        else
            assert_non_null(s->unlisted);
        assert_true(s->list_page || !s->more_pages);
    }
    enum sbx_target_kind k;
    assert_null(sbx_service_named("githu", 5, &k));
    assert_null(sbx_service_named("githubx", 7, &k));
    assert_string_equal(sbx_target_kind_name(SBX_TARGET_KINDS), "?");
}

static void settings_unique(void **state)
{
    (void)state;
    for (size_t k = 0; k < SBX_TARGET_KINDS; k++)
        for (size_t i = 0; i < nsettings(at(k)); i++) {
            const struct sbx_service_setting *a = &at(k)->settings[i];
            /* a string field of its own, not the common ones */
            assert_true(a->field + sizeof(const char *) <= sizeof(struct sbx_send_env));
            assert_int_equal(a->field % sizeof(const char *), 0);
            assert_int_not_equal(a->field, offsetof(struct sbx_send_env, ca_file));
            assert_int_not_equal(a->field, offsetof(struct sbx_send_env, jira_api));
            for (size_t l = 0; l <= k; l++)
                for (size_t j = 0; j < nsettings(at(l)) && (l < k || j < i); j++) {
                    assert_string_not_equal(at(l)->settings[j].var, a->var);
                    assert_int_not_equal(at(l)->settings[j].field, a->field);
                }
        }
}

static void round_trips(void **state)
{
    (void)state;
    bool seen[SBX_TARGET_KINDS] = {false};
    for (size_t i = 0; i < sizeof samples / sizeof *samples; i++) {
        struct sbx_target t, again;
        char err[512], buf[256], buf2[256];
        if (!sbx_target_parse(samples[i], &t, err, sizeof err))
            fail_msg("%s refused: %s", samples[i], err);
        seen[t.kind] = true;
        assert_true(sbx_target_format(&t, buf, sizeof buf));
        assert_string_equal(buf, samples[i]);
        assert_true(sbx_target_parse(buf, &again, err, sizeof err));
        assert_int_equal(again.kind, t.kind);
        assert_true(sbx_target_format(&again, buf2, sizeof buf2));
        assert_string_equal(buf2, buf);
        /* one byte too few does not fit */
        assert_false(sbx_target_format(&t, buf, strlen(samples[i])));
        sbx_target_free(&t);
        sbx_target_free(&again);
    }
    for (size_t k = 0; k < SBX_TARGET_KINDS; k++)
        if (!seen[k])
            fail_msg("no round-trip sample for %s", at(k)->name);
}

/* Each variable's value is "value-of-" and its name; GITLAB_URL's is "". */
static const char *lookup(void *ctx, const char *var)
{
    static char values[32][64];
    size_t *used = ctx;
    if (!strcmp(var, "GITLAB_URL"))
        return ""; /* set but empty: unset */
    char *v = values[(*used)++ % 32];
    snprintf(v, sizeof values[0], "value-of-%s", var);
    return v;
}

static void settings_filled(void **state)
{
    (void)state;
    struct sbx_send_env env;
    size_t used = 0;
    sbx_send_settings_fill(&env, lookup, &used);
    for (size_t k = 0; k < SBX_TARGET_KINDS; k++)
        for (size_t i = 0; i < nsettings(at(k)); i++) {
            const struct sbx_service_setting *s = &at(k)->settings[i];
            const char *v = sbx_service_setting_value(&env, s);
            if (!strcmp(s->var, "GITLAB_URL")) {
                assert_null(v);
                continue;
            }
            char want[64];
            snprintf(want, sizeof want, "value-of-%s", s->var);
            assert_non_null(v);
            assert_string_equal(v, want);
        }
    assert_string_equal(env.ca_file, "value-of-SBXVIEW_CA_FILE");
    assert_int_equal(env.jira_api, 3);
    /* the fields the unit tests and the contract name */
    assert_string_equal(env.github_token, "value-of-GITHUB_TOKEN");
    assert_string_equal(env.jira_user, "value-of-JIRA_USER");
    assert_string_equal(env.slack_webhook_url, "value-of-SLACK_WEBHOOK_URL");
}

static void stand_ins(void **state)
{
    (void)state;
    for (size_t k = 0; k < SBX_TARGET_KINDS; k++) {
        struct sbx_target t = {.kind = (enum sbx_target_kind)k};
        struct sbx_send_env env = {0};
        const char *unset[SBX_SERVICE_SETTINGS_MAX];
        size_t n = sbx_send_placeholders(&t, &env, unset, SBX_SERVICE_SETTINGS_MAX);
        size_t want = 0;
        for (size_t i = 0; i < nsettings(at(k)); i++) {
            const struct sbx_service_setting *s = &at(k)->settings[i];
            const char *v = sbx_service_setting_value(&env, s);
            if (s->stand_in || s->placeholder) {
                assert_true(want < n);
                assert_string_equal(unset[want++], s->var);
                assert_non_null(v);
                /* a URL's placeholder names the variable, and is no credential */
                if (s->placeholder) {
                    assert_false(s->stand_in);
                    assert_non_null(strstr(v, s->var));
                    assert_non_null(strstr(v, " unset>"));
                }
            } else {
                assert_null(v);
            }
        }
        assert_int_equal(n, want);
        /* set ones are kept */
        n = sbx_send_placeholders(&t, &env, unset, SBX_SERVICE_SETTINGS_MAX);
        assert_int_equal(n, 0);
    }
    struct sbx_target jira = {.kind = SBX_TARGET_JIRA};
    struct sbx_send_env env = {.jira_user = "me"};
    const char *unset[1];
    assert_int_equal(sbx_send_placeholders(&jira, &env, unset, 1), 1); /* the first of two */
    assert_string_equal(unset[0], "JIRA_URL");
    assert_string_equal(env.jira_url, "https://<JIRA_URL unset>");
    assert_string_equal(env.jira_user, "me");
    assert_non_null(env.jira_token);
}

/* A URL a server answers with that holds any service's secret setting, or
 * the last part of a secret URL, is not passed on. */
static void echoed_secrets_dropped(void **state)
{
    (void)state;
    struct sbx_send_env env = {0};
    size_t used = 0;
    sbx_send_settings_fill(&env, lookup, &used);
    env.slack_webhook_url = "https://hooks.slack.test/services/T0/B0/hookSECRETpart";
    struct sbx_target gh = {.kind = SBX_TARGET_GITHUB, .number = 42};
    gh.owner = (char *)"acme";
    gh.repo = (char *)"agents";
    size_t secrets = 0;
    for (size_t k = 0; k < SBX_TARGET_KINDS; k++)
        for (size_t i = 0; i < nsettings(at(k)); i++) {
            const struct sbx_service_setting *s = &at(k)->settings[i];
            const char *v = sbx_service_setting_value(&env, s);
            if (!s->secret)
                continue;
            secrets++;
            char json[512], *url = NULL;
            snprintf(json, sizeof json,
                     "{\"id\":1,\"html_url\":\"https://gh.test/x#%s\"}", v);
            url = sbx_send_comment_url(&gh, &env, json, strlen(json));
            if (url)
                fail_msg("a URL holding %s was passed on", s->var);
        }
    assert_true(secrets >= 4);
    const char last[] = "{\"html_url\":\"https://gh.test/x#hookSECRETpart\"}";
    assert_null(sbx_send_comment_url(&gh, &env, last, strlen(last)));
    /* a setting that is no secret may be in a URL */
    const char user[] = "{\"html_url\":\"https://gh.test/value-of-JIRA_USER\"}";
    char *url = sbx_send_comment_url(&gh, &env, user, strlen(user));
    assert_non_null(url);
    free(url);
}

static void senders_and_writers(void **state)
{
    (void)state;
    struct sbx_send_env env = {.github_token = "t", .slack_webhook_url = "https://h.test/a/b"};
    struct sbx_send_request r;
    char err[256];
    static const char md[] = "x <!-- sbxview:" DIGEST " -->";
    struct sbx_target f = {.kind = SBX_TARGET_FILE}, s = {.kind = SBX_TARGET_SLACK};
    assert_false(sbx_target_posts(&f));
    assert_true(sbx_target_posts(&s));
    assert_false(sbx_send_build(&f, &env, md, strlen(md), DIGEST, &r, err, sizeof err));
    assert_string_equal(err, "a file: target is written, not sent");
    assert_false(sbx_send_build_list(&f, &env, 0, &r, err, sizeof err));
    assert_false(sbx_send_build_list(&s, &env, 0, &r, err, sizeof err));
    assert_non_null(strstr(err, "cannot be listed"));
    assert_true(sbx_send_body_is_text(SBX_BODY_MARKDOWN));
    assert_true(sbx_send_body_is_text(SBX_BODY_JIRA_TEXT));
    assert_false(sbx_send_body_is_text(SBX_BODY_JIRA_ADF));
    assert_false(sbx_send_body_is_text(SBX_BODY_SLACK));
}

static void messages_list_every_service(void **state)
{
    (void)state;
    struct sbx_target t;
    char err[512];
    assert_false(sbx_target_parse("", &t, err, sizeof err));
    assert_string_equal(err, "no export target given (--to github:OWNER/REPO#N, "
                             "gitlab:GROUP/PROJECT#N, jira:KEY-123, slack: or file:PATH.md)");
    assert_false(sbx_target_parse("bogus:x", &t, err, sizeof err));
    assert_string_equal(err, "unknown export target kind (use github:, gitlab:, jira:, slack: or "
                             "file:; a path that holds a colon: ./NAME)");
    for (size_t k = 0; k < SBX_TARGET_KINDS; k++)
        assert_non_null(strstr(err, at(k)->name));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_service_whole),
        cmocka_unit_test(settings_unique),
        cmocka_unit_test(round_trips),
        cmocka_unit_test(settings_filled),
        cmocka_unit_test(stand_ins),
        cmocka_unit_test(echoed_secrets_dropped),
        cmocka_unit_test(senders_and_writers),
        cmocka_unit_test(messages_list_every_service),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
