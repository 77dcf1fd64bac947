/* importers/readfile and the loader on the inputs a crash or a pipe leaves:
 * a log ending in a run of NUL bytes loads with the tail reported (every
 * tail length, with and without a last newline), bytes with no line before
 * their NULs stay binary, and a stream is refused while it is read when it
 * is binary or holds more than its cap. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "importers/load.h"
#include "importers/readfile.h"

#define LINE "{\"at\":\"2026-01-01T00:00:00Z\",\"kind\":\"command\",\"command\":\"ls\",\"exit\":0}\n"

static void nul_tail(void **state)
{
    (void)state;
    assert_int_equal(sbx_nul_tail("a\nb", 3), 3);
    assert_int_equal(sbx_nul_tail("a\n\0\0", 4), 2);
    assert_int_equal(sbx_nul_tail("a\nb\0", 4), 3);   /* the tail may cut a line */
    assert_int_equal(sbx_nul_tail("\x7f" "ELF\0\0", 6), 6); /* no line before it */
    assert_int_equal(sbx_nul_tail("\0\0\0", 3), 3);
    assert_int_equal(sbx_nul_tail("", 0), 0);
}

static char *write_temp(const char *bytes, size_t n)
{
    char *path = strdup("/tmp/sbx-readfile-XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, bytes, n), (ssize_t)n);
    close(fd);
    return path;
}

/* A log of 1..3 lines followed by 1..70000 NUL bytes (small, a page, many
 * pages): every line loads, and one skip names the tail. */
static void log_with_nul_tail_loads(void **state)
{
    (void)state;
    static const size_t tails[] = {1, 7, 4095, 4096, 4097, 70000};
    for (int lines = 1; lines <= 3; lines++) {
        for (size_t t = 0; t < sizeof tails / sizeof tails[0]; t++) {
            /* cut: the last line lacks its newline (one line at least is whole) */
            for (int cut = 0; cut <= (lines > 1); cut++) {
                size_t text = strlen(LINE) * (size_t)lines - (size_t)cut;
                char *buf = calloc(1, text + tails[t]);
                for (int i = 0; i < lines; i++)
                    memcpy(buf + strlen(LINE) * (size_t)i, LINE, strlen(LINE) - (i == lines - 1 ? (size_t)cut : 0));
                char *path = write_temp(buf, text + tails[t]);
                struct sbx_timeline tl;
                sbx_timeline_init(&tl);
                struct sbx_load_report rep = {0};
                const char *paths[] = {path};
                size_t loaded = sbx_load_paths(&tl, paths, 1, NULL, &rep);
                if (loaded != 1)
                    fail_msg("%s: %s", path, rep.nerrors ? rep.errors[0] : "no error");
                assert_int_equal(rep.nerrors, 0);
                assert_int_equal(tl.n, (size_t)lines); /* a whole object, though its newline is gone */
                char want[128];
                snprintf(want, sizeof want, "%zu NUL byte%s from byte %zu to the end", tails[t],
                         tails[t] == 1 ? "" : "s", text + 1);
                bool found = false;
                for (size_t i = 0; i < tl.nskips; i++)
                    if (strstr(tl.skips[i].reason, want)) {
                        found = true;
                        assert_int_equal(tl.skips[i].line, (uint32_t)(lines - cut + 1));
                    }
                if (!found)
                    fail_msg("%d lines, %zu NULs: no skip \"%s\"", lines, tails[t], want);
                assert_int_equal(tl.sources[0].size, text);
                sbx_load_report_free(&rep);
                sbx_timeline_free(&tl);
                unlink(path);
                free(path);
                free(buf);
            }
        }
    }
    /* no line before the NULs: binary, refused whole */
    char *path = write_temp("\x7f" "ELF\0\0\0", 7);
    struct sbx_timeline tl;
    sbx_timeline_init(&tl);
    struct sbx_load_report rep = {0};
    const char *paths[] = {path};
    assert_int_equal(sbx_load_paths(&tl, paths, 1, NULL, &rep), 0);
    assert_int_equal(rep.nerrors, 1);
    assert_non_null(strstr(rep.errors[0], "binary (NUL bytes)"));
    sbx_load_report_free(&rep);
    sbx_timeline_free(&tl);
    unlink(path);
    free(path);
}

/* Reads standard input fed through a pipe by a child writing n bytes of
 * pattern (repeated), then after (may be NULL); the child is killed if the
 * reader stops early. */
static bool read_stream_then(const char *pattern, size_t plen, size_t n, const char *after,
                             uint64_t cap, char *err, size_t *got)
{
    int p[2];
    assert_int_equal(pipe(p), 0);
    pid_t pid = fork();
    if (pid == 0) {
        close(p[0]);
        for (size_t i = 0; i < n; i += plen)
            if (write(p[1], pattern, plen) != (ssize_t)plen)
                _exit(0);
        if (after && write(p[1], after, strlen(after)) < 0)
            _exit(1);
        _exit(0);
    }
    close(p[1]);
    int saved = dup(0);
    dup2(p[0], 0);
    close(p[0]);
    const char *data;
    size_t size = 0;
    enum sbx_data_how how;
    bool ok = sbx_read_input("-", cap, &data, &size, &how, err, 256);
    if (ok)
        sbx_release_input(data, size, how);
    dup2(saved, 0);
    close(saved);
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    *got = size;
    return ok;
}

static bool read_stream(const char *pattern, size_t plen, size_t n, uint64_t cap, char *err,
                        size_t *got)
{
    return read_stream_then(pattern, plen, n, NULL, cap, err, got);
}

static void stream_refused_as_it_is_read(void **state)
{
    (void)state;
    char err[256];
    size_t got;
    static const char zeros[65536];
    /* NULs from the start: refused after the first block, not at the end */
    assert_false(read_stream(zeros, sizeof zeros, (size_t)1 << 40, 0, err, &got));
    assert_string_equal(err, "binary (NUL bytes)");
    /* text, NULs, then text again: binary */
    static const char mixed[] = "{\"a\":1}\n\0\0{\"a\":2}\n";
    assert_false(read_stream(mixed, sizeof mixed - 1, sizeof mixed - 1, 0, err, &got));
    assert_string_equal(err, "binary (NUL bytes)");
    /* a line, then NULs past the first block, then text: binary, when it comes */
    char *lots = calloc(1, 200000);
    memcpy(lots, "{\"a\":1}\n", 8);
    assert_false(read_stream_then(lots, 200000, 200000, "{\"a\":2}\n", 0, err, &got));
    assert_string_equal(err, "binary (NUL bytes)");
    if (!read_stream_then(lots, 200000, 200000, NULL, 0, err, &got))
        fail_msg("a line and a NUL tail refused: %s", err);
    assert_int_equal(got, 200000);
    free(lots);
    /* text and a NUL tail: read whole */
    static const char tail[] = "{\"a\":1}\n\0\0\0";
    assert_true(read_stream(tail, sizeof tail - 1, sizeof tail - 1, 0, err, &got));
    assert_int_equal(got, sizeof tail - 1);
    /* the cap, at several sizes: one byte past it fails, the cap itself reads */
    static const char line[] = "{\"a\":1}\n";
    for (uint64_t cap = 64; cap <= (1u << 20); cap *= 8) {
        assert_true(read_stream(line, 8, (size_t)cap, cap, err, &got));
        assert_int_equal(got, cap);
        assert_false(read_stream(line, 8, (size_t)cap + 8, cap, err, &got));
        assert_non_null(strstr(err, "holds more than"));
        assert_non_null(strstr(err, "--max-input"));
    }
    assert_false(read_stream(line, 8, 3 << 20, 1 << 20, err, &got));
    assert_string_equal(err, "standard input holds more than 1 MiB (--max-input SIZE reads more)");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(nul_tail),
        cmocka_unit_test(log_with_nul_tail_loads),
        cmocka_unit_test(stream_refused_as_it_is_read),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
