/* Tests for model/shell: command lines read into simple commands, as a
 * table (tests/unit/cases/shell.test: a line, then its commands as the
 * dump below writes them), and the program past the wrappers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/buf.h"
#include "model/shell.h"
#include "tests/unit/cases.h"

static const char *const hows[] = {"top", "subst", "procsub", "string"};
static const char *const ops[] = {"<", ">", ">>", ">&", "<<<", "<<"};

/* One line per command: "[how parent.pos] word word … {op target}", with
 * "| N" when its output is piped to command N and "=" before a VAR=value. */
static void dump(const struct sbx_sh *sh, struct sbx_buf *out)
{
    for (size_t i = 0; i < sh->ncmds; i++) {
        const struct sbx_sh_cmd *c = &sh->cmds[i];
        if (i)
            sbx_buf_adds(out, "\n");
        sbx_buf_addf(out, "%zu:", i);
        if (c->parent != SBX_SH_NONE) {
            if (c->pos == SBX_SH_POS_REDIR)
                sbx_buf_addf(out, " [%s %u.redir]", hows[c->how], c->parent);
            else
                sbx_buf_addf(out, " [%s %u.%u]", hows[c->how], c->parent, c->pos);
        }
        for (size_t k = 0; k < c->nwords; k++) {
            size_t n;
            const char *w = sbx_sh_arg(sh, c, k, &n);
            sbx_buf_addf(out, " %s%.*s", k < c->nassign ? "=" : "", (int)n, w);
        }
        for (size_t k = 0; k < c->nredir; k++) {
            const struct sbx_sh_redir *r = &sh->redirs[c->redir + k];
            size_t n;
            const char *w = sbx_sh_word_text(sh, r->word, &n);
            sbx_buf_adds(out, " {");
            if (r->fd >= 0)
                sbx_buf_addf(out, "%d", r->fd);
            sbx_buf_addf(out, "%s%.*s}", ops[r->op], (int)n, w);
        }
        if (c->pipe_to != SBX_SH_NONE)
            sbx_buf_addf(out, " | %u", c->pipe_to);
        if (c->nwords) {
            size_t p = sbx_sh_program(sh, c);
            if (p < c->nwords) {
                size_t n;
                const char *b = sbx_sh_basename(sh, c, p, &n);
                sbx_buf_addf(out, " (%.*s)", (int)n, b);
            } else {
                sbx_buf_adds(out, " ()");
            }
        }
    }
}

static void check_case(const struct test_case *c, void *ctx)
{
    struct sbx_sh *sh = ctx;
    case_want_fields(c, 2);
    sbx_sh_parse(sh, c->field[0], c->len[0]);
    struct sbx_buf got = SBX_BUF_INIT;
    sbx_buf_adds(&got, "");
    dump(sh, &got);
    if (strcmp(got.p, c->field[1]) != 0)
        case_fail(c, "[%s]:\ngot  %s\nwant %s", c->field[0], got.p, c->field[1]);
    sbx_buf_free(&got);
}

static void test_case_file(void **state)
{
    (void)state;
    struct sbx_sh sh = SBX_SH_INIT;
    cases_run("shell.test", check_case, &sh);
    sbx_sh_free(&sh);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_case_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
