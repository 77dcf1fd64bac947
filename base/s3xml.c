#include "base/s3xml.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"

#define NAME_MAX_LEN 64

/* --- the walker: elements and their text, in order ------------------------ */

struct walk {
    const char *p, *end;
    char names[SBX_S3XML_MAX_DEPTH][NAME_MAX_LEN + 1];
    int depth;
    struct sbx_buf text;
    char *err;
    size_t errsz;
    /* open: an element starts (names[0..depth) with it last); text: an
     * element without child elements ends, with its decoded text; close:
     * any element ends. Each returns false to stop with err set. */
    bool (*open)(struct walk *w, void *ctx);
    bool (*leaf)(struct walk *w, void *ctx, const char *text, size_t len);
    bool (*close)(struct walk *w, void *ctx);
    void *ctx;
};

static bool fail(struct walk *w, const char *why)
{
    snprintf(w->err, w->errsz, "%s", why);
    return false;
}

static bool starts(const struct walk *w, const char *s)
{
    size_t n = strlen(s);
    return (size_t)(w->end - w->p) >= n && memcmp(w->p, s, n) == 0;
}

static bool skip_past(struct walk *w, const char *s)
{
    size_t n = strlen(s);
    for (; w->p + n <= w->end; w->p++)
        if (memcmp(w->p, s, n) == 0) {
            w->p += n;
            return true;
        }
    return false;
}

static bool add_codepoint(struct walk *w, unsigned long cp)
{
    if (cp == 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return fail(w, "a character reference out of range");
    char u[4];
    size_t n;
    if (cp < 0x80) {
        u[0] = (char)cp, n = 1;
    } else if (cp < 0x800) {
        u[0] = (char)(0xC0 | (cp >> 6)), u[1] = (char)(0x80 | (cp & 0x3F)), n = 2;
    } else if (cp < 0x10000) {
        u[0] = (char)(0xE0 | (cp >> 12)), u[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        u[2] = (char)(0x80 | (cp & 0x3F)), n = 3;
    } else {
        u[0] = (char)(0xF0 | (cp >> 18)), u[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
        u[2] = (char)(0x80 | ((cp >> 6) & 0x3F)), u[3] = (char)(0x80 | (cp & 0x3F)), n = 4;
    }
    sbx_buf_add(&w->text, u, n);
    return true;
}

static bool entity(struct walk *w)
{
    static const struct {
        const char *name;
        char c;
    } named[] = {{"amp;", '&'}, {"lt;", '<'}, {"gt;", '>'}, {"quot;", '"'}, {"apos;", '\''}};
    w->p++; /* '&' */
    for (size_t i = 0; i < sizeof named / sizeof *named; i++)
        if (starts(w, named[i].name)) {
            w->p += strlen(named[i].name);
            sbx_buf_addc(&w->text, named[i].c);
            return true;
        }
    if (w->p >= w->end || *w->p != '#')
        return fail(w, "an unknown entity");
    w->p++;
    int base = 10;
    if (w->p < w->end && (*w->p == 'x' || *w->p == 'X'))
        base = 16, w->p++;
    unsigned long cp = 0;
    int digits = 0;
    for (; w->p < w->end && *w->p != ';'; w->p++, digits++) {
        int d = *w->p >= '0' && *w->p <= '9'                 ? *w->p - '0'
                : base == 16 && *w->p >= 'a' && *w->p <= 'f' ? *w->p - 'a' + 10
                : base == 16 && *w->p >= 'A' && *w->p <= 'F' ? *w->p - 'A' + 10
                                                             : -1;
        if (d < 0 || digits >= 8)
            return fail(w, "a malformed character reference");
        cp = cp * (unsigned long)base + (unsigned long)d;
    }
    if (w->p >= w->end || digits == 0)
        return fail(w, "a malformed character reference");
    w->p++; /* ';' */
    return add_codepoint(w, cp);
}

static bool is_name_char(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
           c == '_' || c == '-' || c == '.' || c == ':';
}

/* After '<' of a start tag: the name, attributes (skipped), '>' or '/>'. */
static bool start_tag(struct walk *w, bool *had_child)
{
    const char *n = w->p;
    while (w->p < w->end && is_name_char(*w->p))
        w->p++;
    size_t nl = (size_t)(w->p - n);
    if (nl == 0 || nl > NAME_MAX_LEN)
        return fail(w, "a malformed element name");
    if (w->depth >= SBX_S3XML_MAX_DEPTH)
        return fail(w, "elements nested too deep");
    for (;;) { /* attributes: name="value" or name='value' */
        while (w->p < w->end && (*w->p == ' ' || *w->p == '\t' || *w->p == '\r' || *w->p == '\n'))
            w->p++;
        if (w->p >= w->end)
            return fail(w, "an unclosed tag");
        if (*w->p == '>' || starts(w, "/>"))
            break;
        while (w->p < w->end && is_name_char(*w->p))
            w->p++;
        if (w->p + 1 >= w->end || *w->p != '=' || (w->p[1] != '"' && w->p[1] != '\''))
            return fail(w, "a malformed attribute");
        char q = w->p[1];
        w->p += 2;
        const char *e = memchr(w->p, q, (size_t)(w->end - w->p));
        if (!e)
            return fail(w, "an unclosed attribute");
        w->p = e + 1;
    }
    if (w->depth > 0)
        had_child[w->depth - 1] = true;
    memcpy(w->names[w->depth], n, nl);
    w->names[w->depth][nl] = '\0';
    had_child[w->depth] = false;
    w->depth++;
    sbx_buf_clear(&w->text);
    if (!w->open(w, w->ctx))
        return false;
    bool empty = *w->p == '/';
    w->p += empty ? 2 : 1;
    if (empty) {
        if (!w->leaf(w, w->ctx, "", 0) || !w->close(w, w->ctx))
            return false;
        w->depth--;
    }
    return true;
}

static bool end_tag(struct walk *w, const bool *had_child)
{
    const char *n = w->p;
    while (w->p < w->end && is_name_char(*w->p))
        w->p++;
    size_t nl = (size_t)(w->p - n);
    while (w->p < w->end && (*w->p == ' ' || *w->p == '\t' || *w->p == '\r' || *w->p == '\n'))
        w->p++;
    if (w->p >= w->end || *w->p != '>')
        return fail(w, "a malformed end tag");
    w->p++;
    if (w->depth == 0 || strlen(w->names[w->depth - 1]) != nl ||
        memcmp(w->names[w->depth - 1], n, nl) != 0)
        return fail(w, "a mismatched end tag");
    if (!had_child[w->depth - 1] && !w->leaf(w, w->ctx, w->text.p ? w->text.p : "", w->text.len))
        return false;
    if (!w->close(w, w->ctx))
        return false;
    w->depth--;
    sbx_buf_clear(&w->text);
    return true;
}

static bool walk_xml(struct walk *w)
{
    bool had_child[SBX_S3XML_MAX_DEPTH];
    bool root_seen = false;
    while (w->p < w->end) {
        if (*w->p == '<') {
            if (starts(w, "<?")) {
                if (root_seen || w->depth || !skip_past(w, "?>"))
                    return fail(w, "a misplaced or unclosed processing instruction");
            } else if (starts(w, "<!--")) {
                if (!skip_past(w, "-->"))
                    return fail(w, "an unclosed comment");
            } else if (starts(w, "<!")) {
                return fail(w, "a DOCTYPE or CDATA section (refused)");
            } else if (starts(w, "</")) {
                w->p += 2;
                if (!end_tag(w, had_child))
                    return false;
            } else {
                if (w->depth == 0 && root_seen)
                    return fail(w, "a second root element");
                root_seen = true;
                w->p++;
                if (!start_tag(w, had_child))
                    return false;
            }
        } else if (*w->p == '&') {
            if (w->depth == 0)
                return fail(w, "text outside the root element");
            if (!entity(w))
                return false;
        } else {
            if (w->depth == 0) {
                if (*w->p != ' ' && *w->p != '\t' && *w->p != '\r' && *w->p != '\n')
                    return fail(w, "text outside the root element");
            } else {
                sbx_buf_addc(&w->text, *w->p);
            }
            w->p++;
        }
        if (w->text.len > SBX_S3XML_MAX_TEXT)
            return fail(w, "a text over the bound");
    }
    if (w->depth)
        return fail(w, "an unclosed element");
    if (!root_seen)
        return fail(w, "no element");
    return true;
}

static bool run_walk(struct walk *w, const char *xml, size_t len)
{
    w->p = xml;
    w->end = xml + len;
    w->depth = 0;
    w->text = (struct sbx_buf)SBX_BUF_INIT;
    bool ok = walk_xml(w);
    sbx_buf_free(&w->text);
    return ok;
}

/* names[0..depth) is a, b, ... (NULL-terminated) */
static bool at(const struct walk *w, const char *const *path)
{
    int i = 0;
    for (; path[i]; i++)
        if (i >= w->depth || strcmp(w->names[i], path[i]) != 0)
            return false;
    return i == w->depth;
}

static char *dup_text(const char *t, size_t n)
{
    char *s = malloc(n + 1);
    if (!s)
        abort();
    memcpy(s, t, n);
    s[n] = '\0';
    return s;
}

static bool no_nul(struct walk *w, const char *t, size_t n)
{
    if (memchr(t, '\0', n))
        return fail(w, "a NUL byte in a text");
    return true;
}

/* --- ListObjectsV2 ---------------------------------------------------------- */

struct list_ctx {
    struct sbx_s3_page *page;
    size_t cap, pcap;
    bool in_entry;
};

static bool list_open(struct walk *w, void *ctx)
{
    struct list_ctx *c = ctx;
    if (w->depth == 1 && strcmp(w->names[0], "ListBucketResult") != 0)
        return fail(w, "not a ListBucketResult");
    if (at(w, (const char *const[]){"ListBucketResult", "Contents", NULL})) {
        struct sbx_s3_page *p = c->page;
        if (p->n >= SBX_S3XML_MAX_ENTRIES)
            return fail(w, "more entries in a page than the bound");
        if (p->n == c->cap) {
            c->cap = c->cap ? c->cap * 2 : 64;
            p->entries = realloc(p->entries, c->cap * sizeof *p->entries);
            if (!p->entries)
                abort();
        }
        memset(&p->entries[p->n++], 0, sizeof *p->entries);
        c->in_entry = true;
    }
    return true;
}

static bool set_once(struct walk *w, char **slot, const char *t, size_t n)
{
    if (*slot)
        return fail(w, "an element given twice");
    if (!no_nul(w, t, n))
        return false;
    *slot = dup_text(t, n);
    return true;
}

static bool list_leaf(struct walk *w, void *ctx, const char *t, size_t n)
{
    struct list_ctx *c = ctx;
    struct sbx_s3_page *p = c->page;
    if (w->depth == 3 && c->in_entry) {
        struct sbx_s3_entry *e = &p->entries[p->n - 1];
        const char *name = w->names[2];
        if (strcmp(name, "Key") == 0)
            return set_once(w, &e->key, t, n);
        if (strcmp(name, "ETag") == 0)
            return set_once(w, &e->etag, t, n);
        if (strcmp(name, "LastModified") == 0)
            return set_once(w, &e->last_modified, t, n);
        if (strcmp(name, "Size") == 0) {
            uint64_t v = 0;
            if (n == 0)
                return fail(w, "a Size that is not a number");
            for (size_t i = 0; i < n; i++) {
                uint64_t d = (uint64_t)(t[i] - '0');
                if (t[i] < '0' || t[i] > '9' || v > (UINT64_MAX - d) / 10)
                    return fail(w, "a Size that is not a number");
                v = v * 10 + d;
            }
            e->size = v;
        }
        return true;
    }
    if (at(w, (const char *const[]){"ListBucketResult", "CommonPrefixes", "Prefix", NULL})) {
        if (p->nprefixes >= SBX_S3XML_MAX_ENTRIES)
            return fail(w, "more prefixes in a page than the bound");
        if (!no_nul(w, t, n))
            return false;
        if (p->nprefixes == c->pcap) {
            c->pcap = c->pcap ? c->pcap * 2 : 64;
            p->prefixes = realloc(p->prefixes, c->pcap * sizeof *p->prefixes);
            if (!p->prefixes)
                abort();
        }
        p->prefixes[p->nprefixes++] = dup_text(t, n);
        return true;
    }
    if (at(w, (const char *const[]){"ListBucketResult", "IsTruncated", NULL})) {
        if (n == 4 && memcmp(t, "true", 4) == 0)
            p->truncated = true;
        else if (n == 5 && memcmp(t, "false", 5) == 0)
            p->truncated = false;
        else
            return fail(w, "IsTruncated is neither true nor false");
        return true;
    }
    if (at(w, (const char *const[]){"ListBucketResult", "NextContinuationToken", NULL}))
        return set_once(w, &p->next_token, t, n);
    return true;
}

static bool list_close(struct walk *w, void *ctx)
{
    struct list_ctx *c = ctx;
    if (c->in_entry && w->depth == 2) {
        c->in_entry = false;
        if (!c->page->entries[c->page->n - 1].key)
            return fail(w, "an entry without a Key");
    }
    return true;
}

bool sbx_s3xml_list(const char *xml, size_t len, struct sbx_s3_page *out, char *err, size_t errsz)
{
    memset(out, 0, sizeof *out);
    struct list_ctx c = {.page = out};
    struct walk w = {.err = err, .errsz = errsz, .open = list_open, .leaf = list_leaf,
                     .close = list_close, .ctx = &c};
    bool ok = run_walk(&w, xml, len);
    if (ok && out->truncated && (!out->next_token || !*out->next_token))
        ok = fail(&w, "a truncated listing without a continuation token");
    if (!ok)
        sbx_s3xml_page_free(out);
    return ok;
}

void sbx_s3xml_page_free(struct sbx_s3_page *p)
{
    for (size_t i = 0; i < p->n; i++) {
        free(p->entries[i].key);
        free(p->entries[i].etag);
        free(p->entries[i].last_modified);
    }
    free(p->entries);
    for (size_t i = 0; i < p->nprefixes; i++)
        free(p->prefixes[i]);
    free(p->prefixes);
    free(p->next_token);
    memset(p, 0, sizeof *p);
}

/* --- Error ------------------------------------------------------------------- */

static bool err_open(struct walk *w, void *ctx)
{
    (void)ctx;
    if (w->depth == 1 && strcmp(w->names[0], "Error") != 0)
        return fail(w, "not an Error");
    return true;
}

static bool err_leaf(struct walk *w, void *ctx, const char *t, size_t n)
{
    struct sbx_s3_error *e = ctx;
    if (w->depth != 2)
        return true;
    static const struct {
        const char *name;
        size_t off;
    } fields[] = {
        {"Code", offsetof(struct sbx_s3_error, code)},
        {"Message", offsetof(struct sbx_s3_error, message)},
        {"Region", offsetof(struct sbx_s3_error, region)},
        {"Endpoint", offsetof(struct sbx_s3_error, endpoint)},
    };
    for (size_t i = 0; i < sizeof fields / sizeof *fields; i++)
        if (strcmp(w->names[1], fields[i].name) == 0)
            return set_once(w, (char **)((char *)e + fields[i].off), t, n);
    return true;
}

static bool err_close(struct walk *w, void *ctx)
{
    (void)w, (void)ctx;
    return true;
}

bool sbx_s3xml_error(const char *xml, size_t len, struct sbx_s3_error *out)
{
    memset(out, 0, sizeof *out);
    char why[128];
    struct walk w = {.err = why, .errsz = sizeof why, .open = err_open, .leaf = err_leaf,
                     .close = err_close, .ctx = out};
    if (!run_walk(&w, xml, len) || !out->code) {
        sbx_s3xml_error_free(out);
        return false;
    }
    return true;
}

void sbx_s3xml_error_free(struct sbx_s3_error *e)
{
    free(e->code);
    free(e->message);
    free(e->region);
    free(e->endpoint);
    memset(e, 0, sizeof *e);
}
