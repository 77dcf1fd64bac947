/* The compiled form of an sbx_query, shared by query_parse.c (which builds
 * it), query_match.c (which reads it) and nothing else. The query owns every
 * pointer in it; sbx_query_free releases them. */
#ifndef SBX_QUERY_IMPL_H
#define SBX_QUERY_IMPL_H

#ifndef PCRE2_CODE_UNIT_WIDTH
#define PCRE2_CODE_UNIT_WIDTH 8
#endif
#include <pcre2.h>

#include "query/query.h"
#include "query/lit.h"

enum sbx_term_type {
    SBX_T_KIND,
    SBX_T_FINDING,  /* ev->findings & mask */
    SBX_T_FAILED,
    SBX_T_TIMEDOUT,
    SBX_T_FINDINGS,
    SBX_T_SANDBOX,
    SBX_T_EXIT,
    SBX_T_SINCE,
    SBX_T_UNTIL,
    SBX_T_PROGRAM,
    SBX_T_PATTERN,
    SBX_T_HOST,     /* a network event to the host, or a text naming it (u.pat) */
    SBX_T_ID,       /* the event's id starts with u.str; a finding id's kind in u.str's mask */
};

struct sbx_qpattern {
    pcre2_code *re;
    struct sbx_lit lit;
};

struct sbx_term {
    enum sbx_term_type type;
    bool neg;
    union {
        unsigned kind;
        uint32_t mask;
        int32_t exit;
        int64_t t;
        struct {
            char *s;
            size_t n;
        } str;
        struct sbx_qpattern pat;
    } u;
    char *host;     /* SBX_T_HOST: the host, lower case */
    uint32_t id_kind; /* SBX_T_ID given a finding id (ID/kind): that finding's bit; else 0 */
};

struct sbx_query {
    enum sbx_query_kind kind;
    struct sbx_term *terms; /* patterns last: cheap terms decide first */
    size_t nterms;
    pcre2_match_context *mc; /* limits only, no JIT stack: shareable (sbx_query_find) */
};

/* Texts where PCRE2 gave up, since the scratch was made (for the job). */
size_t sbx_query_scratch_too_complex(const struct sbx_query_scratch *s);

/* PCRE2 gives up past these: a hostile pattern costs milliseconds per text. */
enum { SBX_QUERY_MATCH_LIMIT = 1000000, SBX_QUERY_DEPTH_LIMIT = 10000 };

#endif
