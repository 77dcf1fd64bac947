/* The keys of the runs list and of the compare view, as app/keymap.h is for
 * one run's views: every action, the screens it works in, what it does, its
 * keys. Their help screen is made from this table. Internal to tui/.
 * Ownership: nothing returned needs freeing; the help is written into the
 * caller's doc. */
#ifndef SBX_APP_RUNS_KEYS_H
#define SBX_APP_RUNS_KEYS_H

#include <stddef.h>

#include "base/buf.h"
#include "render/doc.h"
#include "app/keys.h"

/* Screens, as bits. */
enum { R_LIST = 1, R_CMP = 2, R_DIFF = 4, R_HELP = 8, R_ALL = 15 };

/* X(ACTION, screens, help text, keys...) — at most four keys, 0 for none. */
#define SBX_RUNS_KEYMAP(X)                                                                       \
    X(DOWN, R_ALL, "down one line", 'j', SBX_KEY_DOWN, 0, 0)                                     \
    X(UP, R_ALL, "up one line", 'k', SBX_KEY_UP, 0, 0)                                           \
    X(PAGE_DOWN, R_ALL, "down one screen", ' ', SBX_KEY_PGDN, 'f' & 0x1f, 0)                     \
    X(PAGE_UP, R_ALL, "up one screen", 'b', SBX_KEY_PGUP, 'b' & 0x1f, 0)                         \
    X(TOP, R_ALL, "to the first line", 'g', SBX_KEY_HOME, 0, 0)                                  \
    X(BOTTOM, R_ALL, "to the last line", 'G', SBX_KEY_END, 0, 0)                                 \
    X(OPEN, R_LIST | R_CMP,                                                                      \
      "runs: open the run's timeline (q comes back); on one of two marked runs, compare them; "               \
      "compare: the two outputs of the pair as a diff",                                          \
      SBX_KEY_ENTER, 0, 0, 0)                                                                    \
    X(MARK, R_LIST, "mark the run, or unmark it (the first marked is A, the second B)", 'm', 0, \
      0, 0)                                                                                      \
    X(COMPARE, R_LIST, "compare the two marked runs", 'c', 0, 0, 0)                              \
    X(SORT_LEFT, R_LIST, "sort by the column to the left", '<', SBX_KEY_LEFT, 0, 0)             \
    X(SORT_RIGHT, R_LIST, "sort by the column to the right", '>', SBX_KEY_RIGHT, 0, 0)          \
    X(REVERSE, R_LIST, "reverse the sort", 'r', 0, 0, 0)                                         \
    X(FILTER, R_LIST,                                                                            \
      "filter: words in the run's name, or failed, refused, outside, account, secret, "         \
      "timedout, system, hidden, mismatch, findings; !word: not (empty clears)",                \
      '&', 0, 0, 0)                                                                              \
    X(NEXT_DIFF, R_CMP, "next difference", ']', 0, 0, 0)                                         \
    X(PREV_DIFF, R_CMP, "previous difference", '[', 0, 0, 0)                                     \
    X(HELP, R_ALL, "this help", '?', SBX_KEY_F1, 0, 0)                                           \
    X(BACK, R_ALL, "back; q in the runs list quits", 'q', SBX_KEY_ESC, 0, 0)                     \
    X(QUIT, R_ALL, "quit at once", 'Q', 0, 0, 0)

enum sbx_runs_action {
    SBX_RACT_NONE,
#define SBX_RUNS_ACTION_ENUM(a, screens, help, k1, k2, k3, k4) SBX_RACT_##a,
    SBX_RUNS_KEYMAP(SBX_RUNS_ACTION_ENUM)
#undef SBX_RUNS_ACTION_ENUM
    SBX_RACT_COUNT
};

/* The action of key on screen (an R_* bit), or SBX_RACT_NONE. */
enum sbx_runs_action sbx_runs_keymap_find(int key, unsigned screen);
/* The help document: every key of the table, and where it works. */
void sbx_runs_help_doc(struct sbx_doc *d, int cols);

#endif
