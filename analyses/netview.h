/* The run's network per host, for the network view: every host the proxy
 * saw, every host a client's message showed refused, and every host a
 * command named (analyses/summary.h's proxy_hosts, refused and hosts).
 *
 * Per host: the proxy's requests (denied, unreached), the bytes each way
 * (summed over the requests that said), the first and last time it shows,
 * whether it was refused (a proxy denial, or a client's refusal message),
 * and the commands that touched it: (a) the command running in the
 * request's sandbox when a proxy request was made (analyses/cmdlink.h), and
 * (b) the commands whose command line, stdout or stderr names the host (as
 * a whole host name: "pypi.org" is not named by "notpypi.org"; without
 * case, but a host with no dot, such as localhost, only in lower or upper
 * case; a name right after a terminal colour escape counts).
 *
 * Hosts are ordered refused first, then those the allow list lacks (when
 * one was given: analyses/summary.h's unlisted), then by requests, most
 * first, then by name.
 *
 * Ownership: the view owns its arrays and host names (sbx_netview_free);
 * events belong to the timeline, which must outlive the view. */
#ifndef SBX_NETVIEW_H
#define SBX_NETVIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analyses/summary.h"

struct sbx_nethost {
    char *host;                       /* lower case */
    size_t requests, denied, unreached; /* proxy requests */
    int64_t bytes_in, bytes_out;      /* -1 when no request said */
    int64_t first, last;              /* SBX_TIME_UNKNOWN when nothing with a time showed it */
    bool refused;
    bool unlisted;                    /* an allow list was given and lacks it */
    size_t refusals;                  /* commands whose output showed it refused */
    const struct sbx_event **commands; /* timeline order, each once */
    size_t ncommands;
    size_t linked;                    /* proxy requests made while a command ran */
    size_t named;                     /* commands that name it */
};

struct sbx_netview {
    struct sbx_nethost *hosts;
    size_t n;
    size_t requests, refused, unlisted; /* in all */
    bool bytes_out_known;             /* some request said how many bytes it sent */
};

/* sum is the timeline's summary (its refused hosts and named hosts). */
void sbx_netview_build(struct sbx_netview *nv, const struct sbx_timeline *tl,
                       const struct sbx_summary *sum);
void sbx_netview_free(struct sbx_netview *nv);

/* The host of nv called host, or NULL. */
const struct sbx_nethost *sbx_netview_find(const struct sbx_netview *nv, const char *host);

/* Whether text[0..n) names host (lower case) as a whole host name: not
 * preceded by a letter, digit, '-', '_' or '.', not followed by a letter,
 * digit, '-' or '_', nor by '.' and one of those; compared without case. */
bool sbx_text_names_host(const char *text, size_t n, const char *host, size_t hlen);

#endif
