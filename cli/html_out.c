/*
 * html_out.c -- the HTML report as the commands write it (cluster --html, certify --html,
 * `ckm report`): the page from ckm_report_html with the run's JSON report and the command
 * line (each argument quoted for a POSIX shell where it needs it), written atomically.
 */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* argv as one line a shell would read back: 'arg' around any argument with a character
 * outside [A-Za-z0-9_./=:,+-], a quote inside written '\'' */
static char *command_line(int argc, char **argv)
{
    size_t cap = 16;
    for (int i = 0; i < argc; i++)
        cap += 4 * strlen(argv[i]) + 3;
    char *s = malloc(cap), *q = s;
    if (!s)
        return NULL;
    memcpy(q, "ckm", 3);
    q += 3;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool plain = *a != '\0';
        for (const char *c = a; *c; c++)
            if (!strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./=:,+-", *c))
                plain = false;
        *q++ = ' ';
        if (plain) {
            memcpy(q, a, strlen(a));
            q += strlen(a);
            continue;
        }
        *q++ = '\'';
        for (const char *c = a; *c; c++) {
            if (*c == '\'') {
                memcpy(q, "'\\''", 4);
                q += 4;
            } else {
                *q++ = *c;
            }
        }
        *q++ = '\'';
    }
    *q = '\0';
    return s;
}

int cli_write_html(const char *cmd, const cli_html_args *a)
{
    ckm_err err = {CKM_OK, ""};
    char *line = command_line(a->argc, a->argv), *page = NULL;
    if (!line) {
        fprintf(stderr, "ckm %s: out of memory for the HTML report\n", cmd);
        return EXIT_NOMEM;
    }
    char title[512];
    snprintf(title, sizeof title, "ckm %s: %s", cmd, a->data);
    ckm_report_options o;
    ckm_report_options_default(&o);
    o.title = title;
    o.command = line;
    o.json = a->json;
    o.truth = a->truth;
    o.max_points = a->max_points;
    double t0 = cli_seconds();
    ckm_error rc = ckm_report_html(a->p, a->labels, &o, &page, &err);
    if (rc == CKM_OK)
        rc = ckm_write_file_atomic(a->path, page, strlen(page), &err);
    if (rc == CKM_OK && a->verbose)
        fprintf(stderr, "ckm %s: wrote %s (%.2f MB in %.2f s)\n", cmd, a->path, (double)strlen(page) / 1e6,
                cli_seconds() - t0);
    free(line);
    ckm_free(page);
    if (rc == CKM_ERR_PARSE && a->json_path) { /* the reader's line:column are of that file */
        fprintf(stderr, "ckm %s: %s: %s\n", cmd, a->json_path, err.message);
        return cli_exit_code(rc);
    }
    return rc == CKM_OK ? EXIT_SOLVED : cli_error(cmd, rc, &err);
}
