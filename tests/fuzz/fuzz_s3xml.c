/* Arbitrary bytes as an S3 listing page and as an error answer. The oracle:
 * a page that is read, written back as XML (every text escaped) and read
 * again gives the same entries, prefixes and token; every entry has a key
 * without a NUL; the bounds hold. A refused page leaves nothing allocated.
 * No crash, no leak. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/s3xml.h"

static void add_text(struct sbx_buf *b, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&': sbx_buf_adds(b, "&amp;"); break;
        case '<': sbx_buf_adds(b, "&lt;"); break;
        case '>': sbx_buf_adds(b, "&gt;"); break;
        default: sbx_buf_addc(b, *s);
        }
    }
}

static void add_elem(struct sbx_buf *b, const char *name, const char *text)
{
    sbx_buf_addf(b, "<%s>", name);
    add_text(b, text);
    sbx_buf_addf(b, "</%s>", name);
}

static void write_page(const struct sbx_s3_page *p, struct sbx_buf *b)
{
    sbx_buf_adds(b, "<ListBucketResult>");
    sbx_buf_addf(b, "<IsTruncated>%s</IsTruncated>", p->truncated ? "true" : "false");
    if (p->next_token)
        add_elem(b, "NextContinuationToken", p->next_token);
    for (size_t i = 0; i < p->n; i++) {
        sbx_buf_adds(b, "<Contents>");
        add_elem(b, "Key", p->entries[i].key);
        if (p->entries[i].etag)
            add_elem(b, "ETag", p->entries[i].etag);
        sbx_buf_addf(b, "<Size>%llu</Size></Contents>", (unsigned long long)p->entries[i].size);
    }
    for (size_t i = 0; i < p->nprefixes; i++) {
        sbx_buf_adds(b, "<CommonPrefixes>");
        add_elem(b, "Prefix", p->prefixes[i]);
        sbx_buf_adds(b, "</CommonPrefixes>");
    }
    sbx_buf_adds(b, "</ListBucketResult>");
}

static int same(const char *a, const char *b)
{
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *d = (const char *)data;
    struct sbx_s3_error e;
    if (sbx_s3xml_error(d, size, &e) && !e.code)
        abort();
    sbx_s3xml_error_free(&e);

    struct sbx_s3_page p, q;
    char err[160];
    if (!sbx_s3xml_list(d, size, &p, err, sizeof err)) {
        if (p.entries || p.prefixes || p.next_token || p.n || !err[0])
            abort();
        return 0;
    }
    if (p.n > SBX_S3XML_MAX_ENTRIES || (p.truncated && !p.next_token))
        abort();
    for (size_t i = 0; i < p.n; i++)
        if (!p.entries[i].key)
            abort();
    struct sbx_buf b = SBX_BUF_INIT;
    write_page(&p, &b);
    if (!sbx_s3xml_list(b.p, b.len, &q, err, sizeof err))
        abort(); /* what was read can be written and read again */
    if (q.n != p.n || q.nprefixes != p.nprefixes || q.truncated != p.truncated ||
        !same(q.next_token, p.next_token))
        abort();
    for (size_t i = 0; i < p.n; i++)
        if (!same(p.entries[i].key, q.entries[i].key) ||
            !same(p.entries[i].etag, q.entries[i].etag) || p.entries[i].size != q.entries[i].size)
            abort();
    for (size_t i = 0; i < p.nprefixes; i++)
        if (!same(p.prefixes[i], q.prefixes[i]))
            abort();
    sbx_s3xml_page_free(&q);
    sbx_s3xml_page_free(&p);
    sbx_buf_free(&b);
    return 0;
}
