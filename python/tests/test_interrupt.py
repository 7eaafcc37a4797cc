"""Ctrl-C: SIGINT during a fit raises KeyboardInterrupt, also while CBC solves a MILP, and only once the solve
has returned: no ckm thread runs on after the exception.

The fit runs in a child interpreter (a SIGINT in pytest's own process would end the session), which this
process signals; the child prints whether the solve thread was still alive at the KeyboardInterrupt.
Asserted: the mechanism (the exception, no live solve thread); the time to the child's exit is printed, not
asserted (a loaded or sanitized machine is slower): bench/stop_latency.c measures the library's latency.
"""

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

CHILD = textwrap.dedent("""
    import sys, threading
    import numpy as np
    import ckm

    algo = sys.argv[1]
    rng = np.random.default_rng(3)
    n, k, d = 3000, 8, 8
    truth = np.arange(n) % k
    X = rng.uniform(-0.5, 0.5, size=(n, d, 3)).sum(2) * 1.2
    X[np.arange(n), truth % d] += truth
    ml, cl = ckm.generate_constraints(truth, 1000, ml_fraction=0.5, random_state=1)
    km = ckm.ConstrainedKMeans(k, algorithm=algo, must_link=ml, cannot_link=cl, size_min=338, size_max=412,
                               n_init=100000, random_state=0)
    print("READY", flush=True)
    try:
        km.fit(X)
        print("RESULT no-interrupt", flush=True)
    except KeyboardInterrupt:
        alive = sum(t.is_alive() for t in threading.enumerate() if t.name == "ckm-solve")
        print("RESULT %d" % alive, flush=True)
""")


@pytest.mark.parametrize("algorithm, delay", [("blpkm", 0.7), ("blpkm", 1.5), ("blpkm", 2.5), ("bckm", 1.5),
                                              ("exact", 1.5)])
def test_ctrl_c_raises_keyboard_interrupt_after_the_solve_stopped(algorithm, delay):
    # SIGINT from another process, as a terminal's Ctrl-C. (This test caught CLP's own SIGINT
    # handler, installed during its initial solves, swallowing the signal: mip_cbc.cpp.)
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
    child = subprocess.Popen([sys.executable, "-c", CHILD, algorithm], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, env=env)
    try:
        assert child.stdout.readline().strip() == "READY"
        time.sleep(delay)
        sent = time.monotonic()
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=120)
        ended = time.monotonic() - sent
    finally:
        child.kill()
    line = [l for l in out.splitlines() if l.startswith("RESULT")]
    assert line, out + err
    fields = line[0].split()
    assert fields[1] != "no-interrupt"
    alive = int(fields[1])
    print("%s, SIGINT at %.1f s: the process ended %.3f s after the signal, %d solve thread(s) alive at the "
          "KeyboardInterrupt" % (algorithm, delay, ended, alive))
    assert alive == 0
