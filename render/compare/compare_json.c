/* The comparison as JSON, schema 1 (the README documents every member).
 * Pure ASCII (base/jsonw.h); command lines with secrets redacted.
 * Indexes are 1-based positions in each run's command list. */
#include <string.h>

#include "base/numfmt.h"
#include "base/timefmt.h"
#include "render/compare/compare_common.h"
#include "render/skips.h"
#include "render/untrusted.h"
#include "base/jsonw.h"

static void command(struct sbx_cmpctx *x, struct sbx_jsonw *w, int side, size_t i)
{
    size_t n;
    const char *s = sbx_cmp_cmdline(x, side, i, &n);
    sbx_untrusted_json(w, s, n);
}

static void index_or_null(struct sbx_jsonw *w, const char *key, size_t i)
{
    sbx_jw_key(w, key);
    if (i == SBX_CMP_NONE)
        sbx_jw_null(w);
    else
        sbx_jw_int(w, (int64_t)i + 1);
}

/* One command as a row shows it: command, exit, timed_out, ms, failed. */
static void cmd_object(struct sbx_cmpctx *x, struct sbx_jsonw *w, int side, size_t i)
{
    if (i == SBX_CMP_NONE) {
        sbx_jw_null(w);
        return;
    }
    const struct sbx_event *e = sbx_cmp_event(x, side, i);
    const struct sbx_command *c = &e->u.cmd;
    sbx_jw_object(w);
    sbx_jw_key(w, "index");
    sbx_jw_int(w, (int64_t)i + 1);
    sbx_jw_key(w, "command");
    command(x, w, side, i);
    sbx_jw_key(w, "exit");
    if (c->flags & SBX_CMD_EXIT_KNOWN)
        sbx_jw_int(w, sbx_cmd_exit(c));
    else
        sbx_jw_null(w);
    sbx_jw_key(w, "timed_out");
    sbx_jw_bool(w, c->flags & SBX_CMD_TIMED_OUT);
    sbx_jw_key(w, "ms");
    if (c->flags & SBX_CMD_MS_KNOWN)
        sbx_jw_int(w, sbx_cmd_ms(c));
    else
        sbx_jw_null(w);
    sbx_jw_key(w, "failed");
    sbx_jw_bool(w, side ? x->c->cmd_b[i].failed : x->c->cmd_a[i].failed);
    sbx_jw_end_object(w);
}

static void run_object(struct sbx_cmpctx *x, struct sbx_jsonw *w, int side)
{
    const struct sbx_cmp_run *r = x->run[side];
    const struct sbx_summary *s = r->sum;
    size_t n = side ? x->c->nb : x->c->na, failed = 0;
    for (size_t i = 0; i < n; i++)
        failed += side ? x->c->cmd_b[i].failed : x->c->cmd_a[i].failed;
    char t[SBX_TIME_BUFSZ];
    sbx_jw_object(w);
    sbx_jw_key(w, "name");
    sbx_untrusted_json_cstr(w, r->name);
    sbx_jw_key(w, "start");
    sbx_untrusted_json_cstr(w, s->start != SBX_TIME_UNKNOWN ? sbx_time_format(s->start, t) : NULL);
    sbx_jw_key(w, "end");
    sbx_untrusted_json_cstr(w, s->end != SBX_TIME_UNKNOWN ? sbx_time_format(s->end, t) : NULL);
    sbx_jw_key(w, "commands");
    sbx_jw_int(w, (int64_t)n);
    sbx_jw_key(w, "failed");
    sbx_jw_int(w, (int64_t)failed);
    sbx_skips_json(r->tl, r->sum, w);
    sbx_jw_end_object(w);
}

static void diff_array(struct sbx_jsonw *w, unsigned diff)
{
    static const char *const names[] = {"exit", "duration", "stdout_hash", "output"};
    sbx_jw_array(w);
    for (unsigned b = 0; b < 4; b++)
        if (diff & (1u << b))
            sbx_untrusted_json_cstr(w, names[b]);
    sbx_jw_end_array(w);
}

static void rows(struct sbx_cmpctx *x, struct sbx_jsonw *w)
{
    const struct sbx_compare *c = x->c;
    sbx_jw_key(w, "rows");
    sbx_jw_array(w);
    for (size_t r = 0; r < c->nrows; r++) {
        const struct sbx_cmp_row *row = &c->rows[r];
        sbx_jw_object(w);
        sbx_jw_key(w, "kind");
        sbx_untrusted_json_cstr(w, sbx_cmp_kind_name(row->kind));
        sbx_jw_key(w, "a");
        cmd_object(x, w, 0, row->a);
        sbx_jw_key(w, "b");
        cmd_object(x, w, 1, row->b);
        sbx_jw_key(w, "differs");
        diff_array(w, row->diff);
        sbx_jw_key(w, "duration_ratio_pct");
        if (row->ratio > 0)
            sbx_jw_int(w, sbx_round_nearest(row->ratio * 100));
        else
            sbx_jw_null(w);
        index_or_null(w, "partner_row", row->partner);
        sbx_jw_end_object(w);
    }
    sbx_jw_end_array(w);
}

static void cmd_list(struct sbx_cmpctx *x, struct sbx_jsonw *w, const char *key, int side,
                     const size_t *list, size_t n)
{
    sbx_jw_key(w, key);
    sbx_jw_array(w);
    for (size_t i = 0; i < n; i++)
        cmd_object(x, w, side, list[i]);
    sbx_jw_end_array(w);
}

static void counts(struct sbx_jsonw *w, const char *key, const char *name_key,
                   const struct sbx_cmp_count *v, size_t n)
{
    sbx_jw_key(w, key);
    sbx_jw_array(w);
    for (size_t i = 0; i < n; i++) {
        sbx_jw_object(w);
        sbx_jw_key(w, name_key);
        sbx_untrusted_json_cstr(w, v[i].name);
        sbx_jw_key(w, "a");
        sbx_jw_int(w, (int64_t)v[i].a);
        sbx_jw_key(w, "b");
        sbx_jw_int(w, (int64_t)v[i].b);
        sbx_jw_end_object(w);
    }
    sbx_jw_end_array(w);
}

static void host_flags(struct sbx_jsonw *w, unsigned f)
{
    sbx_jw_array(w);
    if (f & SBX_CMP_H_REACHED)
        sbx_untrusted_json_cstr(w, "reached");
    if (f & SBX_CMP_H_REFUSED)
        sbx_untrusted_json_cstr(w, "refused");
    sbx_jw_end_array(w);
}

static void change_or_null(struct sbx_jsonw *w, const char *key, int change)
{
    sbx_jw_key(w, key);
    sbx_untrusted_json_cstr(w, change >= 0 ? sbx_cmp_change_name(change) : NULL);
}

static void findings(const struct sbx_compare *c, struct sbx_jsonw *w)
{
    sbx_jw_key(w, "findings");
    sbx_jw_array(w);
    for (size_t i = 0; i < sbx_nfindings; i++) {
        unsigned bit = (unsigned)__builtin_ctz(sbx_findings[i].bit);
        if (!c->findings_a[bit] && !c->findings_b[bit])
            continue;
        sbx_jw_object(w);
        sbx_jw_key(w, "kind");
        sbx_untrusted_json_cstr(w, sbx_findings[i].name);
        sbx_jw_key(w, "a");
        sbx_jw_int(w, (int64_t)c->findings_a[bit]);
        sbx_jw_key(w, "b");
        sbx_jw_int(w, (int64_t)c->findings_b[bit]);
        sbx_jw_key(w, "new_in_b");
        sbx_jw_bool(w, c->findings_new & (1u << bit));
        sbx_jw_key(w, "checked_in_a"); /* false: A's sources cannot tell this kind */
        sbx_jw_bool(w, c->checkable_a & (1u << bit));
        sbx_jw_key(w, "checked_in_b");
        sbx_jw_bool(w, c->checkable_b & (1u << bit));
        sbx_jw_end_object(w);
    }
    sbx_jw_end_array(w);
}

void sbx_render_compare_json(struct sbx_cmpctx *x, struct sbx_buf *out)
{
    const struct sbx_compare *c = x->c;
    struct sbx_jsonw w;
    sbx_jw_init(&w, out, true);
    sbx_jw_object(&w);
    sbx_jw_key(&w, "schema");
    sbx_jw_int(&w, 1);
    sbx_jw_key(&w, "same");
    sbx_jw_bool(&w, sbx_compare_same(c));
    sbx_jw_key(&w, "a");
    run_object(x, &w, 0);
    sbx_jw_key(&w, "b");
    run_object(x, &w, 1);
    sbx_jw_key(&w, "counts");
    sbx_jw_object(&w);
    for (int k = 0; k < SBX_CMP_KIND_COUNT; k++) {
        sbx_jw_key(&w, sbx_cmp_kind_name(k));
        sbx_jw_int(&w, (int64_t)c->count[k]);
    }
    sbx_jw_end_object(&w);
    cmd_list(x, &w, "only_a", 0, c->only_a, c->nonly_a);
    cmd_list(x, &w, "only_b", 1, c->only_b, c->nonly_b);
    cmd_list(x, &w, "failures_new", 1, c->fail_new, c->nfail_new);
    cmd_list(x, &w, "failures_gone", 0, c->fail_gone, c->nfail_gone);
    sbx_jw_key(&w, "files");
    sbx_jw_array(&w);
    for (size_t i = 0; i < c->nfiles; i++) {
        sbx_jw_object(&w);
        sbx_jw_key(&w, "path");
        sbx_untrusted_json_cstr(&w, c->files[i].path);
        sbx_jw_key(&w, "system");
        sbx_jw_bool(&w, c->files[i].system);
        change_or_null(&w, "a", c->files[i].change_a);
        change_or_null(&w, "b", c->files[i].change_b);
        sbx_jw_end_object(&w);
    }
    sbx_jw_end_array(&w);
    sbx_jw_key(&w, "hosts");
    sbx_jw_array(&w);
    for (size_t i = 0; i < c->nhosts; i++) {
        sbx_jw_object(&w);
        sbx_jw_key(&w, "host");
        sbx_untrusted_json_cstr(&w, c->hosts[i].host);
        sbx_jw_key(&w, "a");
        host_flags(&w, c->hosts[i].a);
        sbx_jw_key(&w, "b");
        host_flags(&w, c->hosts[i].b);
        sbx_jw_end_object(&w);
    }
    sbx_jw_end_array(&w);
    counts(&w, "account", "action", c->account, c->naccount);
    counts(&w, "secrets", "secret", c->secrets, c->nsecrets);
    findings(c, &w);
    rows(x, &w);
    sbx_jw_end_object(&w);
    sbx_buf_addc(out, '\n');
}
