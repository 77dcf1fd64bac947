/* A run's review in the summary (text, markdown, JSON) and in every export
 * body kind: the verdict, each triage and each note are there, a note's
 * token is masked everywhere, an id the run lacks is marked orphaned, and
 * without a review nothing is added (JSON: "review": null). What the
 * review file keeps of earlier posts shapes the next export's body and
 * send, the same for `sbxview export` and the interface (export/posted.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "analyses/summary.h"
#include "export/body.h"
#include "export/posted.h"
#include "export/target.h"
#include "importers/load.h"
#include "importers/review.h"
#include "model/evid.h"
#include "render/review.h"
#include "render/summary/summary.h"

static const char TOKEN[] = "ghp_Zz9Kp7Wq2Zx9Lm4Np6Rt1Vw3Xy5Za7BcDe9G";

struct run {
    struct sbx_timeline tl;
    struct sbx_summary sum;
    struct sbx_review review;
    struct sbx_review_state st;
    char event[SBX_EVID_LEN], finding[SBX_FINDID_LEN];
};

static struct run *load(bool with_review)
{
    struct run *r = calloc(1, sizeof *r);
    sbx_timeline_init(&r->tl);
    const char *paths[] = {"tests/fixtures/story-run"};
    struct sbx_load_report rep = {0};
    assert_true(sbx_load_paths(&r->tl, paths, 1, NULL, &rep) > 0);
    sbx_load_report_free(&rep);
    char err[256];
    assert_true(sbx_summarize(&r->tl, NULL, &r->sum, err, sizeof err));
    /* the first event with a finding of a kind check reports */
    for (size_t i = 0; i < r->tl.n && !r->finding[0]; i++)
        for (size_t k = 0; k < sbx_nfindings; k++)
            if ((sbx_tl_at(&r->tl, i)->findings & sbx_findings[k].bit) && sbx_findings[k].check) {
                sbx_event_id(&r->tl, sbx_tl_at(&r->tl, i), r->event);
                sbx_finding_id(&r->tl, sbx_tl_at(&r->tl, i), sbx_findings[k].bit, r->finding);
                break;
            }
    assert_true(r->finding[0]);
    sbx_review_init(&r->review);
    if (with_review) {
        char text[2048];
        snprintf(text, sizeof text,
                 "{\"sbxview_review\":1,\"op\":\"note\",\"at\":\"2026-06-02T10:00:00Z\",\"author\":\"ann\",\"item\":\"%s\",\"text\":\"note-one pasted %s\"}\n"
                 "{\"sbxview_review\":1,\"op\":\"note\",\"at\":\"2026-06-02T10:00:01Z\",\"author\":\"bob\",\"item\":\"0000000000\",\"text\":\"note-two\"}\n"
                 "{\"sbxview_review\":1,\"op\":\"triage\",\"at\":\"2026-06-02T10:00:02Z\",\"author\":\"ann\",\"item\":\"%s\",\"state\":\"expected\",\"reason\":\"reason-one\"}\n"
                 "{\"sbxview_review\":1,\"op\":\"verdict\",\"at\":\"2026-06-02T10:00:03Z\",\"author\":\"ann\",\"state\":\"malicious\",\"reason\":\"verdict-words\"}\n",
                 r->event, TOKEN, r->finding);
        sbx_review_read_bytes(&r->review, sbx_review_add_file(&r->review, "r.jsonl"), text, strlen(text));
        assert_int_equal(r->review.nops, 4);
    }
    sbx_review_state_make(&r->review, &r->st);
    return r;
}

static void drop(struct run *r)
{
    sbx_review_state_free(&r->st);
    sbx_review_free(&r->review);
    sbx_summary_free(&r->sum);
    sbx_timeline_free(&r->tl);
    free(r);
}

static void has_everything(const char *what, const char *s, const struct run *r)
{
    const char *want[] = {"note-one", "note-two", "reason-one", "verdict-words", "malicious", r->finding};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++)
        if (!strstr(s, want[i]))
            fail_msg("%s lacks %s", what, want[i]);
    if (strstr(s, TOKEN) || strstr(s, TOKEN + 5))
        fail_msg("%s shows the note's token", what);
}

static void summary_formats(void **state)
{
    (void)state;
    struct run *r = load(true);
    static const enum sbx_summary_format fmts[] = {SBX_SUMMARY_TEXT, SBX_SUMMARY_MARKDOWN, SBX_SUMMARY_JSON};
    for (size_t f = 0; f < 3; f++) {
        struct sbx_summary_look look = {.cols = 200, .review = &r->review, .review_state = &r->st};
        struct sbx_buf out = SBX_BUF_INIT;
        char err[256];
        assert_true(sbx_render_summary(&r->tl, &r->sum, fmts[f], &look, &out, err, sizeof err));
        has_everything(f == 0 ? "text" : f == 1 ? "markdown" : "json", out.p, r);
        if (fmts[f] == SBX_SUMMARY_JSON) {
            assert_non_null(strstr(out.p, "\"orphaned\": true"));  /* the note on 0000000000 */
            assert_non_null(strstr(out.p, "\"orphaned\": false")); /* the others */
        }
        sbx_buf_free(&out);
    }
    drop(r);
}

static void without_a_review(void **state)
{
    (void)state;
    struct run *r = load(false);
    struct sbx_summary_look look = {.review = &r->review, .review_state = &r->st};
    struct sbx_buf with = SBX_BUF_INIT, without = SBX_BUF_INIT;
    char err[256];
    for (int f = 0; f < 3; f++) {
        sbx_buf_clear(&with);
        sbx_buf_clear(&without);
        assert_true(sbx_render_summary(&r->tl, &r->sum, (enum sbx_summary_format)f, &look, &with, err, sizeof err));
        assert_true(sbx_render_summary(&r->tl, &r->sum, (enum sbx_summary_format)f, NULL, &without, err, sizeof err));
        assert_string_equal(with.p, without.p);
        if (f == SBX_SUMMARY_JSON)
            assert_non_null(strstr(with.p, "\"review\": null"));
        else
            assert_null(strstr(with.p, "Review"));
    }
    sbx_buf_free(&with);
    sbx_buf_free(&without);
    drop(r);
}

static void export_bodies(void **state)
{
    (void)state;
    struct run *r = load(true);
    struct sbx_export_digests d;
    sbx_export_digests(&r->tl, &d);
    static const enum sbx_body_kind kinds[] = {SBX_BODY_MARKDOWN, SBX_BODY_JIRA_ADF, SBX_BODY_JIRA_TEXT,
                                               SBX_BODY_SLACK};
    for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++) {
        struct sbx_body_opts o = {.kind = kinds[k], .review = &r->review, .review_state = &r->st};
        struct sbx_buf body = SBX_BUF_INIT, plain = SBX_BUF_INIT;
        char err[256];
        assert_true(sbx_export_body(&r->tl, &r->sum, &d, &o, &body, NULL, err, sizeof err));
        has_everything(sbx_body_kind_name(kinds[k]), body.p, r);
        /* without the review the body has no Review part, and another marker */
        struct sbx_body_opts none = {.kind = kinds[k]};
        struct sbx_body_info a, b;
        sbx_buf_clear(&body);
        assert_true(sbx_export_body(&r->tl, &r->sum, &d, &o, &body, &a, err, sizeof err));
        assert_true(sbx_export_body(&r->tl, &r->sum, &d, &none, &plain, &b, err, sizeof err));
        assert_null(strstr(plain.p, "note-one"));
        assert_string_not_equal(a.marker, b.marker);
        sbx_buf_free(&body);
        sbx_buf_free(&plain);
    }
    sbx_export_digests_free(&d);
    drop(r);
}

/* The review marker: the same when only the review changed, another when
 * the export says more (its output), the same in every kind; only
 * markdown bodies carry it. */
static void review_marker(void **state)
{
    (void)state;
    struct run *r = load(true), *none = load(false);
    struct sbx_export_digests d;
    sbx_export_digests(&r->tl, &d);
    struct sbx_body_opts with = {.kind = SBX_BODY_MARKDOWN, .review = &r->review, .review_state = &r->st};
    struct sbx_body_opts without = {.kind = SBX_BODY_MARKDOWN, .review = &none->review, .review_state = &none->st};
    struct sbx_body_opts output = with;
    output.include_output = true;
    struct sbx_body_opts slack = with;
    slack.kind = SBX_BODY_SLACK;
    struct sbx_body_info a, b, c, s;
    struct sbx_buf out = SBX_BUF_INIT;
    char err[256];
    assert_true(sbx_export_body(&r->tl, &r->sum, &d, &with, &out, &a, err, sizeof err));
    assert_non_null(strstr(out.p, "<!-- sbxview-review:"));
    assert_true(sbx_export_body(&r->tl, &r->sum, &d, &without, &out, &b, err, sizeof err));
    assert_true(sbx_export_body(&r->tl, &r->sum, &d, &output, &out, &c, err, sizeof err));
    assert_true(sbx_export_body(&r->tl, &r->sum, &d, &slack, &out, &s, err, sizeof err));
    assert_int_equal(strlen(a.review_marker), 64);
    assert_string_equal(a.review_marker, b.review_marker);
    assert_string_not_equal(a.marker, b.marker);
    assert_string_not_equal(a.review_marker, c.review_marker);
    /* every kind has it; only markdown carries it */
    assert_string_equal(s.review_marker, a.review_marker);
    assert_null(strstr(out.p + out.len - 200, "sbxview-review:"));
    /* a body that replaces an earlier post (Slack's) names it before the
     * marker, which does not cover that line: the same review is one marker */
    static const char old[] = "5a2cb2cf496305a1afcb8c7bf5207f7a2dd0fddf1d1b2e6234a6787c4915e4f2";
    for (int k = 0; k < 2; k++) {
        struct sbx_body_opts rep = k ? slack : with;
        rep.replaces_body = old;
        rep.replaces_at = INT64_C(1780394412000000000);
        struct sbx_body_info ri, plain;
        struct sbx_buf one = SBX_BUF_INIT, two = SBX_BUF_INIT;
        assert_true(sbx_export_body(&r->tl, &r->sum, &d, &rep, &one, &ri, err, sizeof err));
        rep.replaces_body = NULL;
        assert_true(sbx_export_body(&r->tl, &r->sum, &d, &rep, &two, &plain, err, sizeof err));
        const char *line = strstr(one.p, "This message replaces the one posted at 2026-06-02T");
        assert_non_null(line);
        if (!strstr(line, k ? "(its last line: sbxview:5a2cb2cf4963\\u2026)"
                            : "(its last line: sbxview:5a2cb2cf4963\xe2\x80\xa6)"))
            fail_msg("%.200s", line);
        assert_null(strstr(line, "5a2cb2cf49630")); /* the start of it only */
        assert_null(strstr(two.p, "This message replaces"));
        assert_string_equal(ri.marker, plain.marker);
        assert_string_equal(ri.review_marker, plain.review_marker);
        assert_true(line < strstr(one.p, ri.marker)); /* before the marker */
        sbx_buf_free(&one);
        sbx_buf_free(&two);
    }
    sbx_buf_free(&out);
    sbx_export_digests_free(&d);
    drop(r);
    drop(none);
}

/* One "posted" line into r's review. */
static void add_post(struct run *r, const char *target, const char *exported, const char *body,
                     const char *rest)
{
    char line[1024];
    snprintf(line, sizeof line,
             "{\"sbxview_review\":1,\"op\":\"posted\",\"at\":\"2026-06-02T10:05:00Z\","
             "\"author\":\"ann\",\"target\":\"%s\",\"export\":\"%s\",\"body\":\"%s\"%s}\n",
             target, exported, body, rest);
    sbx_review_read_bytes(&r->review, sbx_review_add_file(&r->review, "p.jsonl"), line,
                          strlen(line));
}

/* sbx_export_body_kept over what the review keeps: no post, a post of the
 * same body, a post of an earlier state, --repost, another export, another
 * Jira server; then what the send is given and what is kept after it. */
static void kept_posts_shape_the_export(void **state)
{
    (void)state;
    struct run *r = load(true);
    struct sbx_export_digests d;
    sbx_export_digests(&r->tl, &d);
    static const char OLD[] = "5a2cb2cf496305a1afcb8c7bf5207f7a2dd0fddf1d1b2e6234a6787c4915e4f2";
    static const char OTHER[] = "c17ff8c752384f10fdedcc676f498ff7bf401083b2637ef9ad43d34392e3fdba";
    struct sbx_target slack, jira;
    char err[512];
    assert_true(sbx_target_parse("slack:", &slack, err, sizeof err));
    assert_true(sbx_target_parse("jira:OPS-3", &jira, err, sizeof err));
    struct sbx_send_env env = {.jira_url = "https://Jira.Example.com:8443", .jira_api = 3};
    /* the body as it is now, without any post kept */
    struct sbx_body_opts bo = {.kind = SBX_BODY_SLACK, .limit = sbx_target_limit(slack.kind),
                               .review = &r->review, .review_state = &r->st};
    struct sbx_buf b = SBX_BUF_INIT;
    struct sbx_body_info now;
    const struct sbx_review_post *earlier;
    assert_true(sbx_export_body_kept(&r->tl, &r->sum, &d, &bo, &r->review, &slack, &env, false, &b,
                                     &now, &earlier, err, sizeof err));
    assert_null(earlier);
    assert_null(strstr(b.p, "This message replaces"));
    struct {
        const char *what, *exported, *body, *rest;
        const struct sbx_target *t;
        bool repost, found, replaces;
    } cases[] = {
        {"another export's post", OTHER, OLD, "", &slack, false, false, false},
        {"the same body posted", now.review_marker, now.marker, "", &slack, false, true, false},
        {"an earlier state posted", now.review_marker, OLD, "", &slack, false, true, true},
        {"--repost", now.review_marker, OLD, "", &slack, true, false, false},
        {"jira on another server", now.review_marker, OLD,
         ",\"comment\":\"77\",\"server\":\"jira.example.com\"", &jira, false, false, false},
        {"jira on its server", now.review_marker, OLD,
         ",\"comment\":\"78\",\"server\":\"jira.example.com:8443\"", &jira, false, true, false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char target[64];
        assert_true(sbx_target_format(cases[i].t, target, sizeof target));
        add_post(r, target, cases[i].exported, cases[i].body, cases[i].rest);
        struct sbx_body_opts o = {.kind = sbx_target_body_kind(cases[i].t->kind, 3),
                                  .limit = sbx_target_limit(cases[i].t->kind),
                                  .review = &r->review, .review_state = &r->st};
        struct sbx_buf out = SBX_BUF_INIT;
        struct sbx_body_info info;
        assert_true(sbx_export_body_kept(&r->tl, &r->sum, &d, &o, &r->review, cases[i].t, &env,
                                         cases[i].repost, &out, &info, &earlier, err, sizeof err));
        if (!earlier != !cases[i].found)
            fail_msg("%s: %s", cases[i].what, earlier ? "a post found" : "no post found");
        bool replaces = strstr(out.p, "This message replaces the one posted at 2026-06-02T10:05:00") != NULL;
        if (replaces != cases[i].replaces)
            fail_msg("%s: %s", cases[i].what, replaces ? "replaces one" : "replaces none");
        struct sbx_send_opts so = {0};
        sbx_export_kept_opts(earlier, &so);
        if (earlier && cases[i].t == &jira) {
            assert_string_equal(so.kept_comment, "78");
            assert_string_equal(so.kept_body, OLD);
        } else if (!earlier) {
            assert_null(so.kept_comment);
            assert_null(so.kept_body);
        }
        sbx_buf_free(&out);
    }
    /* after the send: a post or an edit is kept (Jira with its server),
     * a failure is not, and nothing is written for it */
    char dir[] = "/tmp/sbx-kept-XXXXXX", path[64];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/review.jsonl", dir);
    struct sbx_send_result failed = {.status = SBX_SEND_FAILED}, posted = {.status = SBX_SEND_POSTED};
    snprintf(posted.comment_id, sizeof posted.comment_id, "10042");
    assert_true(sbx_export_keep_post(path, false, &jira, &env, &now, &failed, "ann", 1, err, sizeof err));
    assert_int_equal(access(path, F_OK), -1);
    assert_true(sbx_export_keep_post(path, false, &jira, &env, &now, &posted, "ann", 1, err, sizeof err));
    struct sbx_review back;
    sbx_review_init(&back);
    assert_true(sbx_review_read_file(&back, path, err, sizeof err));
    assert_int_equal(back.nposts, 1);
    assert_string_equal(back.posts[0].comment, "10042");
    assert_string_equal(back.posts[0].server, "jira.example.com:8443");
    assert_string_equal(back.posts[0].body, now.marker);
    assert_non_null(sbx_export_earlier(&back, &jira, &env, now.review_marker));
    sbx_review_free(&back);
    unlink(path);
    rmdir(dir);
    sbx_buf_free(&b);
    sbx_target_free(&slack);
    sbx_target_free(&jira);
    sbx_export_digests_free(&d);
    drop(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(kept_posts_shape_the_export),
        cmocka_unit_test(summary_formats),
        cmocka_unit_test(without_a_review),
        cmocka_unit_test(export_bodies),
        cmocka_unit_test(review_marker),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
