/* The rules the services' targets share (internal to export/services/):
 * numbers and name segments as they may appear in a --to argument. Owns
 * nothing; err gets a message. */
#ifndef SBX_EXPORT_TARGET_RULES_H
#define SBX_EXPORT_TARGET_RULES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* msg into err; returns false, for "return sbx_rule_fail(...)". */
bool sbx_rule_fail(char *err, size_t errsz, const char *msg);
bool sbx_rule_alnum(char c);
/* A decimal 1..2147483647 without a leading zero, the whole of s[0..n). */
bool sbx_rule_number(const char *s, size_t n, uint32_t *v);
/* "PATH#N": the position of the last '#' in *hash, and N. */
bool sbx_rule_split_number(const char *s, size_t *hash, uint32_t *n);
/* A name of letters, digits, '-', '_' and '.', not starting with '-' or
 * '.', of 1..max bytes: a repository name or one GitLab path segment. */
bool sbx_rule_name_segment(const char *s, size_t n, size_t max);

#endif
