/* The parts of sbx_fetch_runtime (importers/fetch/fetch_runtime.h), internal to
 * importers/: one API call with its retries (fetch_call.c), the temporary
 * folder (fetch_out.c) and the JSON text of items (fetch_json.c).
 *
 * Ownership: as each function says; err is the caller's buffer. */
#ifndef SBX_FETCH_INTERNAL_H
#define SBX_FETCH_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "importers/fetch/fetch_runtime.h"
#include "base/http.h"
#include "base/buf.h"

struct sbx_fetch_call {
    const struct sbx_fetch_opts *opts; /* with every default filled in */
    struct sbx_http *http;
    char *err;
    size_t errsz;
};

/* GETs url (base URL and path, already escaped) until a 200 comes, as the
 * header of fetch_runtime.h describes; on success *root is the parsed body
 * (the caller's, json_decref) and resp holds the raw body (the caller frees
 * it). On failure err says "<where>: <why>", where is e.g. "sandbox
 * 7f3a2c10, commands, page 3", and *root is NULL. */
bool sbx_fetch_get(struct sbx_fetch_call *c, const char *url, const char *where,
                   const struct sbx_fetch_progress *what, struct sbx_http_response *resp,
                   json_t **root);

/* err = "<where>: <fmt…>" with the API key cut out. */
void sbx_fetch_fail(struct sbx_fetch_call *c, const char *where, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The temporary folder a fetch writes into, and the move into dir. */
struct sbx_fetch_out {
    char *dir, *tmp;
    bool new_dir; /* dir did not exist: tmp becomes dir */
    char **names; /* files written into tmp */
    size_t n, cap;
};

/* Checks that none of names[0..n) is in dir (unless force) and makes the
 * temporary folder. False with err on a conflict or a file system error. */
bool sbx_fetch_out_open(struct sbx_fetch_out *o, const char *dir, char *const *names, size_t n,
                        bool force, char *err, size_t errsz);
/* A new file `name` in the temporary folder, open for writing (the caller
 * passes it to sbx_fetch_out_close). NULL with err. */
FILE *sbx_fetch_out_create(struct sbx_fetch_out *o, const char *name, char *err, size_t errsz);
/* Flushes, syncs and closes f; false with err on any write error. */
bool sbx_fetch_out_close(FILE *f, const char *name, char *err, size_t errsz);
/* Moves every file into dir (see fetch_runtime.h); on failure puts back what
 * it moved. Either way the temporary folder is gone and o is freed. */
bool sbx_fetch_out_commit(struct sbx_fetch_out *o, bool force, char *err, size_t errsz);
/* Removes the temporary folder and what it holds; frees o. */
void sbx_fetch_out_abort(struct sbx_fetch_out *o);

/* Appends the valid JSON text p[0..n) with the whitespace outside strings
 * left out: one line, every token as it was. */
void sbx_json_compact(struct sbx_buf *out, const char *p, size_t n);

/* The raw text of the top-level member `key` of the valid JSON object
 * text[0..n) (keys compared unescaped; a string with its quotes): true with
 * *val and *len. The first such member when keys repeat. */
bool sbx_json_member_text(const char *text, size_t n, const char *key, const char **val,
                          size_t *len);

/* Splits the valid JSON array text p[0..n) into its elements: calls each()
 * with every element's text in order, stopping early when it returns false.
 * Returns the number of elements visited. */
size_t sbx_json_array_each(const char *p, size_t n,
                           bool (*each)(void *ctx, size_t i, const char *el, size_t len),
                           void *ctx);

#endif
