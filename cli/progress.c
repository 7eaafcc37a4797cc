/*
 * progress.c -- the live status line of a long run: when stderr is a terminal and -q is not
 * given, the library's progress events (settings.progress) redraw one line in place at most
 * ten times a second -- elapsed time, the restart and step or the nodes or subsets done,
 * the objective, incumbent, bound, gap and an ETA where one is known (restarts or subsets
 * left at the pace so far, never past the time limit); between events a thread of its own
 * moves the elapsed time and the ETA on once a second. Log lines (-v) clear it first; the
 * end of the run erases it. Nothing is drawn when stderr is a pipe or a file.
 */
#include "cli.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

double cli_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static size_t columns(void)
{
    struct winsize ws;
    if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20)
        return ws.ws_col;
    return 80;
}

/* seconds left at the event: the pace so far over what is left, capped by the time limit;
 * < 0 unknown */
static double eta(const cli_progress *st, const ckm_progress *ev)
{
    double left = -1.0;
    if (ev->kind != CKM_PROGRESS_BOUND || st->certify) {
        if (ev->done > 0 && ev->total > ev->done)
            left = ev->seconds / (double)ev->done * (double)(ev->total - ev->done);
    }
    if (st->time_limit_s > 0.0) {
        double cap = fmax(st->time_limit_s - ev->seconds, 0.0);
        left = left < 0.0 ? cap : fmin(left, cap);
    }
    return left;
}

static int put_number(char *q, size_t cap, const char *name, double v)
{
    return isfinite(v) ? snprintf(q, cap, "  %s %.8g", name, v) : 0;
}

/* the line for ev, `since` seconds after it arrived, into line (at most cap bytes) */
static void format(const cli_progress *st, const ckm_progress *ev, double since, char *line, size_t cap)
{
    size_t used = (size_t)snprintf(line, cap, "ckm %s  %.1f s", st->cmd, ev->seconds + since);
#define ADD(...) (used += used < cap ? (size_t)snprintf(line + used, cap - used, __VA_ARGS__) : 0)
    if (ev->kind == CKM_PROGRESS_BOUND && st->certify)
        ADD("  subsets %zu/%zu", ev->done, ev->total);
    else if (ev->kind == CKM_PROGRESS_BOUND && (ev->done || ev->total))
        ADD("  nodes %zu (%zu open)", ev->done, ev->total);
    else if (ev->kind != CKM_PROGRESS_BOUND)
        ADD("  restart %d/%d  step %d", ev->restart + 1, ev->restarts, ev->iteration);
    if (ev->kind == CKM_PROGRESS_STEP && used < cap)
        used += (size_t)put_number(line + used, cap - used, "objective", ev->objective);
    if (used < cap)
        used += (size_t)put_number(line + used, cap - used, st->certify ? "SSE" : "best", ev->incumbent);
    if (used < cap)
        used += (size_t)put_number(line + used, cap - used, "bound", ev->lower_bound);
    if (isfinite(ev->incumbent) && isfinite(ev->lower_bound) && ev->incumbent > 0.0)
        ADD("  gap %.3g %%", 100.0 * fmax(ev->incumbent - ev->lower_bound, 0.0) / ev->incumbent);
    double left = eta(st, ev);
    if (left >= 0.0)
        ADD("  ETA %.0f s", fmax(left - since, 0.0));
#undef ADD
}

/* the last event's line, now (under st->lock) */
static void render(cli_progress *st, double now)
{
    char line[512];
    format(st, &st->last, now - st->last_at, line, sizeof line);
    size_t width = columns() - 1;
    if (strlen(line) > width)
        line[width] = '\0';
    fprintf(stderr, "\r%s\033[K", line);
    fflush(stderr);
    st->shown = true;
    st->last_draw = now;
}

static void draw(void *user, const ckm_progress *ev)
{
    cli_progress *st = user;
    double now = cli_seconds();
    pthread_mutex_lock(&st->lock);
    st->last = *ev;
    st->last_at = now;
    st->have = true;
    if (now - st->last_draw >= 0.1)
        render(st, now);
    pthread_mutex_unlock(&st->lock);
}

/* between events (one step, one subset or one node batch can take minutes): the elapsed
 * time and the ETA move on once a second */
static void *ticker(void *arg)
{
    cli_progress *st = arg;
    pthread_mutex_lock(&st->lock);
    while (!st->stopping) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_sec += 1;
        pthread_cond_timedwait(&st->wake, &st->lock, &until);
        double now = cli_seconds();
        if (!st->stopping && st->have && now - st->last_draw >= 0.9)
            render(st, now);
    }
    pthread_mutex_unlock(&st->lock);
    return NULL;
}

static void log_line(void *user, const char *line)
{
    cli_progress *st = user;
    pthread_mutex_lock(&st->lock);
    if (st->shown) {
        fputs("\r\033[K", stderr);
        st->shown = false;
    }
    fprintf(stderr, "%s\n", line);
    pthread_mutex_unlock(&st->lock);
}

void cli_progress_install(cli_progress *st, const char *cmd, ckm_settings *s, bool quiet)
{
    memset(st, 0, sizeof *st);
    st->cmd = cmd;
    st->certify = strcmp(cmd, "certify") == 0;
    st->time_limit_s = s->time_limit_s;
    st->last_draw = -1.0;
    pthread_mutex_init(&st->lock, NULL);
    pthread_cond_init(&st->wake, NULL);
    if (s->log) { /* -v: the log goes through here, to clear the line first */
        s->log = log_line;
        s->log_user = st;
    }
    if (quiet || !isatty(STDERR_FILENO))
        return;
    s->progress = draw;
    s->progress_user = st;
    st->ticking = pthread_create(&st->thread, NULL, ticker, st) == 0; /* without it: lines at events only */
}

void cli_progress_end(cli_progress *st)
{
    pthread_mutex_lock(&st->lock);
    st->stopping = true;
    pthread_cond_signal(&st->wake);
    pthread_mutex_unlock(&st->lock);
    if (st->ticking)
        pthread_join(st->thread, NULL);
    if (st->shown) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
        st->shown = false;
    }
    pthread_cond_destroy(&st->wake);
    pthread_mutex_destroy(&st->lock);
}
