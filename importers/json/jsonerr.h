/* jsonerr: what jansson found wrong in a JSON text, in words of ours (its
 * own messages quote the input, which may be hostile). Internal to
 * importers/. The string returned is static: the caller does not free it. */
#ifndef SBX_JSONERR_H
#define SBX_JSONERR_H

#include <jansson.h>

const char *sbx_json_problem(const json_error_t *e);

#endif
