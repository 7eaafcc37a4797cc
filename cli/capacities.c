/*
 * capacities.c -- the capacity options of cluster, check and assign (docs/capacities.md):
 * --demands FILE (one demand per point), --min-capacity / --max-capacity (the same bounds
 * for every cluster) or --capacities FILE (per cluster), read strictly, with the file and
 * line of a bad value, into the problem through the public API.
 */
#include "cli.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One capacity bound: a finite number >= 0, or for a maximum "inf" (no maximum). */
static bool cap_value(const char *tok, bool is_max, double *out)
{
    char *end;
    if (is_max && (strcmp(tok, "inf") == 0 || strcmp(tok, "-") == 0)) {
        *out = INFINITY;
        return true;
    }
    double x = strtod(tok, &end);
    if (*end || end == tok || !isfinite(x) || x < 0.0)
        return false;
    *out = x;
    return true;
}

/* --capacities FILE: K lines "lo hi" (hi "inf" or "-": no maximum) or one value (lo = hi);
 * '#' comments and blank lines skipped. */
static bool read_capacities(const char *cmd, const char *path, size_t k, double *lo, double *hi)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "ckm %s: %s: cannot open: %s\n", cmd, path, strerror(errno));
        return false;
    }
    char line[512];
    size_t row = 0, lineno = 0;
    bool ok = true;
    while (ok && fgets(line, sizeof line, f)) {
        lineno++;
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        char *save = NULL, *a = strtok_r(line, " \t\r\n,", &save), *b = a ? strtok_r(NULL, " \t\r\n,", &save) : NULL;
        if (!a)
            continue;
        char *extra = b ? strtok_r(NULL, " \t\r\n,", &save) : NULL;
        if (row >= k || extra || !cap_value(a, false, &lo[row]) || !cap_value(b ? b : a, true, &hi[row]) ||
            (!b && !isfinite(hi[row]))) {
            fprintf(stderr,
                    "ckm %s: %s:%zu: %s\n", cmd, path, lineno,
                    row >= k ? "more lines than the k clusters"
                             : "need 'lo hi' (numbers >= 0, hi may be 'inf') or one exact capacity");
            ok = false;
            break;
        }
        row++;
    }
    fclose(f);
    if (ok && row != k) {
        fprintf(stderr, "ckm %s: %s: %zu capacity line(s) for k = %zu clusters\n", cmd, path, row, k);
        ok = false;
    }
    return ok;
}

int cli_apply_capacities(const char *cmd, ckm_problem *p, const char *demands, const char *min_c, const char *max_c,
                         const char *caps_file)
{
    ckm_err err = {CKM_OK, ""};
    size_t k = ckm_problem_k(p);
    if (caps_file && (min_c || max_c)) {
        fprintf(stderr, "ckm %s: give only one of --capacities, --min-capacity/--max-capacity\n", cmd);
        return EXIT_USAGE;
    }
    if ((caps_file || min_c || max_c) && !demands) {
        fprintf(stderr, "ckm %s: capacity bounds need --demands FILE (to bound head counts, use --min-size/--max-size)\n",
                cmd);
        return EXIT_USAGE;
    }
    int rc_demands;
    if (demands && (rc_demands = cli_add_per_point(cmd, p, demands, "demand", 1, ckm_problem_set_demands)) != EXIT_SOLVED)
        return rc_demands;
    double *lo = calloc(k, sizeof *lo), *hi = calloc(k, sizeof *hi);
    int code = EXIT_SOLVED;
    if (!lo || !hi) {
        fprintf(stderr, "ckm %s: out of memory\n", cmd);
        code = EXIT_NOMEM;
    } else if (caps_file) {
        if (!read_capacities(cmd, caps_file, k, lo, hi))
            code = EXIT_USAGE;
    } else if (min_c || max_c) {
        double a = 0.0, b = INFINITY;
        if (min_c && !cli_double(cmd, "min-capacity", min_c, 0.0, &a)) {
            code = EXIT_USAGE;
        } else if (max_c && !cap_value(max_c, true, &b)) {
            fprintf(stderr, "ckm %s: --max-capacity: '%s' is not a finite number >= 0 or inf\n", cmd, max_c);
            code = EXIT_USAGE;
        }
        for (size_t j = 0; j < k; j++) {
            lo[j] = a;
            hi[j] = b;
        }
    } else {
        free(lo);
        free(hi);
        return EXIT_SOLVED;
    }
    ckm_error rc;
    if (code == EXIT_SOLVED && (rc = ckm_problem_set_capacities(p, lo, hi, &err)) != CKM_OK)
        code = cli_error(cmd, rc, &err);
    free(lo);
    free(hi);
    return code;
}
