#!/usr/bin/env python3
"""extract_optima.py -- the per-instance optimal values f of PC-SOS-SDP (Piccialli, Russo Russo &
Sudoso 2022, Appendix B, Tables B.12-B.23: "f: the optimal solution value") and root gaps
gap0 (percent), with the root time, node count and total time of the paper's run, from the text
extraction of the paper, as CSV on stdout:
    dataset,k,n_ml,n_cl,replicate,root_size,f,root_gap_pct,time0_s,nodes,time_s,node_limit_gap_pct
usage: python3 bench/pcsos/extract_optima.py ../shared/papers/piccialli2022-pc-sos-sdp-exact.txt
       > bench/pcsos/published_optima.csv

In the extraction each table is a run of columns, one value per line, between a line "ml" and
the caption "Table B.N: Dataset NAME, k=K.": 30 ml, (headers), 30 cl, 30 seed, 30 size, 30 f,
30 cp0, 30 ineq0, 30 gap0 ("0.0097%"), then 30 time0, 30 nodes and 30 time (seconds, 16 cores),
which run on after the caption up to the next table's "ml" line. A run the paper stopped at its
node limit prints its nodes as "200 (0.013%)", the gap left at the limit: that becomes nodes 200
and node_limit_gap_pct 0.013 (empty for a solved instance). Where the extraction scrambled
those three columns they are left empty (with a note on stderr). f is printed to 6 significant digits (some as
3.62636e+06), so it is an incumbent of the paper's branch and bound (tolerance 1e-4) rounded to
6 digits. The script refuses a table whose columns do not have that shape (the node counts of a binary
tree are odd, which catches a page number caught among them)."""
import re
import sys

NUM = re.compile(r"-?\d+(\.\d+)?(e[+-]\d+)?%?|\d+@\d*\.\d+")
AT_LIMIT = re.compile(r"(\d+) \((\d*\.\d+)%\)")  # "200 (0.013%)" -> one token "200@0.013"
CAPTION = re.compile(r"Table B\.(\d+): Dataset (\S+), k=(\d+)\.")

lines = [AT_LIMIT.sub(r"\1@\2", l) for l in open(sys.argv[1], encoding="utf-8").read().split("\n")]
rows = []
for i, line in enumerate(lines):
    m = CAPTION.match(line)
    if not m:
        continue
    name, k = m.group(2), int(m.group(3))
    name = name if name == "ECG5000" else name.lower()
    start = max((t for t in range(i) if lines[t].strip() == "ml"), default=None)
    if start is None:
        sys.exit(f"extract_optima: no 'ml' column before the caption of the table for {name}")
    nums = [x for l in lines[start + 1:i] for x in l.split() if NUM.fullmatch(x)]
    cols = [nums[30 * a:30 * a + 30] for a in range(8)]
    ml, cl, seed, size, f, _, _, gap0 = cols
    if (len(gap0) != 30 or any(not x.isdigit() for x in ml + cl + seed + size)
            or any(x.endswith("%") or "@" in x for x in f) or not all(x.endswith("%") for x in gap0)
            or sorted(set(seed)) != ["0", "1", "2", "3", "4"]):
        sys.exit(f"extract_optima: table for {name} does not have the expected columns")
    end = next((t for t in range(i + 1, len(lines)) if lines[t].strip() == "ml"), len(lines))
    after = [x for l in lines[i + 1:end] for x in l.split() if NUM.fullmatch(x)]
    time0, nodes, time = (([] + nums + after)[30 * a:30 * a + 30] for a in range(8, 11))
    limit_gap = [x.split("@")[1] if "@" in x else "" for x in nodes]
    nodes = [x.split("@")[0] for x in nodes]
    if (len(time) != 30 or any(not x.isdigit() or (int(x) % 2 != 1 and not g) or (g and int(x) < 200)
                               for x, g in zip(nodes, limit_gap))
            or any(x.endswith("%") or "@" in x for x in time0 + time)):
        print(f"extract_optima: {name}: the time0 / nodes / time columns are not in the expected order in the "
              "extraction; left empty", file=sys.stderr)
        time0 = nodes = time = limit_gap = [""] * 30
    for a in range(30):
        rows.append(f"{name},{k},{ml[a]},{cl[a]},{seed[a]},{size[a]},{float(f[a]):.6g},{gap0[a][:-1]},"
                    f"{time0[a]},{nodes[a]},{time[a]},{limit_gap[a]}")
if not rows:
    sys.exit("extract_optima: no 'Table B.N: Dataset NAME, k=K.' caption in the file")
print("dataset,k,n_ml,n_cl,replicate,root_size,f,root_gap_pct,time0_s,nodes,time_s,node_limit_gap_pct")
print("\n".join(rows))
