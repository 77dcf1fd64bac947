/* The markdown body turned into Jira's and Slack's bodies. The markdown is
 * sbxview's own (render/summary/summary_md.c, export/body.c): headings "### ",
 * items "- ", "**strong**", code spans and fenced blocks holding the log's
 * text, blank lines between blocks, and the marker as the last line. */
#include <string.h>
#include <strings.h>

#include "export/body_internal.h"
#include "base/jsonw.h"

struct line {
    const char *p;
    size_t n;
};

static bool next_line(const char **s, const char *end, struct line *l)
{
    if (*s >= end)
        return false;
    const char *nl = memchr(*s, '\n', (size_t)(end - *s));
    l->p = *s;
    l->n = nl ? (size_t)(nl - *s) : (size_t)(end - *s);
    *s = nl ? nl + 1 : end;
    return true;
}

static size_t run_of(const char *p, size_t n, char ch)
{
    size_t k = 0;
    while (k < n && p[k] == ch)
        k++;
    return k;
}

static bool starts(const struct line *l, const char *prefix)
{
    size_t k = strlen(prefix);
    return l->n >= k && memcmp(l->p, prefix, k) == 0;
}

/* ---- Atlassian Document Format ---- */

struct adf {
    struct sbx_jsonw w;
    bool para, list; /* a paragraph or a bullet list is open */
    bool strong;
};

static void adf_text(struct adf *a, const char *s, size_t n, bool code)
{
    if (!n)
        return;
    sbx_jw_object(&a->w);
    sbx_jw_key(&a->w, "type");
    sbx_jw_cstr(&a->w, "text");
    sbx_jw_key(&a->w, "text");
    sbx_jw_string(&a->w, s, n);
    if (code || a->strong) {
        sbx_jw_key(&a->w, "marks");
        sbx_jw_array(&a->w);
        sbx_jw_object(&a->w);
        sbx_jw_key(&a->w, "type");
        sbx_jw_cstr(&a->w, code ? "code" : "strong");
        sbx_jw_end_object(&a->w);
        sbx_jw_end_array(&a->w);
    }
    sbx_jw_end_object(&a->w);
}

/* Inline markdown: code spans (a run of k backticks to the next run of
 * exactly k) and ** for strong; the rest is text. */
static void adf_inline(struct adf *a, const char *s, size_t n)
{
    size_t i = 0, start = 0;
    a->strong = false;
    while (i < n) {
        if (s[i] == '`') {
            size_t k = run_of(s + i, n - i, '`'), j = i + k, close = 0;
            while (j < n) {
                size_t r = run_of(s + j, n - j, '`');
                if (r == k) {
                    close = j;
                    break;
                }
                j += r ? r : 1;
            }
            if (!close) {
                i += k;
                continue;
            }
            adf_text(a, s + start, i - start, false);
            const char *c = s + i + k;
            size_t cn = close - i - k;
            /* CommonMark: one space each side is dropped when both are there */
            if (cn >= 2 && c[0] == ' ' && c[cn - 1] == ' ' && run_of(c, cn, ' ') != cn) {
                c++;
                cn -= 2;
            }
            adf_text(a, c, cn, true);
            i = start = close + k;
        } else if (s[i] == '*' && i + 1 < n && s[i + 1] == '*') {
            adf_text(a, s + start, i - start, false);
            a->strong = !a->strong;
            i = start = i + 2;
        } else {
            i++;
        }
    }
    adf_text(a, s + start, n - start, false);
    a->strong = false;
}

static void adf_node(struct adf *a, const char *type)
{
    sbx_jw_object(&a->w);
    sbx_jw_key(&a->w, "type");
    sbx_jw_cstr(&a->w, type);
}

static void adf_close(struct adf *a)
{
    if (a->para) {
        sbx_jw_end_array(&a->w);
        sbx_jw_end_object(&a->w);
        a->para = false;
    }
    if (a->list) {
        sbx_jw_end_array(&a->w);
        sbx_jw_end_object(&a->w);
        a->list = false;
    }
}

static void adf_paragraph(struct adf *a, const char *s, size_t n)
{
    adf_node(a, "paragraph");
    sbx_jw_key(&a->w, "content");
    sbx_jw_array(&a->w);
    adf_inline(a, s, n);
    sbx_jw_end_array(&a->w);
    sbx_jw_end_object(&a->w);
}

void sbx_body_adf(const char *md, size_t n, const char *digest, struct sbx_buf *out)
{
    struct adf a = {.para = false};
    sbx_jw_init(&a.w, out, false);
    sbx_jw_object(&a.w);
    sbx_jw_key(&a.w, "version");
    sbx_jw_int(&a.w, 1);
    sbx_jw_key(&a.w, "type");
    sbx_jw_cstr(&a.w, "doc");
    sbx_jw_key(&a.w, "content");
    sbx_jw_array(&a.w);
    const char *s = md, *end = md + n;
    struct line l;
    while (next_line(&s, end, &l)) {
        while (l.n && l.p[l.n - 1] == ' ') /* a hard break's two spaces */
            l.n--;
        size_t fence = run_of(l.p, l.n, '`');
        if (fence >= 3 && fence == l.n) {
            adf_close(&a);
            const char *body = s, *body_end = s;
            while (next_line(&s, end, &l) && !(l.n == fence && run_of(l.p, l.n, '`') == fence))
                body_end = s;
            size_t bn = (size_t)(body_end - body);
            if (bn && body[bn - 1] == '\n')
                bn--;
            adf_node(&a, "codeBlock");
            if (bn) {
                sbx_jw_key(&a.w, "content");
                sbx_jw_array(&a.w);
                adf_text(&a, body, bn, false);
                sbx_jw_end_array(&a.w);
            }
            sbx_jw_end_object(&a.w);
        } else if (starts(&l, SBX_MARKER_OPEN)) {
            adf_close(&a);
            adf_node(&a, "paragraph");
            sbx_jw_key(&a.w, "content");
            sbx_jw_array(&a.w);
            struct sbx_buf m = SBX_BUF_INIT;
            sbx_buf_addf(&m, "sbxview:%s", digest);
            adf_text(&a, m.p, m.len, false);
            sbx_buf_free(&m);
            sbx_jw_end_array(&a.w);
            sbx_jw_end_object(&a.w);
        } else if (starts(&l, "### ")) {
            adf_close(&a);
            adf_node(&a, "heading");
            sbx_jw_key(&a.w, "attrs");
            sbx_jw_object(&a.w);
            sbx_jw_key(&a.w, "level");
            sbx_jw_int(&a.w, 3);
            sbx_jw_end_object(&a.w);
            sbx_jw_key(&a.w, "content");
            sbx_jw_array(&a.w);
            adf_inline(&a, l.p + 4, l.n - 4);
            sbx_jw_end_array(&a.w);
            sbx_jw_end_object(&a.w);
        } else if (starts(&l, "- ")) {
            if (a.para)
                adf_close(&a);
            if (!a.list) {
                adf_node(&a, "bulletList");
                sbx_jw_key(&a.w, "content");
                sbx_jw_array(&a.w);
                a.list = true;
            }
            adf_node(&a, "listItem");
            sbx_jw_key(&a.w, "content");
            sbx_jw_array(&a.w);
            adf_paragraph(&a, l.p + 2, l.n - 2);
            sbx_jw_end_array(&a.w);
            sbx_jw_end_object(&a.w);
        } else if (l.n == 0) {
            adf_close(&a);
        } else {
            if (a.list)
                adf_close(&a);
            if (a.para) {
                adf_node(&a, "hardBreak");
                sbx_jw_end_object(&a.w);
            } else {
                adf_node(&a, "paragraph");
                sbx_jw_key(&a.w, "content");
                sbx_jw_array(&a.w);
                a.para = true;
            }
            adf_inline(&a, l.p, l.n);
        }
    }
    adf_close(&a);
    sbx_jw_end_array(&a.w);
    sbx_jw_end_object(&a.w);
}

/* ---- Jira v2: plain text in one {noformat} block ---- */

void sbx_body_jira_text(const char *md, size_t n, const char *digest, struct sbx_buf *out)
{
    static const char tag[] = "{noformat";
    const size_t tn = sizeof tag - 1;
    sbx_buf_adds(out, "Agent run summary by sbxview (markdown; the log's text is quoted in backticks):\n"
                      "{noformat}\n");
    const char *s = md, *end = md + n;
    struct line l;
    while (next_line(&s, end, &l)) {
        if (starts(&l, SBX_MARKER_OPEN))
            continue;
        /* nothing inside may end the block */
        for (size_t i = 0; i < l.n; i++) {
            if (l.p[i] == '{' && l.n - i >= tn && strncasecmp(l.p + i, tag, tn) == 0)
                sbx_buf_adds(out, "{-");
            else
                sbx_buf_addc(out, l.p[i]);
        }
        sbx_buf_addc(out, '\n');
    }
    sbx_buf_addf(out, "{noformat}\nsbxview:%s\n", digest);
}

/* ---- Slack: the text in a ``` block, & < > escaped, no backtick inside ---- */

void sbx_body_slack(const char *md, size_t n, const char *digest, struct sbx_buf *out,
                    size_t *text_chars)
{
    struct sbx_buf text = SBX_BUF_INIT;
    sbx_buf_adds(&text, "*Agent run summary* by sbxview\n```\n");
    const char *s = md, *end = md + n;
    struct line l;
    size_t units = 0;
    while (next_line(&s, end, &l)) {
        if (starts(&l, SBX_MARKER_OPEN))
            continue;
        for (size_t i = 0; i < l.n; i++) {
            switch (l.p[i]) {
            case '&': sbx_buf_adds(&text, "&amp;"); break;
            case '<': sbx_buf_adds(&text, "&lt;"); break;
            case '>': sbx_buf_adds(&text, "&gt;"); break;
            case '`': sbx_buf_adds(&text, "\xcb\x8b"); break; /* U+02CB */
            default: sbx_buf_addc(&text, l.p[i]);
            }
        }
        sbx_buf_addc(&text, '\n');
    }
    sbx_buf_addf(&text, "```\nsbxview:%s", digest);
    for (size_t i = 0; i < text.len; i++) /* UTF-16 units: the text is valid UTF-8 */
        units += ((unsigned char)text.p[i] & 0xC0) != 0x80 ? 1 + ((unsigned char)text.p[i] >= 0xF0) : 0;
    *text_chars = units;
    struct sbx_jsonw w;
    sbx_jw_init(&w, out, false);
    sbx_jw_object(&w);
    sbx_jw_key(&w, "text");
    sbx_jw_string(&w, text.p, text.len);
    sbx_jw_key(&w, "mrkdwn");
    sbx_jw_bool(&w, true);
    sbx_jw_end_object(&w);
    sbx_buf_free(&text);
}
