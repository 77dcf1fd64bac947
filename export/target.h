/* Where an export goes: the --to argument, parsed and checked.
 *
 *   file:PATH or a bare PATH   a markdown file (file:- is standard output)
 *   github:OWNER/REPO#N        a comment on issue or pull request N
 *   gitlab:GROUP/.../PROJECT#N a note on issue N (two or more path segments)
 *   jira:KEY-123               a comment on issue KEY-123
 *   slack:                     the incoming webhook in SLACK_WEBHOOK_URL
 *
 * The rules are strict (GitHub's owner and repository names, GitLab's path
 * segments, Jira's project keys, a decimal number 1..2147483647 without a
 * leading zero), so nothing but these characters reaches a request URL. A
 * bare path is anything that does not start with "WORD:" (WORD of letters,
 * digits and '-'); "./a:b" is a path. slack: takes nothing after the colon:
 * the webhook's URL is a secret, kept out of shell history and arguments.
 * Error messages never quote the argument (it may hold a pasted token or
 * webhook URL); they name the rule that failed.
 *
 * Each kind is a service of export/services.h, whose own file holds its
 * rules; this file holds the syntax they share.
 *
 * Ownership: sbx_target_parse fills a struct whose strings it allocates;
 * sbx_target_free releases them. sbx_target_kind_name returns a static
 * string. No global state. */
#ifndef SBX_EXPORT_TARGET_H
#define SBX_EXPORT_TARGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "export/services.h"

/* The parts the services fill; a new service uses those that fit it. */
struct sbx_target {
    enum sbx_target_kind kind;
    char *path;     /* file: the path ("-" for standard output); else NULL */
    char *owner;    /* github: the owner; else NULL */
    char *repo;     /* github: the repository; else NULL */
    char *project;  /* gitlab: the full path "group/subgroup/project"; else NULL */
    char *key;      /* jira: the issue key "KEY-123"; else NULL */
    uint32_t number; /* github, gitlab: the issue number; jira: the number in the key */
};

/* Parses s into t. Returns false with a message in err (t then holds
 * nothing to free, though sbx_target_free on it is harmless). */
bool sbx_target_parse(const char *s, struct sbx_target *t, char *err, size_t errsz);
void sbx_target_free(struct sbx_target *t);

/* "file", "github", "gitlab", "jira", "slack"; "?" for no kind. */
const char *sbx_target_kind_name(enum sbx_target_kind k);
/* True when t is sent to a ticket service; false: a file, written. */
bool sbx_target_posts(const struct sbx_target *t);

/* The target in canonical form ("github:acme/agents#42"; file: with its
 * path) into buf, always NUL-terminated; false if it did not fit. For
 * messages: every part has passed validation, so it is plain ASCII except
 * a file path, which the caller sanitises before showing. */
bool sbx_target_format(const struct sbx_target *t, char *buf, size_t n);

#endif
