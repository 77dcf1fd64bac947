/* Case files: tests whose cases are a table live in tests/unit/cases/NAME.test
 * as plain text, and a test program walks one with cases_run, checking each
 * case with its own function. A failing case is named by file and line.
 *
 * The format (as the .test files of jq's tests folder):
 *   # a comment (a line that starts with '#')
 *   % table          the cases after it belong to this table
 *   first field      one field a line; a case is the lines up to a blank line
 *   second field
 * Fields are read with the escapes \\ \n \t \r \xHH (so a field may hold any
 * byte); the line <empty> is the empty field. A field that starts with '#' or
 * '%' is written \x23 or \x25, and a blank at the end of a line as \x20 (a
 * line may not end with a blank: an editor would drop it unseen).
 *
 * Header-only (each test is one program); include after <cmocka.h>. Files
 * are found next to this header (tests are run from the project root). The
 * fields a check gets belong to cases_run and last only during the call. */
#ifndef SBX_TEST_CASES_H
#define SBX_TEST_CASES_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"

enum { CASES_MAX_FIELDS = 8 };

struct test_case {
    const char *file;  /* the case file's path */
    unsigned line;     /* the line the case starts on */
    const char *table; /* the last "% table" above it; "" before any */
    size_t n;          /* fields */
    const char *field[CASES_MAX_FIELDS]; /* NUL-terminated; may hold NUL bytes too */
    size_t len[CASES_MAX_FIELDS];
};

/* Fails the test, naming the case's file, line and table. */
static void case_fail(const struct test_case *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void case_fail(const struct test_case *c, const char *fmt, ...)
{
    char msg[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fail_msg("%s:%u: [%s] %s", c->file, c->line, c->table, msg);
}

/* Fails unless the case has exactly n fields. */
static inline void case_want_fields(const struct test_case *c, size_t n)
{
    if (c->n != n)
        case_fail(c, "%zu fields, this table's cases have %zu", c->n, n);
}

/* A whole decimal number field (int64). */
static inline long long case_int(const struct test_case *c, size_t i)
{
    char *end;
    long long v = strtoll(c->field[i], &end, 10);
    if (!c->len[i] || *end)
        case_fail(c, "field %zu is not a whole number: %s", i + 1, c->field[i]);
    return v;
}

static inline int cases_hex(char ch)
{
    return ch >= '0' && ch <= '9' ? ch - '0'
         : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10
         : ch >= 'A' && ch <= 'F' ? ch - 'A' + 10 : -1;
}

/* One field line decoded into out; NULL when well formed, else why not. */
static inline const char *cases_decode(const char *s, size_t n, struct sbx_buf *out)
{
    if (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
        return "a blank at the end of the line (write it \\x20)";
    if (n == 7 && memcmp(s, "<empty>", 7) == 0)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        if (s[i] != '\\') {
            sbx_buf_addc(out, s[i]);
            continue;
        }
        char e = i + 1 < n ? s[++i] : '\0';
        if (e == '\\' || e == 'n' || e == 't' || e == 'r') {
            sbx_buf_addc(out, e == 'n' ? '\n' : e == 't' ? '\t' : e == 'r' ? '\r' : '\\');
        } else if (e == 'x' && i + 2 < n && cases_hex(s[i + 1]) >= 0 && cases_hex(s[i + 2]) >= 0) {
            sbx_buf_addc(out, (char)(cases_hex(s[i + 1]) << 4 | cases_hex(s[i + 2])));
            i += 2;
        } else {
            return "an unknown escape (known: \\\\ \\n \\t \\r \\xHH)";
        }
    }
    return NULL;
}

static inline char *cases_read_file(const char *path, size_t *n)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return NULL;
    struct sbx_buf b = SBX_BUF_INIT;
    char chunk[4096];
    size_t got;
    while ((got = fread(chunk, 1, sizeof chunk, fp)) > 0)
        sbx_buf_add(&b, chunk, got);
    fclose(fp);
    sbx_buf_addc(&b, '\0');
    *n = b.len - 1;
    return b.p;
}

/* Calls check(case, ctx) for every case of tests/unit/cases/name, in file
 * order; returns how many there were. A file that cannot be read, holds no
 * case, or breaks the format fails the test. */
static size_t cases_run(const char *name, void (*check)(const struct test_case *c, void *ctx),
                        void *ctx)
{
    char path[4096];
    const char *me = __FILE__, *slash = strrchr(me, '/');
    snprintf(path, sizeof path, "%.*s%scases/%s", slash ? (int)(slash - me) : 0, me,
             slash ? "/" : "", name);
    size_t size = 0;
    char *text = cases_read_file(path, &size);
    if (!text) {
        fail_msg("%s: cannot be read (tests are run from the project root)", path);
        return 0;
    }
    struct sbx_buf fields[CASES_MAX_FIELDS];
    for (size_t i = 0; i < CASES_MAX_FIELDS; i++)
        fields[i] = (struct sbx_buf)SBX_BUF_INIT;
    char table[128] = "";
    struct test_case c = {.file = path, .table = table};
    size_t count = 0;
    unsigned line_no = 0;
    for (const char *p = text, *end = text + size; p <= end; line_no++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
        bool blank = len == 0;
        if (blank || p[0] == '#' || p[0] == '%') {
            if (blank && c.n) { /* a case ends */
                for (size_t i = 0; i < c.n; i++) {
                    sbx_buf_addc(&fields[i], '\0');
                    c.field[i] = fields[i].p;
                    c.len[i] = fields[i].len - 1;
                }
                check(&c, ctx);
                count++;
                for (size_t i = 0; i < c.n; i++)
                    sbx_buf_clear(&fields[i]);
                c.n = 0;
            }
            if (!blank && p[0] == '%') {
                if (c.n)
                    fail_msg("%s:%u: a table starts inside a case", path, line_no + 1);
                size_t k = 1;
                while (k < len && p[k] == ' ')
                    k++;
                snprintf(table, sizeof table, "%.*s", (int)(len - k), p + k);
            }
        } else {
            if (c.n == CASES_MAX_FIELDS)
                fail_msg("%s:%u: more than %d fields in a case", path, line_no + 1, CASES_MAX_FIELDS);
            if (!c.n)
                c.line = line_no + 1;
            const char *why = cases_decode(p, len, &fields[c.n]);
            if (why)
                fail_msg("%s:%u: %s", path, line_no + 1, why);
            c.n++;
        }
        if (!nl) {
            if (c.n)
                fail_msg("%s:%u: the last case needs a blank line after it", path, line_no + 1);
            break;
        }
        p = nl + 1;
    }
    for (size_t i = 0; i < CASES_MAX_FIELDS; i++)
        sbx_buf_free(&fields[i]);
    free(text);
    if (!count)
        fail_msg("%s: no case in it", path);
    return count;
}

#endif
