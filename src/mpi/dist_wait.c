/*
 * dist_wait.c -- how the MPI mode waits: nonblocking MPI calls completed by polling for
 * 1 ms, then by MPI_Test between sleeps of 20 us doubling to 100 us.
 * Why: Open MPI 4.1's blocking calls spin in its progress loop (with sched_yield when the
 * node is oversubscribed), and it has no blocking wait for shared memory. A rank waiting
 * at a reduction then takes CPU time from the rank that still computes, or from another
 * process: with 4 ranks and two busy processes on 2 cores, mpi_ranks_3 took 517 s against
 * 10 s idle (sys 217 s of sched_yield); 205 s with these waits (then polling 50 us), 87 s
 * with fewer reductions in dist_sizeflow.c's price refinement too.
 * Why poll first: a nonblocking collective advances only inside MPI calls, step by step of
 * its schedule, so a sleeping rank delays its part by up to one sleep; sleeping from 50 us
 * on made sizeflow over 2 idle ranks (10^6 x 16, k = 100, 4690 k x k reductions) take
 * 31.6 s instead of 19.3 s; polling for 1 ms first, 20.3 s. Ranks that arrive within a
 * millisecond finish as with a blocking call; a longer wait costs at most one sleep
 * (100 us) of latency and leaves the core free meanwhile.
 */
#include "dist.h"

#include <time.h>

#define SPIN_S 1e-3
#define SLEEP_MIN_NS 20000L
#define SLEEP_MAX_NS 100000L

void ckm_dist_wait(MPI_Request *req)
{
    int done = 0;
    double t0 = ckm_now();
    long ns = SLEEP_MIN_NS;
    for (;;) {
        MPI_Test(req, &done, MPI_STATUS_IGNORE);
        if (done)
            return;
        if (ckm_now() - t0 < SPIN_S)
            continue;
        struct timespec ts = {0, ns};
        nanosleep(&ts, NULL); /* EINTR (a signal, e.g. the CLI's SIGINT): test again */
        ns = ns * 2 < SLEEP_MAX_NS ? ns * 2 : SLEEP_MAX_NS;
    }
}

void ckm_dist_allreduce(const void *in, void *out, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
    MPI_Request r;
    MPI_Iallreduce(in, out, count, type, op, comm, &r);
    ckm_dist_wait(&r);
}

void ckm_dist_bcast_raw(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm)
{
    MPI_Request r;
    MPI_Ibcast(buf, count, type, root, comm, &r);
    ckm_dist_wait(&r);
}

void ckm_dist_allgather(const void *in, void *out, int count, MPI_Datatype type, MPI_Comm comm)
{
    MPI_Request r;
    MPI_Iallgather(in, count, type, out, count, type, comm, &r);
    ckm_dist_wait(&r);
}

void ckm_dist_exscan(const void *in, void *out, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
    MPI_Request r;
    MPI_Iexscan(in, out, count, type, op, comm, &r);
    ckm_dist_wait(&r);
}

void ckm_dist_send(const void *buf, int count, MPI_Datatype type, int to, int tag, MPI_Comm comm)
{
    MPI_Request r;
    MPI_Isend(buf, count, type, to, tag, comm, &r);
    ckm_dist_wait(&r);
}

void ckm_dist_recv(void *buf, int count, MPI_Datatype type, int from, int tag, MPI_Comm comm)
{
    MPI_Request r;
    MPI_Irecv(buf, count, type, from, tag, comm, &r);
    ckm_dist_wait(&r);
}
