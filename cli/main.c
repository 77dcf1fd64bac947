/* sbxview: review what an AI agent did inside a cloud sandbox. */
#include <locale.h>
#include <malloc.h>
#include <stdio.h>
#include <string.h>

#include "importers/readfile.h"
#include "cli/cli.h"
#include "cli/msg.h"
#include "cli/subcommands.h"

#ifndef SBX_VERSION
#define SBX_VERSION "0.2.0"
#endif

int main(int argc, char **argv)
{
    setlocale(LC_ALL, "");
    /* The analyses' working arrays (a few bytes an event each) are mapped
     * and given back when freed; glibc would otherwise raise this threshold
     * after the first such free and keep the later ones in the heap. */
    mallopt(M_MMAP_THRESHOLD, 128 * 1024);
    sbx_install_sigbus_handler(NULL);
    if (argc >= 2 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
        sbx_usage(stdout);
        return SBX_EXIT_OK;
    }
    if (argc >= 2 && (strcmp(argv[1], "-V") == 0 || strcmp(argv[1], "--version") == 0)) {
        printf("sbxview %s\n", SBX_VERSION);
        return SBX_EXIT_OK;
    }
    if (argc < 2) { /* no input named: a reminder, not the whole help */
        sbx_short_usage(stderr);
        return SBX_EXIT_USAGE;
    }
    const struct sbx_subcommand *c = sbx_subcommand_find(argv[1]);
    sbx_msg_set_command(c ? c->name : NULL);
    return c ? c->run(argc - 1, argv + 1) : sbx_cmd_view(argc, argv);
}
