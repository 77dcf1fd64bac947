/* sbx_s3xml: the two XML answers of an S3 store sbxview reads — a
 * ListObjectsV2 page and an error — by a small bounded parser of its own.
 *
 * The XML is the store's (or whoever answers): hostile. The parser reads
 * elements, text, attributes (skipped), comments and the <?xml?> prolog;
 * it refuses a DOCTYPE, CDATA, an unknown entity, a mismatched or unclosed
 * element, more than SBX_S3XML_MAX_DEPTH levels, a text over
 * SBX_S3XML_MAX_TEXT bytes and a page of more than SBX_S3XML_MAX_ENTRIES
 * entries. Entities decoded: &amp; &lt; &gt; &quot; &apos; and &#N; / &#xN;
 * (as UTF-8; NUL and surrogates refused). Strings come out as read: keys may
 * hold any byte but NUL — sanitise before display, check before using one in
 * a path.
 *
 * Ownership: the page's and the error's strings belong to them (free with
 * sbx_s3xml_page_free / sbx_s3xml_error_free, which leave them zeroed). */
#ifndef SBX_S3XML_H
#define SBX_S3XML_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SBX_S3XML_MAX_DEPTH 16
#define SBX_S3XML_MAX_TEXT 4096
#define SBX_S3XML_MAX_ENTRIES 10000

struct sbx_s3_entry {
    char *key;           /* never NULL in a parsed page */
    char *etag;          /* as sent, quotes and all; NULL when absent */
    char *last_modified; /* NULL when absent */
    uint64_t size;
};

struct sbx_s3_page {
    struct sbx_s3_entry *entries;
    size_t n;
    char **prefixes; /* <CommonPrefixes><Prefix>, with a delimiter */
    size_t nprefixes;
    bool truncated;   /* <IsTruncated>true */
    char *next_token; /* <NextContinuationToken>, NULL when none */
};

struct sbx_s3_error {
    char *code, *message, *region, *endpoint; /* each NULL when absent */
};

/* A <ListBucketResult> into *out (zeroed first). False with a one-line
 * reason in err when the XML is malformed, over a bound, not a listing, has
 * an entry without a key or a size that is not a number, or says it is
 * truncated without a continuation token. */
bool sbx_s3xml_list(const char *xml, size_t len, struct sbx_s3_page *out, char *err, size_t errsz);

/* An <Error> into *out (zeroed first); false when xml is not one. */
bool sbx_s3xml_error(const char *xml, size_t len, struct sbx_s3_error *out);

void sbx_s3xml_page_free(struct sbx_s3_page *p);
void sbx_s3xml_error_free(struct sbx_s3_error *e);

#endif
