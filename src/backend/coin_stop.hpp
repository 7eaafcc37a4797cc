/*
 * coin_stop.hpp -- what lp_clp.cpp and mip_cbc.cpp share: a stop watch over ckm's limits
 * (deadline + stop request), the CLP event handler that ends a simplex at the next
 * iteration once it fires, a message handler that prints nothing, and the guard that keeps
 * exceptions inside the backend.
 *
 * Invariants:
 *  - Nothing here is process-wide: each solve owns its watch and handlers; COIN-OR clones a
 *    handler into every copy of a model (CBC's heuristics, strong branching), and each clone
 *    points at the same watch, so one stop reaches every simplex of that solve.
 *  - Once fired the watch stays fired: every later simplex stops at its first iteration, so
 *    CBC's remaining work collapses to bookkeeping. A fired watch voids the solver's verdict
 *    (an LP cut short is neither optimal nor infeasible); callers read only its best point.
 *  - Cost of a poll: one clock read per simplex iteration; the caller's stop function (which
 *    may be a host's callback, e.g. Python's) at most once per CKM_POLL_S.
 */
#ifndef CKM_COIN_STOP_HPP
#define CKM_COIN_STOP_HPP

extern "C" {
#include "backend.h"
#include "core.h"
}

#include <ClpEventHandler.hpp>
#include <CoinError.hpp>
#include <CoinMessageHandler.hpp>

#include <cmath>
#include <new>

namespace ckm_coin {

/* The user's stop function is polled at most this often (seconds). */
constexpr double CKM_POLL_S = 0.005;

struct StopWatch {
    const ckm_bk_limits *lim;
    double next_poll = 0.0;
    bool fired = false;     /* a limit was reached: the solver's verdict is void */
    bool requested = false; /* it was the stop request, not the deadline */

    explicit StopWatch(const ckm_bk_limits *l) : lim(l) {}

    /* true once the deadline has passed or the stop request answered yes */
    bool due()
    {
        if (fired)
            return true;
        double now = ckm_now();
        if (now >= lim->deadline) {
            fired = true;
        } else if (lim->stop && now >= next_poll) {
            next_poll = now + CKM_POLL_S;
            if (lim->stop(lim->stop_user))
                fired = requested = true;
        }
        return fired;
    }
};

/* Ends CLP's primal or dual simplex at the end of the iteration during which the watch
 * fires (CLP then reports status 5, "stopped by event handler"). */
class ClpStop : public ClpEventHandler {
public:
    explicit ClpStop(StopWatch *w) : watch_(w) {}
    ClpStop(const ClpStop &o) : ClpEventHandler(o), watch_(o.watch_) {}
    ClpStop &operator=(const ClpStop &) = delete;
    ClpEventHandler *clone() const override { return new ClpStop(*this); }
    int event(Event e) override
    {
        if ((e == endOfIteration || e == endOfFactorization) && watch_->due())
            return 0;
        return -1;
    }

private:
    StopWatch *watch_;
};

/* Discards every message of CLP, CBC and the cut generators it drives (no stdout). */
class Quiet : public CoinMessageHandler {
public:
    Quiet() { setLogLevel(0); }
    int print() override { return 0; }
    CoinMessageHandler *clone() const override { return new Quiet(*this); }
};

/* f() with no exception escaping: out of memory and COIN-OR's errors become ckm errors naming
 * the solver and the model's size. */
template <class F> ckm_error guarded(const char *solver, const ckm_lp *m, ckm_err *err, F &&f)
{
    try {
        return f();
    } catch (const std::bad_alloc &) {
        return ckm_fail(err, CKM_ERR_NOMEM, "%s: out of memory for a model of %d columns and %d rows", solver,
                        m->ncols, m->nrows);
    } catch (const CoinError &e) {
        return ckm_fail(err, CKM_ERR_INTERNAL, "%s: %s (in %s)", solver, e.message().c_str(), e.methodName().c_str());
    } catch (...) {
        return ckm_fail(err, CKM_ERR_INTERNAL, "%s: unexpected exception", solver);
    }
}

} // namespace ckm_coin

#endif
