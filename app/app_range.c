/* A time range of the timeline (app/range.h): v on its first row and v on
 * its last; the timeline then shows what overlaps it (with the filter and
 * the findings mode on top) until Esc; = notes and + tags the range in the
 * run's review file (docs/review-file.md: an item and a "to"). */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "importers/review.h"
#include "model/evid.h"
#include "model/review.h"
#include "app/app_internal.h"
#include "app/app_review.h"

static void say_range(struct sbx_app *a, const char *how)
{
    char b[64], c[64], n[32];
    sbx_app_message(a, false, "%s %s to %s: %s event%s (Esc clears)", how,
                    sbx_clock(a->range.from, a->opts.local, b), sbx_clock(a->range.to, a->opts.local, c),
                    sbx_thousands(sbx_app_count(a), n), sbx_app_count(a) == 1 ? "" : "s");
}

/* The range made again from its rows (after new data); false when it has
 * no time. */
bool sbx_app_range_remake(struct sbx_app *a)
{
    if (!a->range_on)
        return false;
    if (!a->range_rows[0] || !a->range_rows[1] ||
        !sbx_range_between(a->range_rows[0], a->range_rows[1], &a->range, NULL)) {
        a->range_on = false;
        return false;
    }
    return true;
}

unsigned sbx_app_key_range(struct sbx_app *a, int key)
{
    (void)key;
    const struct sbx_event *e = sbx_app_event(a, a->cur);
    if (!e) {
        sbx_app_message(a, false, "no event to start a range on");
        return 0;
    }
    if (!a->range_first) {
        a->range_first = e;
        sbx_app_message(a, false, "range from this row: v on its last row (Esc clears)");
        return 0;
    }
    struct sbx_range r;
    bool swapped;
    if (!sbx_range_between(a->range_first, e, &r, &swapped)) {
        a->range_first = NULL;
        sbx_app_message(a, true, "neither row has a time: no range");
        return 0;
    }
    a->range_rows[0] = swapped ? e : a->range_first;
    a->range_rows[1] = swapped ? a->range_first : e;
    a->range_first = NULL;
    a->range = r;
    a->range_on = true;
    sbx_app_apply_filter(a);
    say_range(a, "range");
    return 0;
}

bool sbx_app_range_clear(struct sbx_app *a)
{
    if (!a->range_first && !a->range_on)
        return false;
    bool was_on = a->range_on;
    a->range_first = NULL;
    a->range_on = false;
    if (was_on)
        sbx_app_apply_filter(a);
    sbx_app_message(a, false, "range cleared");
    return true;
}

static unsigned range_prompt(struct sbx_app *a, int kind)
{
    if (!a->range_on) {
        sbx_app_message(a, true, "no range: v on its first row, v on its last");
        return 0;
    }
    if (!sbx_app_review_can_write(a))
        return 0;
    a->prompt = kind;
    sbx_buf_clear(&a->input);
    return 0;
}

unsigned sbx_app_key_range_note(struct sbx_app *a, int key) { (void)key; return range_prompt(a, '='); }
unsigned sbx_app_key_range_tag(struct sbx_app *a, int key) { (void)key; return range_prompt(a, '+'); }

void sbx_app_range_accept(struct sbx_app *a, int kind, const char *text)
{
    if (!a->range_on || !a->tl)
        return;
    if (kind == '+' && !sbx_review_tag_valid(text)) {
        sbx_app_message(a, true, "a tag is 1 to 64 of A-Z a-z 0-9 . _ : -");
        return;
    }
    if (kind == '=' && !*text) {
        sbx_app_message(a, false, "an empty note: nothing written");
        return;
    }
    char from[SBX_EVID_LEN], to[SBX_EVID_LEN];
    sbx_event_id(a->tl, a->range_rows[0], from);
    sbx_event_id(a->tl, a->range_rows[1], to);
    bool one = strcmp(from, to) == 0; /* a range of one row is that event */
    if (sbx_app_review_range(a, kind == '=', from, one ? NULL : to, text))
        sbx_app_message(a, false, "%s the range %s..%s", kind == '=' ? "noted" : "tagged", from, to);
}
