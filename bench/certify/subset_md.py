"""subset_md.py CSV MD -- the summary of subset_run.sh's rows: per run (label, commit, n, T,
share), the subsets' gaps between bound and labels, their mean, and the cut rounds."""
import csv
import sys
from collections import OrderedDict

runs = OrderedDict()
for r in csv.DictReader(open(sys.argv[1])):
    runs.setdefault((r["run"], r["commit"], r["n"], r["subsets"], r["share_s"]), []).append(r)
with open(sys.argv[2], "w") as f:
    f.write("| run | commit | n | T | share s | subsets | gaps % (subset order) | mean gap % | cut rounds |\n")
    f.write("|---|---|---|---|---|---|---|---|---|\n")
    for (run, commit, n, T, share), rows in runs.items():
        rows.sort(key=lambda r: int(r["subset"]))
        gaps = [float(r["gap_pct"]) for r in rows]
        f.write("| %s | %s | %s | %s | %s | %d | %s | %.3f | %s |\n" % (
            run, commit, n, T, share, len(rows), " / ".join("%.3f" % g for g in gaps), sum(gaps) / len(gaps),
            " / ".join(r["cut_rounds"] for r in rows)))
