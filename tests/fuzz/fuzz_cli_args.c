/*
 * fuzz_cli_args.c -- libFuzzer target for the ckm command's option parser (cli/opts.c) and
 * its data options (cli/data_opts.c): the input, split at NUL bytes, is an argument vector
 * parsed against an options table shaped like `ckm cluster`'s (flags, repeated short flags,
 * values, --name=value, the data option group), and every value found goes through the
 * strict parsers the subcommands use (numbers, --time-limit, --format, --header,
 * --label-column). Parsing must succeed or fail with a message, never crash. Built only
 * with clang.
 */
#include "../../cli/cli.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096)
        return 0;
    char *buf = malloc(size + 1);
    if (!buf)
        return 0;
    memcpy(buf, data, size);
    buf[size] = '\0';
    char *argv[66] = {"ckm", "cluster"};
    int argc = 2;
    for (size_t i = 0; i <= size && argc < 65;) {
        argv[argc++] = buf + i;
        i += strlen(buf + i) + 1;
    }
    argv[argc] = NULL;
    enum { OWN = 11 };
    cli_opt opts[OWN + CLI_DATA_COUNT] = {{"k", 'k', "K", "", NULL},          {"constraints", 'c', "FILE", "", NULL},
                                          {"min-size", 0, "N", "", NULL},     {"seed", 's', "S", "", NULL},
                                          {"n-init", 0, "N", "", NULL},       {"tol", 0, "X", "", NULL},
                                          {"threads", 'j', "N", "", NULL},    {"time-limit", 't', "SEC", "", NULL},
                                          {"balanced", 0, NULL, "", NULL},    {"verbose", 'v', NULL, "", NULL},
                                          {"quiet", 'q', NULL, "", NULL}};
    cli_data_group_init(opts + OWN);
    const size_t nopts = sizeof opts / sizeof opts[0];
    const char *pos[2];
    size_t npos = 0;
    if (cli_parse("cluster", argc, argv, 2, opts, nopts, pos, 1, &npos)) {
        size_t z;
        uint64_t u;
        int v;
        double x;
        if (opts[0].value)
            (void)cli_size("cluster", "k", opts[0].value, &z);
        if (opts[3].value)
            (void)cli_u64("cluster", "seed", opts[3].value, &u);
        if (opts[4].value)
            (void)cli_int("cluster", "n-init", opts[4].value, 1, CLI_INT_MAX, &v);
        if (opts[5].value)
            (void)cli_double("cluster", "tol", opts[5].value, 0.0, &x);
        if (opts[6].value)
            (void)cli_int("cluster", "threads", opts[6].value, 0, CKM_MAX_THREADS, &v);
        if (opts[7].value)
            (void)cli_time_limit("cluster", opts[7].value, &x);
        (void)cli_data_check("cluster", opts + OWN);
        if (npos > 1)
            abort(); /* max_pos was 1 */
    }
    free(buf);
    return 0;
}
