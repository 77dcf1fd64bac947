/* The process's one set of patterns, for text that must be redacted where no
 * summary is at hand (see sbx_secrets_redact_any in secrets.h). */
#include "analyses/secrets/secrets.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static pthread_once_t once = PTHREAD_ONCE_INIT;
static struct sbx_secrets *shared;
static pthread_key_t scratch_key;

static void free_scratch(void *sc)
{
    sbx_secrets_scratch_free(sc);
}

static void build(void)
{
    char err[256];
    shared = sbx_secrets_new(err, sizeof err);
    if (!shared) {
        /* the patterns are sbxview's own: failing to compile them is a build
         * problem, and printing log text unredacted is not an option */
        fprintf(stderr, "sbxview: the secret patterns do not compile: %s\n", err);
        abort();
    }
    if (pthread_key_create(&scratch_key, free_scratch) != 0)
        abort();
}

const struct sbx_secrets *sbx_secrets_shared(void)
{
    pthread_once(&once, build);
    return shared;
}

size_t sbx_secrets_redact_any(const char *text, size_t n, struct sbx_buf *out)
{
    const struct sbx_secrets *s = sbx_secrets_shared();
    struct sbx_secrets_scratch *sc = pthread_getspecific(scratch_key);
    if (!sc) {
        sc = sbx_secrets_scratch_new(s);
        pthread_setspecific(scratch_key, sc);
    }
    return sbx_secrets_redact(s, sc, text, n, out);
}
