/* Differential fuzz target: every vector path against its scalar twin
 * (base/simd.h) on the same bytes — hidden text, the refusal pre-pass, the
 * JSON string decoder, the scanner's strings and lines, the secrets
 * prefilter (tests/fuzz/simd_twins.h) — and the search's literal: the input
 * up to its first newline (at most 64 bytes) is a pattern, the rest the text
 * it is looked for in, caseless when the pattern's first byte is odd.
 * Aborts naming the first function whose twins disagree. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/fuzz/simd_twins.h"

static struct twins_ctx *ctx;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    ctx = twins_new();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* an exact-size copy, so reading past the end is ASan's to find */
    char *s = malloc(size ? size : 1);
    memcpy(s, data, size);
    const char *bad = twins_differ(ctx, s, size);
    const char *nl = memchr(s, '\n', size < 65 ? size : 65);
    if (!bad && nl && nl > s) {
        size_t plen = (size_t)(nl - s);
        bad = twins_lit_differ(s, plen, s[0] & 1, nl + 1, size - plen - 1);
    }
    if (bad) {
        fprintf(stderr, "the vector and scalar twins of %s differ\n", bad);
        abort();
    }
    free(s);
    return 0;
}
