/* The analyses behind the one-screen summary, and their results.
 *
 * sbx_summarize reads a finished timeline, puts its Runtime sources on the
 * wrapper's clock (sbx_crosscheck_align), writes findings bits into its
 * events, and fills a summary with everything the summary formats show; it
 * never prints. Ownership: the summary owns its arrays and strings (free with
 * sbx_summary_free); event pointers and strtab strings in it belong to the
 * timeline, which must outlive the summary. */
#ifndef SBX_SUMMARY_H
#define SBX_SUMMARY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analyses/chain.h"
#include "analyses/crosscheck.h"
#include "analyses/proxyclock.h"
#include "analyses/gaps.h"
#include "analyses/witness.h"
#include "analyses/written.h"
#include "model/spans.h"
#include "model/timeline.h"
#include "model/unread.h"

struct sbx_allowlist;

struct sbx_program_count {
    uint32_t program; /* strtab id */
    size_t count;
};

struct sbx_strlist {
    char **s; /* sorted, unique; owned unless kept */
    size_t n;
    bool kept; /* the strings are the timeline's (sbx_strlist_keep), not copies */
};

struct sbx_refusal {
    char *host;                     /* owned */
    size_t count;
    int64_t first;                  /* start of the first event that showed it */
    const struct sbx_event *event;  /* that event */
    char *evidence;                 /* the line that showed it (decoded, unsanitised); owned */
    const char *pattern;            /* which client's message matched: "curl", "pip", … */
};

/* What the egress proxy saw of one host. */
struct sbx_host_stat {
    uint32_t host;        /* strtab id */
    size_t requests, denied, unreached;
    int64_t bytes_in;     /* bytes the proxy sent back, summed */
};

/* A host the run reached or tried that the allow list lacks. */
struct sbx_unlisted {
    char *host;                    /* owned; lower case */
    size_t events;                 /* events that show it */
    const struct sbx_event *first; /* the earliest of them */
};

/* A risky command (analyses/risky.h) or request: one per kind and event. */
struct sbx_risky_found {
    const struct sbx_event *event;
    uint32_t kind; /* one SBX_F_RISKY bit */
    char *why;     /* owned; sbxview's words and the log's text they quote: unredacted, unsanitised */
};

struct sbx_secret_found {
    unsigned kind;                  /* analyses/secrets/secrets.h kind */
    const struct sbx_event *event;
    const char *where;              /* "command", "stdout", "stderr", "record" (another field) */
    char sample[48];                /* masked */
};

struct sbx_skip_count {
    const struct sbx_source *source;
    size_t events, skipped;
};

/* What the OpenTelemetry spans say (model/spans.h has the trees). */
struct sbx_trace_stats {
    size_t spans, traces, orphans;
    size_t tool_calls;              /* execute_tool spans (command events) */
    size_t failed;                  /* of those, failed or timed out */
    size_t refused;                 /* of those, with connections refused */
    struct sbx_strlist agents;      /* the invoke_agent spans' agent names */
};

struct sbx_summary {
    /* The run's span (analyses/span.c): the sandbox's life, from the first
     * sandbox.created to the last sandbox.stopped, each end where an event
     * gives it, else the commands' (first start, last end); widened only by
     * commands, never by metrics, audit entries, proxy lines or notes. With
     * neither a life nor a command, the span of whatever has a time (the
     * audit log aside). SBX_TIME_UNKNOWN when nothing has a time. */
    int64_t start, end;
    int64_t sandbox_start, sandbox_end; /* the life's ends, each SBX_TIME_UNKNOWN when no event gives it */
    int64_t active_start, active_end;   /* the agents' commands (any command event): first start, last end */
    uint32_t *sandboxes;            /* strtab ids, sorted by name */
    size_t nsandboxes;

    size_t commands, failed, timed_out;
    struct sbx_program_count *failed_by; /* most failures first, then by name */
    size_t nfailed_by;
    const struct sbx_event *longest;     /* NULL when no command has a duration */

    struct sbx_strlist files[SBX_CHANGE_COUNT];  /* workspace */
    struct sbx_strlist system[SBX_CHANGE_COUNT]; /* under a system root (/etc, /usr/local …) */
    struct sbx_strlist system_roots;             /* the system roots a manifest covered */
    size_t workspace_manifests;                  /* files events without a root */
    bool files_from_manifests;                   /* a manifest pair gave workspace lists */
    size_t diff_files, diff_added_lines, diff_removed_lines; /* the loaded diffs (model/diffs.h) */
    /* every changed path and the commands that wrote it (analyses/written.h) */
    struct sbx_written_list written;

    struct sbx_strlist hosts;       /* reached or named, not refused */
    struct sbx_host_stat *proxy_hosts; /* from the proxy's log: most requests first */
    size_t nproxy_hosts;
    struct sbx_refusal *refused;    /* by first time */
    size_t nrefused;
    /* operations during which the sandbox's own network policy refused
     * connections (sandboxio's network_denials): no host is known, the
     * operations are the evidence; in timeline order */
    const struct sbx_event **denials;
    size_t ndenials;
    uint64_t denied_connections;    /* their denials, summed */
    /* With an allow list (allow_list true): the hosts it lacks, by first
     * time; their events carry SBX_F_UNLISTED_HOST. */
    bool allow_list;
    struct sbx_unlisted *unlisted;
    size_t nunlisted;

    size_t hash_verified, hash_mismatched, hash_unverifiable;
    /* the commands whose stdout does not hash to the recorded hash, in
     * timeline order (a second witness not again); owned array */
    const struct sbx_event **hash_mismatches;
    size_t nhash_mismatches;

    struct sbx_secret_found *secrets; /* in timeline order */
    size_t nsecrets;

    struct sbx_crosscheck cross;      /* the wrapper's log against the command record */
    /* records outside the wrapper that fit a gap in its log: possibly
     * removed from it (analyses/gaps.h); by time, owned */
    struct sbx_gap *gaps;
    size_t ngaps;
    /* events two logs give of one happening (counted and drawn once), and
     * commands only a log other than the wrapper's saw */
    struct sbx_witnesses witness;
    /* each proxy log's clock against the wrapper's (analyses/proxyclock.h) */
    struct sbx_proxy_clocks proxy_clocks;

    /* the account audit log: entries about the run (in its window, or naming
     * one of its sandboxes), and of those the account changes (keys, network
     * rules, secrets, previews), from inside a sandbox first, then by time */
    size_t audit_entries, audit_about_run;
    const struct sbx_event **account;
    size_t naccount, account_inside;

    /* lifecycle events and webhook deliveries */
    size_t lifecycle, pauses, wakes, stops, failed_starts;
    struct sbx_strlist stop_reasons;
    size_t webhooks, signatures_verified, signatures_failed;

    /* metrics readings: the peaks, and where */
    size_t metrics;
    const struct sbx_event *cpu_peak, *memory_peak; /* NULL when none */
    struct sbx_secrets *patterns;     /* the secret patterns found them with, for
                                         redacting what a summary quotes; owned */

    /* OpenTelemetry spans: their trees (for the views) and counts */
    struct sbx_spans spans;
    struct sbx_trace_stats traces;
    /* The finding kinds the run's sources can tell (enum sbx_finding bits,
     * sbx_summary_checkable): a kind outside them was not looked for, which
     * is not "none found". */
    uint32_t checkable;
    /* the input files that were not read, and why (copied from the options) */
    struct sbx_unread *unread;
    size_t nunread;
    /* The story (analyses/chain.h): the findings in time order with their
     * links; and the commands by sandbox and time, for what was running
     * when an event that did not come from the wrapper happened
     * (analyses/cmdlink.h; owned; NULL when no event of the run is one,
     * sbx_timeline_has_not_wrapper). */
    struct sbx_story story;
    struct sbx_cmdindex *cmds;
    /* risky commands, requests and /etc/hosts diffs, in timeline order (a
     * command two logs saw, once); their events carry the kinds' bits */
    struct sbx_risky_found *risky;
    size_t nrisky;
};

struct sbx_summary_opts {
    int threads; /* 0: one per online CPU, at most 8 */
    /* Optional: the hosts the run may reach; every other host it reached or
     * tried becomes a finding. Only read during the call. */
    const struct sbx_allowlist *allow;
    /* Optional: the files the load did not read (the loader's report), for
     * the summary to list; copied. */
    const struct sbx_unread *unread;
    size_t nunread;
    /* Optional: --skew, sources' clocks given instead of measured
     * (analyses/crosscheck.h); only read during the call. */
    const struct sbx_skew_given *skews;
    size_t nskews;
};

/* How many connections the sandbox's network policy refused during the
 * event's operation (SBX_CMD_DENIALS, a files operation's denials); 0 when
 * none or not known. */
uint64_t sbx_event_denials(const struct sbx_event *e);

/* The finding kinds a run's sources can tell (analyses/coverage.c): secrets
 * and bad fields always; failures, timeouts and hidden text with a log of
 * the commands (recorder, sandboxio, OpenTelemetry); refused hosts with one
 * or a proxy log; unlisted hosts with an allow list; the cross-check's
 * three with both the wrapper's log and Runtime's command record; account
 * changes with an audit log; bad signatures when a delivery's signature was
 * checked; hash mismatches when a command's hash was checked; system file changes
 * when a manifest covered a system folder or a change under one was seen.
 * sum must be filled by the other analyses (sbx_summarize stores the result
 * in sum->checkable). */
uint32_t sbx_summary_checkable(const struct sbx_timeline *tl, const struct sbx_summary *sum);
/* What a finding kind (one bit) needs to be told, in words ("Runtime's
 * audit log"), static; NULL for the kinds every run can tell. */
const char *sbx_finding_needs(uint32_t bit);
/* Whether the wrapper's log (a recorder source) is among the inputs. */
bool sbx_summary_has_wrapper(const struct sbx_timeline *tl);

/* The span's length in ns (end - start), or -1 when either end is not
 * known: what every output shows as the run's duration. */
int64_t sbx_summary_span_ns(const struct sbx_summary *s);

/* Returns false with a message in err when the analyses cannot run (their
 * patterns failed to compile: a build problem, not an input problem). */
bool sbx_summarize(struct sbx_timeline *tl, const struct sbx_summary_opts *opts,
                   struct sbx_summary *sum, char *err, size_t errsz);
void sbx_summary_free(struct sbx_summary *sum);

/* Secrets told apart by kind and masked sample (a token echoed and printed
 * is one secret); past 1,000 places, the number of places. */
size_t sbx_summary_distinct_secrets(const struct sbx_summary *s);

/* Sorted-unique string lists. */
void sbx_strlist_add(struct sbx_strlist *l, const char *s, size_t n); /* unsorted append */
/* Appends s itself, a string that outlives the list (the timeline's: a
 * files event's path), not a copy; a list takes either kind, never both. */
void sbx_strlist_keep(struct sbx_strlist *l, const char *s);
void sbx_strlist_finish(struct sbx_strlist *l);                         /* sort + dedupe */
void sbx_strlist_free(struct sbx_strlist *l);

#endif
