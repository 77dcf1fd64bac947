/* Loading files and folders: the quick preview (a prefix of each file), the
 * progress counters another thread polls, and cancelling. Fixtures are
 * recorder logs written into a temporary folder here. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "importers/load.h"

struct fixture {
    char dir[64];
};

static int setup(void **state)
{
    struct fixture *fx = calloc(1, sizeof *fx);
    snprintf(fx->dir, sizeof fx->dir, "/tmp/sbxview-load-XXXXXX");
    if (!mkdtemp(fx->dir))
        return -1;
    *state = fx;
    return 0;
}

static int teardown(void **state)
{
    struct fixture *fx = *state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", fx->dir);
    int rc = system(cmd);
    free(fx);
    return rc;
}

static char *path_in(const struct fixture *fx, const char *name)
{
    struct sbx_buf b = SBX_BUF_INIT;
    sbx_buf_addf(&b, "%s/%s", fx->dir, name);
    return b.p;
}

/* One recorder line whose command names its line number, so a test can check
 * that an event has the number of the line it came from. */
static void add_line(struct sbx_buf *b, int line, int sec)
{
    sbx_buf_addf(b,
                 "{\"at\": \"2026-01-01T%02d:%02d:%02dZ\", \"kind\": \"command\", \"command\": "
                 "\"c%d\", \"exit\": %d, \"ms\": 0, \"stdout\": \"some output of the command\"}\n",
                 sec / 3600 % 24, sec / 60 % 60, sec % 60, line, line % 3);
}

static void write_file(const char *path, const char *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, n, f), n);
    assert_int_equal(fclose(f), 0);
}

static struct sbx_buf make_log(int lines)
{
    struct sbx_buf b = SBX_BUF_INIT;
    for (int i = 1; i <= lines; i++)
        add_line(&b, i, i);
    return b;
}

static size_t count_char(const char *p, size_t n, char c)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        k += p[i] == c;
    return k;
}

/* Every event's command says its line: c<line_no>. */
static void assert_numbered(const struct sbx_timeline *tl)
{
    struct sbx_buf scratch = SBX_BUF_INIT;
    for (size_t i = 0; i < tl->n; i++) {
        const struct sbx_event *e = sbx_tl_at(tl, i);
        size_t len;
        const char *cmd = sbx_text_get(tl, e, &e->u.cmd.command, &scratch, &len);
        char want[32];
        snprintf(want, sizeof want, "c%u", sbx_ev_line_no(e));
        assert_int_equal(len, strlen(want));
        assert_memory_equal(cmd, want, len);
        if (i)
            assert_true(sbx_event_cmp(sbx_tl_at(tl, i - 1), e) < 0);
    }
    sbx_buf_free(&scratch);
}

static void preview_cuts_at_line_end(void **state)
{
    struct fixture *fx = *state;
    struct sbx_buf log = make_log(2000);
    char *path = path_in(fx, "big.jsonl");
    write_file(path, log.p, log.len);
    const size_t prefix = 10000;
    struct sbx_timeline tl;
    sbx_timeline_init(&tl);
    struct sbx_load_report rep = {0};
    struct sbx_load_opts opts = {.threads = 1, .prefix = prefix};
    const char *paths[] = {path};
    assert_int_equal(sbx_load_paths(&tl, paths, 1, &opts, &rep), 1);
    assert_int_equal(rep.nerrors, 0);
    const struct sbx_source *src = &tl.sources[0];
    /* the cut: just after the last newline within the first prefix bytes */
    const char *nl = memrchr(log.p, '\n', prefix);
    size_t want = (size_t)(nl - log.p) + 1;
    assert_int_equal(src->size, want);
    assert_true(src->preview);
    assert_int_equal(src->full_size, log.len);
    assert_memory_equal(src->data, log.p, want);
    assert_int_equal(tl.n, count_char(log.p, want, '\n'));
    assert_int_equal(tl.nskips, 0); /* the cut line is not an incomplete line */
    assert_int_equal(src->skipped, 0);
    assert_int_equal(src->incomplete, 0);
    assert_int_equal(src->lines, tl.n);
    assert_numbered(&tl);
    sbx_load_report_free(&rep);
    sbx_timeline_free(&tl);

    /* without a prefix the same file loads whole */
    sbx_timeline_init(&tl);
    opts.prefix = 0;
    assert_int_equal(sbx_load_paths(&tl, paths, 1, &opts, &rep), 1);
    assert_false(tl.sources[0].preview);
    assert_int_equal(tl.n, 2000);
    assert_int_equal(tl.sources[0].full_size, log.len);
    sbx_load_report_free(&rep);
    sbx_timeline_free(&tl);
    free(path);
    sbx_buf_free(&log);
}

/* A file shorter than the prefix is read whole: not a preview, and a partial
 * last line there is a real one. A file cut before its first newline is
 * left to the full load. Files in folders are cut too. */
static void preview_short_files_and_folders(void **state)
{
    struct fixture *fx = *state;
    char *run = path_in(fx, "run");
    assert_int_equal(mkdir(run, 0700), 0);
    struct sbx_buf small = make_log(3);
    sbx_buf_adds(&small, "{\"at\": \"2026-01-01T00:00:09Z\", \"ki");
    char *p_small = path_in(fx, "run/a-small.jsonl");
    write_file(p_small, small.p, small.len);
    struct sbx_buf big = make_log(500);
    char *p_big = path_in(fx, "run/b-big.jsonl");
    write_file(p_big, big.p, big.len);
    struct sbx_buf one = SBX_BUF_INIT; /* one line longer than the prefix */
    sbx_buf_adds(&one, "{\"at\": \"2026-01-01T00:00:01Z\", \"kind\": \"command\", \"stdout\": \"");
    for (int i = 0; i < 5000; i++)
        sbx_buf_addc(&one, 'y');
    sbx_buf_adds(&one, "\"}\n");
    char *p_one = path_in(fx, "one-line.jsonl");
    write_file(p_one, one.p, one.len);

    struct sbx_timeline tl;
    sbx_timeline_init(&tl);
    struct sbx_load_report rep = {0};
    struct sbx_load_opts opts = {.threads = 2, .prefix = 4096};
    const char *paths[] = {run, p_one};
    assert_int_equal(sbx_load_paths(&tl, paths, 2, &opts, &rep), 2);
    assert_int_equal(rep.nerrors, 0);
    assert_int_equal(rep.ndeferred, 1);
    assert_string_equal(rep.deferred[0], p_one);
    assert_int_equal(tl.nsources, 2);
    assert_false(tl.sources[0].preview);
    assert_int_equal(tl.sources[0].events, 3);
    assert_int_equal(tl.sources[0].skipped, 1);
    assert_true(tl.sources[0].incomplete > 0);
    assert_true(tl.sources[1].preview);
    assert_true(tl.sources[1].size <= 4096);
    assert_int_equal(tl.sources[1].full_size, big.len);
    assert_int_equal(tl.sources[1].skipped, 0);
    assert_int_equal(tl.sources[1].events, count_char(big.p, tl.sources[1].size, '\n'));
    sbx_load_report_free(&rep);
    sbx_timeline_free(&tl);
    free(run);
    free(p_small);
    free(p_big);
    free(p_one);
    sbx_buf_free(&small);
    sbx_buf_free(&big);
    sbx_buf_free(&one);
}

/* Standard input and FIFOs can be read once only: a preview leaves them
 * unread and says so; stdin still holds its bytes afterwards. */
static void preview_leaves_streams(void **state)
{
    struct fixture *fx = *state;
    char *fifo = path_in(fx, "pipe");
    assert_int_equal(mkfifo(fifo, 0600), 0);
    struct sbx_buf log = make_log(5);
    char *file = path_in(fx, "f.jsonl");
    write_file(file, log.p, log.len);

    int fds[2];
    assert_int_equal(pipe(fds), 0);
    static const char waiting[] = "still here\n";
    assert_int_equal(write(fds[1], waiting, sizeof waiting - 1), (ssize_t)(sizeof waiting - 1));
    close(fds[1]);
    int saved = dup(0);
    assert_true(saved >= 0);
    assert_int_equal(dup2(fds[0], 0), 0);
    close(fds[0]);

    struct sbx_timeline tl;
    sbx_timeline_init(&tl);
    struct sbx_load_report rep = {0};
    struct sbx_load_progress prog = {0};
    struct sbx_load_opts opts = {.threads = 1, .prefix = 1 << 20, .shared = &prog};
    const char *paths[] = {"-", fifo, file};
    assert_int_equal(sbx_load_paths(&tl, paths, 3, &opts, &rep), 1);
    char buf[64];
    ssize_t got = read(0, buf, sizeof buf);
    assert_int_equal(dup2(saved, 0), 0);
    close(saved);
    assert_int_equal(got, (ssize_t)(sizeof waiting - 1));
    assert_memory_equal(buf, waiting, sizeof waiting - 1);
    assert_int_equal(rep.nerrors, 0);
    assert_int_equal(rep.ndeferred, 2);
    assert_string_equal(rep.deferred[0], "-");
    assert_string_equal(rep.deferred[1], fifo);
    assert_int_equal(tl.n, 5);
    assert_int_equal(prog.files_total, 1); /* the streams are not part of this load */
    assert_int_equal(prog.files_done, 1);
    assert_int_equal(prog.bytes_done, log.len);
    assert_int_equal(prog.bytes_total, log.len);
    sbx_load_report_free(&rep);
    sbx_timeline_free(&tl);
    free(fifo);
    free(file);
    sbx_buf_free(&log);
}

struct watch {
    struct sbx_load_progress *prog;
    uint64_t calls, last_done;
    bool went_back, over_total;
    bool cancel_at_first;
};

/* The callback runs on the loading thread between steps. */
static void on_progress(void *ctx, const char *path, uint64_t done, uint64_t total)
{
    (void)path;
    struct watch *w = ctx;
    w->calls++;
    uint64_t all = atomic_load(&w->prog->bytes_done);
    if (all < w->last_done)
        w->went_back = true;
    if (all > atomic_load(&w->prog->bytes_total) || done > total)
        w->over_total = true;
    w->last_done = all;
    if (w->cancel_at_first)
        atomic_store(&w->prog->cancel, true);
}

/* The counters reach their totals, which were known before loading: a folder
 * with a log, a file that is no log and a file with a BOM and no final
 * newline, and a 20 MB file loaded by several threads. */
static void progress_reaches_totals(void **state)
{
    struct fixture *fx = *state;
    char *run = path_in(fx, "run");
    assert_int_equal(mkdir(run, 0700), 0);
    struct sbx_buf a = make_log(10);
    char *pa = path_in(fx, "run/a.jsonl");
    write_file(pa, a.p, a.len);
    char *pn = path_in(fx, "run/notes.txt");
    write_file(pn, "not a log\n", 10);
    struct sbx_buf bom = SBX_BUF_INIT;
    sbx_buf_adds(&bom, "\xEF\xBB\xBF");
    add_line(&bom, 1, 1);
    add_line(&bom, 2, 2);
    bom.len--; /* no final newline */
    char *pb = path_in(fx, "run/b.jsonl");
    write_file(pb, bom.p, bom.len);
    struct sbx_buf big = make_log(150000);
    char *pbig = path_in(fx, "big.jsonl");
    write_file(pbig, big.p, big.len);

    struct sbx_timeline tl;
    sbx_timeline_init(&tl);
    struct sbx_load_report rep = {0};
    struct sbx_load_progress prog = {0};
    struct watch w = {.prog = &prog};
    /* two threads: each has more than one step (8 MiB) to do */
    struct sbx_load_opts opts = {.threads = 2, .shared = &prog, .progress = on_progress,
                                 .progress_ctx = &w};
    const char *paths[] = {run, pbig};
    assert_int_equal(sbx_load_paths(&tl, paths, 2, &opts, &rep), 3);
    uint64_t bytes = a.len + 10 + bom.len + big.len;
    assert_int_equal(prog.bytes_total, bytes);
    assert_int_equal(prog.bytes_done, bytes);
    assert_int_equal(prog.files_total, 4);
    assert_int_equal(prog.files_done, 4);
    assert_int_equal(prog.events, tl.n);
    assert_int_equal(tl.n, 10 + 2 + 150000);
    assert_int_equal(rep.nunread, 1);
    assert_string_equal(rep.unread[0].path, pn);
    assert_true(rep.unread[0].in_folder);
    assert_string_equal(rep.unread[0].reason, "no format matches: first line is text: 'not a log'");
    assert_false(rep.cancelled);
    assert_true(w.calls >= 1); /* 20 MB is more than one step */
    assert_false(w.went_back);
    assert_false(w.over_total);
    sbx_load_report_free(&rep);
    sbx_timeline_free(&tl);

    /* with a prefix the totals are the prefixes */
    memset(&prog, 0, sizeof prog);
    sbx_timeline_init(&tl);
    opts = (struct sbx_load_opts){.threads = 3, .shared = &prog, .prefix = 100000};
    assert_int_equal(sbx_load_paths(&tl, paths, 2, &opts, &rep), 3);
    bytes = a.len + 10 + bom.len + 100000;
    assert_int_equal(prog.bytes_total, bytes);
    assert_int_equal(prog.bytes_done, bytes);
    assert_int_equal(prog.events, tl.n);
    sbx_load_report_free(&rep);
    sbx_timeline_free(&tl);

    free(run);
    free(pa);
    free(pn);
    free(pb);
    free(pbig);
    sbx_buf_free(&a);
    sbx_buf_free(&bom);
    sbx_buf_free(&big);
}

/* Cancelled at the first step of a big file: the load returns at once with
 * the lines read so far, numbered right and sorted, and the inputs after it
 * unread. Cancelled before it starts: nothing is read. */
static void cancel(void **state)
{
    struct fixture *fx = *state;
    struct sbx_buf big = make_log(200000);
    char *pbig = path_in(fx, "big.jsonl");
    write_file(pbig, big.p, big.len);
    struct sbx_buf small = make_log(4);
    char *psmall = path_in(fx, "small.jsonl");
    write_file(psmall, small.p, small.len);
    const char *paths[] = {pbig, psmall};

    for (int threads = 1; threads <= 2; threads++) {
        struct sbx_timeline tl;
        sbx_timeline_init(&tl);
        struct sbx_load_report rep = {0};
        struct sbx_load_progress prog = {0};
        struct watch w = {.prog = &prog, .cancel_at_first = true};
        struct sbx_load_opts opts = {.threads = threads, .shared = &prog,
                                     .progress = on_progress, .progress_ctx = &w};
        assert_int_equal(sbx_load_paths(&tl, paths, 2, &opts, &rep), 1);
        assert_true(rep.cancelled);
        assert_int_equal(w.calls, 1);
        assert_int_equal(tl.nsources, 1);
        assert_true(tl.n > 0);
        assert_true(tl.n < 200000);
        assert_int_equal(tl.sources[0].events, tl.n);
        assert_int_equal(tl.nskips, 0);
        assert_numbered(&tl);
        sbx_load_report_free(&rep);
        sbx_timeline_free(&tl);
    }

    struct sbx_timeline tl;
    sbx_timeline_init(&tl);
    struct sbx_load_report rep = {0};
    struct sbx_load_progress prog = {0};
    atomic_store(&prog.cancel, true);
    struct sbx_load_opts opts = {.threads = 2, .shared = &prog};
    assert_int_equal(sbx_load_paths(&tl, paths, 2, &opts, &rep), 0);
    assert_true(rep.cancelled);
    assert_int_equal(tl.n, 0);
    assert_int_equal(prog.bytes_total, big.len + small.len);
    assert_int_equal(prog.bytes_done, 0);
    sbx_load_report_free(&rep);
    sbx_timeline_free(&tl);
    free(pbig);
    free(psmall);
    sbx_buf_free(&big);
    sbx_buf_free(&small);
}

/* A format forced on a file of which not one line is that format: the file
 * is not read, like one no format matches, and the message names every line
 * it skipped with its reason; whether alone, beside a log that loads, or
 * in a folder. A file of which some lines are the format loads as ever. */
static void forced_format_reading_nothing(void **state)
{
    struct fixture *fx = *state;
    char *none = path_in(fx, "none.log"), *some = path_in(fx, "some.log");
    const char *lines = "{\"a\":1}\n{\"a\":2}\n1.1 x\n{\"a\":3}\n";
    write_file(none, lines, strlen(lines));
    const char *half = "1700000000.123    5 10.0.0.5 TCP_MISS/200 1024 GET http://a.example/ - "
                       "HIER_DIRECT/1.2.3.4 text/html\n1.1 x\n";
    write_file(some, half, strlen(half));
    const char *paths[] = {none, some};
    const struct sbx_format *squid[] = {&sbx_format_squid, &sbx_format_squid};
    for (size_t n = 1; n <= 2; n++) {
        struct sbx_timeline tl;
        sbx_timeline_init(&tl);
        struct sbx_load_report rep = {0};
        struct sbx_load_opts opts = {.threads = 1, .formats = squid};
        assert_int_equal(sbx_load_paths(&tl, paths, n, &opts, &rep), n - 1);
        assert_int_equal(rep.nerrors, 1);
        char want[512];
        snprintf(want, sizeof want, "%s: read as squid, as asked, but none of its 4 lines is one: "
                 "lines 1-2, 4: missing field: elapsed time; line 3: missing field: client", none);
        assert_string_equal(rep.errors[0], want);
        assert_int_equal(rep.nunread, 1);
        assert_string_equal(rep.unread[0].path, none);
        assert_false(rep.unread[0].in_folder);
        assert_int_equal(tl.sources[0].skipped, 4); /* kept, so the summary lists its lines */
        if (n == 2) {
            assert_int_equal(tl.sources[1].events, 1);
            assert_int_equal(tl.sources[1].skipped, 1);
        }
        sbx_load_report_free(&rep);
        sbx_timeline_free(&tl);
    }
    /* the same through a folder: listed as not read, not an error of its own */
    const char *folder[] = {fx->dir};
    struct sbx_timeline tl;
    sbx_timeline_init(&tl);
    struct sbx_load_report rep = {0};
    struct sbx_load_opts opts = {.threads = 1, .formats = squid};
    assert_int_equal(sbx_load_paths(&tl, folder, 1, &opts, &rep), 1);
    assert_int_equal(rep.nerrors, 0);
    assert_int_equal(rep.nunread, 1);
    assert_true(rep.unread[0].in_folder);
    assert_non_null(strstr(rep.unread[0].reason, "lines 1-2, 4: missing field: elapsed time"));
    sbx_load_report_free(&rep);
    sbx_timeline_free(&tl);
    free(none);
    free(some);
}

static const char *unread_reason(const struct sbx_load_report *rep, const char *path)
{
    for (size_t i = 0; i < rep->nunread; i++)
        if (strcmp(rep->unread[i].path, path) == 0)
            return rep->unread[i].reason;
    return NULL;
}

static bool has_source(const struct sbx_timeline *tl, const char *path)
{
    for (size_t i = 0; i < tl->nsources; i++)
        if (strcmp(tl->sources[i].path, path) == 0)
            return true;
    return false;
}

/* A run folder's symbolic links are followed (relative, absolute, chained,
 * out of the folder) and its FIFOs and hidden files read; a loop, a link to
 * nothing, a folder, a link to a folder and a device are named with their
 * reason. Nothing is left out without a word. */
static void folder_links_fifos_and_the_rest(void **state)
{
    struct fixture *fx = *state;
    char *run = path_in(fx, "run"), *elsewhere = path_in(fx, "elsewhere.jsonl");
    assert_int_equal(mkdir(run, 0755), 0);
    struct sbx_buf log = make_log(3);
    write_file(elsewhere, log.p, log.len);
    struct {
        const char *name, *target; /* target NULL: a log written there */
    } entries[] = {
        {"a-absolute.jsonl", NULL}, {"b-relative.jsonl", "../elsewhere.jsonl"},
        {"c-chain.jsonl", "b-relative.jsonl"}, {".hidden.jsonl", NULL},
        {"loop1", "loop2"}, {"loop2", "loop1"}, {"dangling", "nothing-here"},
        {"to-folder", ".."}, {"to-device", "/dev/null"},
    };
    for (size_t i = 0; i < sizeof entries / sizeof *entries; i++) {
        char *p = path_in(fx, "run/");
        struct sbx_buf b = SBX_BUF_INIT;
        sbx_buf_addf(&b, "%s%s", p, entries[i].name);
        if (i == 0)
            assert_int_equal(symlink(elsewhere, b.p), 0);
        else if (entries[i].target)
            assert_int_equal(symlink(entries[i].target, b.p), 0);
        else
            write_file(b.p, log.p, log.len);
        free(p);
        sbx_buf_free(&b);
    }
    char *sub = path_in(fx, "run/sub"), *fifo = path_in(fx, "run/fifo.jsonl");
    assert_int_equal(mkdir(sub, 0755), 0);
    /* a FIFO holding a log and no writer: the bytes stay while a reader holds it */
    assert_int_equal(mkfifo(fifo, 0600), 0);
    int rw = open(fifo, O_RDWR | O_NONBLOCK);
    assert_true(rw >= 0);
    assert_int_equal(write(rw, log.p, log.len), (ssize_t)log.len);
    int holder = open(fifo, O_RDONLY | O_NONBLOCK);
    assert_true(holder >= 0);
    close(rw);

    struct sbx_timeline tl;
    sbx_timeline_init(&tl);
    struct sbx_load_report rep = {0};
    struct sbx_load_opts opts = {.threads = 1};
    const char *paths[] = {run};
    assert_int_equal(sbx_load_paths(&tl, paths, 1, &opts, &rep), 5);
    close(holder);
    assert_int_equal(tl.n, 5 * 3);
    assert_int_equal(rep.nerrors, 0);
    const char *read_ones[] = {"run/a-absolute.jsonl", "run/b-relative.jsonl", "run/c-chain.jsonl",
                               "run/.hidden.jsonl", "run/fifo.jsonl"};
    for (size_t i = 0; i < 5; i++) {
        char *p = path_in(fx, read_ones[i]);
        if (!has_source(&tl, p))
            fail_msg("%s was not read", read_ones[i]);
        free(p);
    }
    const char *refused[][2] = {
        {"run/loop1", "a loop of symbolic links"},
        {"run/loop2", "a loop of symbolic links"},
        {"run/dangling", "a symbolic link to nothing"},
        {"run/sub", "a folder (a run folder is read one level deep)"},
        {"run/to-folder", "a symbolic link to a folder (a run folder is read one level deep)"},
        {"run/to-device", "a device, not a log"},
    };
    assert_int_equal(rep.nunread, 6);
    for (size_t i = 0; i < 6; i++) {
        char *p = path_in(fx, refused[i][0]);
        const char *why = unread_reason(&rep, p);
        if (!why || strcmp(why, refused[i][1]) != 0)
            fail_msg("%s: %s, wanted %s", refused[i][0], why ? why : "not named", refused[i][1]);
        free(p);
    }
    sbx_load_report_free(&rep);
    sbx_timeline_free(&tl);
    sbx_buf_free(&log);
    free(run);
    free(elsewhere);
    free(sub);
    free(fifo);
}

/* Inputs given names (importers/load.h's names: a run fetched from object
 * storage, named by its URL): a file's source is its name, a folder's files
 * NAME/FILE (one slash, whether the name ends in one or not), and so are
 * the skips, the errors and the files not read; the path read is in none
 * of them. Without a name, the path. */
static void names_stand_for_paths(void **state)
{
    struct fixture *fx = *state;
    char *run = path_in(fx, "run"), *empty = path_in(fx, "empty"), *one = path_in(fx, "one.jsonl");
    assert_int_equal(mkdir(run, 0755), 0);
    assert_int_equal(mkdir(empty, 0755), 0);
    struct sbx_buf log = make_log(3);
    sbx_buf_adds(&log, "not a record {\n"); /* line 4 */
    char *p = path_in(fx, "run/agent.jsonl");
    write_file(p, log.p, log.len);
    free(p);
    p = path_in(fx, "run/notes.txt");
    write_file(p, "plain words\n", 12);
    free(p);
    p = path_in(fx, "empty/notes.txt");
    write_file(p, "plain words\n", 12);
    free(p);
    write_file(one, log.p, log.len);
    struct {
        const char *path, *name;
        const char *source, *unread, *error; /* NULL: none; "@" the path in front */
    } cases[] = {
        {run, "s3://b/run/", "s3://b/run/agent.jsonl", "s3://b/run/notes.txt", NULL},
        {run, "s3://b/run", "s3://b/run/agent.jsonl", "s3://b/run/notes.txt", NULL},
        {one, "s3://b/k/one.jsonl", "s3://b/k/one.jsonl", NULL, NULL},
        {empty, "s3://b/empty/", NULL, "s3://b/empty/notes.txt",
         "s3://b/empty/: no file in this folder is a log sbxview reads"},
        {"/nonexistent/gone.jsonl", "s3://b/gone.jsonl", NULL, "s3://b/gone.jsonl",
         "s3://b/gone.jsonl: "},
        {run, NULL, "@/agent.jsonl", "@/notes.txt", NULL},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        struct sbx_timeline tl;
        sbx_timeline_init(&tl);
        struct sbx_load_report rep = {0};
        const char *paths[] = {cases[k].path}, *names[] = {cases[k].name};
        struct sbx_load_opts opts = {.threads = 1, .names = names};
        sbx_load_paths(&tl, paths, 1, &opts, &rep);
        char want[256];
        if (cases[k].source) {
            snprintf(want, sizeof want, "%s%s", cases[k].source[0] == '@' ? cases[k].path : "",
                     cases[k].source + (cases[k].source[0] == '@'));
            assert_int_equal(tl.nsources, 1);
            assert_string_equal(tl.sources[0].path, want);
            assert_true(tl.nskips >= 1); /* line 4 is no record, named by its source */
            assert_int_equal(tl.skips[tl.nskips - 1].line, 4);
            assert_int_equal(tl.skips[tl.nskips - 1].source, 0);
        } else {
            assert_int_equal(tl.nsources, 0);
        }
        if (cases[k].unread) {
            snprintf(want, sizeof want, "%s%s", cases[k].unread[0] == '@' ? cases[k].path : "",
                     cases[k].unread + (cases[k].unread[0] == '@'));
            assert_int_equal(rep.nunread, 1);
            assert_string_equal(rep.unread[0].path, want);
        } else {
            assert_int_equal(rep.nunread, 0);
        }
        if (cases[k].error) {
            assert_int_equal(rep.nerrors, 1);
            if (strncmp(rep.errors[0], cases[k].error, strlen(cases[k].error)) != 0)
                fail_msg("case %zu: the error is %s, wanted %s...", k, rep.errors[0], cases[k].error);
        } else {
            assert_int_equal(rep.nerrors, 0);
        }
        if (cases[k].name) { /* the path read is named nowhere */
            for (size_t i = 0; i < rep.nerrors; i++)
                assert_null(strstr(rep.errors[i], fx->dir));
            for (size_t i = 0; i < rep.nunread; i++)
                assert_null(strstr(rep.unread[i].path, fx->dir));
            for (size_t i = 0; i < tl.nsources; i++)
                assert_null(strstr(tl.sources[i].path, fx->dir));
        }
        sbx_load_report_free(&rep);
        sbx_timeline_free(&tl);
    }
    sbx_buf_free(&log);
    free(run);
    free(empty);
    free(one);
}

/* private_copy: a regular file is read into the heap, so a truncation after
 * the load leaves every loaded byte as it was (a mapping's would go). */
static void private_copy_survives_truncation(void **state)
{
    struct fixture *fx = *state;
    struct sbx_buf log = make_log(50);
    char *p = path_in(fx, "run.jsonl");
    for (int copy = 0; copy <= 1; copy++) {
        write_file(p, log.p, log.len);
        struct sbx_timeline tl;
        sbx_timeline_init(&tl);
        struct sbx_load_report rep = {0};
        struct sbx_load_opts opts = {.threads = 1, .private_copy = copy};
        const char *paths[] = {p};
        assert_int_equal(sbx_load_paths(&tl, paths, 1, &opts, &rep), 1);
        assert_int_equal(tl.sources[0].how, copy ? SBX_DATA_HEAP : SBX_DATA_MAPPED);
        if (copy) {
            assert_int_equal(truncate(p, 0), 0);
            assert_int_equal(tl.sources[0].size, log.len);
            assert_memory_equal(tl.sources[0].data, log.p, log.len);
        }
        assert_int_equal(tl.n, 50);
        sbx_load_report_free(&rep);
        sbx_timeline_free(&tl);
    }
    free(p);
    sbx_buf_free(&log);
}

/* A file larger than an event can keep its lines' offsets for
 * (SBX_SOURCE_MAX, model/event.h) is not read: an error of its own when
 * named, not read in a folder; beside it a log loads. The files are sparse:
 * nothing of them is read. */
static void files_past_the_offset_bits(void **state)
{
    struct fixture *fx = *state;
    const uint64_t sizes[] = {SBX_SOURCE_MAX + 1, SBX_SOURCE_MAX + 4096, 2 * SBX_SOURCE_MAX};
    char *log = path_in(fx, "a.log");
    struct sbx_buf lines = make_log(3);
    write_file(log, lines.p, lines.len);
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        char *big = path_in(fx, "big.log");
        int fd = open(big, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        assert_true(fd >= 0);
        if (ftruncate(fd, (off_t)sizes[k]) != 0) {
            close(fd);
            free(big);
            skip(); /* no sparse files here */
        }
        close(fd);
        const char *paths[] = {big, log};
        struct sbx_timeline tl;
        sbx_timeline_init(&tl);
        struct sbx_load_report rep = {0};
        struct sbx_load_opts opts = {.threads = 1};
        assert_int_equal(sbx_load_paths(&tl, paths, 2, &opts, &rep), 1);
        assert_int_equal(rep.nerrors, 1);
        char want[512];
        snprintf(want, sizeof want, "%s: too large (at most 128 GiB a file)", big);
        assert_string_equal(rep.errors[0], want);
        assert_int_equal(tl.nsources, 1);
        assert_int_equal(tl.n, 3);
        sbx_load_report_free(&rep);
        sbx_timeline_free(&tl);
        /* in a folder: listed as not read */
        const char *folder[] = {fx->dir};
        sbx_timeline_init(&tl);
        memset(&rep, 0, sizeof rep);
        assert_int_equal(sbx_load_paths(&tl, folder, 1, &opts, &rep), 1);
        assert_int_equal(rep.nerrors, 0);
        assert_int_equal(rep.nunread, 1);
        assert_string_equal(rep.unread[0].path, big);
        assert_string_equal(rep.unread[0].reason, "too large (at most 128 GiB a file)");
        assert_int_equal(tl.n, 3);
        sbx_load_report_free(&rep);
        sbx_timeline_free(&tl);
        unlink(big);
        free(big);
    }
    sbx_buf_free(&lines);
    free(log);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(preview_cuts_at_line_end, setup, teardown),
        cmocka_unit_test_setup_teardown(preview_short_files_and_folders, setup, teardown),
        cmocka_unit_test_setup_teardown(preview_leaves_streams, setup, teardown),
        cmocka_unit_test_setup_teardown(progress_reaches_totals, setup, teardown),
        cmocka_unit_test_setup_teardown(cancel, setup, teardown),
        cmocka_unit_test_setup_teardown(forced_format_reading_nothing, setup, teardown),
        cmocka_unit_test_setup_teardown(folder_links_fifos_and_the_rest, setup, teardown),
        cmocka_unit_test_setup_teardown(private_copy_survives_truncation, setup, teardown),
        cmocka_unit_test_setup_teardown(names_stand_for_paths, setup, teardown),
        cmocka_unit_test_setup_teardown(files_past_the_offset_bits, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
