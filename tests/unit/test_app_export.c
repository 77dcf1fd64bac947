/* e in the interface: the prompt, the preview of the exact request (the
 * token masked, log text inert), y writes or sends, q goes back where e
 * was pressed. Nothing here touches the network: a send that would is
 * stopped before it by a missing token. */
#include <locale.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "importers/format.h"
#include "importers/load.h"
#include "analyses/summary.h"
#include "tests/unit/cellcheck.h"
#include "app/app.h"
#include "app/keys.h"
#include "export/send.h"

#define TOKEN "ghp_appTESTtoken0123456789abcdefABCDEF01"

static const char LOG[] =
    "{\"at\": \"2026-01-01T10:00:00.000Z\", \"sandbox\": \"s1\", \"kind\": \"command\", "
    "\"command\": \"curl -sS https://paste.example.com/x\", \"cwd\": \"/w\", \"exit\": 6, "
    "\"timed_out\": false, \"ms\": 5, \"stdout\": \"\", "
    "\"stderr\": \"curl: (6) Could not resolve host: paste.example.com\\n\"}\n"
    "{\"at\": \"2026-01-01T10:00:03.000Z\", \"sandbox\": \"s1\", \"kind\": \"command\", "
    "\"command\": \"printf ok\", \"cwd\": \"/w\", \"exit\": 1, \"timed_out\": false, \"ms\": 5, "
    "\"stdout\": \"\\u001b]0;pwned\\u0007\\u001b[2J @here /close ghp_1234567890abcdefghijklmnopqrstuvwxyzAB\\n\", "
    "\"stderr\": \"\"}\n";

struct run {
    struct sbx_timeline tl;
    struct sbx_summary sum;
    char dir[64];
};

static int setup(void **state)
{
    if (!setlocale(LC_CTYPE, "C.UTF-8"))
        return -1;
    struct run *r = calloc(1, sizeof *r);
    sbx_timeline_init(&r->tl);
    char *copy = sbx_xstrndup(LOG, sizeof LOG - 1);
    uint32_t src = sbx_timeline_add_source(&r->tl, "run.jsonl", copy, sizeof LOG - 1,
                                           SBX_DATA_HEAP);
    struct sbx_load_opts lo = {.threads = 1};
    sbx_load_source(&r->tl, src, &sbx_format_recorder, &lo);
    sbx_timeline_finish(&r->tl);
    char err[256];
    struct sbx_summary_opts so = {.threads = 1};
    if (!sbx_summarize(&r->tl, &so, &r->sum, err, sizeof err))
        return -1;
    snprintf(r->dir, sizeof r->dir, "/tmp/sbx-app-export-XXXXXX");
    if (!mkdtemp(r->dir))
        return -1;
    *state = r;
    return 0;
}

static int teardown(void **state)
{
    struct run *r = *state;
    sbx_summary_free(&r->sum);
    sbx_timeline_free(&r->tl);
    rmdir(r->dir);
    free(r);
    return 0;
}

/* The services' settings the app is given (cli/ reads them from the
 * environment); a test sets and clears them. */
static struct sbx_send_env settings;

static void start(struct sbx_app *a, struct run *r)
{
    static const char *const inputs[] = {"runs/42"};
    struct sbx_app_opts o = {.threads = 1, .exports = true, .inputs = inputs, .ninputs = 1,
                             .services = &settings};
    sbx_app_init(a, &o, 100, 30);
    sbx_app_set_data(a, &r->tl, &r->sum, false);
}

static void keys(struct sbx_app *a, const char *script)
{
    size_t n = strlen(script);
    for (size_t i = 0; i < n;) {
        int key = 0, cols = 0, rows = 0;
        size_t used = sbx_key_parse(script + i, n - i, &key, &cols, &rows);
        assert_true(used > 0 && used != SIZE_MAX);
        sbx_app_key(a, key, 0, 0);
        i += used;
    }
}

/* The whole screen as text (rows joined by newlines), checked cell by cell. */
static char *screen(struct sbx_app *a)
{
    struct sbx_grid g;
    sbx_grid_init(&g, false);
    sbx_app_draw(a, &g);
    int row, col;
    const char *why = cc_grid(&g, &row, &col);
    if (why)
        fail_msg("row %d col %d: %s", row, col, why);
    struct sbx_buf b = SBX_BUF_INIT;
    for (int r = 0; r < g.rows; r++) {
        for (int c = 0; c < g.cols; c++)
            sbx_buf_add(&b, sbx_grid_cat(&g, r, c)->text, sbx_grid_cat(&g, r, c)->len);
        sbx_buf_addc(&b, '\n');
    }
    sbx_grid_free(&g);
    return b.p;
}

/* Every row of the document, scrolling through it. */
static char *whole_doc(struct sbx_app *a)
{
    struct sbx_buf all = SBX_BUF_INIT;
    keys(a, "g");
    for (int page = 0; page < 200; page++) {
        char *s = screen(a);
        sbx_buf_adds(&all, s);
        free(s);
        size_t before = a->doc_top;
        keys(a, " ");
        if (a->doc_top == before)
            break;
    }
    return all.p;
}

static void file_export(void **state)
{
    struct run *r = *state;
    struct sbx_app a;
    start(&a, r);
    char script[160], path[128];
    snprintf(path, sizeof path, "%s/review.md", r->dir);
    snprintf(script, sizeof script, "efile:%s", path);
    keys(&a, script);
    char *s = screen(&a);
    assert_non_null(strstr(s, "export to: file:"));
    free(s);
    keys(&a, "\n");
    assert_int_equal(a.view, SBX_VIEW_EXPORT);
    char *doc = whole_doc(&a);
    assert_non_null(strstr(doc, "This is the file that will be written"));
    assert_non_null(strstr(doc, "sbxview runs/42")); /* the inputs as given */
    assert_non_null(strstr(doc, "<!-- sbxview:"));
    assert_null(strstr(doc, "ghp_1234567890abcdef")); /* redacted by the body */
    free(doc);
    assert_int_equal(access(path, F_OK), -1); /* nothing written yet */
    keys(&a, "y");
    assert_int_equal(a.view, SBX_VIEW_TIMELINE);
    assert_non_null(strstr(a.msg, "wrote "));
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char buf[8192];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    assert_non_null(strstr(buf, "<!-- sbxview:"));
    unlink(path);
    /* e again offers the last target */
    keys(&a, "e");
    assert_int_equal(a.prompt, 'e');
    assert_non_null(strstr(a.input.p, "review.md"));
    keys(&a, "<Esc>");
    sbx_app_free(&a);
}

static void github_preview(void **state)
{
    struct run *r = *state;
    settings.github_token = TOKEN;
    settings.github_api_url = "https://ghe.test/api/v3";
    struct sbx_app a;
    start(&a, r);
    keys(&a, "s"); /* from the summary */
    keys(&a, "egithub:acme/agents#42\n");
    assert_int_equal(a.view, SBX_VIEW_EXPORT);
    char *doc = whole_doc(&a);
    assert_non_null(strstr(doc, "POST https://ghe.test/api/v3/repos/acme/agents/issues/42/comments"));
    assert_non_null(strstr(doc, "Authorization: Bearer ****"));
    assert_non_null(strstr(doc, "X-GitHub-Api-Version: 2022-11-28"));
    assert_null(strstr(doc, TOKEN));
    assert_null(strstr(doc, "is not set"));
    assert_non_null(strstr(doc, "export to github:acme/agents#42"));
    free(doc);
    /* help and back keep the preview; q goes back to the summary */
    keys(&a, "?");
    assert_int_equal(a.view, SBX_VIEW_HELP);
    keys(&a, "q");
    assert_int_equal(a.view, SBX_VIEW_EXPORT);
    keys(&a, "q");
    assert_int_equal(a.view, SBX_VIEW_SUMMARY);
    keys(&a, "q");
    assert_int_equal(a.view, SBX_VIEW_TIMELINE);

    /* y without a token: refused before anything is sent, and said */
    settings.github_token = NULL;
    keys(&a, "e"); /* the last target is offered again */
    assert_string_equal(a.input.p, "github:acme/agents#42");
    keys(&a, "\n");
    char *s = screen(&a);
    assert_non_null(strstr(s, "GITHUB_TOKEN is not set: sending will fail until it is."));
    free(s);
    keys(&a, "\n"); /* Enter sends too */
    assert_int_equal(a.view, SBX_VIEW_TIMELINE);
    assert_true(a.msg_error);
    assert_non_null(strstr(a.msg, "GITHUB_TOKEN is not set"));
    settings.github_api_url = NULL;
    sbx_app_free(&a);
}

/* The review_place cli/ gives: a review file in the test's folder. */
static char review_path[128];
static int place_asked;
static bool test_place(void *ctx, const struct sbx_timeline *tl, const char *const *inputs,
                       size_t n, struct sbx_app_review_place *out)
{
    (void)ctx;
    (void)tl;
    assert_true(n == 1 && strcmp(inputs[0], "runs/42") == 0);
    place_asked++;
    memset(out, 0, sizeof *out);
    out->read[0] = sbx_xstrndup(review_path, strlen(review_path));
    out->nread = 1;
    out->write = sbx_xstrndup(review_path, strlen(review_path));
    out->author = sbx_xstrndup("ann", 3);
    return true;
}

/* The preview carries the run's review as the review file holds it when e
 * is pressed (a note written after the run was opened is in it), as
 * `sbxview export`'s body does; nothing is written by a preview. */
static void preview_carries_the_review(void **state)
{
    struct run *r = *state;
    snprintf(review_path, sizeof review_path, "%s/sbxview-review.jsonl", r->dir);
    settings.github_token = TOKEN;
    settings.github_api_url = "https://ghe.test/api/v3";
    static const char *const inputs[] = {"runs/42"};
    struct sbx_app_opts o = {.threads = 1, .exports = true, .inputs = inputs, .ninputs = 1,
                             .services = &settings, .review_place = test_place};
    struct sbx_app a;
    sbx_app_init(&a, &o, 100, 30);
    sbx_app_set_data(&a, &r->tl, &r->sum, false);
    static const char line[] = "{\"sbxview_review\":1,\"op\":\"note\",\"at\":\"2026-06-02T10:00:00Z\","
                               "\"author\":\"bob\",\"item\":\"0000000000\",\"text\":\"note-from-the-file\"}\n";
    FILE *f = fopen(review_path, "w");
    assert_non_null(f);
    fputs(line, f);
    fclose(f);
    place_asked = 0;
    keys(&a, "egithub:acme/agents#42\n");
    assert_int_equal(a.view, SBX_VIEW_EXPORT);
    assert_int_equal(place_asked, 1);
    char *doc = whole_doc(&a);
    assert_non_null(strstr(doc, "note-from-the-file"));
    assert_non_null(strstr(doc, "sbxview-review:")); /* the marker a later export edits by */
    free(doc);
    keys(&a, "q");
    f = fopen(review_path, "r");
    char back[512] = "";
    assert_non_null(f);
    assert_non_null(fgets(back, sizeof back, f));
    assert_null(fgets(back + strlen(back), (int)(sizeof back - strlen(back)), f));
    fclose(f);
    assert_string_equal(back, line); /* a preview writes nothing */
    unlink(review_path);
    settings.github_token = NULL;
    settings.github_api_url = NULL;
    sbx_app_free(&a);
}

static void bad_targets(void **state)
{
    struct run *r = *state;
    struct sbx_app a;
    start(&a, r);
    keys(&a, "ebogus:x\n");
    assert_int_equal(a.view, SBX_VIEW_TIMELINE);
    assert_true(a.msg_error);
    assert_non_null(strstr(a.msg, "export:"));
    /* a service URL not set: the preview shows the request with a
     * placeholder in its place, and names what is missing */
    settings.jira_url = NULL;
    keys(&a, "ejira:OPS-1\n");
    assert_int_equal(a.view, SBX_VIEW_EXPORT);
    char *doc = whole_doc(&a);
    assert_non_null(strstr(doc, "POST https://<JIRA_URL unset>/rest/api/3/issue/OPS-1/comment"));
    assert_non_null(strstr(doc, "JIRA_URL, JIRA_USER, JIRA_TOKEN are not set"));
    free(doc);
    keys(&a, "q");
    assert_int_equal(a.view, SBX_VIEW_TIMELINE);
    keys(&a, "eslack:");
    assert_int_equal(a.prompt, 'e');
    keys(&a, "<Esc>");
    assert_int_equal(a.prompt, 0);
    /* an app that may not export says so */
    struct sbx_app off;
    struct sbx_app_opts o = {.threads = 1};
    sbx_app_init(&off, &o, 100, 30);
    sbx_app_set_data(&off, &r->tl, &r->sum, false);
    keys(&off, "e");
    assert_int_equal(off.prompt, 0);
    assert_non_null(strstr(off.msg, "exports are off"));
    sbx_app_free(&off);
    /* y does nothing outside the preview */
    keys(&a, "y");
    assert_int_equal(a.view, SBX_VIEW_TIMELINE);
    sbx_app_free(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(file_export),
        cmocka_unit_test(github_preview),
        cmocka_unit_test(preview_carries_the_review),
        cmocka_unit_test(bad_targets),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
