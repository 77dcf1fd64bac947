/* Fuzz target for model/shell and analyses/risky: any bytes, no crash, every
 * index in range, nesting bounded, and the kinds found only risky ones,
 * each with a reason. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analyses/risky.h"
#include "model/shell.h"

static struct sbx_sh sh = SBX_SH_INIT;
static struct sbx_risky_scanner *scanner;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *cmd = (const char *)data;
    sbx_sh_parse(&sh, cmd, size);
    for (size_t i = 0; i < sh.ncmds; i++) {
        const struct sbx_sh_cmd *c = &sh.cmds[i];
        if (c->depth > SBX_SH_MAX_DEPTH || c->word + (size_t)c->nwords > sh.nargv ||
            c->redir + (size_t)c->nredir > sh.nredirs || c->nassign > c->nwords)
            abort();
        if (c->parent != SBX_SH_NONE && (c->parent >= i || sh.cmds[c->parent].depth + 1 != c->depth))
            abort();
        if (c->pipe_to != SBX_SH_NONE && (c->pipe_to <= i || sh.cmds[c->pipe_to].pipe_from != i))
            abort();
        for (size_t k = 0; k < c->nwords; k++)
            if (sh.argv[c->word + k] >= sh.nwords)
                abort();
        for (size_t k = 0; k < c->nredir; k++)
            if (sh.redirs[c->redir + k].word >= sh.nwords)
                abort();
        if (sbx_sh_program(&sh, c) > c->nwords)
            abort();
    }
    for (size_t w = 0; w < sh.nwords; w++)
        if (sh.words[w].off + (size_t)sh.words[w].len >= sh.text.len + 1)
            abort();
    if (!scanner)
        scanner = sbx_risky_scanner_new((const char *const[]){"agent-run.jsonl"}, 1);
    struct sbx_risky_why why;
    uint32_t k = sbx_risky_command(scanner, cmd, size, &why);
    if ((k & ~SBX_F_RISKY) || why.kinds != k)
        abort();
    for (uint32_t b = k; b; b &= b - 1)
        if (!why.why[sbx_risky_slot(b & -b)][0])
            abort();
    char line[64];
    sbx_risky_hosts_text(cmd, size, line, sizeof line);
    return 0;
}
