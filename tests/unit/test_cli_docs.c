/* The docs that cannot drift from the code: every option each command
 * accepts (its getopt table, cli/subcommands.h) is in --help, in sbxview.1
 * and in the bash, zsh and fish completions (completions/), and the
 * completions offer no option the command lacks; the manual has a section
 * per sub-command, every finding's mark, name and words (model/findings.h),
 * and each command's exit statuses (the table's exits) in EXIT STATUS; the
 * completions offer every --as format (the format table), every finding
 * name --allow takes and the summary's formats. This test links the command
 * line (cli/ and tui/ without main: see the Makefile) and reads the files
 * from the project root, where the tests are run. */
#include <ctype.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/buf.h"
#include "importers/formatarg.h"
#include "model/findings.h"
#include "cli/cli.h"
#include "cli/subcommands.h"

/* Every gap is listed before the test fails, so one run names them all. */
static int gaps;
#define gap(...) (print_error(__VA_ARGS__), print_error("\n"), gaps++)
#define no_gaps() assert_int_equal(gaps, 0)

/* The commands: the review (called "view" in the completions, a name no
 * sub-command may have: test_cli_subcommands) and the rows. */
struct command {
    const char *name;
    const struct sbx_cli_opts *opts;
    const char *exits;
};

static size_t commands(struct command *out, size_t max)
{
    size_t n = 0;
    out[n++] = (struct command){"view", &sbx_view_opts, sbx_view_exits};
    for (size_t i = 0; i < sbx_nsubcommands && n < max; i++) {
        const struct sbx_subcommand *c = &sbx_subcommands[i];
        if (!c->opts || !c->opts->shorts || !c->opts->longs || !c->exits || !*c->exits)
            fail_msg("the row of %s has no option table or exit statuses (cli/subcommands.c)", c->name);
        out[n++] = (struct command){c->name, c->opts, c->exits};
    }
    return n;
}

static char *read_whole(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("%s: cannot be read (tests are run from the project root)", path);
    struct sbx_buf b = SBX_BUF_INIT;
    char chunk[8192];
    size_t got;
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0)
        sbx_buf_add(&b, chunk, got);
    fclose(f);
    sbx_buf_addc(&b, '\0');
    return b.p;
}

static char *help_text(void)
{
    FILE *f = tmpfile();
    assert_non_null(f);
    sbx_usage(f);
    long n = ftell(f);
    char *s = calloc(1, (size_t)n + 1);
    rewind(f);
    assert_int_equal(fread(s, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    return s;
}

/* The manual as text: "\-" a hyphen, font changes and "\&" gone. */
static char *man_text(void)
{
    char *s = read_whole("sbxview.1");
    char *w = s;
    for (const char *r = s; *r;) {
        if (r[0] == '\\' && r[1] == '-') {
            *w++ = '-';
            r += 2;
        } else if (r[0] == '\\' && r[1] == 'f' && r[2]) {
            r += 3;
        } else if (r[0] == '\\' && r[1] == '&') {
            r += 2;
        } else {
            *w++ = *r++;
        }
    }
    *w = '\0';
    return s;
}

static bool word_char(char c)
{
    return isalnum((unsigned char)c) || c == '-';
}

/* text holds word, not as part of a longer word ("--as" is not "--as-of"). */
static bool has_word(const char *text, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = strstr(text, word); p; p = strstr(p + 1, word))
        if ((p == text || !word_char(p[-1]) || word[0] == '-') && !word_char(p[n]) &&
            (p == text || p[-1] != '-' || word[0] != '-' || word[1] == '-'))
            return true;
    return false;
}

/* The options of a command as "--long" and "-s" words, one string each. */
static size_t option_words(const struct sbx_cli_opts *o, char words[][40], size_t max)
{
    size_t n = 0;
    for (const struct option *l = o->longs; l->name && n < max; l++) {
        snprintf(words[n], 40, "--%s", l->name);
        bool dup = false;
        for (size_t i = 0; i < n; i++)
            dup |= strcmp(words[i], words[n]) == 0;
        n += !dup;
    }
    for (const char *s = o->shorts; *s && n < max; s++)
        if (isalnum((unsigned char)*s))
            snprintf(words[n++], 40, "-%c", *s);
    return n;
}

/* Every option of every command is in --help and in the manual. */
static void help_and_manual_have_every_option(void **state)
{
    (void)state;
    gaps = 0;
    char *help = help_text(), *man = man_text();
    struct command cmds[32];
    size_t nc = commands(cmds, 32);
    for (size_t c = 0; c < nc; c++) {
        char words[64][40];
        size_t n = option_words(cmds[c].opts, words, 64);
        assert_true(n >= 2);
        for (size_t i = 0; i < n; i++) {
            /* a short option is shown as "-x, --long" in the help */
            char shown[48];
            snprintf(shown, sizeof shown, "%.40s,", words[i]);
            bool in_help = words[i][1] == '-' ? has_word(help, words[i]) : strstr(help, shown) != NULL;
            if (!in_help)
                gap("%s's option %s is not in --help (cli/usage.c)", cmds[c].name, words[i]);
            if (!has_word(man, words[i]))
                gap("%s's option %s is not in sbxview.1", cmds[c].name, words[i]);
        }
    }
    free(help);
    free(man);
    no_gaps();
}

/* The manual's section for each sub-command, its findings list and its
 * exit statuses. */
static void manual_has_commands_findings_and_exits(void **state)
{
    (void)state;
    gaps = 0;
    char *man = man_text();
    for (size_t i = 0; i < sbx_nsubcommands; i++) {
        char sh[64];
        snprintf(sh, sizeof sh, "\n.SH %s\n", sbx_subcommands[i].name);
        for (char *p = sh + 5; *p != '\n'; p++)
            *p = (char)toupper((unsigned char)*p);
        if (!strstr(man, sh))
            gap("sbxview.1 has no section%s", sh);
    }
    /* the marks: ".B MARK" then "NAME: WORDS" */
    for (size_t i = 0; i < sbx_nfindings; i++) {
        struct sbx_buf want = SBX_BUF_INIT;
        sbx_buf_addf(&want, "\n.B %c\n%s: %s\n", sbx_findings[i].mark, sbx_findings[i].name,
                     sbx_findings[i].words);
        if (!strstr(man, want.p))
            gap("sbxview.1 does not list the finding%s", want.p);
        sbx_buf_free(&want);
    }
    /* EXIT STATUS: ".TP", ".B sbxview NAME", then each of its codes */
    const char *exits = strstr(man, "\n.SH EXIT STATUS\n");
    assert_non_null(exits);
    const char *exits_end = strstr(exits + 1, "\n.SH ");
    struct command cmds[32];
    size_t nc = commands(cmds, 32);
    for (size_t c = 0; c < nc; c++) {
        char tag[64];
        snprintf(tag, sizeof tag, "\n.TP\n.B sbxview%s%s\n", c ? " " : "", c ? cmds[c].name : "");
        const char *at = strstr(exits, tag);
        if (!at || (exits_end && at > exits_end)) {
            gap("EXIT STATUS in sbxview.1 has no entry%s", tag);
            continue;
        }
        at += strlen(tag);
        const char *end = strstr(at, "\n.TP\n");
        if (!end || (exits_end && end > exits_end))
            end = exits_end;
        char *para = strndup(at, (size_t)(end - at));
        /* the codes: the numbers that start the table's items */
        for (const char *p = cmds[c].exits; *p;) {
            if (isdigit((unsigned char)*p)) {
                char code[16];
                size_t k = 0;
                while (p[k] && p[k] != ' ' && k < sizeof code - 1) {
                    code[k] = p[k];
                    k++;
                }
                code[k] = '\0';
                if (!has_word(para, code))
                    gap("EXIT STATUS in sbxview.1: sbxview %s lacks %s:\n%s", cmds[c].name,
                             code, para);
            }
            const char *next = strstr(p, ", ");
            p = next ? next + 2 : p + strlen(p);
        }
        free(para);
    }
    free(man);
    no_gaps();
}

/* A completion's options for one command, as "--long"/"-s" words. */
struct found {
    char words[128][40];
    size_t n;
};

static void found_add(struct found *f, const char *w, size_t len)
{
    if (f->n < 128 && len < 40) {
        for (size_t i = 0; i < f->n; i++)
            if (strlen(f->words[i]) == len && memcmp(f->words[i], w, len) == 0)
                return;
        memcpy(f->words[f->n], w, len);
        f->words[f->n++][len] = '\0';
    }
}

/* The option words at s (up to end): "-x" and "--long" tokens. */
static void scan_options(struct found *f, const char *s, const char *end)
{
    for (const char *p = s; p < end; p++) {
        if (*p != '-' || (p > s && (word_char(p[-1]) || p[-1] == '-')))
            continue;
        size_t k = p[1] == '-' ? 2 : 1;
        if (!isalnum((unsigned char)p[k]))
            continue;
        while (p + k < end && word_char(p[k]))
            k++;
        found_add(f, p, k);
        p += k - 1;
    }
}

/* bash: a line "    NAME) echo \"OPTIONS\" ;;" in _sbxview_options. */
static void bash_options(const char *file, const char *cmd, struct found *f)
{
    char head[64];
    snprintf(head, sizeof head, "\n    %s) echo \"", cmd);
    const char *p = strstr(file, head);
    if (!p)
        return;
    p += strlen(head);
    scan_options(f, p, strchr(p, '"'));
}

/* zsh: the lines of function _sbxview_NAME that start with a quoted spec. */
static void zsh_options(const char *file, const char *cmd, struct found *f)
{
    char head[64];
    snprintf(head, sizeof head, "\n_sbxview_%s() {\n", cmd);
    const char *p = strstr(file, head);
    if (!p)
        return;
    const char *end = strstr(p + 1, "\n}\n");
    for (p = strchr(p + 1, '\n'); p && p < end; p = strchr(p + 1, '\n')) {
        const char *q = p + 1;
        while (*q == ' ')
            q++;
        if (q[0] == '\'' && q[1] == '-') {
            size_t k = 1;
            while (word_char(q[1 + k]))
                k++;
            found_add(f, q + 1, k);
        }
    }
}

/* fish: "complete -c sbxview -n '__sbxview_in A B' -s X -l NAME ..." lines. */
static void fish_options(const char *file, const char *cmd, struct found *f)
{
    for (const char *p = strstr(file, "\ncomplete -c sbxview "); p;
         p = strstr(p + 1, "\ncomplete -c sbxview ")) {
        const char *eol = strchr(p + 1, '\n');
        const char *in = strstr(p, "__sbxview_in ");
        if (!in || in > eol)
            continue;
        in += strlen("__sbxview_in ");
        const char *q = strchr(in, '\'');
        char cmds[256];
        snprintf(cmds, sizeof cmds, " %.*s ", (int)(q - in), in);
        char me[64];
        snprintf(me, sizeof me, " %s ", cmd);
        if (!strstr(cmds, me))
            continue;
        for (const char *o = q; o && o < eol; o = strstr(o + 1, " -")) {
            if (o[1] == '-' && o[2] == 's' && o[3] == ' ')
                found_add(f, (char[]){'-', o[4]}, 2);
            else if (o[1] == '-' && o[2] == 'l' && o[3] == ' ') {
                char w[40] = "--";
                size_t k = 0;
                while (word_char(o[4 + k]) && k < 36) {
                    w[2 + k] = o[4 + k];
                    k++;
                }
                found_add(f, w, 2 + k);
            }
        }
    }
}

static const struct {
    const char *path;
    void (*options)(const char *file, const char *cmd, struct found *f);
} shells[] = {
    {"completions/sbxview.bash", bash_options},
    {"completions/_sbxview", zsh_options},
    {"completions/sbxview.fish", fish_options},
};

/* Each completion offers exactly each command's options. */
static void completions_match_the_tables(void **state)
{
    (void)state;
    gaps = 0;
    struct command cmds[32];
    size_t nc = commands(cmds, 32);
    for (size_t s = 0; s < sizeof shells / sizeof *shells; s++) {
        char *file = read_whole(shells[s].path);
        for (size_t c = 0; c < nc; c++) {
            char words[64][40];
            size_t n = option_words(cmds[c].opts, words, 64);
            struct found f = {.n = 0};
            shells[s].options(file, cmds[c].name, &f);
            for (size_t i = 0; i < n; i++) {
                bool in = false;
                for (size_t j = 0; j < f.n; j++)
                    in |= strcmp(words[i], f.words[j]) == 0;
                if (!in)
                    gap("%s does not offer %s's option %s", shells[s].path, cmds[c].name,
                             words[i]);
            }
            for (size_t j = 0; j < f.n; j++) {
                bool in = false;
                for (size_t i = 0; i < n; i++)
                    in |= strcmp(words[i], f.words[j]) == 0;
                if (!in)
                    gap("%s offers %s for %s, which takes no such option", shells[s].path,
                             f.words[j], cmds[c].name);
            }
        }
        /* the sub-commands, the --as formats, the finding names, the formats */
        struct sbx_buf subs = SBX_BUF_INIT, formats = SBX_BUF_INIT, names = SBX_BUF_INIT;
        for (size_t i = 0; i < sbx_nsubcommands; i++)
            sbx_buf_addf(&subs, "%s%s", i ? " " : "", sbx_subcommands[i].name);
        sbx_buf_adds(&formats, "auto, ");
        sbx_format_names(&formats);
        for (char *p = formats.p; (p = strstr(p, ", ")) != NULL;) {
            *p = ' ';
            memmove(p + 1, p + 2, strlen(p + 2) + 1);
        }
        for (size_t i = 0; i < sbx_nfindings; i++)
            sbx_buf_addf(&names, "%s ", sbx_findings[i].name);
        sbx_buf_adds(&names, "skipped-lines");
        const char *lists[] = {subs.p, formats.p, names.p, "text markdown json"};
        for (size_t i = 0; i < sizeof lists / sizeof *lists; i++)
            if (!strstr(file, lists[i]))
                gap("%s lacks the list \"%s\"", shells[s].path, lists[i]);
        sbx_buf_free(&subs);
        sbx_buf_free(&formats);
        sbx_buf_free(&names);
        free(file);
    }
    no_gaps();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(help_and_manual_have_every_option),
        cmocka_unit_test(manual_has_commands_findings_and_exits),
        cmocka_unit_test(completions_match_the_tables),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
