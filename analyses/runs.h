/* The runs list's model: one row per run of a folder of runs (what each
 * run's summary counts), and the rows in sight, sorted by a column and
 * filtered. No loading here (importers/runs.h discovers the runs and fills
 * the rows on a pool of threads); no drawing.
 *
 * Filling and reading at once: a row's numbers are written by one worker
 * before its state is stored (release); a reader that sees the state
 * (acquire) READY or UNREADABLE sees the numbers. PENDING rows have only
 * their name and path.
 *
 * Ownership: the list owns its rows and their strings (sbx_runs_free).
 * sbx_runs_view writes into the caller's array. */
#ifndef SBX_RUNS_H
#define SBX_RUNS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sbx_review;
struct sbx_review_state;
struct sbx_summary;
struct sbx_timeline;

/* The columns, in the order the list shows them. */
#define SBX_RUN_COLS(X)                                  \
    X(NAME, "run")                                       \
    X(START, "start")                                    \
    X(DURATION, "duration")                              \
    X(SANDBOXES, "sandboxes")                            \
    X(COMMANDS, "commands")                              \
    X(FAILED, "failed")                                  \
    X(REFUSED, "refused")                                \
    X(OUTSIDE, "outside")                                \
    X(ACCOUNT, "account")                                \
    X(SECRETS, "secrets")                                \
    X(REVIEW, "review")                                  \
    X(VERDICT, "verdict")

enum sbx_run_col {
#define SBX_RUN_COL_ENUM(e, name) SBX_RUN_##e,
    SBX_RUN_COLS(SBX_RUN_COL_ENUM)
#undef SBX_RUN_COL_ENUM
    SBX_RUN_NCOLS
};

/* The columns a run's logs give end here (a manifest holds those); REVIEW
 * and VERDICT are the review file's, read afresh whatever gave the rest. */
#define SBX_RUN_LOG_END SBX_RUN_REVIEW

enum sbx_run_state { SBX_RUN_PENDING, SBX_RUN_READY, SBX_RUN_UNREADABLE };

struct sbx_run_row {
    char *name;                    /* the run folder's name; owned */
    char *path;                    /* the folder's path; owned */
    /* the name its files are known by in every output (the folder's name,
     * then /FILE: importers/load.h's names), when not path: a run fetched
     * from object storage is named by its s3:// URL, not by the cache's
     * folder. Owned; NULL: path */
    char *source;
    _Atomic int state;             /* enum sbx_run_state */
    int64_t start, end;            /* SBX_TIME_UNKNOWN when nothing has a time */
    /* sandboxes, commands, failed, refused hosts, commands outside the
     * wrapper, account changes, distinct secrets: by enum sbx_run_col
     * (NAME, START and DURATION unused); REVIEW the review's progress
     * (model/review.h: 0 not reviewed, 1 in progress, 2 done) and VERDICT
     * its verdict's rank (sbx_verdict_rank: 0 none … 5 malicious) */
    size_t count[SBX_RUN_NCOLS];
    /* the count columns the run's sources can tell (bit 1 << column): a
     * column outside it is not 0 but unknown ("–"; commands without a log of
     * them, outside without the wrapper's log and Runtime's record, account
     * without the audit log, ...) */
    uint32_t known;
    size_t events;
    uint32_t findings;             /* every event's findings bits, or'ed */
    /* the first command whose stdout does not hash to the recorded hash:
     * its program label, redacted, then cut (empty: none), as the summary
     * and the timeline's header name it; and how many such commands */
    char mismatch[64];
    size_t mismatches;
    char why[160];                 /* UNREADABLE: the reason */
};

struct sbx_runs {
    char *root;                    /* the folder of runs; owned */
    struct sbx_run_row *rows;      /* by name */
    size_t n;
    _Atomic size_t done;           /* rows no longer PENDING */
    /* reads the review of the run at path (loaded into tl; NULL when its
     * row came from its manifest) into out, which is initialised: cli/
     * knows where reviews live. NULL: none is read and
     * every run is not reviewed. Called from the fill's workers, for
     * distinct runs at once. */
    void (*review_of)(void *ctx, const char *path, const struct sbx_timeline *tl,
                      struct sbx_review *out);
    void *review_ctx;
    /* waits until run i's files are in its folder (a store's runs are
     * fetched behind the list, cli/s3_fetch.h), or *stop is set: false when
     * they will not be, with the reason in why (the row is unreadable).
     * NULL: every run's files are there. Called from the fill's workers. */
    bool (*await_run)(void *ctx, size_t i, const _Atomic bool *stop, char *why, size_t whysz);
    void *await_ctx;
    /* rows still to come, and the lock of the rows while they do
     * (analyses/runs_more.h); NULL: the list is whole. Owned */
    struct sbx_runs_more *more;
};

/* An empty list for root (copied). */
void sbx_runs_init(struct sbx_runs *r, const char *root);
/* Adds a run (name and path copied); only before a fill starts. */
void sbx_runs_add(struct sbx_runs *r, const char *name, const char *path);
void sbx_runs_free(struct sbx_runs *r);
/* Row i's input is named source in outputs (a folder's files source/FILE;
 * copied); only before a fill starts. */
void sbx_runs_set_source(struct sbx_runs *r, size_t i, const char *source);
/* Every row's files are named ROOT/RUN/FILE, root_name standing for the
 * root folder (a slash added unless it ends in one). */
void sbx_runs_sources_under(struct sbx_runs *r, const char *root_name);
/* The name row's files go by: its source, else its path. */
const char *sbx_run_row_source(const struct sbx_run_row *row);

/* The column called name ("failed", …), or -1. */
int sbx_run_col_by_name(const char *name);
const char *sbx_run_col_name(enum sbx_run_col c);

/* Fills row i from a loaded, summarised run (the timeline's events give
 * the findings bits) and marks it READY. Thread-safe for distinct rows. */
void sbx_run_row_fill(struct sbx_runs *r, size_t i, const struct sbx_timeline *tl,
                      const struct sbx_summary *sum);
/* Gives row i its review's progress and verdict (st NULL: not reviewed);
 * before sbx_run_row_fill, by the worker that fills the row. */
void sbx_run_row_review(struct sbx_runs *r, size_t i, const struct sbx_review_state *st);
/* What the row's review and verdict columns say: "not reviewed", "in
 * progress", "done"; the verdict or "" (static). */
const char *sbx_run_row_review_word(const struct sbx_run_row *row);
const char *sbx_run_row_verdict_word(const struct sbx_run_row *row);
/* Fills row i with v's numbers (start, end, the log columns' counts,
 * known, events, findings, the first hash mismatch; a run's manifest gave
 * them) and marks it READY; the review's columns stay as they are.
 * Thread-safe for distinct rows. */
void sbx_run_row_set(struct sbx_runs *r, size_t i, const struct sbx_run_row *v);
/* Marks row i UNREADABLE with a reason (copied, cut to fit). */
void sbx_run_row_fail(struct sbx_runs *r, size_t i, const char *why);
/* The row's value in a numeric column (start and duration in ns; -1 when
 * not known, a count column the sources cannot tell among them). */
int64_t sbx_run_row_value(const struct sbx_run_row *row, enum sbx_run_col c);

/* What shows: a sort column, its direction, and a filter. The filter is
 * words that must all hold: a finding word (failed, refused, outside,
 * account, secret: the column is not 0; findings, or a finding's word in
 * model/findings.h such as timedout, system, hidden, mismatch, unlisted:
 * an event has it), review:STATE (none or not-reviewed, progress or
 * in-progress, done), verdict:STATE (a verdict, or none), or any other
 * text, found in the run's name (ignoring case); a word after ! must not
 * hold. The review and verdict sort most first: done, then in progress;
 * malicious, suspicious, inconclusive, benign, clean, then none. */
struct sbx_runs_query {
    enum sbx_run_col sort;
    bool reverse;       /* false: names A-Z, numbers and durations most first, start earliest first */
    const char *filter; /* NULL or "": every run */
};

/* The rows that show, in order, into out (room for r->n); returns how many.
 * Rows still PENDING show unless the filter has a finding word (it cannot
 * tell yet), and sort after the rows read; unreadable rows come last. A
 * count word on a column the row cannot tell holds neither way (the row
 * shows for neither failed nor !failed). Unknown values sort after the
 * known ones. Ties go by name. Thread-safe against a fill running. */
size_t sbx_runs_view(const struct sbx_runs *r, const struct sbx_runs_query *q, uint32_t *out);

#endif
