/*
 * hooks.c -- what the solving commands (cluster, certify) hand the library: the SIGINT
 * stop request and the log on stderr. The first SIGINT asks the run to stop through
 * settings.should_stop (the library returns what it has); the handler resets itself, so a
 * second SIGINT kills the process.
 */
#include "cli.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>

static volatile sig_atomic_t interrupted = 0;

static void on_sigint(int sig)
{
    (void)sig;
    interrupted = 1;
}

static int stop_requested(void *user)
{
    (void)user;
    return interrupted != 0;
}

void cli_catch_sigint(ckm_settings *s)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sa.sa_flags = SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    s->should_stop = stop_requested;
}

void cli_log_stderr(void *user, const char *line)
{
    (void)user;
    fprintf(stderr, "%s\n", line);
}
