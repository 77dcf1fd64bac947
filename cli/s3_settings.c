#include "cli/s3_settings.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"

const char *sbx_s3_endpoint_arg;

static char *env_dup(const char *name)
{
    const char *v = getenv(name);
    return v && *v ? sbx_xstrndup(v, strlen(v)) : NULL;
}

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r' || s[n - 1] == '\n'))
        s[--n] = '\0';
    return s;
}

/* The value of key in section [want] of an INI file (a fresh copy), or NULL. */
static char *ini_value(const char *path, const char *want, const char *key)
{
    if (!path)
        return NULL;
    FILE *fp = fopen(path, "r");
    if (!fp)
        return NULL;
    char line[4096], *found = NULL;
    bool in = false;
    while (!found && fgets(line, sizeof line, fp)) {
        char *t = trim(line);
        if (*t == '#' || *t == ';' || !*t)
            continue;
        if (*t == '[') {
            char *end = strchr(t, ']');
            if (end) {
                *end = '\0';
                in = strcmp(trim(t + 1), want) == 0;
            }
            continue;
        }
        char *eq = strchr(t, '=');
        if (!in || !eq)
            continue;
        *eq = '\0';
        if (strcmp(trim(t), key) == 0) {
            char *v = trim(eq + 1);
            if (*v)
                found = sbx_xstrndup(v, strlen(v));
        }
    }
    explicit_bzero(line, sizeof line);
    fclose(fp);
    return found;
}

static char *aws_file(const char *env, const char *name)
{
    char *p = env_dup(env);
    if (p)
        return p;
    const char *home = getenv("HOME");
    if (!home || !*home)
        return NULL;
    struct sbx_buf b = SBX_BUF_INIT;
    sbx_buf_addf(&b, "%s/.aws/%s", home, name);
    return b.p;
}

/* The config file names a profile's section "[profile NAME]", except default. */
static char *config_value(const char *config, const char *profile, const char *key)
{
    if (strcmp(profile, "default") == 0)
        return ini_value(config, "default", key);
    struct sbx_buf sec = SBX_BUF_INIT;
    sbx_buf_addf(&sec, "profile %s", profile);
    char *v = ini_value(config, sec.p, key);
    sbx_buf_free(&sec);
    return v;
}

static char *first(char *a, char *b)
{
    if (a) {
        free(b);
        return a;
    }
    return b;
}

void sbx_s3_settings_read(struct sbx_s3_settings *s, const char *endpoint)
{
    memset(s, 0, sizeof *s);
    s->profile = env_dup("AWS_PROFILE");
    if (!s->profile)
        s->profile = sbx_xstrndup("default", 7);
    char *creds = aws_file("AWS_SHARED_CREDENTIALS_FILE", "credentials");
    char *config = aws_file("AWS_CONFIG_FILE", "config");
    s->access_key = env_dup("AWS_ACCESS_KEY_ID");
    s->secret_key = env_dup("AWS_SECRET_ACCESS_KEY");
    if (s->access_key && s->secret_key) {
        s->session_token = env_dup("AWS_SESSION_TOKEN");
    } else {
        free(s->access_key);
        free(s->secret_key);
        s->access_key = ini_value(creds, s->profile, "aws_access_key_id");
        s->secret_key = ini_value(creds, s->profile, "aws_secret_access_key");
        s->session_token = ini_value(creds, s->profile, "aws_session_token");
        if (!s->access_key || !s->secret_key) {
            free(s->access_key);
            free(s->secret_key);
            free(s->session_token);
            s->access_key = config_value(config, s->profile, "aws_access_key_id");
            s->secret_key = config_value(config, s->profile, "aws_secret_access_key");
            s->session_token = config_value(config, s->profile, "aws_session_token");
        }
    }
    s->region = first(env_dup("AWS_REGION"), env_dup("AWS_DEFAULT_REGION"));
    if (!s->region)
        s->region = config_value(config, s->profile, "region");
    if (endpoint && *endpoint)
        s->endpoint = sbx_xstrndup(endpoint, strlen(endpoint));
    else
        s->endpoint = first(env_dup("AWS_ENDPOINT_URL_S3"), env_dup("AWS_ENDPOINT_URL"));
    if (!s->endpoint)
        s->endpoint = config_value(config, s->profile, "endpoint_url");
    s->ca_file = env_dup("AWS_CA_BUNDLE");
    if (!s->ca_file)
        s->ca_file = config_value(config, s->profile, "ca_bundle");
    free(creds);
    free(config);
}

struct sbx_s3_config sbx_s3_settings_config(const struct sbx_s3_settings *s)
{
    return (struct sbx_s3_config){.access_key = s->access_key, .secret_key = s->secret_key,
                                  .session_token = s->session_token, .region = s->region,
                                  .endpoint = s->endpoint, .ca_file = s->ca_file};
}

static void wipe(char *p)
{
    if (p)
        explicit_bzero(p, strlen(p));
    free(p);
}

void sbx_s3_settings_free(struct sbx_s3_settings *s)
{
    wipe(s->access_key);
    wipe(s->secret_key);
    wipe(s->session_token);
    free(s->region);
    free(s->endpoint);
    free(s->ca_file);
    free(s->profile);
    memset(s, 0, sizeof *s);
}
