/* Events: one record of what happened in a sandbox, from one line of one
 * source. Compact on purpose (a 1M-line log keeps 1M of them): text fields
 * are references (sbx_text) into the source's bytes, short repeated strings
 * are interned ids (model/strtab.h).
 *
 * Ownership: events live in the timeline (model/timeline.h) and are freed
 * with it; nothing in an event is owned by the event itself. */
#ifndef SBX_EVENT_H
#define SBX_EVENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/timefmt.h" /* SBX_TIME_UNKNOWN */
#include "model/findings.h"

/* Packed to 4 bytes: see the event's size below. */
#pragma pack(push, 4)

enum sbx_kind {
    SBX_EV_COMMAND,
    SBX_EV_FILES,
    SBX_EV_NETWORK,
    SBX_EV_LIFECYCLE,
    SBX_EV_AUDIT,
    SBX_EV_METRIC,
    SBX_EV_SPAN,
    SBX_EV_NOTE,
    SBX_EV_KIND_COUNT
};

const char *sbx_kind_name(enum sbx_kind k);

/* Findings (enum sbx_finding, SBX_F_*) are listed in model/findings.h, heaviest
 * first, with their names, marks and words; an event's findings field holds
 * them. The analyses (analyses/summary.h) set them from the facts below;
 * importers set only SBX_F_BAD_FIELD. */

/* Where a text lives and how it is encoded. */
enum sbx_text_flags {
    SBX_TEXT_ESCAPED = 1u << 0, /* a JSON string body: decode with sbx_jstr_decode (sbx_text_get does) */
    SBX_TEXT_PRESENT = 1u << 1, /* the field was in the record (possibly empty) */
    /* a \u escape or a non-ASCII byte is in it (the JSON scanner saw it while
     * validating): without one, the text is printable ASCII and cannot hide */
    SBX_TEXT_UNUSUAL = 1u << 2,
    /* the bytes are a JSON array of strings, an argument vector: sbx_text_get
     * gives it as a shell-style command line (model/argv.h). With ESCAPED,
     * a JSON string body whose decoded content is that array (OpenTelemetry's
     * sandboxio.argv). Bytes that are no such array read as they are. */
    SBX_TEXT_ARGV = 1u << 3,
    /* the JSON scanner, validating this string body, found no code point
     * that hides (analyses/hidden.h): sbx_field_hides need not look again */
    SBX_TEXT_SHOWN = 1u << 4,
};

/* 8 bytes (three of them are most of a command). Its usual form says
 * where the text lies in its event's line (at: bytes from the line's first
 * byte; a record's fields are inside the record) and how long it is, up to
 * SBX_TEXT_SHORT_MAX bytes. A text that does not fit (longer, or not inside
 * its line) has the general form, SBX_TEXT_LONG: the other 58 bits point
 * (divided by 16) at a struct sbx_text_long in the event buffer's memory
 * (sbx_text_make, model/timeline.h, makes either). at_ and len_ are this
 * header's: read a text with sbx_text_len and sbx_text_off. */
struct sbx_text {
    uint64_t at_ : 32;
    uint64_t len_ : 26;
    uint64_t flags : 6; /* enum sbx_text_flags */
};
_Static_assert(sizeof(struct sbx_text) == 8, "a text is 8 bytes");

enum {
    SBX_TEXT_LONG = 1u << 5, /* the general form (this header's, as at_ and len_) */
    SBX_TEXT_SHORT_MAX = (1u << 26) - 1,
};

/* A text in the general form: its offset in the source and its length. */
struct sbx_text_long {
    uint64_t off;
    uint32_t len;
};

static inline const struct sbx_text_long *sbx_text_long_of(const struct sbx_text *t)
{
    return (const struct sbx_text_long *)(uintptr_t)(((uint64_t)t->len_ << 32 | t->at_) << 4);
}

/* A text's length in bytes (as stored: escaped when SBX_TEXT_ESCAPED). */
static inline size_t sbx_text_len(const struct sbx_text *t)
{
    return t->flags & SBX_TEXT_LONG ? sbx_text_long_of(t)->len : t->len_;
}

enum sbx_command_flags {
    SBX_CMD_EXIT_KNOWN = 1u << 0,
    SBX_CMD_TIMED_OUT = 1u << 1,
    SBX_CMD_MS_KNOWN = 1u << 2,
    SBX_CMD_HASH_PRESENT = 1u << 3,
    SBX_CMD_TIMEOUT_KNOWN = 1u << 4,
    /* from the provider's command record, not the wrapper: only program,
     * exit, ms and the start are known; label is the actor's name */
    SBX_CMD_RECORD = 1u << 5,
    SBX_CMD_RUNNING = 1u << 6, /* the record says: still running */
    SBX_CMD_UNREAD = 1u << 7,  /* the record says: started, exit never read */
    /* the sandbox's network policy refused connections during the operation
     * (sandboxio's network_denials > 0): their number is in denials */
    SBX_CMD_DENIALS = 1u << 8,
    /* Set by the content analysis, not by an importer: the stdout hash was
     * computed (CHECKED) and matched the record (VERIFIED), so a view reads
     * the verdict (analyses/hashcheck.h, sbx_hash_verdict) instead of
     * hashing stdout again. A mismatch is the finding SBX_F_HASH_MISMATCH. */
    SBX_CMD_HASH_CHECKED = 1u << 9,
    SBX_CMD_HASH_VERIFIED = 1u << 10,
};

enum { SBX_CMD_FLAG_BITS = 11 };
_Static_assert(SBX_CMD_HASH_VERIFIED < 1u << SBX_CMD_FLAG_BITS, "a command's flags fit their bits");

struct sbx_command {
    struct sbx_text command, out;      /* command line, stdout */
    union {
        uint32_t cwd;                  /* strtab id */
        uint32_t actor_id;             /* SBX_CMD_RECORD: the actor's id (the key it ran under) */
    };
    uint32_t program;                  /* strtab id of the program label */
    uint32_t flags : SBX_CMD_FLAG_BITS; /* enum sbx_command_flags */
    /* stderr: model/evblock.h's (sbx_cmd_err, sbx_cmd_set_err) */
    uint32_t err_flags_ : 6;
    uint32_t err_at_ : 15;
    union {                            /* no source gives both */
        uint64_t stdout_hash;          /* SBX_CMD_HASH_PRESENT: first 16 hex digits, as a number */
        uint64_t denials;              /* SBX_CMD_DENIALS: connections refused */
    };
    /* the exit code (valid with SBX_CMD_EXIT_KNOWN) and the wrapper-measured
     * duration: model/evblock.h's (sbx_cmd_exit, sbx_cmd_ms and their setters) */
    uint32_t exit_ : 8;
    uint32_t ms_ : 24;
};

/* Whether a command failed: sbx_command_failed, in model/evblock.h with the
 * accessors of the fields a block's side tables may hold. */

/* A note for an operation sbxview does not know (sandboxio's unknown event
 * names) keeps its denials in u.cmd the same way (the rest of u.cmd zero). */

/* An account audit log entry (kind audit; label is the action, e.g.
 * "network.rules_changed"). Strings are strtab ids, 0 when absent. The
 * event keeps a pointer to it (u.audit, never NULL for an audit event), in
 * the event buffer's memory (sbx_evbuf_alloc), as a files event its lists:
 * at 54 bytes it would be the largest of the union's records. */
enum sbx_audit_family {
    SBX_AUDIT_OTHER,   /* any other action: the detail flattened */
    SBX_AUDIT_NETWORK, /* network.*: the allow list's hosts, the upstream proxy */
    SBX_AUDIT_KEY,     /* key.*: the key's id and role */
    SBX_AUDIT_SECRET,  /* secret.*: the secret's name (its value is never kept) */
    SBX_AUDIT_PREVIEW, /* preview.*: the visibility from and to */
};

enum sbx_audit_flags {
    SBX_AUDIT_PROXY_SET = 1u << 0,   /* detail.upstreamProxy given: c is the proxy */
    SBX_AUDIT_PROXY_UNSET = 1u << 1, /* detail.upstreamProxy null */
    SBX_AUDIT_CUT = 1u << 2,         /* a list or the flattened detail was cut: n_* count all */
};

struct sbx_audit {
    uint32_t actor;      /* the actor's name */
    uint32_t actor_kind; /* person, agent, app, group, runtime */
    uint32_t target;     /* "type:id", e.g. "sandbox:7f3a2c10" */
    uint32_t via;        /* web, api, mcp, runtime */
    uint32_t inside;     /* the sandbox the call came from (the entry's "sandbox") */
    uint32_t actor_id;   /* the actor's id: for an agent, the key it called with */
    uint32_t person;     /* the person behind the actor */
    uint32_t ip, request; /* where the call came from; its request id */
    /* What it changed (docs/formats/runtime.md), by family; strtab ids:
     *   NETWORK: a = hosts added, b = hosts removed (each "\n"-separated),
     *            c = the upstream proxy (with SBX_AUDIT_PROXY_SET)
     *   KEY:     a = the key's id, b = its role
     *   SECRET:  a = the secret's name
     *   PREVIEW: a = the visibility before, b = after
     *   OTHER:   a = the detail flattened, "key=value" a line */
    uint8_t family;      /* enum sbx_audit_family */
    uint8_t aflags;      /* enum sbx_audit_flags */
    uint16_t n_added, n_removed; /* NETWORK: hosts in each list (OTHER: n_added members) */
    uint32_t a, b, c;
};

/* A lifecycle event (kind lifecycle; label is the type, e.g.
 * "sandbox.stopped"). Strings are strtab ids, 0 when absent. */
struct sbx_lifecycle {
    uint32_t state, previous, reason; /* reason: stopReason */
    uint32_t id; /* Runtime's event id: the events file and a webhook delivery of the same event share it
                    (a Runtime note, kind note, keeps its id here too, the rest 0) */
    /* a delivery signed by a secret given but at another moment (a replay):
     * its signature's t minus the event's createdAt, in seconds; 0 otherwise */
    int32_t signed_off_s;
};

/* One metrics reading (kind metric; start is its time). */
struct sbx_metric {
    double cpu_percent, cpu_peak_percent;  /* negative when absent */
    int64_t memory_bytes, memory_peak_bytes; /* negative when absent */
};

/* One request through the egress proxy (kind network; start is when it
 * began: Squid logs when a request finished). Strings are strtab ids. */
enum sbx_network_flags {
    SBX_NET_DENIED = 1u << 0,    /* refused by the proxy's rules (TCP_DENIED) */
    SBX_NET_UNREACHED = 1u << 1, /* the proxy could not reach the host (NONE_NONE/000, HIER_NONE 503) */
    SBX_NET_CONNECT = 1u << 2,   /* a CONNECT tunnel (HTTPS): host and port only */
};

struct sbx_network {
    uint32_t host;        /* lower case, without the port */
    uint32_t method;      /* GET, CONNECT, … */
    uint32_t result;      /* Squid's result code, e.g. TCP_MISS; 0 for Apache lines */
    uint32_t client;      /* the client's address */
    int64_t bytes_in : 61;  /* bytes sent to the client (at most 2^53, the parser's bound); -1 when unknown */
    uint64_t flags : 3;     /* enum sbx_network_flags */
    int64_t bytes_out : 53; /* bytes the client sent (below 2^52); -1 when the log does not say (no format gives them yet) */
    int64_t status : 11;    /* HTTP status (0 to 999); -1 when unknown */
    struct sbx_text url;    /* the URL (CONNECT: host:port), in the source */
};

/* Paths of a files event: three lists, in timeline storage. */
enum sbx_change { SBX_ADDED, SBX_CHANGED, SBX_REMOVED, SBX_CHANGE_COUNT };

/* Where a files event's lists came from, when not from one record. */
enum sbx_files_flags {
    /* an operation on files that names no path (sandboxio's file_read,
     * file_write, …; the event's label is the operation): no lists, only
     * the bytes it moved */
    SBX_FILES_OPERATION = 1u << 0,
    SBX_FILES_MANIFESTS = 1u << 1, /* two manifests compared: before and after name them */
    SBX_FILES_DIFF = 1u << 2,      /* a diff's files: after names it (before is unused) */
    /* the struct carries its struct sbx_files_more (sbx_files_new's more) */
    SBX_FILES_MORE = 1u << 3,
};

/* What only some importers' files events say: a recorder's files line (most
 * of them) has none of it, so it is kept only when asked for (SBX_FILES_MORE). */
struct sbx_files_more {
    int64_t bytes_in, bytes_out; /* SBX_FILES_OPERATION: into and out of the sandbox; -1 unknown */
    uint64_t denials;            /* as a command's (SBX_CMD_DENIALS); 0: none */
    uint32_t before, after;      /* sources (indexes into the timeline's), with MANIFESTS/DIFF */
    uint32_t id;                 /* a Runtime file watch's event id (strtab id; 0: none), as u.life.id */
    int32_t signed_off_s;        /* a replayed delivery of it: as u.life.signed_off_s */
};

/* One allocation (model/files.h makes it): this header, then the
 * sbx_files_more when flags has SBX_FILES_MORE, then the paths' strtab ids,
 * the added ones, the changed ones, the removed ones (n[c] of each). Paths
 * are display paths, already under root. Read the lists and the rest with
 * sbx_files_ids, sbx_files_path (model/files.h) and sbx_files_more. */
struct sbx_files {
    uint32_t n[SBX_CHANGE_COUNT];
    uint32_t root;  /* strtab id: 0 = the workspace */
    uint32_t flags; /* enum sbx_files_flags; 0 for a recorder's files line */
    uint32_t w[];   /* the sbx_files_more if any, then the ids */
};
_Static_assert(sizeof(struct sbx_files) == 20, "a files event's header is 20 bytes");
_Static_assert(sizeof(struct sbx_files_more) % sizeof(uint32_t) == 0, "the rare fields are whole words");

/* The rare fields of f: its own, else all zero (what calloc gave them). */
static inline const struct sbx_files_more *sbx_files_more(const struct sbx_files *f)
{
    static const struct sbx_files_more none;
    return f->flags & SBX_FILES_MORE ? (const struct sbx_files_more *)(const void *)f->w : &none;
}

/* The strtab ids of list c of f: n[c] of them. */
static inline const uint32_t *sbx_files_ids(const struct sbx_files *f, enum sbx_change c)
{
    const uint32_t *ids = f->w + (f->flags & SBX_FILES_MORE ? sizeof(struct sbx_files_more) / sizeof(uint32_t) : 0);
    for (int d = 0; d < (int)c; d++)
        ids += f->n[d];
    return ids;
}

enum sbx_time_flags {
    SBX_EVT_NO_ZONE = 1u << 0,    /* the time had no zone: read as UTC */
    SBX_EVT_LEAP_SECOND = 1u << 1,
    /* a webhook delivery (saved with its headers) and its signature check:
     * neither OK nor BAD means no secret was given to check it with */
    SBX_EVT_WEBHOOK = 1u << 2,
    SBX_EVT_SIG_OK = 1u << 3,
    SBX_EVT_SIG_BAD = 1u << 4,
    /* the source carries no time (manifests, diffs): the time is a guess,
     * placed just after the run's last known event */
    SBX_EVT_TIME_INFERRED = 1u << 5,
    /* the source says the operation failed (an OpenTelemetry span's error
     * status or error.type), whatever its exit code */
    SBX_EVT_ERROR = 1u << 6,
    /* the record gave a field (a JSON key) more than once: the last value
     * was read, as jansson reads it; the analyses make it a finding */
    SBX_EVT_DUP_FIELD = 1u << 7,
};

/* A source holds at most SBX_SOURCE_MAX bytes, so that a line's offset fits
 * the event's SBX_LINE_OFF_BITS (importers/load.c refuses a larger file;
 * importers/follow.c stops following one that grows past it). */
enum { SBX_LINE_OFF_BITS = 37 };
#define SBX_SOURCE_MAX ((uint64_t)1 << SBX_LINE_OFF_BITS)
_Static_assert(SBX_EV_KIND_COUNT <= 8, "an event's kind is 3 bits");
static inline bool sbx_source_fits(uint64_t size)
{
    return size <= SBX_SOURCE_MAX;
}

struct sbx_event {
    int64_t start, end; /* ns since the epoch, UTC; SBX_TIME_UNKNOWN allowed */
    /* one 64-bit word: the raw line's offset within the source, the
     * source (an index into the timeline's), the kind and the time flags */
    uint64_t line_off : SBX_LINE_OFF_BITS;
    uint64_t source : 16; /* load.c keeps the timeline's sources below 65535 */
    uint64_t kind : 3;    /* enum sbx_kind */
    uint64_t tflags : 8;  /* enum sbx_time_flags: the time's, a delivery's, the status's */
    /* the raw line's length and 1-based number (0: no line), model/evblock.h's:
     * read them with sbx_ev_line_len and sbx_ev_line_no, write them with
     * sbx_ev_set_line_len and sbx_ev_set_line_no, never as fields */
    uint16_t line_len_;
    uint16_t line_no_;
    uint32_t findings;  /* enum sbx_finding bits */
    uint32_t sandbox;   /* strtab id */
    uint32_t label;     /* strtab id: a note's kind name, a files event's root, … */
    union {
        struct sbx_command cmd;
        struct sbx_files *files;
        struct sbx_audit *audit;
        struct sbx_lifecycle life;
        struct sbx_metric metric;
        struct sbx_network net;
    } u;
};

/* The common event, a command, is the header (40 bytes: its line's length
 * and number take 16 bits each, any value that does not fit being kept in
 * its block's side tables, model/evblock.h) and u.cmd (40, as large as
 * u.net): a 1M-line log keeps a million of them. The event's structs are
 * packed to 4 bytes (the pragma around them), so a command's 8-byte fields
 * after its 4-byte ones need no padding (x86-64 and arm64 read them
 * unaligned at little cost). */
_Static_assert(sizeof(struct sbx_command) == 40, "a command is 40 bytes");
_Static_assert(sizeof(struct sbx_network) == 40, "a request is 40 bytes");
_Static_assert(sizeof(struct sbx_event) == 80, "an event is 80 bytes");
/* So an event's 8-byte fields may lie at 4 bytes from an 8-byte boundary:
 * read and write them as fields, never through an int64_t * or uint64_t *
 * to them (that is undefined; UBSan says so). */

#pragma pack(pop)

/* Where text t of event e starts in e's source. */
static inline uint64_t sbx_text_off(const struct sbx_event *e, const struct sbx_text *t)
{
    return t->flags & SBX_TEXT_LONG ? sbx_text_long_of(t)->off : e->line_off + t->at_;
}

/* A replayed webhook delivery's signature time minus its event's createdAt,
 * in seconds, whatever kind the delivered event is (a lifecycle change, a
 * note, a file watch); 0 when it is no replay. */
static inline int32_t sbx_event_signed_off(const struct sbx_event *e)
{
    if (e->kind == SBX_EV_LIFECYCLE || e->kind == SBX_EV_NOTE)
        return e->u.life.signed_off_s;
    if (e->kind == SBX_EV_FILES && e->u.files)
        return sbx_files_more(e->u.files)->signed_off_s;
    return 0;
}

#endif
