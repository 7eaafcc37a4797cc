#!/usr/bin/env python3
"""summarize.py MPI_SCALING_CSV [OLD_CSV OLD_LABEL] -- markdown summary of bench/mpi/run.sh:
strong and weak scaling, messages per iteration, and the 10^9-point model (assumptions
stated in the output) from the measured per-rank rates; with an older build's CSV (run.sh's
OLD=), its strong-scaling rows beside this build's."""
import csv
import math
import os
import sys

rows = list(csv.DictReader(open(sys.argv[1])))
old_rows = list(csv.DictReader(open(sys.argv[2]))) if len(sys.argv) > 3 else []
label = sys.argv[3] if len(sys.argv) > 3 else ""


def f(r, key):
    v = r.get(key, "")
    return float(v) if v not in ("", None) else float("nan")


def pick(algo, scaling, start, ranks, table=None):
    for r in rows if table is None else table:
        if r["algorithm"] == algo and r["scaling"] == scaling and r["start"] == start and int(r["ranks"]) == ranks:
            return r
    return None


print("# MPI mode: measured scaling (bench/mpi/run.sh)\n")
print("2 cores; one thread per rank; 4 ranks are oversubscribed (2 per core), so 4-rank")
print("times measure correctness of the split and communication, not speed-up. `ranks 0` is")
print("the single-process tool (no MPI) on the same file and settings. Seconds exclude reading.\n")
print("## Strong scaling (same points)\n")
print("| algorithm | start | ranks | code | n | seconds | speed-up vs 1 rank | Lloyd steps | s per step | allreduces | MB sent by rank 0 | MB per step | comm s (rank 0) | SSP phases | SSE |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
for algo in ("kmeans", "sizeflow"):
    for start in ("seeded", "centers"):
        for ranks in (0, 1, 2, 4):
            for table, code in ((rows, os.environ.get("CKM_LABEL", "this build")), (old_rows, label)):
                base = pick(algo, "strong", start, 1, table)
                r = pick(algo, "strong", start, ranks, table)
                if not r:
                    continue
                sec = f(r, "seconds")
                steps = f(r, "lloyd_steps")
                sp = f(base, "seconds") / sec if base and ranks > 0 else float("nan")
                mb = f(r, "bytes_rank0") / 2**20
                print(f"| {algo} | {start} | {ranks if ranks else 'single process'} | {code} | {r['n']} | {sec:.2f} | "
                      f"{'' if math.isnan(sp) else f'{sp:.2f}'} | {'' if math.isnan(steps) else int(steps)} | "
                      f"{'' if math.isnan(steps) else f'{sec / steps:.3f}'} | {r['allreduces']} | "
                      f"{'' if math.isnan(mb) else f'{mb:.1f}'} | {'' if math.isnan(mb) else f'{mb / steps:.3f}'} | "
                      f"{r['comm_seconds_rank0']} | {r['ssp_phases']} | {r['sse']} |")
print()
if not any(r["scaling"] == "weak" for r in rows):  # KIND=overlap: strong scaling from seeds only
    sys.exit(0)
print("## Weak scaling (rows per rank fixed)\n")
print("Seconds include the seeding; the runs take different numbers of steps, so s per step is the")
print("fairer comparison.\n")
print("| algorithm | ranks | n | seconds | efficiency t(1)/t(P) | Lloyd steps | s per step | SSP phases | phases per step | MB per step (rank 0) |")
print("|---|---|---|---|---|---|---|---|---|---|")
for algo in ("kmeans", "sizeflow"):
    base = pick(algo, "weak", "seeded", 1)
    for ranks in (1, 2, 4):
        r = pick(algo, "weak", "seeded", ranks)
        if not r:
            continue
        steps = f(r, "lloyd_steps")
        ph = f(r, "ssp_phases")
        print(f"| {algo} | {ranks} | {r['n']} | {f(r, 'seconds'):.2f} | {f(base, 'seconds') / f(r, 'seconds'):.2f} | "
              f"{int(steps)} | {f(r, 'seconds') / steps:.3f} | {int(ph)} | {ph / steps:.0f} | "
              f"{f(r, 'bytes_rank0') / 2**20 / steps:.3f} |")
print()

# ---- the model of 10^9 points on 64 nodes ----
N, d, k = 1e9, 16, 100
nodes, cores = 64, 32
P = nodes * cores
n_rank = N / P
alpha, beta = 2e-6, 10e9  # per message latency (s), per node bandwidth (bytes/s): assumptions
km = pick("kmeans", "strong", "centers", 1)
sf = pick("sizeflow", "strong", "centers", 1)
n1 = f(km, "n")
t_row_km = f(km, "seconds") / f(km, "lloyd_steps") / n1
m_km = f(km, "bytes_rank0") / f(km, "lloyd_steps")


def allreduce(m, P):
    # a tree for small messages, reduce-scatter + allgather for large ones
    return min(2 * math.log2(P) * (alpha + m / beta), 2 * math.log2(P) * alpha + 2 * m / beta)


t_iter_km = n_rank * t_row_km + allreduce(m_km, P)
print("## Model: 10^9 points x 16, k = 100, on 64 nodes\n")
print(f"Assumptions: 64 nodes x {cores} cores, one rank per core ({P} ranks, {n_rank:.3g} rows per rank); "
      f"per-rank compute rates as measured here on one rank (one core of this machine); messages cost "
      f"alpha = {alpha * 1e6:.0f} us per hop and bandwidth {beta / 1e9:.0f} GB/s per node "
      f"(a tree of log2 P hops for small reductions, reduce-scatter + allgather for large ones); "
      f"the {cores} ranks of a node share its memory bandwidth as the 2 ranks here do (optimistic).\n")
print(f"- kmeans: {t_row_km * 1e9:.1f} ns per row per iteration (measured from given centers, Yinyang bounds per rank as chosen automatically, k = 100, d = 16) -> "
      f"{n_rank * t_row_km:.3f} s of compute per iteration; one allreduce of {m_km / 1024:.1f} KB -> "
      f"{allreduce(m_km, P) * 1e6:.0f} us; **{t_iter_km:.3f} s per iteration**. Memory per rank: "
      f"{n_rank * (8 * d + 24) / 2**20:.0f} MB (rows + labels + norms + distances), "
      f"{cores * n_rank * (8 * d + 24) / 2**30:.1f} GB per node.")
steps_sf = f(sf, "lloyd_steps")
t_step_sf = f(sf, "seconds") / steps_sf
ph_w = [(f(r, "n"), f(r, "ssp_phases") / f(r, "lloyd_steps")) for r in rows
        if r["algorithm"] == "sizeflow" and r["scaling"] == "weak"]
if len(ph_w) >= 2:
    (na, pa), (nb, pb) = ph_w[0], ph_w[-1]
    expo = math.log(pb / pa) / math.log(nb / na) if pa > 0 and pb > 0 else 1.0
else:
    expo = 1.0
ph1 = f(sf, "ssp_phases") / steps_sf
phases_N = ph1 * (N / f(sf, "n")) ** expo
t_phase = allreduce(12 * k * k, P) + 4 * k * k * 1e-9 * 3
compute_sf = (t_step_sf - ph1 * 4 * k * k * 3e-9) / f(sf, "n") * n_rank
print(f"- sizeflow: one step on {int(f(sf, 'n'))} rows took {t_step_sf:.2f} s on one rank "
      f"({ph1:.0f} shortest-path phases per step from given centers). The phases per step grew as "
      f"n^{expo:.2f} in the weak-scaling runs; extrapolated, {phases_N:.3g} phases per step at 10^9 rows, "
      f"each one allreduce of {12 * k * k / 1024:.0f} KB ({allreduce(12 * k * k, P) * 1e6:.0f} us at {P} ranks) "
      f"and an O(k^2) search: **about {phases_N * t_phase:.0f} s per step in phases**, besides "
      f"{compute_sf:.2f} s of per-row work. Memory per rank: {n_rank * (8 * d + 8 * k + 24) / 2**20:.0f} MB "
      f"(rows, the n x k cost matrix, labels and lists), {cores * n_rank * (8 * d + 8 * k + 24) / 2**30:.1f} GB per node.")
print()
