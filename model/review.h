/* A review of a run: the operations reviewers wrote (marks, notes, tags,
 * triage of findings, the run's verdict), in the order of their files, and
 * what they add up to (the last word on each item). The file format is
 * docs/review-file.md; reading it is importers/review.h, writing a line
 * export/review_write.h.
 *
 * Everything a reviewer typed (notes, reasons, tags, authors) is untrusted
 * text, like log text: shown only through render/untrusted.h.
 *
 * Ownership: a struct sbx_review owns its operations, their strings, its
 * file names and its problems (sbx_review_free); a struct sbx_review_state
 * owns its arrays (sbx_review_state_free) and borrows the strings of the
 * review it was made from, which must outlive it. */
#ifndef SBX_REVIEW_H
#define SBX_REVIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The file's name in a run folder (or beside a single-file input). */
#define SBX_REVIEW_FILE_NAME "sbxview-review.jsonl"
/* The key every line starts with, and its value: how the loader tells a
 * review file from a log whatever it is called. */
#define SBX_REVIEW_MAGIC "sbxview_review"
enum { SBX_REVIEW_VERSION = 1 };
/* The "op" of a line recording what an export posted (struct sbx_review_post). */
#define SBX_REVIEW_POSTED "posted"


/* The operations: X(OP, name, needs) — needs says what the line must give:
 * I an item id, T text (a note), G a tag, S a state and a reason. */
#define SBX_REVIEW_OPS(X)     \
    X(MARK, "mark", "I")      \
    X(UNMARK, "unmark", "I")  \
    X(NOTE, "note", "IT")     \
    X(TAG, "tag", "IG")       \
    X(UNTAG, "untag", "IG")   \
    X(TRIAGE, "triage", "IS") \
    X(VERDICT, "verdict", "S")

enum sbx_review_op_kind {
#define SBX_REVIEW_OP_ENUM(OP, name, needs) SBX_REVIEW_##OP,
    SBX_REVIEW_OPS(SBX_REVIEW_OP_ENUM)
#undef SBX_REVIEW_OP_ENUM
    SBX_REVIEW_OP_COUNT
};

/* The states of a triage, and those of a verdict. */
#define SBX_TRIAGE_STATES "benign", "expected", "suspicious", "malicious", "follow-up"
#define SBX_VERDICT_STATES "clean", "benign", "suspicious", "malicious", "inconclusive"

const char *sbx_review_op_name(enum sbx_review_op_kind k);
/* The kind named name[0..n), or SBX_REVIEW_OP_COUNT. */
enum sbx_review_op_kind sbx_review_op_by_name(const char *name, size_t n);
const char *sbx_review_op_needs(enum sbx_review_op_kind k); /* static */
/* Whether s is one of the triage states (verdict: of the verdict states). */
bool sbx_triage_state_valid(const char *s);
bool sbx_verdict_state_valid(const char *s);
/* The states as "a, b, c" (static). */
const char *sbx_triage_states_text(void);
const char *sbx_verdict_states_text(void);
/* Whether a triage of that state lets check pass a finding. */
bool sbx_triage_clears(const char *state);

struct sbx_review_op {
    enum sbx_review_op_kind kind;
    char *item;   /* an event id, or a finding id (ID/kind); NULL for a verdict */
    char *to;     /* a range's last event id, or NULL (note and tag only) */
    char *text;   /* a note's text, a triage's or verdict's reason; NULL when none */
    char *tag;    /* tag and untag */
    char *state;  /* triage and verdict */
    char *author; /* never NULL ("" when the line gave none) */
    int64_t at;   /* UTC ns (SBX_TIME_UNKNOWN when the line's time was not readable) */
    uint32_t file; /* index into the review's files */
    uint32_t line; /* 1-based */
};

/* A line that could not be read. */
struct sbx_review_problem {
    uint32_t file, line;
    char *reason; /* ASCII, quotes no input */
};

/* A comment an export posted to a service that keeps no marker it can
 * find again (an "op": "posted" line, docs/review-file.md): not a review
 * operation, so it is in no state, history or summary; the next export of
 * the same run edits that comment (Jira) or says which message it replaces
 * (Slack). */
/* What a post's "server" may hold: 1 to SBX_REVIEW_SERVER_MAX of these
 * (a host in lower case, an IPv6 one in brackets, a port after ':'). */
#define SBX_REVIEW_SERVER_CHARS "abcdefghijklmnopqrstuvwxyz0123456789.-:[]"
#define SBX_REVIEW_SERVER_MAX 255

struct sbx_review_post {
    char *target;  /* the --to target as sbxview writes it: "jira:KEY-123", "slack:" */
    char *exported; /* the export's digest without its Review part (64 hex digits) */
    char *body;    /* the marker digest of the body posted (64 hex digits) */
    char *comment; /* the service's id of the comment, or NULL (a webhook gives none) */
    char *server;  /* the server the id belongs to: its base URL's host[:port], lower
                      case; NULL for a service with one server (Slack) */
    char *author;  /* never NULL */
    int64_t at;    /* UTC ns */
    uint32_t file, line;
};

struct sbx_review {
    struct sbx_review_op *ops; /* in file order, then line order */
    size_t nops, capops;
    struct sbx_review_post *posts; /* in file order, then line order */
    size_t nposts, capposts;
    char **files;              /* the files read, in order */
    size_t nfiles;
    struct sbx_review_problem *problems;
    size_t nproblems, capproblems;
};

void sbx_review_init(struct sbx_review *r);
void sbx_review_free(struct sbx_review *r);
/* Adds a file's name; returns its index. */
uint32_t sbx_review_add_file(struct sbx_review *r, const char *name);
/* A new zeroed operation at the end (its strings the review's to fill with
 * malloc'd copies). */
struct sbx_review_op *sbx_review_push(struct sbx_review *r);
void sbx_review_problem(struct sbx_review *r, uint32_t file, uint32_t line, const char *reason);
/* Frees a post's strings and zeroes it (one not in a review: the caller's). */
void sbx_review_post_free(struct sbx_review_post *p);
/* A new zeroed post at the end (its strings the review's to fill). */
struct sbx_review_post *sbx_review_push_post(struct sbx_review *r);
/* The latest post (by time, then file, then line) to target on server
 * (NULL: a post that names none) of the export exported, or NULL. */
const struct sbx_review_post *sbx_review_last_post(const struct sbx_review *r,
                                                   const char *target, const char *server,
                                                   const char *exported);

/* What the operations add up to: the last word on each item, by time, then
 * file order, then line. */
struct sbx_review_note {
    const char *item, *to, *text, *author; /* the author's last note on the item */
    int64_t at;
};
struct sbx_review_tag {
    const char *item, *to, *tag, *author;
    int64_t at;
};
struct sbx_review_triage {
    const char *item, *state, *reason, *author; /* item: a finding id */
    int64_t at;
};
struct sbx_review_state {
    const char **marks; /* ids marked, in the order of their last mark */
    size_t nmarks;
    struct sbx_review_note *notes; /* one per (item, author) with text */
    size_t nnotes;
    struct sbx_review_tag *tags; /* one per (item, tag) still set */
    size_t ntags;
    struct sbx_review_triage *triage; /* one per finding id */
    size_t ntriage;
    const struct sbx_review_op *verdict; /* the last, or NULL */
    const struct sbx_review_op **history; /* every operation in merge order */
    size_t nhistory;
};

void sbx_review_state_make(const struct sbx_review *r, struct sbx_review_state *st);
void sbx_review_state_free(struct sbx_review_state *st);
/* The triage of a finding id, or NULL. */
const struct sbx_review_triage *sbx_review_triage_of(const struct sbx_review_state *st,
                                                     const char *finding_id);
/* The triage that lets check pass the finding finding_id: benign or
 * expected, with a reason that is not empty; NULL when there is none. */
const struct sbx_review_triage *sbx_review_clearance(const struct sbx_review_state *st,
                                                     const char *finding_id);
/* Whether the review holds anything (an empty one is "not reviewed"). */
bool sbx_review_state_empty(const struct sbx_review_state *st);

/* How far the review got: not reviewed (no operation), in progress
 * (operations, no verdict), done (a verdict). Names static. */
enum sbx_review_progress { SBX_REVIEW_NOT_REVIEWED, SBX_REVIEW_IN_PROGRESS, SBX_REVIEW_DONE };
enum sbx_review_progress sbx_review_progress_of(const struct sbx_review_state *st);
const char *sbx_review_progress_name(enum sbx_review_progress p);
/* A verdict's weight: 0 for none (or a state that is no verdict), then
 * clean 1, benign 2, inconclusive 3, suspicious 4, malicious 5; and back
 * (NULL for 0). */
int sbx_verdict_rank(const char *state);
const char *sbx_verdict_of_rank(int rank);

/* Whether bytes start like a review file (its first line's first key is
 * SBX_REVIEW_MAGIC). */
bool sbx_review_sniff(const char *data, size_t n);

#endif
