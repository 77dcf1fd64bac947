/* The timeline's time range in app/app (v on its first row, v on its
 * last): the rows that overlap it show, a command running when it began
 * among them; the filter applies on top; Esc clears; = and + write a note
 * and a tag of the range into the run's review (app/app_review.h), with
 * the two rows' ids; without a review, or a range, they say why not. */
#include <locale.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "importers/format.h"
#include "importers/load.h"
#include "analyses/summary.h"
#include "model/evid.h"
#include "model/review.h"
#include "tests/unit/apptest.h"
#include "app/app.h"
#include "app/app_internal.h"
#include "app/app_review.h"

/* "at" is when a command ended; it began ms before. The long runner runs
 * from 09:59 to 10:06, across the range 10:02..10:04. */
static const char LOG[] =
    "{\"at\": \"2026-01-01T10:06:00Z\", \"sandbox\": \"s1\", \"kind\": \"command\", \"command\": \"sleep 420\", \"exit\": 0, \"ms\": 420000}\n"
    "{\"at\": \"2026-01-01T10:01:00Z\", \"sandbox\": \"s1\", \"kind\": \"command\", \"command\": \"echo before\", \"exit\": 0, \"ms\": 5}\n"
    "{\"at\": \"2026-01-01T10:02:00Z\", \"sandbox\": \"s1\", \"kind\": \"command\", \"command\": \"echo first\", \"exit\": 0, \"ms\": 5}\n"
    "{\"at\": \"2026-01-01T10:03:00Z\", \"sandbox\": \"s1\", \"kind\": \"command\", \"command\": \"echo inside\", \"exit\": 0, \"ms\": 5}\n"
    "{\"at\": \"2026-01-01T10:04:00Z\", \"sandbox\": \"s1\", \"kind\": \"command\", \"command\": \"echo last\", \"exit\": 0, \"ms\": 5}\n"
    "{\"at\": \"2026-01-01T10:05:00Z\", \"sandbox\": \"s1\", \"kind\": \"command\", \"command\": \"echo after\", \"exit\": 0, \"ms\": 5}\n";

struct run {
    struct sbx_timeline tl;
    struct sbx_summary sum;
};

static struct run *make_run(void)
{
    struct run *r = calloc(1, sizeof *r);
    sbx_timeline_init(&r->tl);
    size_t n = strlen(LOG);
    char *copy = malloc(n + 1);
    memcpy(copy, LOG, n + 1);
    uint32_t src = sbx_timeline_add_source(&r->tl, "agent-run.jsonl", copy, n, SBX_DATA_HEAP);
    struct sbx_load_opts lo = {.threads = 1};
    sbx_load_source(&r->tl, src, &sbx_format_recorder, &lo);
    sbx_timeline_finish(&r->tl);
    char err[256];
    struct sbx_summary_opts so = {.threads = 1};
    if (!sbx_summarize(&r->tl, &so, &r->sum, err, sizeof err))
        fail_msg("summary: %s", err);
    return r;
}

static int setup(void **state)
{
    if (!setlocale(LC_CTYPE, "C.UTF-8"))
        return -1;
    *state = make_run();
    return 0;
}

static int teardown(void **state)
{
    struct run *r = *state;
    sbx_summary_free(&r->sum);
    sbx_timeline_free(&r->tl);
    free(r);
    return 0;
}

/* The app on the run; with_review: its review in memory (as --dump keeps
 * it), or in the file write when given. */
static void start(struct sbx_app *a, struct run *r, bool with_review, const char *write)
{
    struct sbx_app_opts o = {.threads = 1};
    sbx_app_init(a, &o, 100, 20);
    sbx_app_set_data(a, &r->tl, &r->sum, false);
    if (with_review) {
        struct sbx_review rv;
        sbx_review_init(&rv);
        sbx_app_set_review(a, &rv, write, false, "Rae Range");
    }
}

/* The review's last operation. */
static const struct sbx_review_op *last_op(const struct sbx_app *a)
{
    assert_non_null(a->rv);
    assert_true(a->rv->r.nops > 0);
    return &a->rv->r.ops[a->rv->r.nops - 1];
}

/* A command's line (its own copy). */
static char *command_of(const struct sbx_app *a, const struct sbx_event *e)
{
    struct sbx_buf scratch = SBX_BUF_INIT;
    size_t len;
    const char *p = sbx_text_get(a->tl, e, &e->u.cmd.command, &scratch, &len);
    char *out = sbx_xstrndup(p, len);
    sbx_buf_free(&scratch);
    return out;
}

/* The last word of each command that shows, in order: "420|before|..." */
static void shown(struct sbx_app *a, char *out, size_t n)
{
    out[0] = '\0';
    for (size_t i = 0; i < sbx_app_count(a); i++) {
        char *cmd = command_of(a, sbx_app_event(a, i));
        size_t len = strlen(out);
        snprintf(out + len, n - len, "%s%s", len ? "|" : "", strrchr(cmd, ' ') + 1);
        free(cmd);
    }
}

static void id_of_row(struct sbx_app *a, const char *word, char out[SBX_EVID_LEN])
{
    for (size_t i = 0; i < a->tl->n; i++) {
        const struct sbx_event *e = sbx_tl_at(a->tl, i);
        char *cmd = command_of(a, e);
        bool is = strcmp(cmd, word) == 0;
        free(cmd);
        if (is) {
            sbx_event_id(a->tl, e, out);
            return;
        }
    }
    fail_msg("no command %s", word);
}

static void range_shows_what_overlaps(void **state)
{
    struct sbx_app a;
    char got[256];
    start(&a, *state, false, NULL);
    shown(&a, got, sizeof got);
    assert_string_equal(got, "420|before|first|inside|last|after");
    /* rows 2 and 4 (first, last), chosen in either order */
    for (int order = 0; order < 2; order++) {
        apptest_keys(&a, order ? "gjjjjv<Up><Up>v" : "gjjvjjv");
        shown(&a, got, sizeof got);
        assert_string_equal(got, "420|first|inside|last");
        assert_true(a.range_on);
        apptest_keys(&a, "<Esc>");
        assert_false(a.range_on);
        shown(&a, got, sizeof got);
        assert_string_equal(got, "420|before|first|inside|last|after");
    }
    /* one v then Esc: no range */
    apptest_keys(&a, "gv<Esc>");
    assert_null(a.range_first);
    assert_false(a.range_on);
    /* the filter applies within the range */
    apptest_keys(&a, "gjjvjjv&echo\n");
    shown(&a, got, sizeof got);
    assert_string_equal(got, "first|inside|last");
    apptest_keys(&a, "&\n<Esc>");
    shown(&a, got, sizeof got);
    assert_string_equal(got, "420|before|first|inside|last|after");
    sbx_app_free(&a);
}

static void range_note_and_tag(void **state)
{
    struct sbx_app a;
    char first[SBX_EVID_LEN], last[SBX_EVID_LEN];
    start(&a, *state, true, NULL);
    id_of_row(&a, "echo first", first);
    id_of_row(&a, "echo last", last);
    apptest_keys(&a, "=");
    assert_int_equal(a.prompt, 0); /* no range yet */
    assert_non_null(strstr(a.msg, "no range"));
    apptest_keys(&a, "gjjjjv<Up><Up>v=seen in the incident\n");
    assert_int_equal(a.rv->r.nops, 1);
    const struct sbx_review_op *op = last_op(&a);
    assert_int_equal(op->kind, SBX_REVIEW_NOTE);
    assert_string_equal(op->item, first);
    assert_string_equal(op->to, last);
    assert_string_equal(op->text, "seen in the incident");
    assert_string_equal(op->author, "Rae Range");
    assert_non_null(strstr(a.msg, "noted the range"));
    apptest_keys(&a, "+bad tag\n");
    assert_int_equal(a.rv->r.nops, 1); /* refused before it is written */
    apptest_keys(&a, "+exfil:window\n");
    assert_int_equal(a.rv->r.nops, 2);
    op = last_op(&a);
    assert_int_equal(op->kind, SBX_REVIEW_TAG);
    assert_string_equal(op->tag, "exfil:window");
    assert_string_equal(op->to, last);
    /* a range of one row is that event */
    apptest_keys(&a, "<Esc>gjjvv=just this one\n");
    op = last_op(&a);
    assert_string_equal(op->item, first);
    assert_null(op->to);
    sbx_app_free(&a);
    /* a file that cannot be written: said, nothing kept */
    start(&a, *state, true, "/nonexistent-folder/sbxview-review.jsonl");
    apptest_keys(&a, "gjjvjjv=again\n");
    assert_true(a.msg_error);
    assert_int_equal(a.rv->r.nops, 0);
    sbx_app_free(&a);
    /* without a review (a run the runs list opened, say): said, nothing asked */
    start(&a, *state, false, NULL);
    apptest_keys(&a, "gjjvjjv=");
    assert_int_equal(a.prompt, 0);
    assert_null(a.rv);
    sbx_app_free(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(range_shows_what_overlaps),
        cmocka_unit_test(range_note_and_tag),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
