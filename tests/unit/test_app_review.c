/* Tests for the review in the interface (app/app_review.h) on the bundled
 * story-run: the operations each key writes (the table in
 * tests/unit/cases/review_keys.test, read back from the file and from the
 * app's own review), nothing written before the reviewer acts, $EDITOR's
 * text (empty or unchanged writes nothing), the review column, the
 * detail's Review part and the review view (orphans, unreadable lines,
 * Enter to the event), and a note holding a token never shown raw. */
#include <locale.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "analyses/summary.h"
#include "importers/load.h"
#include "importers/review.h"
#include "model/evid.h"
#include "tests/unit/apptest.h"
#include "tests/unit/cases.h"
#include "app/app.h"
#include "app/app_internal.h"
#include "app/app_review.h"
#include "app/review_outbox.h"
#include "app/view.h"

#define AUTHOR "Tester <tester@example.com>"
#define TOKEN "ghp_1234567890abcdefghijklmnopqrstuvwxyzAB"

struct run {
    struct sbx_timeline tl;
    struct sbx_summary sum;
    char dir[64];
    char path[128];
    int n; /* files made */
};

static struct run R;

static int setup(void **state)
{
    (void)state;
    if (!setlocale(LC_CTYPE, "C.UTF-8"))
        return -1;
    sbx_timeline_init(&R.tl);
    const char *paths[] = {"tests/fixtures/story-run"};
    struct sbx_load_opts lo = {.threads = 1};
    struct sbx_load_report rep = {0};
    if (!sbx_load_paths(&R.tl, paths, 1, &lo, &rep))
        return -1;
    sbx_load_report_free(&rep);
    char err[256];
    struct sbx_summary_opts so = {.threads = 1};
    if (!sbx_summarize(&R.tl, &so, &R.sum, err, sizeof err))
        return -1;
    snprintf(R.dir, sizeof R.dir, "build/test-app-review-XXXXXX");
    return mkdtemp(R.dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    for (int i = 0; i < R.n; i++) {
        char p[160];
        snprintf(p, sizeof p, "%s/review-%d.jsonl", R.dir, i);
        unlink(p);
    }
    rmdir(R.dir);
    sbx_summary_free(&R.sum);
    sbx_timeline_free(&R.tl);
    return 0;
}

/* A new review file's path (not made). */
static const char *new_path(void)
{
    snprintf(R.path, sizeof R.path, "%s/review-%d.jsonl", R.dir, R.n++);
    return R.path;
}

/* The app on the run, opened on its heaviest finding, with the review in
 * file path (what it already holds read first). */
static void start(struct sbx_app *a, const char *path, int cols, int rows)
{
    struct sbx_app_opts o = {.threads = 1, .open_on_finding = true};
    sbx_app_init(a, &o, cols, rows);
    sbx_app_set_data(a, &R.tl, &R.sum, false);
    struct sbx_review r;
    sbx_review_init(&r);
    char err[256];
    assert_true(sbx_review_read_file(&r, path, err, sizeof err));
    sbx_app_set_review(a, &r, path, false, AUTHOR);
}

static void id_of(const struct sbx_app *a, size_t row, char out[SBX_EVID_LEN])
{
    sbx_event_id(&R.tl, sbx_app_event(a, row), out);
}

/* The operations as the table writes them. */
static void op_words(const struct sbx_review *r, struct sbx_buf *out)
{
    for (size_t i = 0; i < r->nops; i++) {
        const struct sbx_review_op *o = &r->ops[i];
        sbx_buf_addf(out, "%s%s %s", i ? "\n" : "", sbx_review_op_name(o->kind), o->item ? o->item : "-");
        if (o->tag)
            sbx_buf_addf(out, " tag=%s", o->tag);
        if (o->state)
            sbx_buf_addf(out, " state=%s", o->state);
        if (o->text)
            sbx_buf_addf(out, " text=%s", o->text);
    }
}

/* want with @0, @1 and @top spelt out. */
static void expand(const struct sbx_app *a, size_t cur, const char *want, size_t n, struct sbx_buf *out)
{
    char id0[SBX_EVID_LEN], id1[SBX_EVID_LEN], top[SBX_EVID_LEN];
    id_of(a, cur, id0);
    id_of(a, cur + 1, id1);
    id_of(a, 0, top);
    for (size_t i = 0; i < n; i++) {
        if (strncmp(want + i, "@top", 4) == 0) {
            sbx_buf_adds(out, top);
            i += 3;
        } else if (strncmp(want + i, "@0", 2) == 0 || strncmp(want + i, "@1", 2) == 0) {
            sbx_buf_adds(out, want[i + 1] == '0' ? id0 : id1);
            i++;
        } else {
            sbx_buf_addc(out, want[i]);
        }
    }
}

static void check_keys(const struct test_case *c, void *ctx)
{
    (void)ctx;
    case_want_fields(c, 2);
    const char *path = new_path();
    struct sbx_app a;
    start(&a, path, 100, 30);
    size_t cur = a.cur;
    struct timespec t0;
    clock_gettime(CLOCK_REALTIME, &t0);
    apptest_keys(&a, c->field[0]);
    struct sbx_buf want = SBX_BUF_INIT, got = SBX_BUF_INIT, mem = SBX_BUF_INIT;
    expand(&a, cur, c->field[1], c->len[1], &want);
    struct sbx_review r;
    sbx_review_init(&r);
    char err[256];
    assert_true(sbx_review_read_file(&r, path, err, sizeof err));
    if (!r.nproblems && !r.nops && access(path, F_OK) == 0)
        case_fail(c, "nothing was to be written, but the file was made");
    if (r.nproblems)
        case_fail(c, "line %u of the file: %s", r.problems[0].line, r.problems[0].reason);
    op_words(&r, &got);
    if (strcmp(got.p ? got.p : "", want.p ? want.p : "") != 0)
        case_fail(c, "the file holds:\n%s\nwant:\n%s", got.p ? got.p : "", want.p ? want.p : "");
    op_words(&a.rv->r, &mem); /* what the app shows is what it wrote */
    if (strcmp(mem.p ? mem.p : "", got.p ? got.p : "") != 0)
        case_fail(c, "the app holds:\n%s", mem.p ? mem.p : "");
    int64_t from = (int64_t)t0.tv_sec * 1000000000 - 1000000000;
    for (size_t i = 0; i < r.nops; i++) {
        if (strcmp(r.ops[i].author, AUTHOR) != 0)
            case_fail(c, "operation %zu's author: %s", i, r.ops[i].author);
        if (r.ops[i].at < from)
            case_fail(c, "operation %zu's time is before the keys", i);
    }
    sbx_review_free(&r);
    sbx_buf_free(&want);
    sbx_buf_free(&got);
    sbx_buf_free(&mem);
    sbx_app_free(&a);
}

static void each_key_writes(void **state)
{
    (void)state;
    assert_true(cases_run("review_keys.test", check_keys, NULL) >= 50);
}

/* Appends one line to path. */
static void put_line(const char *path, const char *line)
{
    FILE *f = fopen(path, "a");
    assert_non_null(f);
    fprintf(f, "%s\n", line);
    fclose(f);
}

static size_t ops_in(const char *path)
{
    struct sbx_review r;
    sbx_review_init(&r);
    char err[256];
    assert_true(sbx_review_read_file(&r, path, err, sizeof err));
    size_t n = r.nops;
    sbx_review_free(&r);
    return n;
}

/* A: the editor's file starts with the author's note on the event; what it
 * saved is the note unless it is empty or unchanged (trailing blank lines
 * are not a change). */
static void editor_note(void **state)
{
    (void)state;
    const char *path = new_path();
    struct sbx_app a;
    start(&a, path, 100, 30);
    assert_true(apptest_keys(&a, "A") & SBX_APP_EDIT);
    assert_string_equal(sbx_app_edit_text(&a), "");
    sbx_app_edit_done(&a, "", 0, NULL); /* left empty */
    sbx_app_edit_done(&a, "late", 4, NULL); /* no editor was asked for */
    assert_int_equal(ops_in(path), 0);
    assert_int_equal(access(path, F_OK), -1);
    apptest_keys(&a, "A");
    sbx_app_edit_done(&a, "\n\n  \n", 5, NULL); /* blank lines only */
    assert_int_equal(ops_in(path), 0);
    apptest_keys(&a, "A");
    sbx_app_edit_done(&a, NULL, 0, "the editor failed");
    assert_int_equal(ops_in(path), 0);
    assert_true(a.msg_error);
    const char *two = "first line\nsecond line\n\n";
    apptest_keys(&a, "A");
    sbx_app_edit_done(&a, two, strlen(two), NULL);
    assert_int_equal(ops_in(path), 1);
    assert_string_equal(a.rv->r.ops[0].text, "first line\nsecond line");
    /* it starts with that note; saved again as it was: nothing */
    apptest_keys(&a, "A");
    assert_string_equal(sbx_app_edit_text(&a), "first line\nsecond line");
    sbx_app_edit_done(&a, "first line\nsecond line\n", 23, NULL);
    assert_int_equal(ops_in(path), 1);
    /* a note of several lines is not flattened by the line editor */
    apptest_keys(&a, "a");
    assert_false(sbx_app_typing(&a));
    apptest_keys(&a, "A");
    sbx_app_edit_done(&a, "changed", 7, NULL);
    assert_int_equal(ops_in(path), 2);
    /* the detail shows it with its author */
    apptest_keys(&a, "\n");
    assert_true(apptest_doc_has(&a, "Note"));
    assert_true(apptest_doc_has(&a, "by " AUTHOR));
    assert_true(apptest_doc_has(&a, "changed"));
    sbx_app_free(&a);
}

/* The grid's text, every row. */
static bool grid_has(struct sbx_app *a, const char *text)
{
    struct sbx_grid g;
    sbx_grid_init(&g, false);
    apptest_draw(a, &g);
    bool yes = false;
    for (int r = 0; r < g.rows && !yes; r++) {
        char *s = apptest_row(&g, r);
        yes = strstr(s, text) != NULL;
        free(s);
    }
    sbx_grid_free(&g);
    return yes;
}

static char *row_text(struct sbx_app *a, size_t event_row)
{
    struct sbx_grid g;
    sbx_grid_init(&g, false);
    apptest_draw(a, &g);
    char *s = apptest_row(&g, 1 + (int)(event_row - a->top));
    sbx_grid_free(&g);
    return s;
}

/* The column: none until something is marked or written, then the
 * session's letter or * for the file's mark, and + for a note, tag or
 * triage; the rows' text moves right by the column's width. */
static void the_column(void **state)
{
    (void)state;
    const char *path = new_path();
    char id[SBX_EVID_LEN], line[512];
    struct sbx_app a;
    start(&a, path, 100, 30);
    size_t cur = a.cur;
    id_of(&a, cur, id);
    char *before = row_text(&a, cur);
    assert_false(a.look.review_cells);
    sbx_app_free(&a);
    /* a mark and a note read from the file */
    snprintf(line, sizeof line,
             "{\"sbxview_review\":1,\"op\":\"mark\",\"at\":\"2026-06-02T10:00:00.000Z\",\"author\":\"Dana\",\"item\":\"%s\"}",
             id);
    put_line(path, line);
    start(&a, path, 100, 30);
    char *marked = row_text(&a, cur);
    assert_int_equal(marked[0], '*');
    assert_int_equal(marked[1], ' ');
    assert_memory_equal(marked + 3, before, 60); /* the same row, three cells on */
    char *other = row_text(&a, cur + 1);
    assert_int_equal(other[0], ' ');
    apptest_keys(&a, "jatext\n");
    char *noted = row_text(&a, cur + 1);
    assert_int_equal(noted[0], ' ');
    assert_int_equal(noted[1], '+');
    apptest_keys(&a, "mq");
    char *letter = row_text(&a, cur + 1);
    assert_int_equal(letter[0], 'q');
    apptest_keys(&a, "m-");
    char *unmarked = row_text(&a, cur + 1);
    assert_int_equal(unmarked[0], ' ');
    assert_int_equal(unmarked[1], '+');
    free(before);
    free(marked);
    free(other);
    free(noted);
    free(letter);
    free(unmarked);
    sbx_app_free(&a);
}

/* The review view: the verdict, triage, notes, tags and marks of two
 * reviewers' files (author and time on each), an orphaned id, an unreadable
 * line and the history; Enter goes to the line's event; the token in a note
 * is masked in the view, the detail and the line editor. */
static void the_view(void **state)
{
    (void)state;
    const char *path = new_path();
    char id[SBX_EVID_LEN], line[512];
    struct sbx_app a;
    start(&a, path, 120, 60);
    size_t cur = a.cur;
    id_of(&a, cur, id);
    sbx_app_free(&a);
    snprintf(line, sizeof line,
             "{\"sbxview_review\":1,\"op\":\"note\",\"at\":\"2026-06-02T10:00:00.000Z\",\"author\":\"Dana\","
             "\"item\":\"%s\",\"text\":\"key " TOKEN " leaked\"}", id);
    put_line(path, line);
    put_line(path, "{\"sbxview_review\":1,\"op\":\"note\",\"at\":\"2026-06-02T10:01:00.000Z\",\"author\":\"Sam\","
                   "\"item\":\"zzzzzzzzzz\",\"text\":\"on a record the run lost\"}");
    put_line(path, "not json at all");
    snprintf(line, sizeof line,
             "{\"sbxview_review\":1,\"op\":\"triage\",\"at\":\"2026-06-02T10:02:00.000Z\",\"author\":\"Sam\","
             "\"item\":\"%s/account-audit\",\"state\":\"expected\",\"reason\":\"the ticket said so\"}", id);
    put_line(path, line);
    put_line(path, "{\"sbxview_review\":1,\"op\":\"verdict\",\"at\":\"2026-06-02T10:03:00.000Z\",\"author\":\"Sam\","
                   "\"state\":\"suspicious\",\"reason\":\"a widened allow list\"}");
    start(&a, path, 120, 60);
    apptest_keys(&a, "R");
    assert_int_equal(a.view, SBX_VIEW_REVIEW);
    assert_true(apptest_doc_has(&a, "Review: done"));
    assert_true(apptest_doc_has(&a, "Verdict: suspicious by Sam, 2026-06-02 10:03:00 UTC: a widened allow list"));
    assert_true(apptest_doc_has(&a, "account-audit expected by Sam, 2026-06-02 10:02:00 UTC: the ticket said so"));
    assert_true(apptest_doc_has(&a, "by Dana, 2026-06-02 10:00:00 UTC: key ghp_"));
    assert_true(apptest_doc_has(&a, "zzzzzzzzzz (orphaned: no such event in the run)"));
    assert_true(apptest_doc_has(&a, ":3: "));
    assert_true(apptest_doc_has(&a, "History (4)"));
    assert_false(apptest_doc_has(&a, TOKEN));
    assert_false(grid_has(&a, TOKEN));
    /* Enter on the first line that leads to an event (the triage): it */
    apptest_keys(&a, "g<End>g");
    a.doc_sel = 0;
    apptest_keys(&a, "\n");
    assert_int_equal(a.view, SBX_VIEW_TIMELINE);
    assert_int_equal(a.cur, cur);
    /* the orphan's line leads nowhere: the view stays */
    apptest_keys(&a, "R");
    size_t orphan = SIZE_MAX;
    for (size_t i = 0; i < a.nslines; i++)
        if (!a.slines[i].event)
            orphan = i;
    assert_int_not_equal(orphan, SIZE_MAX);
    a.doc_sel = orphan;
    apptest_keys(&a, "\n");
    assert_int_equal(a.view, SBX_VIEW_REVIEW);
    /* the detail: Dana's note, masked; the line editor holds Tester's own */
    apptest_keys(&a, "q\n");
    assert_true(apptest_doc_has(&a, "by Dana"));
    assert_false(apptest_doc_has(&a, TOKEN));
    assert_false(grid_has(&a, TOKEN));
    apptest_keys(&a, "aa " TOKEN);
    assert_true(sbx_app_typing(&a));
    assert_false(grid_has(&a, TOKEN));
    apptest_keys(&a, "\n");
    assert_false(grid_has(&a, TOKEN));
    assert_false(apptest_doc_has(&a, TOKEN));
    sbx_app_free(&a);
}

/* Whether the screen shows any 8 characters of the token past its ghp_. */
static bool token_part_shown(struct sbx_app *a)
{
    struct sbx_grid g;
    sbx_grid_init(&g, false);
    apptest_draw(a, &g);
    bool shown = false;
    for (int r = 0; r < g.rows && !shown; r++) {
        char *s = apptest_row(&g, r);
        for (size_t i = 4; i + 8 <= strlen(TOKEN) && !shown; i++)
            shown = memmem(s, strlen(s), TOKEN + i, 8) != NULL;
        free(s);
    }
    sbx_grid_free(&g);
    return shown;
}

/* A token typed into the line editor, wider than the status line, with the
 * cursor anywhere in it or around it: no part of it shows. */
static void token_in_the_editor(void **state)
{
    (void)state;
    const char *path = new_path();
    struct sbx_app a;
    start(&a, path, 60, 20);
    apptest_keys(&a, "a" "a note that is long enough to scroll " TOKEN " and after it");
    for (size_t k = 0; k < strlen(TOKEN) + 40; k++) {
        if (token_part_shown(&a))
            fail_msg("a part of the token shows with the cursor %zu left of the end", k);
        apptest_keys(&a, "<Left>");
    }
    apptest_keys(&a, "\x1b");
    sbx_app_free(&a);
}

/* Without a review (the runs list's runs, a preview): the keys say so and
 * write nothing; the session's letter marks still work. */
static void no_review(void **state)
{
    (void)state;
    struct sbx_app_opts o = {.threads = 1, .open_on_finding = true};
    struct sbx_app a;
    sbx_app_init(&a, &o, 100, 30);
    sbx_app_set_data(&a, &R.tl, &R.sum, false);
    size_t cur = a.cur;
    apptest_keys(&a, "a");
    assert_false(sbx_app_typing(&a));
    assert_true(a.msg_error);
    apptest_keys(&a, "Vc");
    assert_false(sbx_app_typing(&a));
    apptest_keys(&a, "mzgG'z");
    assert_int_equal(a.cur, cur);
    char *row = row_text(&a, cur);
    assert_int_equal(row[0], 'z');
    free(row);
    sbx_app_free(&a);
}

/* A review in the store (app/review_outbox.h): the keys' lines go to the
 * sender, not to a file; a refused write is said on the status line, the
 * note stays in the review, and its line goes with the next write. */
struct store {
    int refuse; /* sends to refuse first */
    struct sbx_buf stored;
};

static bool store_send(void *ctx, const char *lines, size_t n, struct sbx_buf *now, char *err,
                       size_t errsz)
{
    struct store *st = ctx;
    if (st->refuse > 0) {
        st->refuse--;
        snprintf(err, errsz, "writing s3://runs/r/sbxview-review.jsonl: 403 AccessDenied: Access Denied");
        return false;
    }
    sbx_buf_add(&st->stored, lines, n);
    sbx_buf_add(now, st->stored.p ? st->stored.p : "", st->stored.len);
    return true;
}

static void to_the_store(void **state)
{
    (void)state;
    struct sbx_app_opts o = {.threads = 1, .open_on_finding = true};
    struct sbx_app a;
    sbx_app_init(&a, &o, 160, 30);
    sbx_app_set_data(&a, &R.tl, &R.sum, false);
    struct sbx_review r;
    sbx_review_init(&r);
    sbx_app_set_review(&a, &r, "s3://runs/r/sbxview-review.jsonl", false, AUTHOR);
    struct store st = {.refuse = 0};
    struct sbx_review_sender snd = {store_send, NULL, &st};
    sbx_app_set_review_sender(&a, &snd, "{\"sbxview_review\":1,\"op\":\"verdict\"}\n", 36);
    assert_int_equal(st.stored.len, 36); /* an earlier session's line goes first */
    st.refuse = 1;
    apptest_keys(&a, "afirst note\n");
    assert_true(a.msg_error);
    assert_non_null(strstr(a.msg, "AccessDenied"));
    assert_non_null(strstr(a.msg, "1 line kept"));
    assert_int_equal(a.rv->st.nnotes, 1); /* shown though not written yet */
    assert_int_equal(st.stored.len, 36);
    /* another reviewer writes meanwhile: shown once the next write has read it */
    char id[SBX_EVID_LEN];
    id_of(&a, a.cur, id);
    struct sbx_buf other = SBX_BUF_INIT;
    sbx_buf_addf(&other, "{\"sbxview_review\":1,\"op\":\"note\",\"at\":\"2026-06-02T09:40:12.000Z\","
                         "\"author\":\"Other <o@example.com>\",\"item\":\"%s\",\"text\":\"from elsewhere\"}\n", id);
    sbx_buf_add(&st.stored, other.p, other.len);
    sbx_buf_free(&other);
    size_t notes = a.rv->st.nnotes;
    apptest_keys(&a, "jasecond note\n");
    assert_int_equal(a.rv->st.nnotes, notes + 2); /* the other's and this one */
    bool seen = false;
    for (size_t i = 0; i < a.rv->st.nnotes; i++)
        seen |= strcmp(a.rv->st.notes[i].text, "from elsewhere") == 0;
    assert_true(seen);
    assert_false(a.msg_error);
    const char *first = strstr(st.stored.p, "first note"), *second = strstr(st.stored.p, "second note");
    assert_non_null(first);
    assert_non_null(second);
    assert_true(first < second);
    /* every key's operation goes there: a mark, a tag, a range's note, the verdict */
    apptest_keys(&a, "mb" "tstore:tag\n" "vjv=over the range\n\x1b" "Vcall fine\n");
    static const char *const ops[] = {"\"op\":\"mark\"", "\"tag\":\"store:tag\"",
                                      "\"text\":\"over the range\"", "\"op\":\"verdict\""};
    for (size_t i = 0; i < sizeof ops / sizeof *ops; i++)
        if (!strstr(st.stored.p, ops[i]))
            fail_msg("%s not sent to the store:\n%s", ops[i], st.stored.p);
    const char *range = strstr(st.stored.p, "over the range");
    while (range > st.stored.p && range[-1] != '\n')
        range--;
    assert_non_null(strstr(range, "\"to\":")); /* the range's last event */
    size_t n;
    void *ctx;
    char err[256];
    assert_null(sbx_app_review_finish(&a, &n, &ctx, err, sizeof err));
    assert_ptr_equal(ctx, &st);
    sbx_app_free(&a);
    sbx_buf_free(&st.stored);
}

/* What an export needs of a review in the store: not known until the first
 * read is in; then the store's lines (an earlier export's "posted" line
 * too) and the lines on their way; its own "posted" line goes to the store
 * through the same sender. */
static void export_uses_the_store(void **state)
{
    (void)state;
    static const char posted[] =
        "{\"sbxview_review\":1,\"op\":\"posted\",\"at\":\"2026-06-02T09:50:03.120Z\",\"author\":\"Dana\","
        "\"target\":\"jira:OPS-12\",\"export\":\"" "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" "\","
        "\"body\":\"" "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb" "\",\"comment\":\"10042\","
        "\"server\":\"jira.example.com\"}\n";
    struct sbx_app_opts o = {.threads = 1, .open_on_finding = true};
    struct sbx_app a;
    sbx_app_init(&a, &o, 160, 30);
    sbx_app_set_data(&a, &R.tl, &R.sum, false);
    struct sbx_review r;
    sbx_review_init(&r);
    sbx_app_set_review(&a, &r, "s3://runs/r/sbxview-review.jsonl", false, AUTHOR);
    assert_false(sbx_app_review_in_store(&a)); /* a file, not the store, until a sender */
    assert_false(sbx_app_review_reading(&a));
    struct store st = {.refuse = 1}; /* the first read fails: still not known */
    sbx_buf_adds(&st.stored, posted);
    struct sbx_review_sender snd = {store_send, NULL, &st};
    sbx_app_set_review_sender(&a, &snd, NULL, 0);
    assert_true(sbx_app_review_in_store(&a));
    assert_true(sbx_app_review_reading(&a));
    apptest_keys(&a, "aa note\n"); /* this write reads it */
    assert_false(sbx_app_review_reading(&a));
    struct sbx_review copy;
    sbx_review_init(&copy);
    sbx_app_review_copy(&a, &copy);
    assert_int_equal(copy.nposts, 1);
    assert_string_equal(copy.posts[0].comment, "10042");
    assert_int_equal(copy.nops, 1); /* the note */
    assert_string_equal(copy.files[0], "s3://runs/r/sbxview-review.jsonl");
    sbx_review_free(&copy);
    size_t before = st.stored.len;
    sbx_app_review_queue(&a, posted, sizeof posted - 1);
    assert_int_equal(st.stored.len, before + sizeof posted - 1);
    sbx_review_init(&copy);
    sbx_app_review_copy(&a, &copy);
    assert_int_equal(copy.nposts, 2); /* the next export sees it */
    sbx_review_free(&copy);
    sbx_app_free(&a);
    sbx_buf_free(&st.stored);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(each_key_writes),
        cmocka_unit_test(editor_note),
        cmocka_unit_test(the_column),
        cmocka_unit_test(the_view),
        cmocka_unit_test(token_in_the_editor),
        cmocka_unit_test(no_review),
        cmocka_unit_test(to_the_store),
        cmocka_unit_test(export_uses_the_store),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
