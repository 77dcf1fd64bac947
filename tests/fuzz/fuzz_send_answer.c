/* Fuzz target for export/send's reading of a ticket service's answers (a
 * hostile or broken server): for each service, the marker search, the new
 * comment's URL and the error words. A URL is printable ASCII; the words
 * are valid UTF-8 without a control, C1 or bidi override, at most about
 * 300 bytes, and never hold the token (planted in the input or not). The
 * first byte picks the service. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "export/send.h"
#include "base/utf8.h"

#define TOKEN "ghp_fuzzTOKEN0123456789abcdefABCDEF0123"
#define DIGEST "0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0"

static void check_url(const char *u)
{
    if (!u)
        return;
    for (const char *p = u; *p; p++)
        if (*p <= ' ' || *p > '~')
            abort();
    if (strstr(u, TOKEN))
        abort();
}

static void check_words(const char *s, size_t n)
{
    if (n > 340 || memmem(s, n, TOKEN, strlen(TOKEN)))
        abort();
    for (size_t i = 0; i < n;) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x80) {
            if (c < 0x20 || c == 0x7f)
                abort();
            i++;
            continue;
        }
        uint32_t cp;
        size_t l = sbx_utf8_decode((const unsigned char *)s + i, n - i, &cp);
        if (!l || (cp >= 0x80 && cp <= 0x9f) || (cp >= 0x202a && cp <= 0x202e) ||
            (cp >= 0x2066 && cp <= 0x2069))
            abort();
        i += l;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    static const enum sbx_target_kind kinds[] = {SBX_TARGET_GITHUB, SBX_TARGET_GITLAB,
                                                 SBX_TARGET_JIRA, SBX_TARGET_SLACK};
    struct sbx_target t = {.kind = kinds[data[0] % 4], .number = 42};
    t.owner = (char *)"acme";
    t.repo = (char *)"agents";
    t.project = (char *)"acme/agents";
    t.key = (char *)"OPS-7";
    struct sbx_send_env env = {
        .github_token = TOKEN, .gitlab_url = "https://gitlab.test", .gitlab_token = TOKEN,
        .jira_url = "https://jira.test", .jira_user = "u", .jira_token = TOKEN,
        .slack_webhook_url = "https://hooks.slack.test/services/" TOKEN, .jira_api = 3,
    };
    const char *json = (const char *)data + 1;
    size_t n = size - 1;
    char *url = NULL;
    unsigned long count = 0;
    sbx_send_find_marker(&t, &env, json, n, DIGEST, &url, &count);
    check_url(url);
    free(url);
    url = sbx_send_comment_url(&t, &env, json, n);
    check_url(url);
    free(url);
    static const char body[] = "text <!-- sbxview:" DIGEST " -->";
    const char *payload = t.kind == SBX_TARGET_SLACK ? "{\"text\":\"sbxview:" DIGEST "\"}"
                          : t.kind == SBX_TARGET_JIRA
                              ? "{\"type\":\"doc\",\"version\":1,\"content\":[{\"type\":\"text\","
                                "\"text\":\"sbxview:" DIGEST "\"}]}"
                              : body;
    struct sbx_send_request r;
    char err[256];
    if (!sbx_send_build(&t, &env, payload, strlen(payload), DIGEST, &r, err, sizeof err))
        abort();
    struct sbx_buf m = SBX_BUF_INIT;
    sbx_send_service_message(&m, json, n, &r);
    check_words(m.p ? m.p : "", m.len);
    sbx_buf_free(&m);
    sbx_send_request_free(&r);
    return 0;
}
