/*
 * main.c -- `ckm` entry point: dispatch to subcommands, version and algorithm listing.
 */
#include "cli.h"

#include <stdio.h>
#include <string.h>
#ifdef CKM_HAVE_MPI
#include <mpi.h>
#endif

static void usage(void)
{
    printf(
            "ckm %s -- constrained k-means (must-link, cannot-link, cluster sizes)\n\n"
            "usage: ckm COMMAND [options]   (ckm COMMAND --help for details)\n\n"
            "commands:\n"
            "  cluster          cluster a dataset, honouring constraints\n"
            "  check            verify a labelling against constraints, recompute its SSE\n"
            "  certify          certified lower bound and gap of a labelling, at any scale\n"
            "  assign           assign points to given centers under size bounds (predict)\n"
            "  eval             compare two labellings (ARI, NMI, AMI, Mirkin, Hubert)\n"
            "  report           a self-contained HTML page about a labelling (plots, sizes, convergence)\n"
            "  gen-constraints  random must/cannot-links from ground-truth labels\n"
            "  algorithms       list the algorithms in this build\n"
            "  version          print the version\n",
            ckm_version());
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "ckm: missing command (try 'ckm --help')\n");
        return EXIT_USAGE;
    }
    const char *c = argv[1];
#ifdef CKM_HAVE_MPI
    /* started by mpirun: `cluster` and `certify` run distributed (cluster_mpi.c, cmd_certify.c) */
    if ((strcmp(c, "cluster") == 0 || strcmp(c, "certify") == 0) && cli_mpi_launched()) {
        int provided;
        if (MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
            fprintf(stderr, "ckm: MPI_Init failed\n");
            return EXIT_INTERNAL;
        }
        cli_mpi_quiet_options();
        int code = strcmp(c, "cluster") == 0 ? cmd_cluster(argc, argv) : cmd_certify(argc, argv);
        MPI_Finalize();
        return code;
    }
#endif
    if (strcmp(c, "cluster") == 0)
        return cmd_cluster(argc, argv);
    if (strcmp(c, "check") == 0)
        return cmd_check(argc, argv);
    if (strcmp(c, "certify") == 0)
        return cmd_certify(argc, argv);
    if (strcmp(c, "eval") == 0)
        return cmd_eval(argc, argv);
    if (strcmp(c, "assign") == 0)
        return cmd_assign(argc, argv);
    if (strcmp(c, "report") == 0)
        return cmd_report(argc, argv);
    if (strcmp(c, "gen-constraints") == 0)
        return cmd_gen(argc, argv);
    if (strcmp(c, "version") == 0 || strcmp(c, "--version") == 0) {
        printf("ckm %s\n", ckm_version());
        return EXIT_SOLVED;
    }
    if (strcmp(c, "algorithms") == 0) {
        for (size_t i = 0; i < ckm_algorithm_count(); i++) {
            const ckm_algorithm_info *a = ckm_algorithm_at(i);
            printf("%-10s must-link:%s cannot-link:%s sizes:%s optimal:%s  %s\n", a->name,
                   a->honours & CKM_HONOURS_MUST_LINK ? "yes" : "no",
                   a->honours & CKM_HONOURS_CANNOT_LINK ? "yes" : "no",
                   a->honours & CKM_HONOURS_SIZE_BOUNDS ? "yes" : "no",
                   a->proves_optimality ? "yes" : "no", a->summary);
        }
        return EXIT_SOLVED;
    }
    if (strcmp(c, "--help") == 0 || strcmp(c, "-h") == 0 || strcmp(c, "help") == 0) {
        usage();
        return EXIT_SOLVED;
    }
    fprintf(stderr, "ckm: unknown command '%s' (try 'ckm --help')\n", c);
    return EXIT_USAGE;
}
