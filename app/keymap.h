/* The key map: every action, the views it works in, what it does, and its
 * keys. The help view is generated from this same table, so it cannot fall
 * out of date. Internal to tui/. */
#ifndef SBX_KEYMAP_H
#define SBX_KEYMAP_H

#include "app/keys.h"

/* Views, as bits, for where an action applies. */
enum {
    V_TIMELINE = 1, V_DETAIL = 2, V_SUMMARY = 4, V_HELP = 8,
    V_FILES = 16,   /* the files view (the tree) */
    V_NETWORK = 32, /* the network view */
    V_FILE = 64,    /* one file's changes and diff */
    V_EXPORT = 128, /* the request an export would send */
    V_ALL = 255, V_SCROLL = 255,
    V_COUNT = 8     /* views */
};

/* X(ACTION, views, help text, keys...) — at most four keys, 0 for none. */
#define SBX_KEYMAP(X)                                                                          \
    X(DOWN, V_SCROLL, "down one line", 'j', SBX_KEY_DOWN, 0, 0)                                \
    X(UP, V_SCROLL, "up one line", 'k', SBX_KEY_UP, 0, 0)                                      \
    X(PAGE_DOWN, V_SCROLL, "down one screen", ' ', SBX_KEY_PGDN, 'f' & 0x1f, 0)                \
    X(PAGE_UP, V_SCROLL, "up one screen", 'b', SBX_KEY_PGUP, 'b' & 0x1f, 0)                    \
    X(HALF_DOWN, V_SCROLL, "down half a screen", 'd' & 0x1f, 0, 0, 0)                          \
    X(HALF_UP, V_SCROLL, "up half a screen", 'u' & 0x1f, 0, 0, 0)                             \
    X(TOP, V_SCROLL, "to the first line", 'g', SBX_KEY_HOME, '<', 0)                           \
    X(BOTTOM, V_SCROLL, "to the last line", 'G', SBX_KEY_END, '>', 0)                          \
    X(OPEN, V_TIMELINE | V_SUMMARY | V_FILES | V_NETWORK,                                    \
      "open: an event's detail, a summary line's events, a file's changes and diff (a "       \
      "folder: fold or unfold), a host's events",                                              \
      SBX_KEY_ENTER, 0, 0, 0)                                                                  \
    X(FOLD, V_FILES, "fold the folder (on a file: go to its folder)", SBX_KEY_LEFT, 'h', 0, 0) \
    X(UNFOLD, V_FILES, "unfold the folder", SBX_KEY_RIGHT, 'l', 0, 0)                          \
    X(RAW, V_DETAIL, "the raw line as recorded, or back to the fields", 'o', 0, 0, 0)          \
    X(SUMMARY, V_ALL, "the run's summary", 's', 0, 0, 0)                                      \
    X(FILES, V_ALL, "the files view: the run's file changes as a tree", SBX_KEY_F2, 0, 0, 0)   \
    X(NETWORK, V_ALL, "the network view: every host, refused first", SBX_KEY_F3, 0, 0, 0)      \
    X(NEXT_VIEW, V_ALL, "the next view: timeline, files, network", SBX_KEY_TAB, 0, 0, 0)       \
    X(HELP, V_ALL, "this help", '?', SBX_KEY_F1, 0, 0)                                         \
    X(SEARCH, V_TIMELINE | V_DETAIL, "search forward (PCRE2; lower case ignores case)", '/',  \
      0, 0, 0)                                                                                 \
    X(SEARCH_BACK, V_TIMELINE | V_DETAIL, "search backward", SBX_KEY_ALT_SLASH, '\\', 0, 0)    \
    X(NEXT_MATCH, V_TIMELINE | V_DETAIL, "next match", 'n', 0, 0, 0)                           \
    X(PREV_MATCH, V_TIMELINE | V_DETAIL, "previous match", 'N', 0, 0, 0)                       \
    X(FILTER, V_TIMELINE,                                                                      \
      "filter: pattern, finding word (failed, refused, unlisted, secret, system, ...), "       \
      "kind:, host:, sandbox:, program:, exit:, since:, until:, !term; empty clears",          \
      '&', 0, 0, 0)                                                                            \
    X(FINDINGS, V_TIMELINE, "cycle: all events, events with findings, serious findings only", \
      'f', 0, 0, 0)                                                                            \
    X(NEXT_FINDING, V_TIMELINE, "next event with a finding", ']', 0, 0, 0)                     \
    X(PREV_FINDING, V_TIMELINE, "previous event with a finding", '[', 0, 0, 0)                 \
    X(MARK, V_TIMELINE, "mark this event: m then a letter", 'm', 0, 0, 0)                      \
    X(GOTO_MARK, V_TIMELINE, "back to a mark: ' then its letter", '\'', 0, 0, 0)               \
    X(FOLLOW, V_TIMELINE, "follow the log as it grows (tail -f), or stop", 'F', 0, 0, 0)       \
    X(EXPORT, V_TIMELINE | V_DETAIL | V_SUMMARY | V_FILES | V_NETWORK | V_FILE,                 \
      "export the summary: a target (github:O/R#N, gitlab:G/P#N, jira:KEY-1, slack:, "         \
      "file:PATH), then the exact request to confirm",                                         \
      'e', 0, 0, 0)                                                                            \
    X(SEND, V_EXPORT, "send the export shown (q or Esc cancels)", 'y', SBX_KEY_ENTER, 0, 0)    \
    X(REDRAW, V_ALL, "redraw the screen", 'l' & 0x1f, 0, 0, 0)                                 \
    X(BACK, V_ALL, "back to the previous view; q in the timeline quits; Esc stops a search", \
      'q', SBX_KEY_ESC, 0, 0)                                                                  \
    X(QUIT, V_ALL, "quit at once", 'Q', 0, 0, 0)

enum sbx_action {
    SBX_ACT_NONE,
#define SBX_ACTION_ENUM(a, views, help, k1, k2, k3, k4) SBX_ACT_##a,
    SBX_KEYMAP(SBX_ACTION_ENUM)
#undef SBX_ACTION_ENUM
    SBX_ACT_COUNT
};

struct sbx_keymap_entry {
    enum sbx_action action;
    unsigned views;
    const char *help;
    int keys[4];
};

extern const struct sbx_keymap_entry sbx_keymap[];
extern const size_t sbx_keymap_len;

/* The action of key in view (a V_* bit), or SBX_ACT_NONE. */
enum sbx_action sbx_keymap_find(int key, unsigned view);

#endif
