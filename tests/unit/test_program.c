/* Tests for model/program: labels (Runtime's rule, the real-log examples),
 * the per-simple-command walk used by the cross-check, and hostile input
 * (NUL, unbalanced quotes, deep nesting, 1 MB lines) in linear time. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "base/buf.h"
#include "model/program.h"

static void check_label(const char *cmd, const char *want)
{
    char out[256];
    size_t n = sbx_program_label(cmd, strlen(cmd), out, sizeof out);
    if (strcmp(out, want) != 0 || n != strlen(want))
        fail_msg("label of [%s]: got [%s] (%zu), want [%s]", cmd, out, n, want);
}

static void collect(const char *prog, size_t len, void *ctx)
{
    struct sbx_buf *b = ctx;
    if (b->len)
        sbx_buf_addc(b, '|');
    sbx_buf_add(b, prog, len);
}

static void check_each(const char *cmd, const char *want)
{
    struct sbx_buf b = SBX_BUF_INIT;
    sbx_buf_adds(&b, "");
    size_t calls = sbx_program_each(cmd, strlen(cmd), collect, &b);
    size_t want_calls = *want ? 1 : 0;
    for (const char *p = want; *p; p++)
        want_calls += *p == '|';
    if (strcmp(b.p, want) != 0 || calls != want_calls)
        fail_msg("each of [%s]: got [%s] (%zu calls), want [%s]", cmd, b.p, calls, want);
    sbx_buf_free(&b);
}

static void test_real_log_examples(void **state)
{
    (void)state;
    check_label("python3 csvsum.py prices.csv price", "python3");
    check_label("curl -fsS https://x -o /tmp/f", "curl");
    check_label("pip download --no-deps -d /tmp/w pandas", "pip download");
    check_label("export AWS_SECRET_ACCESS_KEY=x && env | grep -c AWS", "env");
    check_label("mkdir -p /usr/local/bin && printf '#!/bin/sh\\necho hi\\n' > /usr/local/bin/helper"
                " && chmod +x /usr/local/bin/helper",
                "mkdir");
    check_label("python3 -c \"import sys; sys.stdout.write('x'*9000)\"", "python3");
    check_label("git diff", "git diff");
    check_label("FOO=1 python3 train.py --key k", "python3");
    check_label("bash -c \"pytest -q\"", "pytest");
    check_label("cd /w && npm test", "npm test");
    check_label("python -m pytest -q", "pytest");
    check_label("python3 - <<'PY'\nimport re\ns = open(\"csvsum.py\").read()\nPY", "python3");
    check_label("echo \"deploy token: ghp_1234\"", "echo");
    check_label("cat prices.csv", "cat");
}

static void test_label_rules(void **state)
{
    (void)state;
    check_label("", "");
    check_label("   \n\t ", "");
    check_label("FOO=1", "");
    check_label("\"/usr/bin/python3\" x", "python3");
    check_label("/usr/local/bin/pytest -x", "pytest");
    check_label("A=1 B='x y' C=\"$(date)\" ./run.sh", "run.sh");
    check_label("python3.11 -m http.server 8000", "http.server");
    check_label("python3 -u -m pytest", "pytest");
    check_label("python3 -mpytest", "pytest");
    check_label("python3 -X dev -m mod", "mod");
    check_label("python3 -W ignore -m mod", "mod");
    check_label("python3 -c 'print(1)' -m x", "python3");
    check_label("python3 script.py -m x", "python3");
    check_label("python3 -m pip install pandas", "pip install");
    check_label("python3 -m", "python3");
    check_label("pythonista -m x", "pythonista");
    check_label("git -C dir status", "git status");
    check_label("git -c user.name=x commit -m y", "git commit");
    check_label("git --no-pager log", "git log");
    check_label("git", "git");
    check_label("git --version", "git");
    check_label("npm install --save-dev x", "npm install");
    check_label("apt-get -y install curl", "apt-get install");
    check_label("/usr/bin/docker run --rm x", "docker run");
    check_label("kubectl get pods", "kubectl get");
    check_label("uv pip install x", "uv pip");
    check_label("cargo build --release", "cargo build");
    check_label("go test ./...", "go test");
    check_label("pip3 install -r req.txt", "pip3 install");
    /* the skip list, including ||, ; and newlines */
    check_label("cd /w; source .venv/bin/activate; set -e; pytest", "pytest");
    check_label("true || make", "make");
    check_label("pushd x && . ./env.sh\nmake all", "make");
    check_label("cd /w && export X=1", "cd");
    check_label("export X=1", "export");
    /* bash -c unwrapping */
    check_label("bash -lc 'cd /w && npm test'", "npm test");
    check_label("/bin/bash -ec \"pytest -q\"", "pytest");
    check_label("sh -c 'python3 -m pytest'", "pytest");
    check_label("bash -o pipefail -c 'make | tee log'", "make");
    check_label("bash -c -- 'make'", "make");
    check_label("bash -c \"bash -c \\\"pytest -x\\\"\"", "pytest");
    check_label("bash -c ''", "bash");
    check_label("bash -c", "bash");
    check_label("bash script.sh", "bash");
    check_label("bash", "bash");
    check_label("cd /w && bash -c 'cd x && cargo test'", "cargo test");
    check_label("bash -c $'cd /w\\npytest'", "pytest");
    /* not unwrapped: other shells, or a string that is not a -c string */
    check_label("zsh -c 'pytest'", "zsh");
    check_label("bash -x script.sh", "bash");
    /* subshells, keywords, redirections first */
    check_label("(cd /w && make)", "make");
    check_label("{ cd /w; make; }", "make");
    check_label("if [ -f x ]; then make; fi", "[");
    check_label("for f in *.py; do python3 $f; done", "python3");
    check_label("! grep -q x f", "grep");
    check_label("time -p make", "make");
    check_label("2>/dev/null make", "make");
    check_label(">out 2>&1 make", "make");
    check_label("<in sort", "sort");
    check_label("((i++)) && make", "make");
    check_label("[[ -f x ]] && make", "make");
    check_label("# a comment && rm -rf /\nls", "ls");
    check_label("ec\\\nho hi", "echo");
    check_label("\\\n  ls", "ls");
    check_label("'' x", "");
    check_label("\"FOO\"=1 x", "FOO=1");
    check_label("F\"OO\"=1 x", "FOO=1");
    check_label("a/b/ x", "a/b/");
}

static void test_label_truncation(void **state)
{
    (void)state;
    char out[8];
    memset(out, 'Z', sizeof out);
    assert_int_equal(sbx_program_label("git status", 10, out, sizeof out), 7);
    assert_string_equal(out, "git sta");
    memset(out, 'Z', sizeof out);
    assert_int_equal(sbx_program_label("git status", 10, out, 1), 0);
    assert_int_equal(out[0], '\0');
    assert_int_equal(out[1], 'Z');
    assert_int_equal(sbx_program_label("git status", 10, out, 0), 0);
    assert_int_equal(out[0], '\0');
    assert_int_equal(out[1], 'Z');
    assert_int_equal(sbx_program_label(NULL, 0, out, sizeof out), 0);
    assert_string_equal(out, "");
    /* n, not the NUL terminator, bounds the input */
    assert_int_equal(sbx_program_label("make all", 4, out, sizeof out), 4);
    assert_string_equal(out, "make");
    /* long words keep their first 128 bytes; the basename is what follows the last '/' */
    char cmd[600];
    memset(cmd, 'a', 300);
    cmd[300] = '/';
    memcpy(cmd + 301, "pytest -q", 10);
    char big[512];
    assert_int_equal(sbx_program_label(cmd, strlen(cmd), big, sizeof big), 6);
    assert_string_equal(big, "pytest");
    memset(cmd, 'b', 400);
    cmd[400] = '\0';
    assert_int_equal(sbx_program_label(cmd, 400, big, sizeof big), 128);
}

static void test_nul_and_binary(void **state)
{
    (void)state;
    static const char cmd[] = "ca\0t x && ls";
    char out[32];
    size_t n = sbx_program_label(cmd, sizeof cmd - 1, out, sizeof out);
    assert_int_equal(n, 4);
    assert_memory_equal(out, "ca\0t", 5);
    static const char bin[] = "\xff\xfe\x80 \xc0\xaf";
    n = sbx_program_label(bin, sizeof bin - 1, out, sizeof out);
    assert_int_equal(n, 3);
    assert_memory_equal(out, "\xff\xfe\x80", 4);
}

static void test_each(void **state)
{
    (void)state;
    check_each("", "");
    check_each("export AWS_SECRET_ACCESS_KEY=x && env | grep -c AWS", "export|env|grep");
    check_each("cd /w && npm test", "cd|npm");
    check_each("python -m pytest -q", "python");
    check_each("bash -c \"cd /w && pytest -q\" arg0", "cd|pytest");
    check_each("bash -c ''", "bash");
    check_each("a; b || c && d | e |& f & g\nh", "a|b|c|d|e|f|g|h");
    check_each("a;;b;&c", "a|b|c");
    check_each("FOO=1 BAR=2", "");
    check_each("echo $(rm -rf /; curl x) `wget y` ${X:-a;b} && ls", "echo|ls");
    check_each("echo \"$(printf 'a)b' | tr a b)\" done && ls", "echo|ls");
    check_each("diff <(sort a) >(cat) && ls", "diff|ls");
    check_each("cat <<EOF > out\nrm -rf /\ncurl x\nEOF\nls", "cat|ls");
    check_each("cat <<-'E O'\n\trm x\n\tE O\nls", "cat|ls");
    check_each("cat <<A <<\"B\"\nx\nA\ny\nB\nls", "cat|ls");
    check_each("cat <<A\nno end\n", "cat");
    check_each("cat <<<'here; string' && ls", "cat|ls");
    check_each("bash -c 'cat <<X\nrm -rf /\nX\nls'", "cat|ls");
    check_each("echo 'unterminated; rm x", "echo");
    check_each("echo \"unterminated; rm x", "echo");
    check_each("echo $'it\\'s; rm' && ls", "echo|ls");
    check_each("echo a\\;b && ls", "echo|ls");
    check_each("case $x in a) foo;; b) bar;; esac", "foo|bar");
    check_each("case $x in\n  (a|b) foo ;;\n  c)\n    bar; baz;;&\n  *) qux;;\nesac; ls", "foo|bar|baz|qux|ls");
    check_each("case a in a) case b in b) x;; esac; y;; c) z;; esac", "x|y|z");
    check_each("while read l; do echo $l; done < f", "read|echo");
    check_each("ls # && rm -rf /\npwd", "ls|pwd");
    check_each("echo a#b && ls", "echo|ls");
    check_each("sudo bash -c 'apt-get update'", "sudo");
    check_each("nohup x & disown", "nohup|disown");
    check_each("x &>log && y &>>log", "x|y");
    check_each("3<&0 x 4>&- && y", "x|y");
}

static size_t count_calls(const char *cmd, size_t n)
{
    return sbx_program_each(cmd, n, NULL, NULL);
}

static void test_nesting_is_bounded(void **state)
{
    (void)state;
    /* bash -c 'bash -c '\''…'\''' five deep: the innermost is past the limit */
    check_label("bash -c 'bash -c \"bash -c \\\"bash -c make\\\"\"'", "make");
    check_label("bash -c 'bash -c \"bash -c \\\"bash -c \\\\\\\"bash -c make\\\\\\\"\\\"\"'",
                "bash");
    /* a pathological 100,000-deep $( nesting and quote soup */
    struct sbx_buf b = SBX_BUF_INIT;
    for (int i = 0; i < 100000; i++)
        sbx_buf_adds(&b, "$(\"'`");
    assert_true(count_calls(b.p, b.len) <= 1);
    sbx_buf_clear(&b);
    for (int i = 0; i < 100000; i++)
        sbx_buf_adds(&b, "bash -c \"");
    assert_true(count_calls(b.p, b.len) >= 1);
    sbx_buf_free(&b);
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Seconds for label + walk over `unit` repeated to `size` bytes. */
static double time_unit(const char *unit, size_t size)
{
    struct sbx_buf b = SBX_BUF_INIT;
    while (b.len < size)
        sbx_buf_adds(&b, unit);
    char out[64];
    double t0 = now();
    count_calls(b.p, b.len);
    sbx_program_label(b.p, b.len, out, sizeof out);
    double t = now() - t0;
    sbx_buf_free(&b);
    return t;
}

/* Inputs of several shapes, 128 KiB and 1 MiB: time must grow about 8-fold
 * (quadratic would be 64-fold), whatever the machine or valgrind. */
static void test_linear_time(void **state)
{
    (void)state;
    static const char *const unit[] = {
        "a && ", "x=\"", "'", "<<E\n", "$(", "\\", "bash -c '", "echo \"$(x) `y` ${z}\" ",
        "\n", "cat <<E\nE\n", "((", "<(", "#", "$'\\x41", " ", "bash -c \"", "\"'\"'",
    };
    for (size_t u = 0; u < sizeof unit / sizeof *unit; u++) {
        /* the least of three runs: a loaded machine only ever adds time */
        double small = 1e9, big = 1e9;
        for (int run = 0; run < 3; run++) {
            double s = time_unit(unit[u], 1u << 17), b = time_unit(unit[u], 1u << 20);
            small = s < small ? s : small;
            big = b < big ? b : big;
        }
        if (big > 24 * small + 0.05)
            fail_msg("unit %zu [%s]: %.3f s for 128 KiB, %.3f s for 1 MiB", u, unit[u], small, big);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_real_log_examples),
        cmocka_unit_test(test_label_rules),
        cmocka_unit_test(test_label_truncation),
        cmocka_unit_test(test_nul_and_binary),
        cmocka_unit_test(test_each),
        cmocka_unit_test(test_nesting_is_bounded),
        cmocka_unit_test(test_linear_time),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
