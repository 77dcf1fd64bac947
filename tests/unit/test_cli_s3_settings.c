/* The S3 settings chain (cli/s3_settings.h): each setting from the first
 * place that has it — the environment, the profile's section of the
 * credentials file, of the config file ("[profile NAME]", "[default]"),
 * then the default — for the default profile and a named one; --endpoint
 * over all. This test links the command line (see the Makefile). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "cli/s3_settings.h"

static char dir[] = "/tmp/sbxview-s3-settings-XXXXXX";
static char creds[128], config[128];

static const char *const vars[] = {
    "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_PROFILE",
    "AWS_REGION", "AWS_DEFAULT_REGION", "AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_S3",
    "AWS_CA_BUNDLE", "AWS_SHARED_CREDENTIALS_FILE", "AWS_CONFIG_FILE", NULL};

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static int setup(void **state)
{
    (void)state;
    if (!mkdtemp(dir))
        return -1;
    snprintf(creds, sizeof creds, "%s/credentials", dir);
    snprintf(config, sizeof config, "%s/config", dir);
    write_file(creds, "# a comment\n[default]\naws_access_key_id = AKIDDEFAULT\n"
                      "aws_secret_access_key = secretDefault\n\n"
                      "[team]\n  aws_access_key_id=AKIDTEAM  \naws_secret_access_key=secretTeam\n"
                      "aws_session_token = tokenTeam\n");
    write_file(config, "[default]\nregion = eu-west-1\n\n[profile team]\nregion=ap-south-1\n"
                       "endpoint_url = https://minio.example:9000\nca_bundle = /etc/team-ca.pem\n"
                       "[profile cfgonly]\naws_access_key_id = AKIDCFG\naws_secret_access_key = secretCfg\n"
                       "[team]\nregion = not-this-one\n");
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    unlink(creds);
    unlink(config);
    rmdir(dir);
    return 0;
}

static void clean_env(void)
{
    for (size_t i = 0; vars[i]; i++)
        unsetenv(vars[i]);
    setenv("AWS_SHARED_CREDENTIALS_FILE", creds, 1);
    setenv("AWS_CONFIG_FILE", config, 1);
}

static void expect(const char *got, const char *want)
{
    if (!want)
        assert_null(got);
    else
        assert_string_equal(got ? got : "(null)", want);
}

static void test_default_profile_from_files(void **state)
{
    (void)state;
    clean_env();
    struct sbx_s3_settings s;
    sbx_s3_settings_read(&s, NULL);
    expect(s.access_key, "AKIDDEFAULT");
    expect(s.secret_key, "secretDefault");
    expect(s.session_token, NULL);
    expect(s.region, "eu-west-1");
    expect(s.endpoint, NULL);
    expect(s.ca_file, NULL);
    sbx_s3_settings_free(&s);
}

static void test_named_profile(void **state)
{
    (void)state;
    clean_env();
    setenv("AWS_PROFILE", "team", 1);
    struct sbx_s3_settings s;
    sbx_s3_settings_read(&s, NULL);
    expect(s.access_key, "AKIDTEAM");
    expect(s.secret_key, "secretTeam");
    expect(s.session_token, "tokenTeam");
    expect(s.region, "ap-south-1"); /* [profile team], not [team], in the config */
    expect(s.endpoint, "https://minio.example:9000");
    expect(s.ca_file, "/etc/team-ca.pem");
    sbx_s3_settings_free(&s);
    /* keys only in the config file */
    setenv("AWS_PROFILE", "cfgonly", 1);
    sbx_s3_settings_read(&s, NULL);
    expect(s.access_key, "AKIDCFG");
    expect(s.secret_key, "secretCfg");
    expect(s.region, NULL);
    sbx_s3_settings_free(&s);
}

static void test_environment_wins(void **state)
{
    (void)state;
    clean_env();
    setenv("AWS_PROFILE", "team", 1);
    setenv("AWS_ACCESS_KEY_ID", "AKIDENV", 1);
    setenv("AWS_SECRET_ACCESS_KEY", "secretEnv", 1);
    setenv("AWS_DEFAULT_REGION", "us-west-1", 1);
    setenv("AWS_ENDPOINT_URL", "https://generic.example", 1);
    setenv("AWS_CA_BUNDLE", "/env/ca.pem", 1);
    struct sbx_s3_settings s;
    sbx_s3_settings_read(&s, NULL);
    expect(s.access_key, "AKIDENV");
    expect(s.secret_key, "secretEnv");
    expect(s.session_token, NULL); /* the profile's token goes with the profile's keys */
    expect(s.region, "us-west-1");
    expect(s.endpoint, "https://generic.example");
    expect(s.ca_file, "/env/ca.pem");
    sbx_s3_settings_free(&s);
    setenv("AWS_REGION", "us-east-2", 1);
    setenv("AWS_ENDPOINT_URL_S3", "https://s3only.example", 1);
    setenv("AWS_SESSION_TOKEN", "tokenEnv", 1);
    sbx_s3_settings_read(&s, NULL);
    expect(s.region, "us-east-2");
    expect(s.endpoint, "https://s3only.example");
    expect(s.session_token, "tokenEnv");
    sbx_s3_settings_free(&s);
    sbx_s3_settings_read(&s, "https://flag.example");
    expect(s.endpoint, "https://flag.example");
    struct sbx_s3_config c = sbx_s3_settings_config(&s);
    expect(c.endpoint, "https://flag.example");
    expect(c.secret_key, "secretEnv");
    sbx_s3_settings_free(&s);
}

static void test_half_a_key_pair_is_not_used(void **state)
{
    (void)state;
    clean_env();
    setenv("AWS_ACCESS_KEY_ID", "AKIDALONE", 1);
    struct sbx_s3_settings s;
    sbx_s3_settings_read(&s, NULL);
    expect(s.access_key, "AKIDDEFAULT");
    expect(s.secret_key, "secretDefault");
    sbx_s3_settings_free(&s);
    /* no files at all: nothing, and no crash */
    setenv("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent/creds", 1);
    setenv("AWS_CONFIG_FILE", "/nonexistent/config", 1);
    unsetenv("AWS_ACCESS_KEY_ID");
    sbx_s3_settings_read(&s, NULL);
    expect(s.access_key, NULL);
    expect(s.secret_key, NULL);
    expect(s.region, NULL);
    sbx_s3_settings_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_default_profile_from_files),
        cmocka_unit_test(test_named_profile),
        cmocka_unit_test(test_environment_wins),
        cmocka_unit_test(test_half_a_key_pair_is_not_used),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
