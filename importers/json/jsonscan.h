/* jsonscan: a one-pass, validating JSON scanner for one log line that must be
 * a JSON object. It builds no tree: it records the top-level members as spans
 * of the caller's line.
 *
 * Contract: sbx_jscan_line() accepts a line exactly when sbx_json_load()
 * (importers/json/jsonload.h: jansson 2.14 with JSON_ALLOW_NUL, a key given
 * twice keeping its last value, an integer beyond int64 kept as text) would
 * succeed and return an object, and the values it extracts (types, integers,
 * reals, unescaped strings) are the ones that reading produces. A key given
 * twice is one member, holding the last value, where the last one stands,
 * and is counted in dups. Lines whose members hold a nested array or object
 * are validated in full by sbx_json_load() once the scanner is done; all
 * other lines never touch jansson. It never reads
 * past len (the line need not be NUL-terminated), runs in linear time (n log n
 * in the number of keys for objects of more than 16 keys), and never recurses;
 * jansson, on nested lines, recurses at most 2048 levels (lines nested deeper
 * are rejected before it sees them): that takes about 200 KiB of stack, so a
 * thread with a small custom stack must allow for it.
 *
 * Ownership: the scanner owns its member array and scratch memory (free with
 * sbx_jscan_free()). Member spans (key, val, and ukey of unescaped keys) point
 * into the caller's line; ukey of an escaped key points into the scanner's
 * scratch. Both stay valid until the next sbx_jscan_line() on the same
 * scanner, and the line's spans only while the caller keeps the line. A
 * scanner is used by one thread at a time; separate scanners share nothing. */
#ifndef SBX_JSONSCAN_H
#define SBX_JSONSCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum sbx_jtype {
    SBX_JNULL,
    SBX_JFALSE,
    SBX_JTRUE,
    SBX_JINT,
    SBX_JREAL,
    SBX_JSTRING,
    SBX_JARRAY,
    SBX_JOBJECT,
    SBX_JBIGINT /* an integer beyond int64: val is its text, i and d are 0 */
};

struct sbx_jmember {
    const char *key;  /* raw key body between the quotes (maybe escaped) */
    size_t key_len;
    const char *val;  /* strings: raw body between the quotes (still escaped);
                         arrays/objects: text from '[' / '{' to the matching
                         bracket; numbers/literals: the token text */
    size_t val_len;
    enum sbx_jtype type;
    unsigned char key_escaped, val_escaped; /* body holds a backslash */
    unsigned char val_unusual; /* strings: the body holds a \u escape or a non-ASCII
                                  byte (so it could hold any character); 0 otherwise */
    unsigned char val_hides;   /* strings: the body holds a code point that hides
                                  (SBX_JSTR_HIDES); 0 otherwise */
    int64_t i;        /* SBX_JINT: the value; 0 otherwise */
    double d;         /* SBX_JREAL: the value (locale-independent);
                         SBX_JINT: (double)i; 0 otherwise */
    const char *ukey; /* the key unescaped (== key when !key_escaped); never
                         holds a NUL byte, since jansson rejects those in keys
                         (a value may hold one: \\u0000 sets val_unusual) */
    size_t ukey_len;
};

/* Why a line was rejected, for callers that act on the kind of failure. */
enum sbx_jerr {
    SBX_JERR_NONE,
    SBX_JERR_EMPTY,      /* empty or whitespace-only line */
    SBX_JERR_NOT_OBJECT, /* does not start with '{' (an array, a scalar, other text) */
    SBX_JERR_TRUNCATED,  /* the line ended inside the object: maybe still being written */
    SBX_JERR_SYNTAX,     /* anything else that is not JSON */
    SBX_JERR_UTF8,       /* invalid UTF-8 */
    SBX_JERR_RANGE,      /* a real that overflows */
    SBX_JERR_DEPTH       /* nested deeper than jansson's 2048 levels */
};

struct sbx_jscan {
    struct sbx_jmember *m; /* top-level members of the last valid line, in order */
    size_t n, cap;
    size_t dups;           /* keys of the last valid line given more than once
                              (top level: how many members were dropped; nested:
                              1 for any number) */
    /* on failure: */
    size_t err_pos;          /* byte offset in the line */
    char err[96];            /* short reason, printable ASCII, never quotes input
                                bytes except a printable-ASCII duplicate key */
    enum sbx_jerr err_code;
    /* scratch (private): */
    char *kbuf;              /* unescaped keys of this line */
    size_t kbuf_len, kbuf_cap;
    size_t *ord, *ord_tmp;   /* member indices sorted by ukey, when n is large */
    size_t ord_cap;
    bool sorted;             /* ord holds this line's sorted index */
};

void sbx_jscan_init(struct sbx_jscan *s);
void sbx_jscan_free(struct sbx_jscan *s);

/* Scans one line (without its '\n'; surrounding JSON whitespace, including a
 * trailing '\r', is fine). Returns true and fills s->m / s->n when the line is
 * a valid JSON object; false with s->err, s->err_pos and s->err_code set
 * (s->n is then 0). An empty line fails with SBX_JERR_EMPTY, "empty line". */
bool sbx_jscan_line(struct sbx_jscan *s, const char *line, size_t len);

/* The member whose unescaped key is `key` (a C string), or NULL if absent.
 * Points into s->m; valid until the next scan. O(log n) for large objects. */
/* The same scan over a buffer of lines: the object at p, whose line ends at
 * the first newline after it (or at limit). True, with the line's length in
 * *len, exactly when sbx_jscan_line(s, p, *len) would be true, with the same
 * members. False says nothing about where the line ends or why it failed:
 * find its end and ask sbx_jscan_line. Saves a separate search for line ends
 * on the hot path. */
bool sbx_jscan_stream(struct sbx_jscan *s, const char *p, const char *limit, size_t *len);

const struct sbx_jmember *sbx_jscan_get(const struct sbx_jscan *s, const char *key);
/* Same, with a key of known length. */
const struct sbx_jmember *sbx_jscan_getn(const struct sbx_jscan *s, const char *key,
                                         size_t key_len);

/* What a string body holds, as bits, for sbx_jscan_string's *escaped. */
enum {
    SBX_JSTR_ESCAPED = 1, /* an escape */
    SBX_JSTR_UESCAPE = 2, /* a \u escape */
    SBX_JSTR_HIGH = 4,    /* a non-ASCII byte */
    SBX_JSTR_NUL = 8,     /* a \\u0000 escape (also sets UESCAPE) */
    /* a code point that hides, raw or as a \\u escape: exactly when
     * sbx_text_hides(body, n, true) of analyses/hidden.h holds */
    SBX_JSTR_HIDES = 16,
};

/* Validates the JSON string body at p (just after its opening quote; line is
 * where offsets count from, end the end of the line). Returns the closing
 * quote and sets bits of *escaped (SBX_JSTR_*: whether the body holds an
 * escape, a \u escape, a non-ASCII byte, a code point that hides; seen anyway
 * while validating); on failure
 * returns NULL with s->err, s->err_pos and s->err_code set (and s->n = 0).
 * Used by sbx_jscan_line(); exposed for scanners of other shapes. */
const char *sbx_jscan_string(struct sbx_jscan *s, const char *line, const char *p,
                             const char *end, unsigned char *escaped);

/* Decoding a string body: sbx_jstr_decode in base/jsonstr.h. */

/* Parses one JSON number token (the whole of tok[0..len), nothing around it)
 * exactly as jansson's lexer does. On success sets *type to SBX_JINT (with *i)
 * or SBX_JREAL (with *d) and returns NULL; otherwise returns a static ASCII
 * reason ("invalid number", "integer out of range", "number out of range").
 * Reals are decoded without the locale. Nothing to free. */
const char *sbx_json_number(const char *tok, size_t len, enum sbx_jtype *type,
                            int64_t *i, double *d);

#endif
