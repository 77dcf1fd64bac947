/* The key map: every action, the group of keys it is in, what it does, the
 * function that does it, and its keys. A view takes the groups its ops name
 * (app/view.h: .keys), so a key works alike in every view that takes its
 * group; the help is generated from this same table and the views' names,
 * so it cannot fall out of date. Internal to app/. Nothing returned needs
 * freeing. */
#ifndef SBX_KEYMAP_H
#define SBX_KEYMAP_H

#include <stddef.h>

#include "app/keys.h"

/* Groups of keys, as bits. */
enum {
    SBX_KEYS_MOVE = 1u << 0,   /* lines, pages, the ends */
    SBX_KEYS_ALWAYS = 1u << 1, /* help, redraw, back, quit */
    SBX_KEYS_GOTO = 1u << 2,   /* to the summary, files, network views */
    SBX_KEYS_OPEN = 1u << 3,   /* Enter opens what is selected */
    SBX_KEYS_FOLD = 1u << 4,   /* a tree's folders */
    SBX_KEYS_RAW = 1u << 5,    /* an event's raw line */
    SBX_KEYS_SEARCH = 1u << 6, /* search and its matches */
    SBX_KEYS_EVENTS = 1u << 7, /* the timeline's filter, findings, marks, following */
    SBX_KEYS_EXPORT = 1u << 8, /* e */
    SBX_KEYS_SEND = 1u << 9,   /* an export's confirmation */
    SBX_KEYS_BACK = 1u << 10,  /* q in one run's views */
    /* the runs list and the compare view (app/app_runs.h) */
    SBX_KEYS_RUNS_OPEN = 1u << 11, /* Enter on a run or a compared pair */
    SBX_KEYS_RUNS = 1u << 12,      /* the runs list's marks, sort and filter */
    SBX_KEYS_DIFFS = 1u << 13,     /* the compare view's differences */
    SBX_KEYS_RUNS_BACK = 1u << 14, /* q in the runs list and the compare view */
    SBX_KEYS_LINKS = 1u << 15,     /* the detail's links: select, follow, come back */
    SBX_KEYS_REVIEW = 1u << 16,    /* the review of the selected event: note, tags, triage */
    SBX_KEYS_COPY = 1u << 17,      /* copying the selected event out */
};

/* X(ACTION, group, help text, run, runs, keys...) — at most four keys, 0
 * for none. run is the handler in one run's views (app/app_keys.c), runs
 * the handler in the runs list and the compare view (app/app_runs.c);
 * NULL where no screen of that kind takes the group. When two actions of
 * one screen share a key, the later row's wins (the runs list's < and >
 * sort rather than go to the ends). */
#define SBX_KEYMAP(X)                                                                              \
    X(DOWN, SBX_KEYS_MOVE, "down one line", key_down, runs_down, 'j', SBX_KEY_DOWN, 0, 0)                     \
    X(UP, SBX_KEYS_MOVE, "up one line", key_up, runs_up, 'k', SBX_KEY_UP, 0, 0)                             \
    X(PAGE_DOWN, SBX_KEYS_MOVE, "down one screen", key_page_down, runs_page_down, ' ', SBX_KEY_PGDN, 'f' & 0x1f, 0) \
    X(PAGE_UP, SBX_KEYS_MOVE, "up one screen", key_page_up, runs_page_up, 'b', SBX_KEY_PGUP, 'b' & 0x1f, 0)      \
    X(HALF_DOWN, SBX_KEYS_MOVE, "down half a screen", key_half_down, runs_half_down, 'd' & 0x1f, 0, 0, 0)          \
    X(HALF_UP, SBX_KEYS_MOVE, "up half a screen", key_half_up, runs_half_up, 'u' & 0x1f, 0, 0, 0)                \
    X(TOP, SBX_KEYS_MOVE, "to the first line", key_top, runs_top, 'g', SBX_KEY_HOME, '<', 0)                 \
    X(BOTTOM, SBX_KEYS_MOVE, "to the last line", key_bottom, runs_bottom, 'G', SBX_KEY_END, '>', 0)             \
    X(OPEN, SBX_KEYS_OPEN,                                                                         \
      "open: an event's detail, a summary line's events, a file's changes and diff (a "           \
      "folder: fold or unfold), a host's events",                                                  \
      key_open, NULL, SBX_KEY_ENTER, 0, 0, 0)                                                            \
    X(RUNS_OPEN, SBX_KEYS_RUNS_OPEN,                                                               \
      "runs: open the run's timeline (q comes back); on one of two marked runs, compare them; "   \
      "compare: the two outputs of the pair as a diff",                                            \
      NULL, runs_open, SBX_KEY_ENTER, 0, 0, 0)                                                     \
    X(FOLD, SBX_KEYS_FOLD, "fold the folder (on a file: go to its folder)", key_fold, NULL,              \
      SBX_KEY_LEFT, 'h', 0, 0)                                                                     \
    X(UNFOLD, SBX_KEYS_FOLD, "unfold the folder", key_unfold, NULL, SBX_KEY_RIGHT, 'l', 0, 0)            \
    X(RAW, SBX_KEYS_RAW, "the raw line as recorded, or back to the fields", key_raw, NULL, 'o', 0, 0, 0) \
    X(RUNS_MARK, SBX_KEYS_RUNS, "mark the run, or unmark it (the first marked is A, the second B)", \
      NULL, runs_mark, 'm', 0, 0, 0)                                                               \
    X(COMPARE, SBX_KEYS_RUNS, "compare the two marked runs", NULL, runs_compare, 'c', 0, 0, 0)     \
    X(SORT_LEFT, SBX_KEYS_RUNS, "sort by the column to the left", NULL, runs_sort_left, '<',       \
      SBX_KEY_LEFT, 0, 0)                                                                          \
    X(SORT_RIGHT, SBX_KEYS_RUNS, "sort by the column to the right", NULL, runs_sort_right, '>',    \
      SBX_KEY_RIGHT, 0, 0)                                                                         \
    X(REVERSE, SBX_KEYS_RUNS, "reverse the sort", NULL, runs_reverse, 'r', 0, 0, 0)                \
    X(RUNS_FILTER, SBX_KEYS_RUNS,                                                                  \
      "filter: words in the run's name, or failed, refused, outside, account, secret, "           \
      "timedout, system, hidden, mismatch, findings, review:none|progress|done, "                 \
      "verdict:STATE|none; !word: not (empty clears)",                                             \
      NULL, runs_filter, '&', 0, 0, 0)                                                             \
    X(NEXT_DIFF, SBX_KEYS_DIFFS, "next difference", NULL, runs_next_diff, ']', 0, 0, 0)            \
    X(PREV_DIFF, SBX_KEYS_DIFFS, "previous difference", NULL, runs_prev_diff, '[', 0, 0, 0)        \
    X(SUMMARY, SBX_KEYS_GOTO, "the run's summary", key_summary, NULL, 's', 0, 0, 0)                      \
    X(STORY, SBX_KEYS_GOTO, "the story: the findings in time order with their links", key_story, NULL,  \
      'S', 0, 0, 0)                                                                                \
    X(LINK_NEXT, SBX_KEYS_LINKS, "select the event's next link (its Links part)", key_link_next, NULL,  \
      '}', 0, 0, 0)                                                                                \
    X(LINK_PREV, SBX_KEYS_LINKS, "select the event's previous link", key_link_prev, NULL, '{', 0, 0, 0) \
    X(LINK_FOLLOW, SBX_KEYS_LINKS, "follow the selected link to its event", key_link_follow, NULL, 'L', \
      0, 0, 0)                                                                                     \
    X(LINK_BACK, SBX_KEYS_LINKS, "back to where the last link was followed from", key_link_back, NULL, \
      SBX_KEY_BACKSPACE, '`', 0, 0)                                                                \
    X(FILES, SBX_KEYS_GOTO, "the files view: the run's file changes as a tree", key_files, NULL,        \
      SBX_KEY_F2, 0, 0, 0)                                                                         \
    X(NETWORK, SBX_KEYS_GOTO, "the network view: every host, refused first", key_network, NULL,         \
      SBX_KEY_F3, 0, 0, 0)                                                                         \
    X(NEXT_VIEW, SBX_KEYS_GOTO, "the next view: timeline, files, network", key_next_view, NULL,         \
      SBX_KEY_TAB, 0, 0, 0)                                                                        \
    X(HELP, SBX_KEYS_ALWAYS, "this help", key_help, runs_help, '?', SBX_KEY_F1, 0, 0)                         \
    X(SEARCH, SBX_KEYS_SEARCH, "search forward (PCRE2; lower case ignores case)", key_search, NULL, '/', \
      0, 0, 0)                                                                                     \
    X(SEARCH_BACK, SBX_KEYS_SEARCH, "search backward", key_search_back, NULL, SBX_KEY_ALT_SLASH, '\\',  \
      0, 0)                                                                                        \
    X(NEXT_MATCH, SBX_KEYS_SEARCH, "next match", key_next_match, NULL, 'n', 0, 0, 0)                     \
    X(PREV_MATCH, SBX_KEYS_SEARCH, "previous match", key_prev_match, NULL, 'N', 0, 0, 0)                 \
    X(FILTER, SBX_KEYS_EVENTS,                                                                     \
      "filter: pattern, finding word (failed, refused, unlisted, secret, system, ...), "           \
      "kind:, host:, sandbox:, program:, exit:, since:, until:, !term; empty clears",              \
      key_filter, NULL, '&', 0, 0, 0)                                                                    \
    X(FINDINGS, SBX_KEYS_EVENTS, "cycle: all events, events with findings, serious findings only", \
      key_findings, NULL, 'f', 0, 0, 0)                                                                  \
    X(NEXT_FINDING, SBX_KEYS_EVENTS, "next event with a finding", key_next_finding, NULL, ']', 0, 0, 0)  \
    X(PREV_FINDING, SBX_KEYS_EVENTS, "previous event with a finding", key_prev_finding, NULL, '[', 0, 0, \
      0)                                                                                           \
    X(MARK, SBX_KEYS_EVENTS, "mark this event in the review: m then a letter (m then - unmarks)",  \
      key_mark, NULL, 'm', 0, 0, 0)           \
    X(GOTO_MARK, SBX_KEYS_EVENTS, "back to a mark: ' then its letter", key_goto_mark, NULL, '\'', 0, 0, \
      0)                                                                                           \
    X(FOLLOW, SBX_KEYS_EVENTS, "follow the log as it grows (tail -f), or stop", key_follow, NULL, 'F',  \
      0, 0, 0)                                                                                     \
    X(EXPORT, SBX_KEYS_EXPORT,                                                                     \
      "export the summary: a target (github:O/R#N, gitlab:G/P#N, jira:KEY-1, slack:, "             \
      "file:PATH), then the exact request to confirm",                                             \
      key_export, NULL, 'e', 0, 0, 0)                                                                    \
    X(SEND, SBX_KEYS_SEND, "send the export shown (q or Esc cancels)", key_send, NULL, 'y',              \
      SBX_KEY_ENTER, 0, 0)                                                                         \
    X(REDRAW, SBX_KEYS_ALWAYS, "redraw the screen", key_redraw, runs_redraw, 'l' & 0x1f, 0, 0, 0)               \
    X(BACK, SBX_KEYS_BACK,                                                                       \
      "back to the previous view; q in the timeline quits; Esc stops a search", key_back, NULL, 'q',     \
      SBX_KEY_ESC, 0, 0)                                                                           \
    X(RUNS_BACK, SBX_KEYS_RUNS_BACK, "back; q in the runs list quits", NULL, runs_back, 'q',       \
      SBX_KEY_ESC, 0, 0)                                                                           \
    X(QUIT, SBX_KEYS_ALWAYS, "quit at once", key_quit, runs_quit, 'Q', 0, 0, 0)                    \
    X(NOTE, SBX_KEYS_REVIEW, "note on this event, typed in the status line (empty takes it back)", \
      key_note, NULL, 'a', 0, 0, 0)                                                                \
    X(NOTE_EDITOR, SBX_KEYS_REVIEW, "note on this event in $VISUAL or $EDITOR", key_note_editor,   \
      NULL, 'A', 0, 0, 0)                                                                          \
    X(TAG, SBX_KEYS_REVIEW, "tag this event (-tag takes one off)", key_tag, NULL, 't', 0, 0, 0)    \
    X(TRIAGE, SBX_KEYS_REVIEW,                                                                     \
      "triage this event's finding: benign, expected, suspicious, malicious, follow-up, and why",  \
      key_triage, NULL, 'T', 0, 0, 0)                                                              \
    X(VERDICT, SBX_KEYS_GOTO,                                                                      \
      "the run's verdict: clean, benign, suspicious, malicious, inconclusive, and why",            \
      key_verdict, NULL, 'V', 0, 0, 0)                                                             \
    X(REVIEW, SBX_KEYS_GOTO, "the review: verdict, triage, notes, tags, marks and their history",  \
      key_review, NULL, 'R', 0, 0, 0)                                                              \
    X(RANGE, SBX_KEYS_EVENTS,                                                                    \
      "a time range: v on its first row, v on its last; shows every event that overlaps it "      \
      "(commands still running when it began too); Esc clears",                                  \
      sbx_app_key_range, NULL, 'v', 0, 0, 0)                                                     \
    X(RANGE_NOTE, SBX_KEYS_EVENTS, "note the range (in the run's review file)",                  \
      sbx_app_key_range_note, NULL, '=', 0, 0, 0)                                                \
    X(RANGE_TAG, SBX_KEYS_EVENTS, "tag the range (in the run's review file)",                    \
      sbx_app_key_range_tag, NULL, '+', 0, 0, 0)                                                 \
    X(COPY, SBX_KEYS_COPY,                                                                       \
      "copy to the terminal's clipboard (OSC 52, where it takes it): then c the command line, "   \
      "o the output, d the detail (redacted, sanitised)",                                        \
      sbx_app_key_copy, NULL, 'Y', 0, 0, 0)                                                      \
    X(WRITE, SBX_KEYS_COPY,                                                                      \
      "write to a file (0600; y to overwrite): then c, o or d, then the path",                   \
      sbx_app_key_copy, NULL, 'w', 0, 0, 0)                                                      \
    X(PAGER, SBX_KEYS_COPY, "open in $PAGER (less): then c, o or d", sbx_app_key_copy, NULL,     \
      '|', 0, 0, 0)

enum sbx_action {
    SBX_ACT_NONE,
#define SBX_ACTION_ENUM(a, group, help, run, runs, k1, k2, k3, k4) SBX_ACT_##a,
    SBX_KEYMAP(SBX_ACTION_ENUM)
#undef SBX_ACTION_ENUM
    SBX_ACT_COUNT
};

struct sbx_keymap_entry {
    enum sbx_action action;
    unsigned group;
    const char *help;
    int keys[4];
};

extern const struct sbx_keymap_entry sbx_keymap[];
extern const size_t sbx_keymap_len;

/* The action of key in a view that takes the groups given, or SBX_ACT_NONE. */
enum sbx_action sbx_keymap_find(int key, unsigned groups);
/* Where an entry works, as bits of the screens given (screen i takes the
 * groups groups[i]). */
unsigned sbx_keymap_where(const struct sbx_keymap_entry *e, const unsigned *groups, int n);

#endif
