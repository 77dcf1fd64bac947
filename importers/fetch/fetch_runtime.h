/* sbx_fetch_runtime: saves Runtime's own records of sandboxes into a run
 * folder, before they expire (commands and lifecycle events are kept 14
 * days), as files the importers read (docs/formats/runtime.md):
 *
 *   runtime-commands-<id>.jsonl   GET /v1/sandboxes/{id}/commands, every page
 *   runtime-events-<id>.jsonl     GET /v1/events?resourceId={id}, every page
 *   runtime-metrics-<id>.json     GET /v1/sandboxes/{id}/metrics?range=R, the
 *                                 response as served; R is the finest range
 *                                 (15m 1h 6h 24h 7d 30d) reaching back to the
 *                                 sandbox's first record minus the margin
 *   runtime-audit.jsonl           GET /v1/audit, walked back from now until an
 *                                 entry is older than the earliest sandbox's
 *                                 first record minus the margin; kept: entries
 *                                 within a sandbox's window widened by the
 *                                 margin, entries naming a fetched sandbox
 *                                 (target.id or sandbox) and entries with no
 *                                 readable time; deduplicated by id
 *
 * A .jsonl file holds one item per line, in the order served (newest first),
 * each item's JSON text exactly as served except that whitespace between
 * tokens is left out (numbers and strings are not re-encoded). A sandbox's
 * window runs from its earliest command start or event to its latest
 * command end or event (now, while a command runs); a sandbox with neither is
 * an error (wrong id, another account's, or expired).
 *
 * The API key goes only into the Authorization header (base/http.h);
 * it is cut out of every message. Responses must be 200 with the documented
 * envelope, parsed with jansson (duplicate keys refused) within the body cap.
 * 429 and 503 are waited out (Retry-After, at least a delay that doubles from
 * backoff_ms); other 5xx and a connection cut mid-response are retried
 * `retries` times with the same growing delay; all of one request's retries
 * give up when the next wait would end past deadline_ms from its first try.
 * A 3xx (redirects are not followed), any other 4xx, a timeout, a TLS
 * failure, an over-size or malformed page are final.
 *
 * Atomic: nothing is written into dir until every page of every record has
 * arrived. The files are written into a hidden temporary folder — beside dir
 * (".<name>.sbxview-fetch-XXXXXX", renamed to dir at the end) when dir does
 * not exist yet, inside it (".sbxview-fetch-XXXXXX", each file renamed into
 * dir, the folder removed) when it does — and removed on failure. Without
 * force, a file of the same name already in dir is an error before anything
 * is fetched (an earlier fetch may hold records that have since expired), and
 * the final renames never replace a file that appeared meanwhile.
 *
 * Not thread-safe with itself on one dir; otherwise shares nothing.
 * Ownership: the report's strings belong to it (sbx_fetch_report_free); the
 * options are borrowed for the call; err gets one line naming the sandbox,
 * record and page and why, which may quote the server's words (message,
 * hint, TLS errors): sanitise before display. */
#ifndef SBX_FETCH_RUNTIME_H
#define SBX_FETCH_RUNTIME_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SBX_RUNTIME_API_DEFAULT "https://api.runtime.dev"
/* How far the audit walk and the metrics range reach before and after a window. */
#define SBX_FETCH_MARGIN_NS (10 * 60 * INT64_C(1000000000))

/* What is being fetched, for a progress line. */
struct sbx_fetch_progress {
    const char *sandbox; /* the sandbox id; NULL for the account's audit log */
    const char *record;  /* "commands", "events", "metrics" or "audit" */
    unsigned page;       /* from 1 */
    size_t items;        /* items of this record received so far */
    int64_t wait_ms;     /* > 0: waiting this long before trying the page again */
    long status;         /* with wait_ms: the HTTP status, 0 for a cut connection */
};

struct sbx_fetch_opts {
    const char *base_url;    /* "https://host[/prefix]"; NULL: SBX_RUNTIME_API_DEFAULT */
    const char *api_key;     /* required */
    const char *ca_file;     /* NULL: the system's CAs; else only this PEM file's */
    long connect_timeout_ms; /* 0: 10 s */
    long timeout_ms;         /* one request, 0: 60 s */
    long deadline_ms;        /* one request with its retries, 0: 60 s */
    long backoff_ms;         /* the first retry delay, doubling; 0: 1 s */
    int retries;             /* retries after a 5xx (not 503) or a cut; 0: 3, < 0: none */
    size_t max_body;         /* per response; 0: 64 MiB */
    const char *metrics_range; /* NULL: chosen as above; else one of the six */
    bool force;              /* replace files of the same names in dir */
    /* Optional, called from the fetching thread. */
    void (*progress)(void *ctx, const struct sbx_fetch_progress *p);
    void *progress_ctx;
    /* Optional: libcurl's redacted trace (struct sbx_http_config.trace). */
    void (*trace)(void *ctx, const char *line, size_t len);
    void *trace_ctx;
    /* Optional: set from another thread or a signal handler to stop the
     * fetch within about a second, as a failure ("cancelled") that leaves
     * nothing behind. */
    const _Atomic bool *cancel;
};

struct sbx_fetch_saved {
    char *name;        /* the file's name inside dir */
    const char *what;  /* "commands", "events", "metrics points" or "audit entries" */
    size_t items;      /* lines written (metrics: points in the response) */
    char range[8];     /* metrics: the range asked for; else "" */
};

struct sbx_fetch_report {
    struct sbx_fetch_saved *saved; /* in the order written */
    size_t nsaved;
};

/* Sandbox ids are 1-64 of A-Z a-z 0-9 _ - (they name files and URL paths). */
bool sbx_fetch_valid_id(const char *id);

/* Fetches and saves the records of ids[0..nids) (duplicates ignored) into
 * dir. True when everything was saved (report filled); false with err and
 * nothing of this fetch left in dir (report empty). */
bool sbx_fetch_runtime(const char *const *ids, size_t nids, const char *dir,
                       const struct sbx_fetch_opts *opts, struct sbx_fetch_report *report,
                       char *err, size_t errsz);

void sbx_fetch_report_free(struct sbx_fetch_report *report);

#endif
