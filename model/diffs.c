#include "model/diffs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "model/timeline.h"

#define STARTS(s, n, lit) ((n) >= sizeof lit - 1 && memcmp((s), lit, sizeof lit - 1) == 0)

/* The line at p (up to end): its length without the newline, and without
 * a CR before it in *textlen. */
static size_t line_at(const char *p, const char *end, size_t *textlen)
{
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
    *textlen = len && p[len - 1] == '\r' ? len - 1 : len;
    return len + (nl != NULL);
}

static bool number(const char **s, const char *end, long *out)
{
    const char *p = *s;
    long v = 0;
    if (p >= end || *p < '0' || *p > '9')
        return false;
    while (p < end && *p >= '0' && *p <= '9') {
        if (v > 100000000L)
            return false;
        v = v * 10 + (*p++ - '0');
    }
    *s = p;
    *out = v;
    return true;
}

static bool range(const char **s, const char *end, long *start, long *count)
{
    if (!number(s, end, start))
        return false;
    *count = 1;
    if (*s < end && **s == ',') {
        (*s)++;
        return number(s, end, count);
    }
    return true;
}

bool sbx_diff_hunk_header(const char *s, size_t n, long *old_start, long *old_count,
                          long *new_start, long *new_count)
{
    const char *p = s, *end = s + n;
    if (!STARTS(s, n, "@@ -"))
        return false;
    p += 4;
    if (!range(&p, end, old_start, old_count))
        return false;
    if (end - p < 2 || p[0] != ' ' || p[1] != '+')
        return false;
    p += 2;
    if (!range(&p, end, new_start, new_count))
        return false;
    return end - p >= 3 && memcmp(p, " @@", 3) == 0;
}

/* ---- walking one section ---- */

void sbx_diff_iter_bytes(struct sbx_diff_iter *it, const char *data, size_t len)
{
    memset(it, 0, sizeof *it);
    it->p = data;
    it->end = data + len;
}

void sbx_diff_iter_init(struct sbx_diff_iter *it, const struct sbx_timeline *tl,
                        const struct sbx_diff_file *f)
{
    const struct sbx_source *src = &tl->sources[f->source];
    uint64_t off = f->off < src->size ? f->off : src->size;
    uint64_t len = f->len < src->size - off ? f->len : src->size - off;
    sbx_diff_iter_bytes(it, src->data + off, (size_t)len);
}

static bool binary_start(const char *s, size_t n)
{
    return STARTS(s, n, "GIT binary patch") ||
           (STARTS(s, n, "Binary files ") && n >= 20 && memcmp(s + n - 7, " differ", 7) == 0);
}

bool sbx_diff_next(struct sbx_diff_iter *it, struct sbx_diff_line *out)
{
    if (it->p >= it->end)
        return false;
    size_t n;
    const char *s = it->p;
    it->p += line_at(s, it->end, &n);
    memset(out, 0, sizeof *out);
    out->text = s;
    out->len = n;
    if (it->old_left > 0 || it->new_left > 0) {
        char c = n ? s[0] : ' ';
        if (c == ' ' && it->old_left > 0 && it->new_left > 0) {
            it->old_left--;
            it->new_left--;
            out->kind = SBX_DIFF_CONTEXT;
            out->old_no = it->old_no++;
            out->new_no = it->new_no++;
            return true;
        }
        if (c == '+' && it->new_left > 0) {
            it->new_left--;
            out->kind = SBX_DIFF_ADD;
            out->new_no = it->new_no++;
            return true;
        }
        if (c == '-' && it->old_left > 0) {
            it->old_left--;
            out->kind = SBX_DIFF_DEL;
            out->old_no = it->old_no++;
            return true;
        }
        if (c == '\\') {
            out->kind = SBX_DIFF_NO_NEWLINE;
            return true;
        }
        it->old_left = it->new_left = 0; /* the hunk ended early */
    }
    long os, oc, ns, nc;
    if (STARTS(s, n, "@@")) {
        out->kind = SBX_DIFF_HUNK;
        it->seen_hunk = true;
        if (sbx_diff_hunk_header(s, n, &os, &oc, &ns, &nc)) {
            it->old_left = oc;
            it->new_left = nc;
            it->old_no = (uint32_t)os;
            it->new_no = (uint32_t)ns;
        }
    } else if (n && s[0] == '\\') {
        out->kind = SBX_DIFF_NO_NEWLINE;
    } else if (binary_start(s, n) || it->binary_data) {
        out->kind = SBX_DIFF_BINARY;
        it->binary_data = it->binary_data || STARTS(s, n, "GIT binary patch");
    } else {
        out->kind = it->seen_hunk ? SBX_DIFF_OTHER : SBX_DIFF_HEADER;
    }
    return true;
}

/* ---- cutting a diff into sections ---- */

enum sec_kind { SEC_GIT, SEC_CMD, SEC_UNIFIED, SEC_BINARY, SEC_ONLY };

struct sec {
    enum sec_kind kind;
    uint64_t off;
    uint32_t line_no;
    char *a, *b;           /* from the diff --git or diff command line */
    char *minus, *plus;    /* --- and +++ paths */
    char *bin_a, *bin_b;   /* Binary files A and B differ */
    char *from, *to;       /* rename or copy */
    char *only_dir, *only_name;
    bool copy, new_mode, deleted_mode, binary, binary_data;
    bool minus_epoch, plus_epoch, old_all_empty, new_all_empty;
    uint32_t hunks, added, removed;
};

struct parser {
    struct sec *secs;
    size_t n, cap;
    struct sbx_diff_problem *problems;
    size_t nproblems, capproblems;
};

static void problem(struct parser *ps, uint32_t line_no, const char *reason)
{
    SBX_GROW(ps->problems, ps->nproblems, ps->capproblems);
    ps->problems[ps->nproblems++] = (struct sbx_diff_problem){line_no, reason};
}

static struct sec *new_sec(struct parser *ps, enum sec_kind kind, uint64_t off, uint32_t line_no)
{
    SBX_GROW(ps->secs, ps->n, ps->cap);
    struct sec *s = &ps->secs[ps->n++];
    memset(s, 0, sizeof *s);
    s->kind = kind;
    s->off = off;
    s->line_no = line_no;
    s->old_all_empty = s->new_all_empty = true;
    return s;
}

static int octal(char c) { return c >= '0' && c <= '7' ? c - '0' : -1; }

/* A C-quoted name as git writes it ("a/sp\303\251ce"): decoded; *used gets
 * the bytes read including both quotes. NULL when it is not one. */
static char *unquote(const char *s, size_t n, size_t *used)
{
    if (!n || s[0] != '"')
        return NULL;
    struct sbx_buf b = SBX_BUF_INIT;
    sbx_buf_reserve(&b, n);
    b.p[0] = '\0'; /* "" is a name too (an empty one) */
    for (size_t i = 1; i < n; i++) {
        char c = s[i];
        if (c == '"') {
            *used = i + 1;
            return b.p;
        }
        if (c != '\\') {
            sbx_buf_addc(&b, c);
            continue;
        }
        if (++i >= n)
            break;
        c = s[i];
        const char *from = "abtnvfr\"\\", *to = "\a\b\t\n\v\f\r\"\\";
        const char *k = strchr(from, c);
        if (c && k) {
            sbx_buf_addc(&b, to[k - from]);
        } else if (octal(c) >= 0 && i + 2 < n && octal(s[i + 1]) >= 0 && octal(s[i + 2]) >= 0) {
            sbx_buf_addc(&b, (char)(octal(c) * 64 + octal(s[i + 1]) * 8 + octal(s[i + 2])));
            i += 2;
        } else {
            break;
        }
    }
    sbx_buf_free(&b);
    return NULL;
}

/* The path of a ---/+++ line: quoted, or up to a tab (diff -u puts the
 * date after one; git one after a name with a space). */
static char *header_path(const char *s, size_t n, const char **tail, size_t *tail_len)
{
    size_t used;
    char *q = unquote(s, n, &used);
    if (q) {
        *tail = s + used;
        *tail_len = n - used;
        return q;
    }
    const char *tab = memchr(s, '\t', n);
    size_t len = tab ? (size_t)(tab - s) : n;
    *tail = s + len;
    *tail_len = n - len;
    return sbx_xstrndup(s, len);
}

static int64_t days_from_civil(int64_t y, int m, int d)
{
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    int64_t yoe = y - era * 400;
    int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

/* Whether a diff -u date ("\t1970-01-01 00:00:00.000000000 +0000") is the
 * epoch: diff -N's mark for a file that is not there. */
static bool epoch_date(const char *s, size_t n)
{
    while (n && (*s == '\t' || *s == ' ')) {
        s++;
        n--;
    }
    int y, mo, d, h, mi, se, zh, zm;
    char sign;
    const char *zone = memchr(s, ' ', n);
    if (zone)
        zone = memchr(zone + 1, ' ', n - (size_t)(zone + 1 - s));
    if (n < 19 || !zone || (size_t)(s + n - zone) < 6)
        return false;
    char buf[64];
    size_t k = n < sizeof buf - 1 ? n : sizeof buf - 1;
    memcpy(buf, s, k);
    buf[k] = '\0';
    if (sscanf(buf, "%4d-%2d-%2d %2d:%2d:%2d", &y, &mo, &d, &h, &mi, &se) != 6)
        return false;
    size_t zoff = (size_t)(zone - s) + 1;
    if (zoff >= k || sscanf(buf + zoff, "%c%2d%2d", &sign, &zh, &zm) != 3 || (sign != '+' && sign != '-'))
        return false;
    if (mo < 1 || mo > 12 || d < 1 || d > 31)
        return false;
    int64_t secs = days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + se;
    secs -= (sign == '-' ? -1 : 1) * (zh * 3600 + zm * 60);
    return secs == 0;
}

/* The tail of a path after its first folder, or NULL when it has none. */
static const char *after_first(const char *p)
{
    const char *slash = strchr(p, '/');
    return slash && slash[1] ? slash + 1 : NULL;
}

/* Whether a and b differ only in their first folder (a/x b/x, before/x after/x). */
static bool prefix_pair(const char *a, const char *b)
{
    const char *ta = after_first(a), *tb = after_first(b);
    return ta && tb && strcmp(ta, tb) == 0 && (ta - a != tb - b || memcmp(a, b, (size_t)(ta - a)) != 0);
}

/* "diff --git A B": quoted or not; unquoted names with spaces are split
 * where both halves name the same path. */
static void git_names(const char *s, size_t n, char **a, char **b)
{
    size_t used;
    char *qa = unquote(s, n, &used);
    if (qa) {
        *a = qa;
        s += used;
        n -= used;
        if (n && *s == ' ') {
            s++;
            n--;
        }
        size_t used2;
        *b = unquote(s, n, &used2);
        if (!*b)
            *b = sbx_xstrndup(s, n);
        return;
    }
    const char *q = n > 1 ? memmem(s, n, " \"", 2) : NULL;
    if (q) {
        *a = sbx_xstrndup(s, (size_t)(q - s));
        *b = unquote(q + 1, n - (size_t)(q + 1 - s), &used);
        if (!*b)
            *b = sbx_xstrndup(q + 1, n - (size_t)(q + 1 - s));
        return;
    }
    const char *split = NULL;
    for (const char *p = s; (p = memchr(p, ' ', (size_t)(s + n - p))); p++) {
        char *x = sbx_xstrndup(s, (size_t)(p - s)), *y = sbx_xstrndup(p + 1, (size_t)(s + n - p - 1));
        bool same = prefix_pair(x, y) || strcmp(x, y) == 0;
        free(x);
        free(y);
        if (same) {
            split = p;
            break;
        }
    }
    if (!split)
        split = n > 3 ? memmem(s, n, " b/", 3) : NULL;
    if (!split)
        split = memchr(s, ' ', n);
    if (!split) {
        *a = sbx_xstrndup(s, n);
        *b = sbx_xstrndup(s, n);
        return;
    }
    *a = sbx_xstrndup(s, (size_t)(split - s));
    *b = sbx_xstrndup(split + 1, (size_t)(s + n - split - 1));
}

/* "Binary files A and B differ" (s is "A and B"); git quotes odd names. */
static void binary_names(const char *s, size_t n, char **a, char **b)
{
    size_t used;
    char *qa = unquote(s, n, &used);
    if (qa && n - used >= 5 && memcmp(s + used, " and ", 5) == 0) {
        const char *r = s + used + 5;
        size_t rn = n - used - 5, used2;
        *a = qa;
        *b = unquote(r, rn, &used2);
        if (!*b || used2 != rn) {
            free(*b);
            *b = sbx_xstrndup(r, rn);
        }
        return;
    }
    free(qa);
    const char *q = n > 6 ? memmem(s, n, " and \"", 6) : NULL;
    if (q && s[n - 1] == '"') {
        *b = unquote(q + 5, (size_t)(s + n - q - 5), &used);
        if (*b) {
            *a = sbx_xstrndup(s, (size_t)(q - s));
            return;
        }
    }
    const char *first = NULL;
    for (const char *p = s; p + 5 <= s + n && (p = memmem(p, (size_t)(s + n - p), " and ", 5)); p++) {
        if (!first)
            first = p;
        char *x = sbx_xstrndup(s, (size_t)(p - s)), *y = sbx_xstrndup(p + 5, (size_t)(s + n - p - 5));
        bool good = prefix_pair(x, y) || strcmp(x, "/dev/null") == 0 || strcmp(y, "/dev/null") == 0;
        if (good) {
            *a = x;
            *b = y;
            return;
        }
        free(x);
        free(y);
    }
    if (first) {
        *a = sbx_xstrndup(s, (size_t)(first - s));
        *b = sbx_xstrndup(first + 5, (size_t)(s + n - first - 5));
    }
}

/* The value of a git header line "rename from NAME" (quoted or not). */
static char *git_value(const char *s, size_t n)
{
    size_t used;
    char *q = unquote(s, n, &used);
    return q ? q : sbx_xstrndup(s, n);
}

/* A header line of a git section (after "diff --git"); false if unknown. */
static bool git_header(struct sec *c, const char *s, size_t n)
{
#define VALUE(lit) (STARTS(s, n, lit) ? git_value(s + sizeof lit - 1, n - (sizeof lit - 1)) : NULL)
    char *v;
    if (STARTS(s, n, "index ") || STARTS(s, n, "old mode ") || STARTS(s, n, "new mode ") ||
        STARTS(s, n, "similarity index ") || STARTS(s, n, "dissimilarity index "))
        return true;
    if (STARTS(s, n, "new file mode ")) {
        c->new_mode = true;
        return true;
    }
    if (STARTS(s, n, "deleted file mode ")) {
        c->deleted_mode = true;
        return true;
    }
    if ((v = VALUE("rename from ")) || (v = VALUE("rename old ")) || (v = VALUE("copy from "))) {
        c->copy = STARTS(s, n, "copy");
        free(c->from);
        c->from = v;
        return true;
    }
    if ((v = VALUE("rename to ")) || (v = VALUE("rename new ")) || (v = VALUE("copy to "))) {
        free(c->to);
        c->to = v;
        return true;
    }
    return false;
#undef VALUE
}

enum phase { HEADER, HUNK, AFTER };

struct walk {
    struct parser *ps;
    struct sec *cur; /* index-stable only until the next new_sec */
    enum phase phase;
    long old_left, new_left;
    uint32_t hunk_line;
    bool bad_hunk, trailer;
};

static void start_hunk(struct walk *w, const char *s, size_t n, uint32_t line_no)
{
    long os, oc, ns, nc;
    w->phase = AFTER;
    w->bad_hunk = !sbx_diff_hunk_header(s, n, &os, &oc, &ns, &nc);
    if (w->bad_hunk) {
        problem(w->ps, line_no, "not a hunk header (@@ -start,count +start,count @@)");
        return;
    }
    w->cur->hunks++;
    w->cur->old_all_empty &= os == 0 && oc == 0;
    w->cur->new_all_empty &= ns == 0 && nc == 0;
    w->old_left = oc;
    w->new_left = nc;
    w->hunk_line = line_no;
    if (oc || nc)
        w->phase = HUNK;
}

/* A line counted by the current hunk: true when it is one. */
static bool hunk_line(struct walk *w, const char *s, size_t n)
{
    char c = n ? s[0] : ' ';
    if (c == ' ' && w->old_left > 0 && w->new_left > 0) {
        w->old_left--;
        w->new_left--;
    } else if (c == '+' && w->new_left > 0) {
        w->new_left--;
        w->cur->added++;
    } else if (c == '-' && w->old_left > 0) {
        w->old_left--;
        w->cur->removed++;
    } else if (c != '\\') {
        return false;
    }
    if (!w->old_left && !w->new_left)
        w->phase = AFTER;
    return true;
}

static bool ends_with(const char *s, size_t n, const char *lit)
{
    size_t k = strlen(lit);
    return n >= k && memcmp(s + n - k, lit, k) == 0;
}

/* A line that starts a file's section, or adds to the current one's first
 * lines; false when it is neither. */
static bool section_line(struct walk *w, const char *s, size_t n, uint64_t off, uint32_t line_no)
{
    struct sec *c = w->cur;
    bool fresh_header = c && w->phase == HEADER && !c->minus && !c->binary &&
                        (c->kind == SEC_GIT || c->kind == SEC_CMD);
    if (STARTS(s, n, "diff --git ")) {
        c = new_sec(w->ps, SEC_GIT, off, line_no);
        git_names(s + 11, n - 11, &c->a, &c->b);
    } else if (STARTS(s, n, "diff ")) {
        c = new_sec(w->ps, SEC_CMD, off, line_no);
        /* the last two words: the files compared (used when nothing better names them) */
        const char *end = s + n, *sp2 = NULL, *sp1 = NULL;
        for (const char *p = s; p < end; p++)
            if (*p == ' ') {
                sp1 = sp2;
                sp2 = p;
            }
        if (sp1 && sp2 > sp1 + 1 && sp2 + 1 < end) {
            c->a = sbx_xstrndup(sp1 + 1, (size_t)(sp2 - sp1 - 1));
            c->b = sbx_xstrndup(sp2 + 1, (size_t)(end - sp2 - 1));
        }
    } else if (STARTS(s, n, "--- ") && n > 4) {
        if (!fresh_header)
            c = new_sec(w->ps, SEC_UNIFIED, off, line_no);
        const char *tail;
        size_t tail_len;
        c->minus = header_path(s + 4, n - 4, &tail, &tail_len);
        c->minus_epoch = epoch_date(tail, tail_len);
    } else if (STARTS(s, n, "Only in ") && memmem(s, n, ": ", 2)) {
        c = new_sec(w->ps, SEC_ONLY, off, line_no);
        const char *colon = memmem(s, n, ": ", 2);
        c->only_dir = sbx_xstrndup(s + 8, (size_t)(colon - s - 8));
        c->only_name = sbx_xstrndup(colon + 2, (size_t)(s + n - colon - 2));
        w->cur = c;
        w->phase = AFTER;
        return true;
    } else if ((STARTS(s, n, "Binary files ") && ends_with(s, n, " differ")) ||
               (STARTS(s, n, "Files ") && ends_with(s, n, " differ") && n > 13)) {
        size_t skip = s[0] == 'B' ? 13 : 6;
        if (!fresh_header)
            c = new_sec(w->ps, SEC_BINARY, off, line_no);
        c->binary = true;
        binary_names(s + skip, n - skip - 7, &c->bin_a, &c->bin_b);
    } else {
        return false;
    }
    w->cur = c;
    if (c->kind != SEC_BINARY && !c->binary)
        w->phase = HEADER;
    else
        w->phase = AFTER;
    w->bad_hunk = false;
    return true;
}

static void walk_line(struct walk *w, const char *s, size_t n, uint64_t off, uint32_t line_no)
{
    if (w->trailer)
        return;
    if (w->phase == HUNK) {
        if (hunk_line(w, s, n))
            return;
        problem(w->ps, w->hunk_line, "the hunk has fewer lines than its header counts");
        w->phase = AFTER;
    }
    if (section_line(w, s, n, off, line_no))
        return;
    struct sec *c = w->cur;
    if (!c)
        return; /* before the first file: a commit message, an e-mail's headers */
    if (STARTS(s, n, "@@")) {
        if (!c->minus && c->kind != SEC_UNIFIED && !c->binary)
            problem(w->ps, line_no, "a hunk before its file's --- and +++ lines");
        start_hunk(w, s, n, line_no);
        return;
    }
    if (n && s[0] == '\\')
        return; /* "\ No newline at end of file" */
    if (w->bad_hunk && n && (s[0] == ' ' || s[0] == '+' || s[0] == '-'))
        return; /* under a hunk header that could not be read: reported once */
    if (c->binary_data)
        return; /* GIT binary patch: literal/delta lines and base85 data */
    if (w->phase == HEADER) {
        if (STARTS(s, n, "+++ ")) {
            if (!c->minus || c->plus) {
                problem(w->ps, line_no, "a +++ line without its --- line");
                return;
            }
            const char *tail;
            size_t tail_len;
            c->plus = header_path(s + 4, n - 4, &tail, &tail_len);
            c->plus_epoch = epoch_date(tail, tail_len);
            return;
        }
        if (c->kind == SEC_GIT && !c->minus && STARTS(s, n, "GIT binary patch")) {
            c->binary = c->binary_data = true;
            return;
        }
        if (c->kind == SEC_GIT && !c->minus && git_header(c, s, n))
            return;
    }
    if (n == 3 && memcmp(s, "-- ", 3) == 0 && w->phase == AFTER) {
        w->trailer = true; /* git format-patch's signature: the diff is over */
        return;
    }
    problem(w->ps, line_no, "not part of a diff");
}

static void free_sec(struct sec *s)
{
    free(s->a);
    free(s->b);
    free(s->minus);
    free(s->plus);
    free(s->bin_a);
    free(s->bin_b);
    free(s->from);
    free(s->to);
    free(s->only_dir);
    free(s->only_name);
}

static bool dev_null(const char *p) { return p && strcmp(p, "/dev/null") == 0; }

/* The display form of a path: without the side's prefix folder and "./". */
static char *display(const char *p, const char *prefix)
{
    size_t k = prefix ? strlen(prefix) : 0;
    if (k && strncmp(p, prefix, k) == 0 && p[k] == '/' && p[k + 1])
        p += k + 1;
    while (p[0] == '.' && p[1] == '/' && p[2])
        p += 2;
    return sbx_xstrndup(p, strlen(p));
}

static char *first_folder(const char *p)
{
    const char *t = after_first(p);
    return t ? sbx_xstrndup(p, (size_t)(t - p - 1)) : NULL;
}

/* Turns a section's raw names into a file; false to drop it. */
static bool finish_sec(struct parser *ps, struct sec *c, const char *old_top, const char *new_top,
                       struct sbx_diff_file *f)
{
    memset(f, 0, sizeof *f);
    f->off = c->off;
    f->line_no = c->line_no;
    f->hunks = c->hunks;
    f->added_lines = c->added;
    f->removed_lines = c->removed;
    f->binary = c->binary;
    if (c->kind == SEC_ONLY) {
        size_t dl = strlen(c->only_dir);
        while (dl > 1 && c->only_dir[dl - 1] == '/')
            dl--;
        struct sbx_buf p = SBX_BUF_INIT;
        sbx_buf_add(&p, c->only_dir, dl);
        sbx_buf_addc(&p, '/');
        sbx_buf_adds(&p, c->only_name);
        size_t tl_ = old_top ? strlen(old_top) : 0, tn = new_top ? strlen(new_top) : 0;
        bool in_new = tn && strncmp(p.p, new_top, tn) == 0 && p.p[tn] == '/';
        bool in_old = tl_ && strncmp(p.p, old_top, tl_) == 0 && p.p[tl_] == '/';
        if (!in_new && !in_old) {
            problem(ps, c->line_no, "an \"Only in\" line whose folder is neither side of the diff");
            sbx_buf_free(&p);
            return false;
        }
        f->change = in_new ? SBX_ADDED : SBX_REMOVED;
        f->path = display(p.p, in_new ? new_top : old_top);
        sbx_buf_free(&p);
        return true;
    }
    const char *a = c->minus ? c->minus : c->bin_a ? c->bin_a : c->a;
    const char *b = c->plus ? c->plus : c->bin_b ? c->bin_b : c->b;
    if (c->kind == SEC_GIT) {
        /* git's own names first: a/ and b/ (or the mnemonic i/ w/ c/ o/) */
        const char *ga = c->a ? c->a : a, *gb = c->b ? c->b : b;
        char *pa = NULL, *pb = NULL;
        if (ga && gb && (prefix_pair(ga, gb) || (strncmp(ga, "a/", 2) == 0 && strncmp(gb, "b/", 2) == 0))) {
            pa = first_folder(ga);
            pb = first_folder(gb);
        }
        if (c->from && c->to) {
            f->old_path = display(c->from, NULL);
            f->path = display(c->to, NULL);
            f->renamed = !c->copy;
            f->change = SBX_ADDED;
        } else {
            bool removed = c->deleted_mode || (dev_null(b) && !c->new_mode);
            bool added = c->new_mode || dev_null(a);
            const char *name = removed ? (dev_null(a) ? gb : a) : (dev_null(b) ? ga : b);
            if (!name) {
                free(pa);
                free(pb);
                problem(ps, c->line_no, "a file whose name cannot be read");
                return false;
            }
            f->path = display(name, removed ? pa : pb);
            f->change = removed ? SBX_REMOVED : added ? SBX_ADDED : SBX_CHANGED;
        }
        free(pa);
        free(pb);
    } else {
        bool added = (dev_null(a) || (c->minus_epoch && c->old_all_empty && c->hunks)) && !dev_null(b);
        bool removed = !added && (dev_null(b) || (c->plus_epoch && c->new_all_empty && c->hunks));
        const char *name = removed ? a : (b && !dev_null(b) ? b : a);
        if (!name || dev_null(name)) {
            problem(ps, c->line_no, "a file whose name cannot be read");
            return false;
        }
        f->path = display(name, removed ? old_top : new_top);
        f->change = removed ? SBX_REMOVED : added ? SBX_ADDED : SBX_CHANGED;
    }
    if (!f->path[0]) {
        free((char *)f->path);
        free((char *)f->old_path);
        problem(ps, c->line_no, "a file with an empty name");
        return false;
    }
    return true;
}

void sbx_diff_parse(const char *data, size_t size, struct sbx_diff_parsed *out)
{
    memset(out, 0, sizeof *out);
    struct parser ps = {0};
    struct walk w = {.ps = &ps};
    const char *p = data, *end = data + size;
    uint32_t line_no = 0;
    uint64_t trailer_off = size;
    while (p < end) {
        size_t n, adv = line_at(p, end, &n);
        line_no++;
        bool was_trailer = w.trailer;
        walk_line(&w, p, n, (uint64_t)(p - data), line_no);
        if (!was_trailer && w.trailer)
            trailer_off = (uint64_t)(p - data);
        w.cur = ps.n ? &ps.secs[ps.n - 1] : NULL; /* new_sec may have moved them */
        p += adv;
    }
    if (w.phase == HUNK)
        problem(&ps, w.hunk_line, "the diff ends inside a hunk (fewer lines than its header counts)");

    /* one decision for the whole file: which first folders are the two sides */
    char *old_top = NULL, *new_top = NULL;
    for (size_t i = 0; i < ps.n && !old_top; i++) {
        const struct sec *c = &ps.secs[i];
        const char *a = c->minus ? c->minus : c->bin_a ? c->bin_a : c->a;
        const char *b = c->plus ? c->plus : c->bin_b ? c->bin_b : c->b;
        if (c->kind != SEC_GIT && a && b && prefix_pair(a, b)) {
            old_top = first_folder(a);
            new_top = first_folder(b);
        }
    }
    out->files = sbx_xcalloc(ps.n ? ps.n : 1, sizeof *out->files);
    for (size_t i = 0; i < ps.n; i++) {
        struct sec *c = &ps.secs[i];
        uint64_t next = i + 1 < ps.n ? ps.secs[i + 1].off : trailer_off;
        if (next < c->off)
            next = c->off;
        struct sbx_diff_file f;
        if (finish_sec(&ps, c, old_top, new_top, &f)) {
            uint64_t len = next - c->off;
            f.len = len > UINT32_MAX ? UINT32_MAX : (uint32_t)len;
            out->files[out->nfiles++] = f;
        }
        free_sec(c);
    }
    free(old_top);
    free(new_top);
    free(ps.secs);
    out->problems = ps.problems;
    out->nproblems = ps.nproblems;
}

void sbx_diff_parsed_free(struct sbx_diff_parsed *p)
{
    for (size_t i = 0; i < p->nfiles; i++) {
        free((char *)p->files[i].path);
        free((char *)p->files[i].old_path);
    }
    free(p->files);
    free(p->problems);
    memset(p, 0, sizeof *p);
}

bool sbx_diff_looks_like(const char *data, size_t size)
{
    const char *p = data, *end = data + size;
    const char *prev[2] = {NULL, NULL};
    size_t prevn[2] = {0, 0};
    for (int lines = 0; p < end && lines < 400; lines++) {
        size_t n, adv = line_at(p, end, &n);
        if (STARTS(p, n, "diff --git "))
            return true;
        long a, b, c, d;
        if (prev[0] && STARTS(prev[0], prevn[0], "--- ") && STARTS(prev[1], prevn[1], "+++ ") &&
            sbx_diff_hunk_header(p, n, &a, &b, &c, &d))
            return true;
        prev[0] = prev[1];
        prevn[0] = prevn[1];
        prev[1] = p;
        prevn[1] = n;
        p += adv;
    }
    return false;
}

/* ---- the timeline's sections ---- */

static int file_cmp(const void *x, const void *y)
{
    const struct sbx_diff_file *a = x, *b = y;
    int c = strcmp(a->path, b->path);
    if (c)
        return c;
    if (a->source != b->source)
        return a->source < b->source ? -1 : 1;
    return a->off < b->off ? -1 : a->off > b->off;
}

void sbx_diff_add(struct sbx_timeline *tl, uint32_t source, uint64_t base,
                  const struct sbx_diff_parsed *p)
{
    if (!p->nfiles)
        return;
    tl->diffs = sbx_xrealloc(tl->diffs, (tl->ndiffs + p->nfiles) * sizeof *tl->diffs);
    for (size_t i = 0; i < p->nfiles; i++) {
        struct sbx_diff_file f = p->files[i];
        f.source = source;
        f.off += base;
        f.path = sbx_strtab_store(&tl->strings, f.path, strlen(f.path));
        if (f.old_path)
            f.old_path = sbx_strtab_store(&tl->strings, f.old_path, strlen(f.old_path));
        tl->diffs[tl->ndiffs++] = f;
    }
    qsort(tl->diffs, tl->ndiffs, sizeof *tl->diffs, file_cmp);
}

static const struct sbx_diff_file *find_exact(const struct sbx_timeline *tl, const char *path)
{
    size_t lo = 0, hi = tl->ndiffs;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(tl->diffs[mid].path, path) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < tl->ndiffs && strcmp(tl->diffs[lo].path, path) == 0 ? &tl->diffs[lo] : NULL;
}

const struct sbx_diff_file *sbx_diff_find(const struct sbx_timeline *tl, const char *path)
{
    const struct sbx_diff_file *f = find_exact(tl, path); /* a path kept as written ("./") */
    if (f)
        return f;
    while (path[0] == '.' && path[1] == '/')
        path += 2;
    f = find_exact(tl, path);
    if (!f && (path[0] == 'a' || path[0] == 'b') && path[1] == '/')
        f = find_exact(tl, path + 2);
    return f;
}
