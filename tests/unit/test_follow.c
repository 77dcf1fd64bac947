/* Following a log that is still being written, and merging new events into
 * a finished timeline. Every case loads a file written here, changes it the
 * way a recorder (or a log rotation) would, polls, and compares with what a
 * fresh load of the file gives. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "importers/follow.h"
#include "importers/format.h"
#include "importers/load.h"
#include "analyses/summary.h"

struct fixture {
    char dir[64];
    char *path;
    struct sbx_timeline tl;
    struct sbx_follow *f;
    struct sbx_follow_report rep;
};

static int setup(void **state)
{
    struct fixture *fx = calloc(1, sizeof *fx);
    snprintf(fx->dir, sizeof fx->dir, "/tmp/sbxview-follow-XXXXXX");
    if (!mkdtemp(fx->dir))
        return -1;
    struct sbx_buf p = SBX_BUF_INIT;
    sbx_buf_addf(&p, "%s/run.jsonl", fx->dir);
    fx->path = p.p;
    sbx_timeline_init(&fx->tl);
    *state = fx;
    return 0;
}

static int teardown(void **state)
{
    struct fixture *fx = *state;
    sbx_follow_report_free(&fx->rep);
    sbx_follow_free(fx->f);
    sbx_timeline_free(&fx->tl);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", fx->dir);
    int rc = system(cmd);
    free(fx->path);
    free(fx);
    return rc;
}

/* A command line at second `sec` whose command names its line number. */
static void add_line(struct sbx_buf *b, int line, int sec)
{
    sbx_buf_addf(b,
                 "{\"at\": \"2026-01-01T%02d:%02d:%02dZ\", \"sandbox\": \"s1\", \"kind\": "
                 "\"command\", \"command\": \"c%d\", \"exit\": %d, \"ms\": 0}\n",
                 sec / 3600 % 24, sec / 60 % 60, sec % 60, line, line % 4 == 0);
}

static void put(const char *path, const char *mode, const char *data, size_t n)
{
    FILE *f = fopen(path, mode);
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, n, f), n);
    assert_int_equal(fclose(f), 0);
}
#define WRITE(fx, s) put((fx)->path, "wb", (s), strlen(s))
#define APPEND(fx, s) put((fx)->path, "ab", (s), strlen(s))

static void load_and_follow(struct fixture *fx)
{
    struct sbx_load_report rep = {0};
    struct sbx_load_opts opts = {.threads = 1};
    const char *paths[] = {fx->path};
    assert_int_equal(sbx_load_paths(&fx->tl, paths, 1, &opts, &rep), 1);
    assert_int_equal(rep.nerrors, 0);
    sbx_load_report_free(&rep);
    fx->f = sbx_follow_start(&fx->tl, NULL);
    assert_int_equal(sbx_follow_count(fx->f), 1);
}

/* The report, the follow and the timeline dropped, for a case's next round. */
static void follow_again(struct fixture *fx)
{
    sbx_follow_report_free(&fx->rep);
    sbx_follow_free(fx->f);
    fx->f = NULL;
    sbx_timeline_free(&fx->tl);
    sbx_timeline_init(&fx->tl);
}

static size_t poll(struct fixture *fx)
{
    sbx_follow_report_free(&fx->rep);
    return sbx_follow_poll(fx->f, &fx->tl, &fx->rep);
}

/* The timeline after following must be what loading the file now gives: the
 * same events in the same order, the same skips and counts. */
static void assert_same_as_fresh_load(struct fixture *fx, int threads)
{
    struct sbx_timeline fresh;
    sbx_timeline_init(&fresh);
    struct sbx_load_report rep = {0};
    struct sbx_load_opts opts = {.threads = threads, .split_min = 1};
    const char *paths[] = {fx->path};
    assert_int_equal(sbx_load_paths(&fresh, paths, 1, &opts, &rep), 1);
    const struct sbx_timeline *tl = &fx->tl;
    assert_int_equal(tl->n, fresh.n);
    assert_int_equal(tl->sources[0].size, fresh.sources[0].size);
    assert_memory_equal(tl->sources[0].data, fresh.sources[0].data, fresh.sources[0].size);
    for (size_t i = 0; i < fresh.n; i++) {
        const struct sbx_event *a = sbx_tl_at(tl, i), *b = sbx_tl_at(&fresh, i);
        assert_int_equal(sbx_ev_line_no(a), sbx_ev_line_no(b));
        assert_int_equal(a->start, b->start);
        assert_int_equal(a->line_off, b->line_off);
        assert_int_equal(sbx_ev_line_len(a), sbx_ev_line_len(b));
        assert_int_equal(sbx_text_off(a, &a->u.cmd.command), sbx_text_off(b, &b->u.cmd.command));
        assert_string_equal(sbx_str(tl, a->sandbox), sbx_str(&fresh, b->sandbox));
    }
    assert_int_equal(tl->nskips, fresh.nskips);
    for (size_t i = 0; i < fresh.nskips; i++) {
        assert_int_equal(tl->skips[i].line, fresh.skips[i].line);
        assert_string_equal(tl->skips[i].reason, fresh.skips[i].reason);
    }
    assert_int_equal(tl->sources[0].events, fresh.sources[0].events);
    assert_int_equal(tl->sources[0].skipped, fresh.sources[0].skipped);
    assert_int_equal(tl->sources[0].incomplete, fresh.sources[0].incomplete);
    assert_int_equal(tl->sources[0].lines, fresh.sources[0].lines);
    sbx_load_report_free(&rep);
    sbx_timeline_free(&fresh);
}

static size_t events_on_line(const struct sbx_timeline *tl, uint32_t line)
{
    size_t n = 0;
    for (size_t i = 0; i < tl->n; i++)
        n += sbx_ev_line_no(sbx_tl_at(tl, i)) == line;
    return n;
}

static void append_one_line(void **state)
{
    struct fixture *fx = *state;
    struct sbx_buf b = SBX_BUF_INIT;
    for (int i = 1; i <= 3; i++)
        add_line(&b, i, i);
    WRITE(fx, b.p);
    load_and_follow(fx);
    assert_int_equal(poll(fx), 0);
    assert_int_equal(fx->rep.nfiles, 1);
    assert_int_equal(fx->rep.files[0].status, SBX_FOLLOW_UNCHANGED);
    assert_null(fx->rep.files[0].message);

    sbx_buf_clear(&b);
    add_line(&b, 4, 4);
    APPEND(fx, b.p);
    assert_int_equal(poll(fx), 1);
    assert_int_equal(fx->rep.files[0].status, SBX_FOLLOW_GREW);
    assert_int_equal(fx->rep.files[0].events, 1);
    assert_non_null(strstr(fx->rep.files[0].message, fx->path));
    assert_int_equal(fx->tl.n, 4);
    assert_int_equal(sbx_ev_line_no(sbx_tl_at(&fx->tl, 3)), 4);
    assert_int_equal(fx->tl.sources[0].events, 4);
    assert_same_as_fresh_load(fx, 1);
    assert_int_equal(poll(fx), 0);
    assert_int_equal(fx->rep.files[0].status, SBX_FOLLOW_UNCHANGED);
    sbx_buf_free(&b);
}

/* A partial line is an "incomplete last line" until its newline comes; then
 * its skip goes, its event comes once, with its line number. */
static void partial_line_completes(void **state)
{
    struct fixture *fx = *state;
    struct sbx_buf b = SBX_BUF_INIT;
    add_line(&b, 1, 1);
    add_line(&b, 2, 2);
    size_t whole = b.len;
    add_line(&b, 3, 3);
    char *line3 = sbx_xstrndup(b.p + whole, b.len - whole);
    b.len = whole + 20; /* the first 20 bytes of line 3 */
    b.p[b.len] = '\0';
    WRITE(fx, b.p);
    load_and_follow(fx);
    assert_int_equal(fx->tl.n, 2);
    assert_int_equal(fx->tl.nskips, 1);
    assert_int_equal(fx->tl.skips[0].line, 3);
    assert_non_null(strstr(fx->tl.skips[0].reason, "incomplete"));
    assert_int_equal(fx->tl.sources[0].skipped, 1);

    put(fx->path, "ab", line3 + 20, 15); /* still not the whole line */
    assert_int_equal(poll(fx), 0);
    assert_int_equal(fx->rep.files[0].status, SBX_FOLLOW_GREW);
    assert_int_equal(fx->tl.nskips, 1);
    assert_int_equal(fx->tl.sources[0].skipped, 1);
    assert_int_equal(fx->tl.sources[0].incomplete, 35);
    assert_same_as_fresh_load(fx, 1);

    APPEND(fx, line3 + 35); /* the rest, newline included */
    assert_int_equal(poll(fx), 1);
    assert_int_equal(fx->tl.n, 3);
    assert_int_equal(fx->tl.nskips, 0);
    assert_int_equal(fx->tl.sources[0].skipped, 0);
    assert_int_equal(fx->tl.sources[0].incomplete, 0);
    assert_int_equal(events_on_line(&fx->tl, 3), 1);
    assert_int_equal(sbx_ev_line_no(sbx_tl_at(&fx->tl, 2)), 3);
    assert_same_as_fresh_load(fx, 1);

    sbx_buf_clear(&b);
    add_line(&b, 4, 4);
    APPEND(fx, b.p);
    assert_int_equal(poll(fx), 1);
    assert_int_equal(sbx_ev_line_no(sbx_tl_at(&fx->tl, 3)), 4);
    assert_same_as_fresh_load(fx, 1);
    free(line3);
    sbx_buf_free(&b);
}

/* A whole object without its newline loads as an event; when the newline
 * comes it stays one event, and when the line turns out longer (garbage
 * after the object) its event is replaced by a skip. */
static void unterminated_line_read_again(void **state)
{
    struct fixture *fx = *state;
    struct sbx_buf b = SBX_BUF_INIT;
    add_line(&b, 1, 1);
    add_line(&b, 2, 2);
    b.p[--b.len] = '\0';
    WRITE(fx, b.p);
    load_and_follow(fx);
    assert_int_equal(fx->tl.n, 2);
    assert_int_equal(fx->tl.nskips, 0);

    sbx_buf_clear(&b);
    sbx_buf_addc(&b, '\n');
    add_line(&b, 3, 3);
    sbx_buf_adds(&b, "{\"at\": \"2026-01-01T00:00:04Z\", \"kind\": \"command\"}");
    APPEND(fx, b.p);
    /* line 2 read again, line 3, and line 4 without its newline */
    assert_int_equal(poll(fx), 3);
    assert_int_equal(fx->tl.n, 4);
    assert_int_equal(events_on_line(&fx->tl, 2), 1);
    assert_same_as_fresh_load(fx, 1);

    APPEND(fx, " trailing\n");
    assert_int_equal(poll(fx), 0);
    assert_int_equal(fx->tl.n, 3);
    assert_int_equal(events_on_line(&fx->tl, 4), 0);
    assert_int_equal(fx->tl.nskips, 1);
    assert_int_equal(fx->tl.skips[0].line, 4);
    assert_null(strstr(fx->tl.skips[0].reason, "incomplete"));
    assert_int_equal(fx->tl.sources[0].events, 3);
    assert_int_equal(fx->tl.sources[0].skipped, 1);
    assert_same_as_fresh_load(fx, 1);
    sbx_buf_free(&b);
}

/* New lines whose times sort before loaded events are merged into place. */
static void earlier_times_merge(void **state)
{
    struct fixture *fx = *state;
    struct sbx_buf b = SBX_BUF_INIT;
    for (int i = 1; i <= 50; i++)
        add_line(&b, i, 100 + i * 10);
    WRITE(fx, b.p);
    load_and_follow(fx);
    sbx_buf_clear(&b);
    static const int secs[] = {5, 255, 105, 1000, 100, 333};
    for (int i = 0; i < 6; i++)
        add_line(&b, 51 + i, secs[i]);
    APPEND(fx, b.p);
    assert_int_equal(poll(fx), 6);
    assert_int_equal(sbx_ev_line_no(sbx_tl_at(&fx->tl, 0)), 51); /* second 5 */
    assert_int_equal(sbx_ev_line_no(sbx_tl_at(&fx->tl, 1)), 55); /* 100 */
    assert_int_equal(sbx_ev_line_no(sbx_tl_at(&fx->tl, 2)), 53); /* 105 */
    assert_int_equal(sbx_ev_line_no(sbx_tl_at(&fx->tl, 3)), 1);  /* 110, the first loaded */
    assert_same_as_fresh_load(fx, 1);
    sbx_buf_free(&b);
}

/* The analyses read a followed timeline as they read a fresh one. */
static void summary_after_follow(void **state)
{
    struct fixture *fx = *state;
    struct sbx_buf b = SBX_BUF_INIT;
    for (int i = 1; i <= 10; i++)
        add_line(&b, i, 50 - i);
    WRITE(fx, b.p);
    load_and_follow(fx);
    sbx_buf_clear(&b);
    for (int i = 11; i <= 20; i++)
        add_line(&b, i, i * 3);
    APPEND(fx, b.p);
    assert_int_equal(poll(fx), 10);
    struct sbx_summary sum, fresh_sum;
    char err[256];
    assert_true(sbx_summarize(&fx->tl, NULL, &sum, err, sizeof err));
    struct sbx_timeline fresh;
    sbx_timeline_init(&fresh);
    struct sbx_load_report rep = {0};
    const char *paths[] = {fx->path};
    sbx_load_paths(&fresh, paths, 1, NULL, &rep);
    assert_true(sbx_summarize(&fresh, NULL, &fresh_sum, err, sizeof err));
    assert_int_equal(sum.commands, 20);
    assert_int_equal(sum.commands, fresh_sum.commands);
    assert_int_equal(sum.failed, fresh_sum.failed);
    assert_int_equal(sum.start, fresh_sum.start);
    assert_int_equal(sum.end, fresh_sum.end);
    assert_int_equal(sum.nsandboxes, 1);
    for (size_t i = 0; i < fx->tl.n; i++)
        assert_int_equal(sbx_tl_at(&fx->tl, i)->findings, sbx_tl_at(&fresh, i)->findings);
    sbx_summary_free(&sum);
    sbx_summary_free(&fresh_sum);
    sbx_load_report_free(&rep);
    sbx_timeline_free(&fresh);
    sbx_buf_free(&b);
}

/* Every loaded event's line is still its text: what a truncation or a
 * rewrite must not take away. */
static void assert_lines_kept(const struct sbx_timeline *tl, const struct sbx_buf *b)
{
    for (size_t i = 0; i < tl->n; i++) {
        const struct sbx_event *e = sbx_tl_at(tl, i);
        assert_memory_equal(sbx_event_line(tl, e), b->p + e->line_off, sbx_ev_line_len(e));
        assert_non_null(memchr(sbx_event_line(tl, e), '{', sbx_ev_line_len(e))); /* not zeros */
    }
}

/* Truncated to any size, as the file was being followed: said, no longer
 * followed, and every loaded event keeps its text (a mapping's lost pages
 * would read as zeros, or fault). */
static void truncated(void **state)
{
    struct fixture *fx = *state;
    struct sbx_buf b = SBX_BUF_INIT;
    for (int i = 1; i <= 100; i++)
        add_line(&b, i, i);
    const size_t cuts[] = {0, 1, 100, b.len / 2, b.len - 1};
    for (size_t k = 0; k < sizeof cuts / sizeof *cuts; k++) {
        WRITE(fx, b.p);
        load_and_follow(fx);
        assert_int_equal(fx->tl.sources[0].how, SBX_DATA_HEAP); /* the program's own copy */
        assert_int_equal(truncate(fx->path, (off_t)cuts[k]), 0);
        assert_int_equal(poll(fx), 0);
        assert_int_equal(fx->rep.files[0].status, SBX_FOLLOW_TRUNCATED);
        assert_non_null(strstr(fx->rep.files[0].message, fx->path));
        assert_non_null(strstr(fx->rep.files[0].message, "truncated"));
        assert_int_equal(sbx_follow_count(fx->f), 0);
        assert_int_equal(fx->tl.n, 100);
        assert_lines_kept(&fx->tl, &b);
        /* written again after the cut: still the loaded text */
        APPEND(fx, b.p);
        assert_int_equal(poll(fx), 0);
        assert_int_equal(fx->rep.nfiles, 0);
        assert_int_equal(fx->tl.n, 100);
        assert_lines_kept(&fx->tl, &b);
        follow_again(fx);
    }
    sbx_buf_free(&b);
}

/* Grown past what an event can keep its lines' offsets for (SBX_SOURCE_MAX,
 * model/event.h): no longer followed, the loaded lines kept; the bytes are
 * never read (the growth is sparse). */
static void grew_past_the_offset_bits(void **state)
{
    struct fixture *fx = *state;
    struct sbx_buf b = SBX_BUF_INIT;
    for (int i = 1; i <= 10; i++)
        add_line(&b, i, i);
    const uint64_t sizes[] = {SBX_SOURCE_MAX + 1, 2 * SBX_SOURCE_MAX};
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        WRITE(fx, b.p);
        load_and_follow(fx);
        if (truncate(fx->path, (off_t)sizes[k]) != 0)
            skip(); /* no sparse files here */
        assert_int_equal(poll(fx), 0);
        assert_int_equal(fx->rep.files[0].status, SBX_FOLLOW_ERROR);
        assert_non_null(strstr(fx->rep.files[0].message, fx->path));
        assert_non_null(strstr(fx->rep.files[0].message, "grew past 128 GiB"));
        assert_int_equal(sbx_follow_count(fx->f), 0);
        assert_int_equal(fx->tl.n, 10);
        assert_lines_kept(&fx->tl, &b);
        follow_again(fx);
    }
    sbx_buf_free(&b);
}

/* Emptied and written again past the old size: not mistaken for growth. */
static void rewritten(void **state)
{
    struct fixture *fx = *state;
    struct sbx_buf b = SBX_BUF_INIT;
    for (int i = 1; i <= 3; i++)
        add_line(&b, i, i);
    WRITE(fx, b.p);
    load_and_follow(fx);
    sbx_buf_clear(&b);
    for (int i = 1; i <= 5; i++)
        add_line(&b, i, 100 + i);
    struct sbx_buf loaded = SBX_BUF_INIT;
    for (int i = 1; i <= 3; i++)
        add_line(&loaded, i, i);
    WRITE(fx, b.p);
    assert_int_equal(poll(fx), 0);
    assert_int_equal(fx->rep.files[0].status, SBX_FOLLOW_TRUNCATED);
    assert_int_equal(fx->tl.n, 3);
    assert_int_equal(sbx_follow_count(fx->f), 0);
    assert_lines_kept(&fx->tl, &loaded); /* the loaded lines, not the new ones */
    sbx_buf_free(&loaded);
    sbx_buf_free(&b);
}

static void replaced(void **state)
{
    struct fixture *fx = *state;
    struct sbx_buf b = SBX_BUF_INIT;
    for (int i = 1; i <= 3; i++)
        add_line(&b, i, i);
    WRITE(fx, b.p);
    load_and_follow(fx);
    struct sbx_buf other = SBX_BUF_INIT;
    sbx_buf_addf(&other, "%s.new", fx->path);
    add_line(&b, 4, 4);
    put(other.p, "wb", b.p, b.len);
    assert_int_equal(rename(other.p, fx->path), 0);
    assert_int_equal(poll(fx), 0);
    assert_int_equal(fx->rep.files[0].status, SBX_FOLLOW_REPLACED);
    assert_non_null(strstr(fx->rep.files[0].message, fx->path));
    assert_non_null(strstr(fx->rep.files[0].message, "replaced"));
    assert_int_equal(fx->tl.n, 3);
    assert_int_equal(sbx_follow_count(fx->f), 0);
    assert_memory_equal(sbx_event_line(&fx->tl, sbx_tl_at(&fx->tl, 2)), b.p + sbx_tl_at(&fx->tl, 2)->line_off,
                        sbx_ev_line_len(sbx_tl_at(&fx->tl, 2)));
    sbx_buf_free(&other);
    sbx_buf_free(&b);
}

static void deleted(void **state)
{
    struct fixture *fx = *state;
    struct sbx_buf b = SBX_BUF_INIT;
    for (int i = 1; i <= 3; i++)
        add_line(&b, i, i);
    WRITE(fx, b.p);
    load_and_follow(fx);
    assert_int_equal(unlink(fx->path), 0);
    assert_int_equal(poll(fx), 0);
    assert_int_equal(fx->rep.files[0].status, SBX_FOLLOW_GONE);
    assert_non_null(strstr(fx->rep.files[0].message, fx->path));
    assert_int_equal(sbx_follow_count(fx->f), 0);
    assert_int_equal(fx->tl.n, 3);
    assert_memory_equal(sbx_event_line(&fx->tl, sbx_tl_at(&fx->tl, 0)), b.p, sbx_ev_line_len(sbx_tl_at(&fx->tl, 0)));
    sbx_buf_free(&b);
}

static void many_polls_nothing_new(void **state)
{
    struct fixture *fx = *state;
    struct sbx_buf b = SBX_BUF_INIT;
    for (int i = 1; i <= 20; i++)
        add_line(&b, i, 40 - i);
    sbx_buf_adds(&b, "{\"at\": \"2026"); /* and a partial line that stays partial */
    WRITE(fx, b.p);
    load_and_follow(fx);
    uint32_t *before = malloc(fx->tl.n * sizeof *before);
    memcpy(before, fx->tl.order_, fx->tl.n * sizeof *before);
    const char *data = fx->tl.sources[0].data;
    for (int i = 0; i < 200; i++) {
        assert_int_equal(poll(fx), 0);
        assert_int_equal(fx->rep.nfiles, 1);
        assert_int_equal(fx->rep.files[0].status, SBX_FOLLOW_UNCHANGED);
    }
    assert_int_equal(fx->tl.n, 20);
    assert_memory_equal(fx->tl.order_, before, 20 * sizeof *before);
    assert_ptr_equal(fx->tl.sources[0].data, data);
    assert_int_equal(fx->tl.nskips, 1);
    assert_int_equal(fx->tl.sources[0].skipped, 1);
    free(before);
    sbx_buf_free(&b);
}

/* A log that was empty when loaded, then gets a BOM and lines. */
static void grows_from_empty(void **state)
{
    struct fixture *fx = *state;
    WRITE(fx, "");
    load_and_follow(fx);
    assert_int_equal(fx->tl.n, 0);
    APPEND(fx, "\xEF\xBB");
    assert_int_equal(poll(fx), 0);
    struct sbx_buf b = SBX_BUF_INIT;
    sbx_buf_adds(&b, "\xBF");
    add_line(&b, 1, 7);
    add_line(&b, 2, 3);
    APPEND(fx, b.p);
    assert_int_equal(poll(fx), 2);
    assert_int_equal(fx->tl.sources[0].how, SBX_DATA_HEAP);
    assert_same_as_fresh_load(fx, 1);
    sbx_buf_free(&b);
}

/* A burst bigger than the split size is imported by several threads and
 * numbered as one load would. */
static void big_append_threads(void **state)
{
    struct fixture *fx = *state;
    struct sbx_buf b = SBX_BUF_INIT;
    for (int i = 1; i <= 1000; i++)
        add_line(&b, i, (i * 7919) % 5000);
    WRITE(fx, b.p);
    load_and_follow(fx);
    sbx_buf_clear(&b);
    for (int i = 1001; i <= 60000; i++)
        add_line(&b, i, (i * 7919) % 5000);
    APPEND(fx, b.p);
    assert_int_equal(poll(fx), 59000);
    assert_same_as_fresh_load(fx, 4);
    sbx_buf_free(&b);
}

/* sbx_timeline_append on its own: 10 events into 100,000 and skips of two
 * sources, in order, with the counts. */
static void append_merges_into_large(void **state)
{
    (void)state;
    struct sbx_timeline tl;
    sbx_timeline_init(&tl);
    sbx_timeline_add_source(&tl, "a", sbx_xcalloc(1, 1), 0, SBX_DATA_HEAP);
    sbx_timeline_add_source(&tl, "b", sbx_xcalloc(1, 1), 0, SBX_DATA_HEAP);
    for (int s = 0; s < 2; s++) {
        struct sbx_evbuf buf = {0};
        for (uint32_t i = 1; i <= 50000; i++) {
            struct sbx_event *e = sbx_evbuf_push(&buf);
            e->source = (uint16_t)s;
            sbx_ev_set_line_no(e, i);
            e->start = (int64_t)((i * 2654435761u) % 1000003u) * 1000;
        }
        sbx_evbuf_skip(&buf, &tl, (uint32_t)s, 50001, "bad");
        sbx_timeline_adopt(&tl, &buf);
    }
    sbx_timeline_finish(&tl);
    assert_int_equal(tl.n, 100000);

    struct sbx_evbuf add = {0};
    struct sbx_event *mine[10];
    static const int64_t starts[10] = {-5, 0, 1000003000, 17000, 17000, 999, 500000000, 3, 3, 42};
    for (int i = 0; i < 10; i++) {
        mine[i] = sbx_evbuf_push(&add);
        mine[i]->source = 0;
        sbx_ev_set_line_no(mine[i], 50002 + (uint32_t)i);
        mine[i]->start = i == 1 ? SBX_TIME_UNKNOWN : starts[i];
    }
    sbx_evbuf_skip(&add, &tl, 0, 50012, "bad too");
    sbx_timeline_append(&tl, &add, 1);

    assert_int_equal(tl.n, 100010);
    assert_int_equal(tl.sources[0].events, 50010);
    assert_int_equal(tl.sources[1].events, 50000);
    assert_int_equal(tl.sources[0].skipped, 2);
    for (size_t i = 1; i < tl.n; i++)
        assert_true(sbx_event_cmp(sbx_tl_at(&tl, i - 1), sbx_tl_at(&tl, i)) < 0);
    for (int k = 0; k < 10; k++) {
        size_t seen = 0;
        for (size_t i = 0; i < tl.n; i++)
            seen += sbx_tl_at(&tl, i) == mine[k];
        assert_int_equal(seen, 1);
    }
    assert_ptr_equal(sbx_tl_at(&tl, 0), mine[1]); /* the unknown time first */
    assert_int_equal(tl.nskips, 3);
    assert_int_equal(tl.skips[0].source, 0);
    assert_int_equal(tl.skips[0].line, 50001);
    assert_int_equal(tl.skips[1].source, 0);
    assert_int_equal(tl.skips[1].line, 50012);
    assert_int_equal(tl.skips[2].source, 1);
    sbx_timeline_free(&tl);
}

/* A diff's and a manifest pair's events come from the whole run, not from
 * their lines: they are not followed, the recorder log beside them is. */
static void derived_formats_not_followed(void **state)
{
    struct fixture *fx = *state;
    struct sbx_buf b = SBX_BUF_INIT;
    add_line(&b, 1, 1);
    WRITE(fx, b.p);
    char diff[96];
    snprintf(diff, sizeof diff, "%s/changes.patch", fx->dir);
    static const char patch[] = "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-old\n+new\n";
    put(diff, "wb", patch, strlen(patch));
    struct sbx_load_report rep = {0};
    const char *paths[] = {fx->path, diff};
    assert_int_equal(sbx_load_paths(&fx->tl, paths, 2, NULL, &rep), 2);
    sbx_load_report_free(&rep);
    fx->f = sbx_follow_start(&fx->tl, NULL);
    assert_int_equal(sbx_follow_count(fx->f), 1);
    put(diff, "ab", patch, strlen(patch));
    sbx_buf_clear(&b);
    add_line(&b, 2, 2);
    APPEND(fx, b.p);
    assert_int_equal(poll(fx), 1);
    assert_int_equal(fx->rep.nfiles, 1);
    assert_string_equal(fx->tl.sources[fx->rep.files[0].source].format, "recorder");
    sbx_buf_free(&b);
}

int main(void)
{
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(append_one_line),        T(partial_line_completes), T(unterminated_line_read_again),
        T(earlier_times_merge),    T(summary_after_follow),   T(truncated),
        T(rewritten),              T(replaced),               T(deleted),
        T(many_polls_nothing_new), T(grows_from_empty),       T(big_append_threads),
        T(derived_formats_not_followed), T(grew_past_the_offset_bits),
        cmocka_unit_test(append_merges_into_large),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
