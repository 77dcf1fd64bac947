/* Fuzz target for analyses/writers: any bytes, with and without a cwd, no
 * crash; every target is a NUL-terminated path of its given length, not
 * under /dev/, with a rule that has words, and text of bounded length (the
 * input's, or printf's repeated format up to its 64 KiB); and where the
 * prefilter (sbx_write_may_target) says none, the full reading finds none. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analyses/writers.h"

struct ctx {
    size_t size, calls;
};

static void check(const struct sbx_write_target *t, void *p)
{
    struct ctx *c = p;
    c->calls++;
    if (!t->path || strlen(t->path) != t->len || !t->len)
        abort();
    if (t->len >= 5 && memcmp(t->path, "/dev/", 5) == 0)
        abort();
    if ((unsigned)t->rule >= SBX_WRITE_RULE_COUNT || !sbx_write_rule_words(t->rule)[0])
        abort();
    if (t->text && t->textlen > c->size + 65536 + 8)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *cmd = (const char *)data;
    struct ctx a = {size, 0}, b = {size, 0};
    size_t n = sbx_write_targets(cmd, size, "/workspace/sub", check, &a);
    size_t m = sbx_write_targets(cmd, size, NULL, check, &b);
    if (n != a.calls || m != b.calls)
        abort();
    struct ctx c = {size, 0};
    if (sbx_write_targets_read(cmd, size, "/workspace/sub", check, &c) != n ||
        (!sbx_write_may_target(cmd, size) && c.calls))
        abort();
    return 0;
}
