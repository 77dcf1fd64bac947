/* The review file (docs/review-file.md): each kind of line read or refused
 * with its reason (a table), two reviewers' files merged (the last word by
 * time, then file order; both reviewers' notes kept; history whole), a
 * garbled line named by its number while the rest loads, a line written
 * and read back, appends that are whole lines, and the loader leaving a
 * review file out of the run. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "export/review_write.h"
#include "importers/load.h"
#include "importers/review.h"

#define L(op, rest) "{\"sbxview_review\":1,\"op\":\"" op "\",\"at\":\"2026-06-02T10:00:00Z\",\"author\":\"ann\"" rest "}"

static const struct {
    const char *line;
    const char *problem; /* NULL: read as an operation */
} lines[] = {
    {L("mark", ",\"item\":\"ab12cd34ef\""), NULL},
    {L("unmark", ",\"item\":\"ab12cd34ef.2\""), NULL},
    {L("note", ",\"item\":\"ab12cd34ef\",\"text\":\"why\""), NULL},
    {L("note", ",\"item\":\"ab12cd34ef\",\"to\":\"zz12cd34ef\",\"text\":\"a range\""), NULL},
    {L("tag", ",\"item\":\"ab12cd34ef\",\"tag\":\"exfil:maybe\""), NULL},
    {L("untag", ",\"item\":\"ab12cd34ef\",\"tag\":\"x\""), NULL},
    {L("triage", ",\"item\":\"ab12cd34ef/secret\",\"state\":\"benign\",\"reason\":\"test key\""), NULL},
    {L("triage", ",\"item\":\"ab12cd34ef/secret\",\"state\":\"follow-up\""), NULL},
    {L("verdict", ",\"state\":\"malicious\",\"reason\":\"exfiltration\""), NULL},
    {L("note", ",\"item\":\"ab12cd34ef\",\"text\":\"x\",\"unknown\":[1,2]"), NULL},
    {"not json", "not JSON"},
    {"[1]", "not a JSON object"},
    {"{\"op\":\"mark\"}", "not a review line"},
    {"{\"sbxview_review\":2,\"op\":\"mark\"}", "this sbxview reads version 1"},
    {L("frob", ""), "unknown \"op\""},
    {"{\"sbxview_review\":1,\"at\":\"2026-06-02T10:00:00Z\",\"author\":\"a\"}", "no \"op\""},
    {"{\"sbxview_review\":1,\"op\":\"mark\",\"at\":\"yesterday\",\"author\":\"a\",\"item\":\"ab12cd34ef\"}", "\"at\" is not"},
    {"{\"sbxview_review\":1,\"op\":\"mark\",\"at\":\"2026-06-02T10:00:00Z\",\"item\":\"ab12cd34ef\"}", "no \"author\""},
    {L("mark", ""), "\"item\" is not an event id"},
    {L("mark", ",\"item\":\"ab12\""), "\"item\" is not an event id"},
    {L("mark", ",\"item\":\"ab12cd34ef/nothing\""), "\"item\" is not an event id"},
    {L("triage", ",\"item\":\"ab12cd34ef\",\"state\":\"benign\""), "not a finding id"},
    {L("triage", ",\"item\":\"ab12cd34ef/secret\",\"state\":\"fine\""), "\"state\" is not one of"},
    {L("verdict", ",\"state\":\"expected\""), "\"state\" is not one of"},
    {L("note", ",\"item\":\"ab12cd34ef\""), "without \"text\""},
    {L("note", ",\"item\":\"ab12cd34ef\",\"text\":5"), "not a string"},
    {L("note", ",\"item\":\"ab12cd34ef\",\"text\":\"a\\u0000b\""), "NUL"},
    {L("tag", ",\"item\":\"ab12cd34ef\",\"tag\":\"two words\""), "\"tag\" is not"},
    {L("mark", ",\"item\":\"ab12cd34ef\",\"to\":\"zz12cd34ef\""), "\"to\" is not"},
};

/* What an export posted: read into the review's posts, never its operations. */
#define H64 "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
#define P(rest) L("posted", ",\"export\":\"" H64 "\"" rest)
static const struct {
    const char *line;
    const char *problem; /* NULL: read as a post */
} posts[] = {
    {P(",\"target\":\"jira:OPS-1\",\"body\":\"" H64 "\",\"comment\":\"10042\""), NULL},
    {P(",\"target\":\"slack:\",\"body\":\"" H64 "\""), NULL},
    {P(",\"target\":\"github:o/r#1\",\"body\":\"" H64 "\",\"comment\":\"a_b-9\",\"later\":1"), NULL},
    {P(",\"body\":\"" H64 "\""), "\"target\" is not"},
    {P(",\"target\":\"jira OPS-1\",\"body\":\"" H64 "\""), "\"target\" is not"},
    {P(",\"target\":\"nocolon\",\"body\":\"" H64 "\""), "\"target\" is not"},
    {P(",\"target\":\":x\",\"body\":\"" H64 "\""), "\"target\" is not"},
    {P(",\"target\":\"jira:\\u001b[2J\",\"body\":\"" H64 "\""), "\"target\" is not"},
    {P(",\"target\":\"slack:\""), "64 hex digits"},
    {P(",\"target\":\"slack:\",\"body\":\"" H64 "0\""), "64 hex digits"},
    {P(",\"target\":\"slack:\",\"body\":\"0123456789ABCDEF0123456789abcdef0123456789abcdef0123456789abcdef\""), "64 hex digits"},
    {P(",\"target\":\"jira:OPS-1\",\"body\":\"" H64 "\",\"comment\":\"../1\""), "\"comment\" is not"},
    {P(",\"target\":\"jira:OPS-1\",\"body\":\"" H64 "\",\"comment\":\"\""), "\"comment\" is not"},
    {P(",\"target\":\"jira:OPS-1\",\"body\":\"" H64 "\",\"comment\":7"), "not a string"},
    {P(",\"target\":\"jira:OPS-1\",\"body\":\"" H64 "\",\"comment\":\"1\",\"server\":\"jira.example.com\""), NULL},
    {P(",\"target\":\"jira:OPS-1\",\"body\":\"" H64 "\",\"comment\":\"1\",\"server\":\"[::1]:8443\""), NULL},
    {P(",\"target\":\"jira:OPS-1\",\"body\":\"" H64 "\",\"comment\":\"1\",\"server\":\"\""), "\"server\" is not"},
    {P(",\"target\":\"jira:OPS-1\",\"body\":\"" H64 "\",\"comment\":\"1\",\"server\":\"Jira.Example.com\""), "\"server\" is not"},
    {P(",\"target\":\"jira:OPS-1\",\"body\":\"" H64 "\",\"comment\":\"1\",\"server\":\"u:t@jira.example.com\""), "\"server\" is not"},
    {P(",\"target\":\"jira:OPS-1\",\"body\":\"" H64 "\",\"comment\":\"1\",\"server\":\"jira.example.com/x\""), "\"server\" is not"},
    {P(",\"target\":\"jira:OPS-1\",\"body\":\"" H64 "\",\"comment\":\"1\",\"server\":\"a\\u001b[2J\""), "\"server\" is not"},
    {P(",\"target\":\"jira:OPS-1\",\"body\":\"" H64 "\",\"comment\":\"1\",\"server\":2"), "not a string"},
    {"{\"sbxview_review\":1,\"op\":\"posted\",\"at\":\"soon\",\"author\":\"a\"}", "\"at\" is not"},
};

static void posted_lines(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof posts / sizeof *posts; i++) {
        struct sbx_review r;
        sbx_review_init(&r);
        sbx_review_read_bytes(&r, sbx_review_add_file(&r, "f"), posts[i].line, strlen(posts[i].line));
        if (r.nops)
            fail_msg("%s: read as a review operation", posts[i].line);
        if (!posts[i].problem) {
            if (r.nposts != 1 || r.nproblems)
                fail_msg("%s: not read (%s)", posts[i].line, r.nproblems ? r.problems[0].reason : "?");
            /* written back, the same line is read again */
            struct sbx_buf b = SBX_BUF_INIT;
            sbx_review_post_line(&r.posts[0], &b);
            struct sbx_review again;
            sbx_review_init(&again);
            sbx_review_read_bytes(&again, sbx_review_add_file(&again, "g"), b.p, b.len);
            assert_int_equal(again.nposts, 1);
            const struct sbx_review_post *x = &r.posts[0], *y = &again.posts[0];
            assert_string_equal(x->target, y->target);
            assert_string_equal(x->exported, y->exported);
            assert_string_equal(x->body, y->body);
            assert_true((!x->comment && !y->comment) || strcmp(x->comment, y->comment) == 0);
            assert_true((!x->server && !y->server) || strcmp(x->server, y->server) == 0);
            assert_true(x->at == y->at);
            sbx_review_free(&again);
            sbx_buf_free(&b);
        } else if (r.nposts || r.nproblems != 1 || !strstr(r.problems[0].reason, posts[i].problem)) {
            fail_msg("%s: wanted the problem '%s', got %s", posts[i].line, posts[i].problem,
                     r.nproblems ? r.problems[0].reason : "a post");
        }
        sbx_review_free(&r);
    }
}

/* The last post of an export to a target: by time, a tie to the later
 * line; another target, another export or another server (a post that
 * names one is not one that names none, nor one of another) is not it;
 * posts are in no state or history. */
static void last_post(void **state)
{
    (void)state;
#define E1 "1111111111111111111111111111111111111111111111111111111111111111"
#define E2 "2222222222222222222222222222222222222222222222222222222222222222"
#define SPOST(t, target, e, c, srv) "{\"sbxview_review\":1,\"op\":\"posted\",\"at\":\"2026-06-02T10:00:" t "Z\",\"author\":\"a\",\"target\":\"" target "\",\"export\":\"" e "\",\"body\":\"" H64 "\",\"comment\":\"" c "\",\"server\":\"" srv "\"}\n"
#define POST(t, target, e, c) "{\"sbxview_review\":1,\"op\":\"posted\",\"at\":\"2026-06-02T10:00:" t "Z\",\"author\":\"a\",\"target\":\"" target "\",\"export\":\"" e "\",\"body\":\"" H64 "\",\"comment\":\"" c "\"}\n"
    static const char text[] = POST("05", "jira:OPS-1", E1, "5") POST("09", "jira:OPS-1", E1, "9")
        POST("07", "jira:OPS-1", E1, "7") POST("09", "jira:OPS-1", E1, "9b")
        POST("10", "jira:OPS-2", E1, "10") POST("11", "jira:OPS-1", E2, "11")
        SPOST("12", "jira:OPS-1", E1, "12", "jira.a.example") SPOST("13", "jira:OPS-1", E1, "13", "127.0.0.1:8443")
        SPOST("14", "jira:OPS-4", E1, "14", "[::1]:8443");
    struct sbx_review r;
    sbx_review_init(&r);
    sbx_review_read_bytes(&r, sbx_review_add_file(&r, "f"), text, strlen(text));
    assert_int_equal(r.nposts, 9);
    const struct sbx_review_post *p = sbx_review_last_post(&r, "jira:OPS-1", NULL, E1);
    assert_non_null(p);
    assert_string_equal(p->comment, "9b");
    assert_string_equal(sbx_review_last_post(&r, "jira:OPS-2", NULL, E1)->comment, "10");
    assert_string_equal(sbx_review_last_post(&r, "jira:OPS-1", NULL, E2)->comment, "11");
    assert_null(sbx_review_last_post(&r, "jira:OPS-3", NULL, E1));
    assert_null(sbx_review_last_post(&r, "slack:", NULL, E1));
    /* by server: the later post of another server is not this one's */
    assert_string_equal(sbx_review_last_post(&r, "jira:OPS-1", "jira.a.example", E1)->comment, "12");
    assert_string_equal(sbx_review_last_post(&r, "jira:OPS-1", "127.0.0.1:8443", E1)->comment, "13");
    assert_string_equal(sbx_review_last_post(&r, "jira:OPS-4", "[::1]:8443", E1)->comment, "14");
    assert_null(sbx_review_last_post(&r, "jira:OPS-1", "jira.b.example", E1));
    assert_null(sbx_review_last_post(&r, "jira:OPS-1", "127.0.0.1", E1));
    assert_null(sbx_review_last_post(&r, "jira:OPS-4", NULL, E1));
    struct sbx_review_state st;
    sbx_review_state_make(&r, &st);
    assert_true(sbx_review_state_empty(&st));
    sbx_review_state_free(&st);
    sbx_review_free(&r);
}

static void each_line(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof lines / sizeof *lines; i++) {
        struct sbx_review r;
        sbx_review_init(&r);
        sbx_review_read_bytes(&r, sbx_review_add_file(&r, "f"), lines[i].line, strlen(lines[i].line));
        if (!lines[i].problem) {
            if (r.nops != 1 || r.nproblems)
                fail_msg("%s: not read (%s)", lines[i].line, r.nproblems ? r.problems[0].reason : "?");
        } else if (r.nops || r.nproblems != 1 || !strstr(r.problems[0].reason, lines[i].problem)) {
            fail_msg("%s: wanted the problem '%s', got %s", lines[i].line, lines[i].problem,
                     r.nproblems ? r.problems[0].reason : "an operation");
        }
        sbx_review_free(&r);
    }
}

#define AT(t) "\"at\":\"2026-06-02T10:00:" t "Z\""
static const char ANN[] =
    "{\"sbxview_review\":1,\"op\":\"note\"," AT("01") ",\"author\":\"ann\",\"item\":\"ab12cd34ef\",\"text\":\"ann's first\"}\n"
    "{\"sbxview_review\":1,\"op\":\"triage\"," AT("05") ",\"author\":\"ann\",\"item\":\"ab12cd34ef/secret\",\"state\":\"benign\",\"reason\":\"a test key\"}\n"
    "garbled {\n"
    "{\"sbxview_review\":1,\"op\":\"note\"," AT("03") ",\"author\":\"ann\",\"item\":\"ab12cd34ef\",\"text\":\"ann's second\"}\n"
    "{\"sbxview_review\":1,\"op\":\"mark\"," AT("02") ",\"author\":\"ann\",\"item\":\"cd12cd34ef\"}\n";
static const char BOB[] =
    "{\"sbxview_review\":1,\"op\":\"note\"," AT("02") ",\"author\":\"bob\",\"item\":\"ab12cd34ef\",\"text\":\"bob's\"}\n"
    "{\"sbxview_review\":1,\"op\":\"triage\"," AT("04") ",\"author\":\"bob\",\"item\":\"ab12cd34ef/secret\",\"state\":\"malicious\",\"reason\":\"real\"}\n"
    "{\"sbxview_review\":1,\"op\":\"unmark\"," AT("05") ",\"author\":\"bob\",\"item\":\"cd12cd34ef\"}\n"
    "{\"sbxview_review\":1,\"op\":\"verdict\"," AT("05") ",\"author\":\"bob\",\"state\":\"suspicious\",\"reason\":\"look again\"}\n";

static void two_reviewers(void **state)
{
    (void)state;
    struct sbx_review r;
    sbx_review_init(&r);
    char both[4096];
    snprintf(both, sizeof both, "%s%s", ANN, BOB); /* concatenated: one file */
    sbx_review_read_bytes(&r, sbx_review_add_file(&r, "both.jsonl"), both, strlen(both));
    assert_int_equal(r.nproblems, 1);
    assert_int_equal(r.problems[0].line, 3);
    assert_int_equal(r.nops, 8);
    struct sbx_review_state st;
    sbx_review_state_make(&r, &st);
    /* each reviewer's last note on the event */
    assert_int_equal(st.nnotes, 2);
    int ann = -1, bob = -1;
    for (size_t i = 0; i < st.nnotes; i++) {
        if (strcmp(st.notes[i].author, "ann") == 0)
            ann = (int)i;
        if (strcmp(st.notes[i].author, "bob") == 0)
            bob = (int)i;
    }
    assert_true(ann >= 0 && bob >= 0);
    assert_string_equal(st.notes[ann].text, "ann's second");
    assert_string_equal(st.notes[bob].text, "bob's");
    /* the triage: ann's at :05 is later than bob's at :04 */
    const struct sbx_review_triage *t = sbx_review_triage_of(&st, "ab12cd34ef/secret");
    assert_non_null(t);
    assert_string_equal(t->state, "benign");
    assert_string_equal(t->author, "ann");
    /* marked at :02, unmarked at :05 */
    assert_int_equal(st.nmarks, 0);
    assert_non_null(st.verdict);
    assert_string_equal(st.verdict->state, "suspicious");
    assert_int_equal(st.nhistory, 8);
    for (size_t i = 1; i < st.nhistory; i++)
        assert_true(st.history[i - 1]->at <= st.history[i]->at);
    sbx_review_state_free(&st);
    sbx_review_free(&r);
}

/* At the same moment, the later file has the last word. */
static void ties_go_to_the_later_file(void **state)
{
    (void)state;
    static const char a[] =
        "{\"sbxview_review\":1,\"op\":\"triage\"," AT("09") ",\"author\":\"ann\",\"item\":\"ab12cd34ef/secret\",\"state\":\"benign\",\"reason\":\"a\"}\n";
    static const char b[] =
        "{\"sbxview_review\":1,\"op\":\"triage\"," AT("09") ",\"author\":\"bob\",\"item\":\"ab12cd34ef/secret\",\"state\":\"expected\",\"reason\":\"b\"}\n";
    for (int order = 0; order < 2; order++) {
        struct sbx_review r;
        sbx_review_init(&r);
        const char *first = order ? b : a, *second = order ? a : b;
        sbx_review_read_bytes(&r, sbx_review_add_file(&r, "1"), first, strlen(first));
        sbx_review_read_bytes(&r, sbx_review_add_file(&r, "2"), second, strlen(second));
        struct sbx_review_state st;
        sbx_review_state_make(&r, &st);
        assert_string_equal(sbx_review_triage_of(&st, "ab12cd34ef/secret")->author, order ? "ann" : "bob");
        sbx_review_state_free(&st);
        sbx_review_free(&r);
    }
}

static void written_and_read_back(void **state)
{
    (void)state;
    struct sbx_review_op op = {.kind = SBX_REVIEW_NOTE, .item = "ab12cd34ef", .to = "zz12cd34ef",
                               .text = "a \"quoted\"\nline \xc3\xa9", .author = "Dana <d@example.com>",
                               .at = INT64_C(1780394400123000000)};
    struct sbx_buf line = SBX_BUF_INIT;
    sbx_review_op_line(&op, &line);
    assert_true(line.len && line.p[line.len - 1] == '\n');
    assert_null(memchr(line.p, '\n', line.len - 1));
    for (size_t i = 0; i < line.len; i++)
        assert_true((unsigned char)line.p[i] < 0x80);
    assert_true(sbx_review_sniff(line.p, line.len));
    struct sbx_review r;
    sbx_review_init(&r);
    sbx_review_read_bytes(&r, sbx_review_add_file(&r, "x"), line.p, line.len);
    assert_int_equal(r.nops, 1);
    assert_string_equal(r.ops[0].text, op.text);
    assert_string_equal(r.ops[0].to, op.to);
    assert_string_equal(r.ops[0].author, op.author);
    assert_int_equal(r.ops[0].at, op.at);
    sbx_review_free(&r);
    sbx_buf_free(&line);
}

static void appends_whole_lines(void **state)
{
    (void)state;
    char dir[] = "/tmp/sbx-review-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[256];
    snprintf(path, sizeof path, "%s/deep/er/sbxview-review.jsonl", dir);
    struct sbx_review_op op = {.kind = SBX_REVIEW_MARK, .item = "ab12cd34ef", .author = "a",
                               .at = INT64_C(1780394400000000000)};
    char err[256];
    assert_false(sbx_review_append(path, &op, false, err, sizeof err)); /* no folder, not made */
    for (int i = 0; i < 50; i++)
        assert_true(sbx_review_append(path, &op, true, err, sizeof err));
    struct sbx_review r;
    sbx_review_init(&r);
    assert_true(sbx_review_read_file(&r, path, err, sizeof err));
    assert_int_equal(r.nops, 50);
    assert_int_equal(r.nproblems, 0);
    sbx_review_free(&r);
    /* a missing file is an empty review */
    sbx_review_init(&r);
    assert_true(sbx_review_read_file(&r, "/nonexistent-folder/x.jsonl", err, sizeof err));
    assert_int_equal(r.nops, 0);
    sbx_review_free(&r);
    unlink(path);
    snprintf(path, sizeof path, "%s/deep/er", dir);
    rmdir(path);
    snprintf(path, sizeof path, "%s/deep", dir);
    rmdir(path);
    rmdir(dir);
}

/* A run folder's review file, under its own name or another, is not a log
 * of the run and not an unread file. */
static void loader_leaves_it_out(void **state)
{
    (void)state;
    char dir[] = "/tmp/sbx-review-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char a[256], b[256], log[256];
    snprintf(a, sizeof a, "%s/%s", dir, SBX_REVIEW_FILE_NAME);
    snprintf(b, sizeof b, "%s/renamed.jsonl", dir);
    snprintf(log, sizeof log, "%s/agent-run.jsonl", dir);
    FILE *f = fopen(log, "w");
    fputs("{\"at\":\"2026-06-02T10:00:00Z\",\"kind\":\"command\",\"command\":\"ls\",\"exit\":0,\"ms\":1}\n", f);
    fclose(f);
    struct sbx_review_op op = {.kind = SBX_REVIEW_MARK, .item = "ab12cd34ef", .author = "a",
                               .at = INT64_C(1780394400000000000)};
    char err[256];
    assert_true(sbx_review_append(a, &op, false, err, sizeof err));
    assert_true(sbx_review_append(b, &op, false, err, sizeof err));
    struct sbx_timeline tl;
    sbx_timeline_init(&tl);
    const char *paths[] = {dir};
    struct sbx_load_report rep = {0};
    assert_int_equal(sbx_load_paths(&tl, paths, 1, NULL, &rep), 1);
    assert_int_equal(rep.nunread, 0);
    assert_int_equal(tl.nsources, 1);
    sbx_load_report_free(&rep);
    sbx_timeline_free(&tl);
    unlink(a);
    unlink(b);
    unlink(log);
    rmdir(dir);
}

/* Which triage lets check pass a finding: a table of state and reason,
 * and only the finding named (its event and kind). */
static void clearance(void **state)
{
    (void)state;
    static const struct {
        const char *state, *reason;
        bool clears;
    } cases[] = {
        {"benign", "a test key", true},     {"expected", "by design", true},
        {"benign", "", false},              {"expected", NULL, false},
        {"suspicious", "look again", false}, {"malicious", "real", false},
        {"follow-up", "ask the owner", false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char line[512];
        snprintf(line, sizeof line,
                 "{\"sbxview_review\":1,\"op\":\"triage\"," AT("01") ",\"author\":\"a\",\"item\":\"ab12cd34ef/secret\",\"state\":\"%s\"%s%s%s}\n",
                 cases[i].state, cases[i].reason ? ",\"reason\":\"" : "", cases[i].reason ? cases[i].reason : "",
                 cases[i].reason ? "\"" : "");
        struct sbx_review r;
        sbx_review_init(&r);
        sbx_review_read_bytes(&r, sbx_review_add_file(&r, "t"), line, strlen(line));
        assert_int_equal(r.nops, 1);
        struct sbx_review_state st;
        sbx_review_state_make(&r, &st);
        if ((sbx_review_clearance(&st, "ab12cd34ef/secret") != NULL) != cases[i].clears)
            fail_msg("%s with reason '%s': clears should be %d", cases[i].state,
                     cases[i].reason ? cases[i].reason : "(none)", cases[i].clears);
        assert_null(sbx_review_clearance(&st, "ab12cd34ef/hidden-text"));
        assert_null(sbx_review_clearance(&st, "zz12cd34ef/secret"));
        sbx_review_state_free(&st);
        sbx_review_free(&r);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(each_line),          cmocka_unit_test(two_reviewers),
        cmocka_unit_test(ties_go_to_the_later_file), cmocka_unit_test(written_and_read_back),
        cmocka_unit_test(appends_whole_lines), cmocka_unit_test(loader_leaves_it_out),
        cmocka_unit_test(clearance),          cmocka_unit_test(posted_lines),
        cmocka_unit_test(last_post),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
