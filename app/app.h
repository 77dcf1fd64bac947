/* The interactive review's state and behaviour, without a terminal: keys
 * in, a grid of cells out. tui/term.c feeds it from ncurses; --dump feeds it
 * a key script. Nothing here includes curses.
 *
 * Ownership: the app borrows the timeline and summary it is given (the
 * caller frees them after the app stops using them: after sbx_app_free or
 * the next sbx_app_set_data); it owns everything else it holds. */
#ifndef SBX_APP_H
#define SBX_APP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analyses/filetree.h"
#include "analyses/netview.h"
#include "analyses/summary.h"
#include "importers/format.h"
#include "model/review.h"
#include "model/timeline.h"
#include "render/doc.h"
#include "render/grid.h"
#include "render/summary/summary.h"
#include "render/views/views.h"
#include "app/range.h"

struct sbx_query;
struct sbx_review_op;
struct sbx_send_env;

/* The views of one run, in the order the help names them: X(NAME, name),
 * each one file, app/view_name.c, defining sbx_view_name (app/view.h). */
#define SBX_VIEWS(X)                                                                            \
    X(TIMELINE, timeline)                                                                       \
    X(DETAIL, detail)                                                                           \
    X(SUMMARY, summary)                                                                         \
    X(HELP, help)                                                                               \
    X(FILES, files)     /* the file changes as a tree */                                        \
    X(NETWORK, network) /* one row per host */                                                  \
    X(FILE, file)       /* one file of the tree: its changes, the commands before, its diff */  \
    X(EXPORT, export)   /* the request an export would send, to confirm */                      \
    X(STORY, story)     /* the findings in time order with their links */                     \
    X(REVIEW, review)   /* the run's review: verdict, triage, notes, tags, marks, history */

enum sbx_view {
#define SBX_VIEW_ENUM(NAME, name) SBX_VIEW_##NAME,
    SBX_VIEWS(SBX_VIEW_ENUM)
#undef SBX_VIEW_ENUM
    SBX_VIEW_COUNT
};

/* What a key asks of the program around the app. */
enum {
    SBX_APP_QUIT = 1u,
    SBX_APP_FOLLOW = 2u, /* turn following on or off (sbx_app_following says which is wanted) */
    SBX_APP_EDIT = 4u,   /* run $EDITOR on sbx_app_edit_text, then give sbx_app_edit_done what it saved */
    SBX_APP_OUTPUT = 8u, /* text to send out: the clipboard or the pager (sbx_app_output) */
};

/* Where a run's review lives, as cli/ finds it (docs/review-file.md,
 * "Where it lives"): the files read, the one an export appends what it
 * posted to (NULL: none), and the author written. Every string malloc'd,
 * the app's (sbx_app_review_place_free). */
struct sbx_app_review_place {
    char *read[2];
    size_t nread;
    char *write;
    bool make_dirs; /* write is under the state folder: make its folders first */
    char *author;
};
void sbx_app_review_place_free(struct sbx_app_review_place *p);

struct sbx_app_opts {
    bool local;   /* times in the local zone */
    bool ascii;   /* the terminal is not UTF-8 */
    int threads;  /* for search and filter; 0: one per CPU */
    bool background; /* long searches and filters on a thread (the terminal);
                        off, every key is finished before it returns (--dump, tests) */
    bool open_on_finding; /* the first data opens on the heaviest finding (the
                             program does; tests that count rows from the top do not) */
    bool exports; /* e may write files and post to tickets (the program; not
                     tests that press random keys) */
    const char *const *inputs; /* the inputs as given (borrowed), for an export's
                                  "review again" line; NULL: the sources' paths */
    size_t ninputs;
    const struct sbx_send_env *services; /* the ticket services' settings (borrowed;
                                            cli/ reads them); NULL: none set */
    /* The review of the run of tl made of inputs[0..n) (cli/ asks the
     * environment and the file system): an export reads it when it is
     * prepared and keeps what it posted there, as `sbxview export` does.
     * False, or NULL: no review file (the export keeps nothing). ctx is
     * review_place_ctx (cli/'s --review and --author). */
    bool (*review_place)(void *ctx, const struct sbx_timeline *tl, const char *const *inputs,
                         size_t n, struct sbx_app_review_place *out);
    void *review_place_ctx;
    struct sbx_import_opts import; /* for the runs it loads itself (importers/format.h) */
    const char *goto_id; /* open on the event with this id (model/evid.h; borrowed); NULL: none */
    const struct sbx_skew_given *skews; /* --skew for the runs it loads itself
                                           (analyses/crosscheck.h; borrowed), or NULL */
    size_t nskews;
};

struct sbx_app_job;
struct sbx_app_export;
struct sbx_app_review;

struct sbx_app {
    struct sbx_app_opts opts;
    struct sbx_timeline *tl;       /* borrowed; NULL before the first data */
    struct sbx_summary *sum;       /* borrowed; NULL while there is none */
    struct sbx_rows_look look;
    int cols, rows;
    enum sbx_view view, back_to;

    /* the timeline: positions in tl->order that show, all when !vis */
    uint32_t *vis;
    size_t nvis;
    size_t cur, top;
    size_t tl_events;              /* tl->n when it was last given: a followed log grows first */
    char *filter_text;             /* NULL: no filter */
    struct sbx_query *filter;
    int findings_mode;             /* 0 all, 1 any finding, 2 serious ones */

    /* search */
    char *search_text;
    struct sbx_query *search;
    uint32_t *hits;                /* positions in tl->order, ascending */
    size_t nhits;
    bool search_back;

    /* detail, summary and help: a document and a place in it */
    struct sbx_doc doc;
    size_t doc_top, doc_sel;       /* doc_sel: the selected line in the summary */
    bool raw;
    struct sbx_summary_line *slines;
    size_t nslines;
    /* the detail's links followed (L), to come back (Backspace): the event
     * and the place in its detail each was left from */
    struct {
        const struct sbx_event *event;
        size_t top, link;
    } trail[32];
    size_t ntrail;

    /* typing a search or filter */
    int prompt;                    /* 0, '/', '\\' (backward) or '&' */
    struct sbx_buf input;
    int pending;                   /* 'm' or '\'' waiting for a letter */
    const struct sbx_event *marks[52];

    struct sbx_app_job *job;       /* a search or filter running, or NULL */
    struct sbx_app_export *exp;    /* the export being previewed or sent, or NULL */
    struct sbx_app_review *rv;     /* the run's review (app/app_review.h), or NULL before
                                      sbx_app_set_review */

    /* the files and network views: made from the data when first shown,
     * dropped when new data comes */
    bool have_tree, have_net;
    struct sbx_filetree tree;
    bool *folded;                  /* per tree node */
    uint32_t *frows;               /* the tree nodes that show (none folded above them) */
    size_t nfrows, fcur, ftop;
    uint32_t fnode;                /* the node SBX_VIEW_FILE shows */
    struct sbx_netview net;
    size_t ncur, ntop;
    char *keep_path, *keep_host;   /* the selections to find again when the lists are
                                      next made from new data */

    char msg[256];
    bool msg_error;
    char progress[160];            /* "loading 43% · 412,003 events", or "" */
    bool preview;                  /* the data is a preview of a load still running */
    bool goto_done;                /* opts.goto_id was found, or the full load lacks it */
    bool following;

    /* a time range (app/range.h): v on its first row, v on its last; the
     * timeline then shows every event that overlaps it, until Esc */
    const struct sbx_event *range_first;   /* v pressed once: its row, or NULL */
    const struct sbx_event *range_rows[2]; /* the range's rows, when range_on */
    bool range_on;
    struct sbx_range range;

    /* copying out (app/app_copy.c): Y, w or | then c, o or d */
    struct sbx_buf out;            /* for the clipboard or the pager, sanitised */
    int out_to;                    /* 'Y' the clipboard, '|' the pager, 0 nothing */
    const char *out_what;          /* "command line", "output", "detail" (static) */
    struct sbx_buf write_text;     /* for w, while its path is asked */
    char *write_path;              /* a file that is there, waiting for y */
};

void sbx_app_init(struct sbx_app *a, const struct sbx_app_opts *opts, int cols, int rows);
void sbx_app_free(struct sbx_app *a);

/* New data (a first load, the full load after a preview, or more lines of a
 * followed log): the selection stays on the same event when it is still
 * there, filter and search are applied again. */
void sbx_app_set_data(struct sbx_app *a, struct sbx_timeline *tl, struct sbx_summary *sum,
                      bool preview);
void sbx_app_resize(struct sbx_app *a, int cols, int rows);
/* Handles one key (mouse keys at screen row/col). Returns SBX_APP_* flags. */
unsigned sbx_app_key(struct sbx_app *a, int key, int mrow, int mcol);
/* A line for the status bar while loading ("" when done). */
void sbx_app_set_progress(struct sbx_app *a, const char *text);
/* A message for the status bar until the next key. */
void sbx_app_message(struct sbx_app *a, bool error, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void sbx_app_draw(struct sbx_app *a, struct sbx_grid *g);
/* A search or filter is running (background mode only), or an export is
 * being sent. */
bool sbx_app_busy(const struct sbx_app *a);
/* Takes in the result of a search, filter or export that finished; true if
 * it did (the screen changed). */
bool sbx_app_poll(struct sbx_app *a);
/* Stops a running search or filter; with say, tells the user. */
void sbx_app_cancel(struct sbx_app *a, bool say);
/* "searching 43%" for the status line, or "" */
void sbx_app_job_progress(const struct sbx_app *a, char *buf, size_t n);

/* The run's review (docs/review-file.md), once the run has loaded: the app
 * takes over r's contents (r is left empty) and copies the path new
 * operations are appended to (its folders made first when make_dirs; NULL:
 * they are kept in memory only, as --dump does) and the author they are
 * written with. */
void sbx_app_set_review(struct sbx_app *a, struct sbx_review *r, const char *write, bool make_dirs,
                        const char *author);
/* The review's operations go to a place a write takes a while to reach (an
 * object in the store): through sender, on a worker thread (without
 * opts.background: at once), after sbx_app_set_review named it as write.
 * The review is read through it first and, after every send, shown as the
 * place holds it (other writers' lines too) with the lines still queued.
 * pending[0..npending): lines an earlier session could not send (whole
 * lines; already in the review given), sent first. The app takes over
 * sender->ctx (freed with sender->free). */
struct sbx_review_sender;
void sbx_app_set_review_sender(struct sbx_app *a, const struct sbx_review_sender *sender,
                               const char *pending, size_t npending);
/* A send to the store is in flight or its end not shown yet: the program
 * wakes up to show it. */
bool sbx_app_review_sending(const struct sbx_app *a);
/* Quitting: the review's lines not sent (sent once more first; waits for a
 * send in flight), NULL with *n 0 when none or no sender; the last reason
 * in err, the sender's ctx in *sender_ctx (NULL: none). The app's, valid
 * until sbx_app_free. */
const char *sbx_app_review_finish(struct sbx_app *a, size_t *n, void **sender_ctx, char *err,
                                  size_t errsz);
/* After SBX_APP_EDIT: the text the editor's file starts with (the author's
 * note on the event, or ""; valid until the next call into the app), then
 * what the file held when the editor ended (text NULL and err why when it
 * could not run). An empty or unchanged file writes nothing. */
const char *sbx_app_edit_text(const struct sbx_app *a);
void sbx_app_edit_done(struct sbx_app *a, const char *text, size_t n, const char *err);
/* Whether a line is being typed in the status line (a search, a filter, a
 * note, ...), and leaving it as Esc would. */
bool sbx_app_typing(const struct sbx_app *a);
void sbx_app_stop_typing(struct sbx_app *a);
/* After a key returned SBX_APP_OUTPUT: the text to send (redacted and
 * sanitised; the app's, valid until the next key), its length in *n, and
 * where in *to ('Y' the clipboard, '|' the pager). The program sends it,
 * says how it went with sbx_app_message, then calls sbx_app_output_done. */
const char *sbx_app_output(const struct sbx_app *a, int *to, size_t *n);
void sbx_app_output_done(struct sbx_app *a);

/* When the selection is on the last event: a followed log scrolls with it. */
bool sbx_app_at_end(const struct sbx_app *a);

#endif
