/*
 * opts.c -- option-table parsing for every subcommand: "--name value", "--name=value",
 * "-x value", flags; strict number conversion with precise messages.
 */
#include "cli.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

bool cli_parse(const char *cmd, int argc, char **argv, int first, cli_opt *opts, size_t nopts,
               const char **pos, size_t max_pos, size_t *npos)
{
    *npos = 0;
    for (int a = first; a < argc; a++) {
        const char *arg = argv[a];
        if (arg[0] != '-' || arg[1] == '\0' || (arg[1] >= '0' && arg[1] <= '9')) {
            if (*npos >= max_pos) {
                fprintf(stderr, "ckm %s: unexpected argument '%s' (see 'ckm %s --help')\n", cmd, arg, cmd);
                return false;
            }
            pos[(*npos)++] = arg;
            continue;
        }
        cli_opt *o = NULL;
        const char *inline_val = NULL;
        if (arg[1] == '-') {
            const char *name = arg + 2;
            const char *eq = strchr(name, '=');
            size_t len = eq ? (size_t)(eq - name) : strlen(name);
            for (size_t i = 0; i < nopts; i++)
                if (strlen(opts[i].name) == len && strncmp(opts[i].name, name, len) == 0)
                    o = &opts[i];
            if (eq)
                inline_val = eq + 1;
        } else {
            /* -x, or -xx / -xxx: a repeated flag (counted below) */
            size_t len = strlen(arg + 1), same = 1;
            while (same < len && arg[1 + same] == arg[1])
                same++;
            for (size_t i = 0; i < nopts && same == len && len <= 3; i++)
                if (opts[i].short_name == arg[1] && (len == 1 || !opts[i].metavar))
                    o = &opts[i];
            if (o && len > 1) {
                o->value = len == 2 ? (o->value ? "3" : "2") : "3";
                continue;
            }
        }
        if (!o) {
            fprintf(stderr, "ckm %s: unknown option '%s' (see 'ckm %s --help')\n", cmd, arg, cmd);
            return false;
        }
        if (!o->metavar) {
            if (inline_val) {
                fprintf(stderr, "ckm %s: option --%s takes no value\n", cmd, o->name);
                return false;
            }
            o->value = !o->value ? "1" : strcmp(o->value, "1") == 0 ? "2" : "3"; /* given 1, 2, 3+ times */
            continue;
        }
        if (inline_val) {
            o->value = inline_val;
        } else if (a + 1 < argc) {
            o->value = argv[++a];
        } else {
            fprintf(stderr, "ckm %s: option --%s needs a value (%s)\n", cmd, o->name, o->metavar);
            return false;
        }
    }
    return true;
}

const char *cli_get(const cli_opt *opts, size_t nopts, const char *name)
{
    for (size_t i = 0; i < nopts; i++)
        if (strcmp(opts[i].name, name) == 0)
            return opts[i].value;
    return NULL;
}

void cli_print_options(const cli_opt *opts, size_t nopts)
{
    for (size_t i = 0; i < nopts; i++) {
        char left[64];
        if (opts[i].short_name)
            snprintf(left, sizeof left, "-%c, --%s%s%s", opts[i].short_name, opts[i].name,
                     opts[i].metavar ? " " : "", opts[i].metavar ? opts[i].metavar : "");
        else
            snprintf(left, sizeof left, "    --%s%s%s", opts[i].name, opts[i].metavar ? " " : "",
                     opts[i].metavar ? opts[i].metavar : "");
        printf("  %-28s %s\n", left, opts[i].help);
    }
}

bool cli_u64(const char *cmd, const char *name, const char *v, uint64_t *out)
{
    char *end;
    errno = 0;
    if (!v || !*v || *v == '-' || *v == '+') {
        fprintf(stderr, "ckm %s: --%s: '%s' is not a non-negative integer\n", cmd, name, v ? v : "");
        return false;
    }
    unsigned long long x = strtoull(v, &end, 10);
    if (*end || errno == ERANGE) {
        fprintf(stderr, "ckm %s: --%s: '%s' is not a non-negative integer%s\n", cmd, name, v,
                errno == ERANGE ? " (too large)" : "");
        return false;
    }
    *out = (uint64_t)x;
    return true;
}

bool cli_size(const char *cmd, const char *name, const char *v, size_t *out)
{
    uint64_t x;
    if (!cli_u64(cmd, name, v, &x))
        return false;
    if (x > SIZE_MAX) {
        fprintf(stderr, "ckm %s: --%s: %s is too large\n", cmd, name, v);
        return false;
    }
    *out = (size_t)x;
    return true;
}

bool cli_int(const char *cmd, const char *name, const char *v, int min, int max, int *out)
{
    char *end;
    errno = 0;
    long x = v && *v ? strtol(v, &end, 10) : 0;
    if (!v || !*v || *end || errno == ERANGE || x < min || x > max) {
        fprintf(stderr, "ckm %s: --%s: '%s' is not an integer in [%d, %d]\n", cmd, name, v ? v : "", min, max);
        return false;
    }
    *out = (int)x;
    return true;
}

bool cli_double(const char *cmd, const char *name, const char *v, double min, double *out)
{
    char *end;
    double x = v && *v ? strtod(v, &end) : NAN;
    if (!v || !*v || *end || !isfinite(x) || x < min) {
        fprintf(stderr, "ckm %s: --%s: '%s' is not a finite number >= %g\n", cmd, name, v ? v : "", min);
        return false;
    }
    *out = x;
    return true;
}

int cli_error(const char *cmd, ckm_error code, const ckm_err *err)
{
    fprintf(stderr, "ckm %s: %s%s\n", cmd, code == CKM_ERR_NOMEM ? "out of memory: " : "",
            err->message[0] ? err->message : ckm_error_string(code));
    return cli_exit_code(code);
}

int cli_exit_code(ckm_error code)
{
    switch (code) {
    case CKM_OK: return EXIT_SOLVED;
    case CKM_ERR_IO:
    case CKM_ERR_PARSE:
    case CKM_ERR_INVALID:
    case CKM_ERR_UNSUPPORTED: return EXIT_USAGE;
    case CKM_ERR_NOMEM: return EXIT_NOMEM;
    case CKM_ERR_INTERNAL: return EXIT_INTERNAL;
    }
    return EXIT_INTERNAL;
}

bool cli_output_ok(const char *cmd, const char *out, const char *const *inputs, size_t ninputs)
{
    if (!out)
        return true;
    struct stat so;
    bool have_out = stat(out, &so) == 0;
    for (size_t i = 0; i < ninputs; i++) {
        if (!inputs[i])
            continue;
        struct stat si;
        bool same = strcmp(out, inputs[i]) == 0;
        if (!same && have_out && stat(inputs[i], &si) == 0)
            same = si.st_dev == so.st_dev && si.st_ino == so.st_ino;
        if (same) {
            fprintf(stderr, "ckm %s: refusing to write output over the input file '%s'\n", cmd, inputs[i]);
            return false;
        }
    }
    return true;
}

bool cli_apply_sizes(const char *cmd, ckm_problem *p, const char *min_s, const char *max_s,
                     const char *sizes_file, const char *balanced)
{
    ckm_err err = {CKM_OK, ""};
    size_t k = ckm_problem_k(p), n = ckm_problem_n(p);
    if ((sizes_file != NULL) + (min_s || max_s) + (balanced != NULL) > 1) {
        fprintf(stderr, "ckm %s: give only one of --sizes, --min-size/--max-size, --balanced\n", cmd);
        return false;
    }
    if (balanced) {
        ckm_problem_set_balanced(p);
        return true;
    }
    if (sizes_file) {
        size_t *lo = calloc(k, sizeof *lo), *hi = calloc(k, sizeof *hi);
        ckm_error rc = lo && hi ? ckm_sizes_read(sizes_file, k, lo, hi, &err) : CKM_ERR_NOMEM;
        if (rc == CKM_OK)
            rc = ckm_problem_set_sizes(p, lo, hi, &err);
        free(lo);
        free(hi);
        if (rc != CKM_OK) {
            cli_error(cmd, rc, &err);
            return false;
        }
        return true;
    }
    if (min_s || max_s) {
        size_t lo = 1, hi = n;
        if (min_s && !cli_size(cmd, "min-size", min_s, &lo))
            return false;
        if (max_s && !cli_size(cmd, "max-size", max_s, &hi))
            return false;
        ckm_error rc = ckm_problem_set_size_range(p, lo, hi, &err);
        if (rc != CKM_OK) {
            cli_error(cmd, rc, &err);
            return false;
        }
    }
    return true;
}

int cli_add_per_point(const char *cmd, ckm_problem *p, const char *path, const char *what, int allow_zero,
                      ckm_error (*set)(ckm_problem *, const double *, ckm_err *))
{
    ckm_err err = {CKM_OK, ""};
    double *v = NULL;
    size_t n = 0;
    ckm_error rc = ckm_values_read(path, what, allow_zero, &v, &n, &err);
    if (rc != CKM_OK)
        return cli_error(cmd, rc, &err);
    int code = EXIT_SOLVED;
    if (n != ckm_problem_n(p)) {
        fprintf(stderr, "ckm %s: %s: need one %s per line for each of the %zu points, found %zu\n", cmd, path, what,
                ckm_problem_n(p), n);
        code = EXIT_USAGE;
    } else if ((rc = set(p, v, &err)) != CKM_OK) {
        fprintf(stderr, "ckm %s: %s: %s\n", cmd, path, err.message);
        code = EXIT_USAGE;
    }
    ckm_free(v);
    return code;
}

int cli_read_centers(const char *cmd, const char *path, size_t k, size_t d, ckm_dataset **out)
{
    ckm_err err = {CKM_OK, ""};
    ckm_read_options ro;
    ckm_read_options_default(&ro);
    ckm_error rc = ckm_dataset_read(path, &ro, out, &err);
    if (rc != CKM_OK)
        return cli_error(cmd, rc, &err);
    if ((*out)->n != k || (*out)->d != d) {
        fprintf(stderr, "ckm %s: %s: need %zu initial centers of %zu values each (k x d), found %zu row(s) of %zu\n",
                cmd, path, k, d, (*out)->n, (*out)->d);
        ckm_dataset_free(*out);
        *out = NULL;
        return EXIT_USAGE;
    }
    return EXIT_SOLVED;
}

int cli_add_constraints(const char *cmd, ckm_problem *p, const char *path)
{
    ckm_err err = {CKM_OK, ""};
    ckm_constraints *c = NULL;
    ckm_error rc = ckm_constraints_read(path, ckm_problem_n(p), &c, &err);
    if (rc == CKM_OK)
        rc = ckm_problem_add_constraints(p, c, &err);
    ckm_constraints_free(c);
    return rc == CKM_OK ? EXIT_SOLVED : cli_error(cmd, rc, &err);
}

bool cli_given(const cli_opt *opts, size_t first, size_t last)
{
    for (size_t i = first; i <= last; i++)
        if (opts[i].value)
            return true;
    return false;
}
