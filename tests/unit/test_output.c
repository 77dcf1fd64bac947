/* export/output.h: whole-or-nothing over a regular file or a new path, a
 * symbolic link followed to its file, a device or FIFO written in place. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "export/output.h"

static char dir[64];

static int make_dir(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/sbx-output-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int remove_dir(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static const char *at(const char *name)
{
    static char p[4][160];
    static int i;
    i = (i + 1) % 4;
    snprintf(p[i], sizeof p[i], "%s/%s", dir, name);
    return p[i];
}

static void assert_holds(const char *path, const char *want)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char got[256] = "";
    size_t n = fread(got, 1, sizeof got - 1, f);
    fclose(f);
    got[n] = '\0';
    assert_string_equal(got, want);
}

static void write_ok(const char *path, const char *text)
{
    char err[256] = "";
    if (!sbx_write_output(path, text, strlen(text), err, sizeof err))
        fail_msg("%s: %s", path, err);
}

/* Nothing but the target is left in the folder: no temporary file. */
static void assert_only(const char *const *names, size_t n)
{
    char cmd[256], out[512] = "", want[512] = "";
    snprintf(cmd, sizeof cmd, "ls -A '%s' | tr '\\n' ' '", dir);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t got = fread(out, 1, sizeof out - 1, p);
    out[got] = '\0';
    pclose(p);
    for (size_t i = 0; i < n; i++) {
        strcat(want, names[i]);
        strcat(want, " ");
    }
    assert_string_equal(out, want);
}

static void new_and_regular_files(void **state)
{
    (void)state;
    write_ok(at("new.md"), "first\n");
    assert_holds(at("new.md"), "first\n");
    chmod(at("new.md"), 0600);
    write_ok(at("new.md"), "second\n");
    assert_holds(at("new.md"), "second\n");
    struct stat st;
    assert_int_equal(lstat(at("new.md"), &st), 0);
    assert_true(S_ISREG(st.st_mode));
    assert_int_equal(st.st_mode & 07777, 0600); /* the file's own permissions kept */
    const char *names[] = {"new.md"};
    assert_only(names, 1);
    unlink(at("new.md"));
}

static void symlinks_followed(void **state)
{
    (void)state;
    write_ok(at("real.md"), "old\n");
    assert_int_equal(symlink("real.md", at("link.md")), 0);      /* relative */
    assert_int_equal(symlink(at("link.md"), at("link2.md")), 0); /* absolute, to a link */
    write_ok(at("link2.md"), "through two links\n");
    struct stat st;
    assert_int_equal(lstat(at("link.md"), &st), 0);
    assert_true(S_ISLNK(st.st_mode)); /* the links stay links */
    assert_int_equal(lstat(at("link2.md"), &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    assert_holds(at("real.md"), "through two links\n");
    /* a link to nothing yet: the file it names is made */
    assert_int_equal(symlink("made.md", at("dangling.md")), 0);
    write_ok(at("dangling.md"), "made\n");
    assert_holds(at("made.md"), "made\n");
    assert_int_equal(lstat(at("dangling.md"), &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    const char *names[] = {"dangling.md", "link.md", "link2.md", "made.md", "real.md"};
    assert_only(names, 5);
    for (size_t i = 0; i < 5; i++)
        unlink(at(names[i]));
}

static void loops_and_odd_files_refused(void **state)
{
    (void)state;
    assert_int_equal(symlink("b", at("a")), 0);
    assert_int_equal(symlink("a", at("b")), 0);
    char err[256] = "";
    assert_false(sbx_write_output(at("a"), "x", 1, err, sizeof err));
    assert_non_null(strstr(err, "a loop of symbolic links"));
    assert_int_equal(mkdir(at("folder"), 0755), 0);
    assert_false(sbx_write_output(at("folder"), "x", 1, err, sizeof err));
    assert_non_null(strstr(err, "is a folder"));
    const char *names[] = {"a", "b", "folder"};
    assert_only(names, 3);
    unlink(at("a"));
    unlink(at("b"));
    rmdir(at("folder"));
}

static void devices_written_in_place(void **state)
{
    (void)state;
    write_ok("/dev/null", "into the void\n");
    struct stat st;
    assert_int_equal(lstat("/dev/null", &st), 0);
    assert_true(S_ISCHR(st.st_mode)); /* still the device */
    /* a link to the device: the device is written, the link stays */
    assert_int_equal(symlink("/dev/null", at("null-link")), 0);
    write_ok(at("null-link"), "through a link\n");
    assert_int_equal(lstat(at("null-link"), &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    assert_int_equal(stat(at("null-link"), &st), 0);
    assert_true(S_ISCHR(st.st_mode));
    unlink(at("null-link"));
}

static void fifo_written_in_place(void **state)
{
    (void)state;
    assert_int_equal(mkfifo(at("pipe"), 0600), 0);
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) { /* the reader: what arrives through the FIFO, to the parent */
        close(fds[0]);
        alarm(5); /* a FIFO replaced by a file is never written: do not wait forever */
        FILE *f = fopen(at("pipe"), "r");
        char buf[64];
        size_t n = f ? fread(buf, 1, sizeof buf, f) : 0;
        ssize_t w = write(fds[1], buf, n);
        _exit(w == (ssize_t)n ? 0 : 1);
    }
    close(fds[1]);
    write_ok(at("pipe"), "through the fifo\n");
    char got[64] = "";
    ssize_t n = read(fds[0], got, sizeof got - 1);
    close(fds[0]);
    int status;
    waitpid(pid, &status, 0);
    assert_true(n > 0);
    got[n] = '\0';
    assert_string_equal(got, "through the fifo\n");
    struct stat st;
    assert_int_equal(lstat(at("pipe"), &st), 0);
    assert_true(S_ISFIFO(st.st_mode)); /* still a FIFO, not a file put in its place */
    unlink(at("pipe"));
}

/* /dev/stdout when standard output is a pipe: the pipe is written (its
 * /proc link names no file a temporary could stand beside). */
static void dev_stdout_into_a_pipe(void **state)
{
    (void)state;
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    int saved = dup(1);
    dup2(fds[1], 1);
    char err[256] = "";
    bool ok = sbx_write_output("/dev/stdout", "into the pipe\n", 14, err, sizeof err);
    dup2(saved, 1);
    close(saved);
    close(fds[1]);
    if (!ok)
        fail_msg("/dev/stdout: %s", err);
    char got[64] = "";
    ssize_t n = read(fds[0], got, sizeof got - 1);
    close(fds[0]);
    assert_int_equal(n, 14);
    assert_memory_equal(got, "into the pipe\n", 14);
}

/* A full device and a full standard output: false, with the reason. */
static void write_errors_reported(void **state)
{
    (void)state;
    char err[256] = "";
    assert_false(sbx_write_output("/dev/full", "x\n", 2, err, sizeof err));
    assert_non_null(strstr(err, "No space left on device"));
    int saved = dup(1);
    int full = open("/dev/full", O_WRONLY);
    assert_true(saved >= 0 && full >= 0);
    dup2(full, 1);
    err[0] = '\0';
    bool ok = sbx_write_output(NULL, "x\n", 2, err, sizeof err);
    dup2(saved, 1);
    close(saved);
    close(full);
    assert_false(ok);
    assert_string_equal(err, "standard output: No space left on device");
    struct stat st;
    assert_int_equal(lstat("/dev/full", &st), 0);
    assert_true(S_ISCHR(st.st_mode));
}

/* Written in pieces: the target is untouched until a close that keeps it
 * (only the temporary grows); a close that does not keep it leaves the
 * target as it was and no temporary; a write that fails is reported by the
 * close, with the first reason, and the target kept as it was. */
static void streamed_whole_or_nothing(void **state)
{
    (void)state;
    char err[256] = "";
    write_ok(at("s.json"), "old\n");
    static const char *const pieces[] = {"{", "\"a\": ", "1", "}\n"};
    for (int keep = 0; keep < 2; keep++) {
        struct sbx_output *o = sbx_output_open(at("s.json"), err, sizeof err);
        assert_non_null(o);
        for (size_t i = 0; i < 4; i++) {
            sbx_output_write(o, pieces[i], strlen(pieces[i]));
            assert_holds(at("s.json"), "old\n");
        }
        strcpy(err, "the caller's");
        assert_int_equal(sbx_output_close(o, keep, err, sizeof err), keep);
        assert_holds(at("s.json"), keep ? "{\"a\": 1}\n" : "old\n");
        if (!keep)
            assert_string_equal(err, "the caller's");
        const char *names[] = {"s.json"};
        assert_only(names, 1);
    }
    struct sbx_output *o = sbx_output_open("/dev/full", err, sizeof err);
    assert_non_null(o);
    sbx_output_write(o, "x", 1);
    sbx_output_write(o, "y", 1);
    assert_false(sbx_output_close(o, true, err, sizeof err));
    assert_string_equal(err, "/dev/full: No space left on device");
    unlink(at("s.json"));
    assert_null(sbx_output_open(dir, err, sizeof err)); /* a folder: refused at the open */
    assert_non_null(strstr(err, "is a folder"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(new_and_regular_files),  cmocka_unit_test(symlinks_followed),
        cmocka_unit_test(loops_and_odd_files_refused), cmocka_unit_test(devices_written_in_place),
        cmocka_unit_test(fifo_written_in_place),  cmocka_unit_test(write_errors_reported),
        cmocka_unit_test(dev_stdout_into_a_pipe), cmocka_unit_test(streamed_whole_or_nothing),
    };
    return cmocka_run_group_tests(tests, make_dir, remove_dir);
}
