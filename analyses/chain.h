/* The story of a run: its findings in time order on the one clock, each
 * with the links that tie it to other events, every link naming its
 * evidence (analyses/chain.c):
 *   - a refused host -> the allow-list change that adds it afterwards (one
 *     made from inside the refused sandbox first) and back;
 *   - that change -> each request or command that reached the host after
 *     it (a proxy request neither denied nor unreached, a command naming
 *     the host that exited 0): each of those is an item of its own, flagged
 *     "reached after the allow list was widened";
 *   - a command outside the wrapper -> the audit entries of the account key
 *     it ran under (Runtime's actor.id) within the run's window, and back.
 * An item is an event with a serious finding (model/findings.h), or one
 * that reached a host after the allow list was widened.
 *
 * The link kinds are the rows of SBX_LINKS: X(ID, NAME, WORDS) — the
 * SBX_LINK_ID constant, its name in the JSON, and how the text says it.
 *
 * Ownership: the summary owns its story (sbx_story_free, called by
 * sbx_summary_free); events belong to the timeline. Evidence is log text
 * in sbxview's words, unsanitised and unredacted: outputs pass it through
 * render/untrusted.h. */
#ifndef SBX_CHAIN_H
#define SBX_CHAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/timeline.h"

#define SBX_LINKS(X)                                                                     \
    X(WIDENED_BY, "widened-by", "widened by")                                          \
    X(REFUSED_BEFORE, "refused-before", "refused before")                              \
    X(REACHED_AFTER, "reached-after", "reached after the allow list was widened")      \
    X(WIDENED_BEFORE, "widened-before", "widened before")                              \
    X(KEY_ENTRY, "same-key-entry", "same key")                                         \
    X(KEY_COMMAND, "same-key-command", "same key")

enum sbx_link_kind {
#define SBX_LINK_ENUM(id, name, words) SBX_LINK_##id,
    SBX_LINKS(SBX_LINK_ENUM)
#undef SBX_LINK_ENUM
    SBX_LINK_COUNT
};

/* NAME and WORDS of a kind (static). */
const char *sbx_link_name(enum sbx_link_kind k);
const char *sbx_link_words(enum sbx_link_kind k);

struct sbx_story_link {
    enum sbx_link_kind kind;
    const struct sbx_event *event; /* the event it leads to */
    char *evidence;                /* owned */
};

struct sbx_story_item {
    const struct sbx_event *event;
    uint32_t finding;              /* its heaviest serious finding bit; 0: reached after widening */
    struct sbx_story_link *links;  /* owned */
    size_t nlinks, cap;
    size_t more;                   /* links left out past the bound per item */
};

struct sbx_story {
    struct sbx_story_item *items;  /* in timeline order */
    size_t n;
};

struct sbx_summary;

/* Fills sum->story and sum->cmds from a summarised timeline (the other
 * analyses ran: it reads their lists and bits). False with err set when
 * its patterns cannot be compiled. Linear in the events, with a hash or a
 * binary search per event. */
bool sbx_analyze_chain(const struct sbx_timeline *tl, struct sbx_summary *sum, char *err,
                       size_t errsz);

/* The item of event e, or NULL. O(log n). */
const struct sbx_story_item *sbx_story_item_of(const struct sbx_story *s, const struct sbx_event *e);

void sbx_story_free(struct sbx_story *s);

#endif
