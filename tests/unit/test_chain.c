/* The story's links (analyses/chain.h): the table in cases/chain.test, run
 * over logs written to a folder and read as a run is; the bundled
 * story-run; and a run whose Runtime sources are 45 s off the wrapper's
 * clock, which link once the clocks are aligned. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "analyses/chain.h"
#include "analyses/summary.h"
#include "importers/load.h"
#include "render/findings.h"
#include "cases.h"

struct run {
    struct sbx_timeline tl;
    struct sbx_summary sum;
};

static void load(struct run *r, const char *const *paths, size_t n)
{
    sbx_timeline_init(&r->tl);
    struct sbx_load_opts opts = {.threads = 1};
    struct sbx_load_report rep = {0};
    assert_true(sbx_load_paths(&r->tl, paths, n, &opts, &rep) >= n);
    sbx_load_report_free(&rep);
    char err[128];
    assert_true(sbx_summarize(&r->tl, NULL, &r->sum, err, sizeof err));
}

static void drop(struct run *r)
{
    sbx_summary_free(&r->sum);
    sbx_timeline_free(&r->tl);
}

/* "r:3": the first letter of the source's file name and the line. */
static void where(const struct sbx_timeline *tl, const struct sbx_event *e, struct sbx_buf *b)
{
    const char *p = tl->sources[e->source].path, *slash = strrchr(p, '/');
    sbx_buf_addf(b, "%c:%u", slash ? slash[1] : p[0], sbx_ev_line_no(e));
}

static void story_text(const struct run *r, struct sbx_buf *b)
{
    const struct sbx_story *s = &r->sum.story;
    for (size_t i = 0; i < s->n; i++) {
        const struct sbx_story_item *it = &s->items[i];
        if (i)
            sbx_buf_adds(b, " | ");
        where(&r->tl, it->event, b);
        sbx_buf_addf(b, " %s", it->finding ? sbx_finding_of(it->finding)->name : "reached");
        for (size_t k = 0; k < it->nlinks; k++) {
            sbx_buf_addf(b, " %s>", sbx_link_name(it->links[k].kind));
            where(&r->tl, it->links[k].event, b);
            assert_true(it->links[k].evidence[0]); /* every link names its evidence */
        }
    }
}

/* check's reached-after lines (render/findings.h) are the story's "widened
 * before" links, one each, in order: the event, the words of what got
 * through, the link's evidence; returns how many. */
static size_t check_reached(const struct run *r)
{
    struct sbx_findings got = {0};
    sbx_findings_reached(&r->tl, &r->sum, &got);
    size_t k = 0;
    for (size_t i = 0; i < r->sum.story.n; i++) {
        const struct sbx_story_item *it = &r->sum.story.items[i];
        for (size_t j = 0; j < it->nlinks; j++) {
            if (it->links[j].kind != SBX_LINK_WIDENED_BEFORE)
                continue;
            assert_true(k < got.n);
            assert_ptr_equal(got.f[k].event, it->event);
            assert_int_equal(got.f[k].kind, 0);
            assert_non_null(strstr(got.f[k].evidence, ": reached after the allow list was widened: "));
            assert_non_null(strstr(got.f[k].evidence, it->links[j].evidence));
            const char *what = it->event->kind == SBX_EV_COMMAND ? " exited 0: " : " through the proxy: ";
            assert_non_null(strstr(got.f[k].evidence, what));
            k++;
        }
    }
    assert_int_equal(got.n, k);
    sbx_findings_free(&got);
    return k;
}

static void write_file(const char *path, const char *s, size_t n)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(s, 1, n, f), n);
    fclose(f);
}

static void check_case(const struct test_case *c, void *ctx)
{
    (void)ctx;
    case_want_fields(c, 5);
    char dir[] = "/tmp/sbx-chain-XXXXXX";
    assert_non_null(mkdtemp(dir));
    static const char *const names[] = {"r.jsonl", "a.jsonl", "c.jsonl", "p.log"};
    char paths[4][64];
    const char *list[4];
    size_t n = 0;
    for (int i = 0; i < 4; i++) {
        snprintf(paths[i], sizeof paths[i], "%s/%s", dir, names[i]);
        if (!c->len[i])
            continue;
        write_file(paths[i], c->field[i], c->len[i]);
        list[n++] = paths[i];
    }
    struct run r;
    load(&r, list, n);
    struct sbx_buf got = SBX_BUF_INIT;
    story_text(&r, &got);
    if (strcmp(got.p ? got.p : "", c->field[4]) != 0)
        case_fail(c, "the story is\n  %s\nnot\n  %s", got.p ? got.p : "", c->field[4]);
    /* each "reached" of the story is a line of check's */
    size_t reached = 0;
    for (const char *p = c->field[4]; (p = strstr(p, "widened-before>")); p++)
        reached++;
    if (check_reached(&r) != reached)
        case_fail(c, "check's reached-after lines are not the story's %zu", reached);
    sbx_buf_free(&got);
    drop(&r);
    for (int i = 0; i < 4; i++)
        unlink(paths[i]);
    rmdir(dir);
}

static void chain_cases(void **state)
{
    (void)state;
    assert_true(cases_run("chain.test", check_case, NULL) >= 6);
}

static const struct sbx_story_link *link_of(const struct sbx_story_item *it, enum sbx_link_kind k)
{
    for (size_t i = 0; it && i < it->nlinks; i++)
        if (it->links[i].kind == k)
            return &it->links[i];
    return NULL;
}

/* Whether the item links to ev by a link of kind k. */
static bool links_to(const struct sbx_story_item *it, enum sbx_link_kind k, const struct sbx_event *ev)
{
    for (size_t i = 0; it && i < it->nlinks; i++)
        if (it->links[i].kind == k && it->links[i].event == ev)
            return true;
    return false;
}

static const struct sbx_story_item *item_with(const struct run *r, uint32_t finding)
{
    for (size_t i = 0; i < r->sum.story.n; i++)
        if (r->sum.story.items[i].finding == finding)
            return &r->sum.story.items[i];
    return NULL;
}

/* The bundled story: refused, widened from inside, reached, python3 in a gap
 * of the wrapper's log and node outside it, both under the same key. */
static void story_run(void **state)
{
    (void)state;
    const char *p[] = {"tests/fixtures/story-run"};
    struct run r;
    load(&r, p, 1);
    const struct sbx_story_item *change = item_with(&r, SBX_F_ACCOUNT_INSIDE),
                                *refused = item_with(&r, SBX_F_REFUSED_HOST),
                                *outside = item_with(&r, SBX_F_OUTSIDE_WRAPPER),
                                *removed = item_with(&r, SBX_F_REMOVED_FROM_LOG);
    assert_non_null(change);
    assert_ptr_equal(link_of(refused, SBX_LINK_WIDENED_BY)->event, change->event);
    assert_ptr_equal(link_of(change, SBX_LINK_REFUSED_BEFORE)->event, refused->event);
    const struct sbx_story_link *reach = link_of(change, SBX_LINK_REACHED_AFTER);
    assert_non_null(reach);
    assert_int_equal(sbx_cmd_exit(&reach->event->u.cmd), 0);
    assert_non_null(outside);
    assert_non_null(removed);
    assert_true(links_to(change, SBX_LINK_KEY_COMMAND, outside->event));
    assert_true(links_to(change, SBX_LINK_KEY_COMMAND, removed->event));
    assert_non_null(strstr(link_of(outside, SBX_LINK_KEY_ENTRY)->evidence, "key_ci_9Lm"));
    assert_non_null(strstr(link_of(removed, SBX_LINK_KEY_ENTRY)->evidence, "key_ci_9Lm"));
    const struct sbx_story_item *reached = sbx_story_item_of(&r.sum.story, reach->event);
    assert_non_null(reached);
    assert_int_equal(reached->finding, 0);
    assert_ptr_equal(link_of(reached, SBX_LINK_WIDENED_BEFORE)->event, change->event);
    drop(&r);
}

/* Runtime's sources run 45 s ahead of the wrapper: on their own clock the
 * change comes 45 s after the refusal and after the second command; once
 * aligned it is 0.46 s after the refusal and links to it. */
static void shifted_clock(void **state)
{
    (void)state;
    const char *p[] = {"tests/fixtures/runtime-run-shifted"};
    struct run r;
    load(&r, p, 1);
    const struct sbx_story_item *change = item_with(&r, SBX_F_ACCOUNT_INSIDE),
                                *refused = item_with(&r, SBX_F_REFUSED_HOST);
    assert_non_null(change);
    assert_non_null(refused);
    assert_true(change->event->start - refused->event->start < 1000000000);
    assert_ptr_equal(link_of(refused, SBX_LINK_WIDENED_BY)->event, change->event);
    assert_ptr_equal(link_of(change, SBX_LINK_REFUSED_BEFORE)->event, refused->event);
    const struct sbx_story_item *outside = item_with(&r, SBX_F_OUTSIDE_WRAPPER);
    assert_ptr_equal(link_of(outside, SBX_LINK_KEY_ENTRY)->event, change->event);
    drop(&r);
}

/* Forty requests that reach a widened host: sixteen become items, the
 * change lists sixteen links and counts the rest. */
static void bounded(void **state)
{
    (void)state;
    char dir[] = "/tmp/sbx-chain-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char rpath[64], apath[64];
    snprintf(rpath, sizeof rpath, "%s/r.jsonl", dir);
    snprintf(apath, sizeof apath, "%s/a.jsonl", dir);
    struct sbx_buf b = SBX_BUF_INIT;
    for (int i = 0; i < 40; i++)
        sbx_buf_addf(&b, "{\"at\": \"2026-06-02T10:00:%02d.100Z\", \"sandbox\": \"sb1\", \"kind\": \"command\", "
                         "\"command\": \"curl https://paste.example.com/%d\", \"exit\": 0, \"ms\": 10}\n", 10 + i, i);
    write_file(rpath, b.p, b.len);
    sbx_buf_clear(&b);
    sbx_buf_adds(&b, "{\"seq\": \"1\", \"at\": \"2026-06-02T10:00:01.000Z\", \"action\": \"network.rules_changed\", "
                     "\"detail\": {\"allow\": {\"added\": [\"paste.example.com\"]}}, \"sandbox\": \"sb1\"}\n");
    write_file(apath, b.p, b.len);
    sbx_buf_free(&b);
    const char *list[] = {rpath, apath};
    struct run r;
    load(&r, list, 2);
    const struct sbx_story_item *change = item_with(&r, SBX_F_ACCOUNT_INSIDE);
    assert_non_null(change);
    assert_int_equal(r.sum.story.n, 1 + 16);
    assert_int_equal(change->nlinks, 16);
    assert_int_equal(change->more, 40 - 16);
    drop(&r);
    unlink(rpath);
    unlink(apath);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(chain_cases),
        cmocka_unit_test(story_run),
        cmocka_unit_test(shifted_clock),
        cmocka_unit_test(bounded),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
