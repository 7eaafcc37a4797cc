#!/usr/bin/env python3
"""summarize_root_speed.py INDEX_CSV OUT_CSV -- the logs of run_root_speed.sh to a CSV and a markdown table.

Per instance and version: the root's seconds (the tool's "time" line: reading included), its safe
bound and incumbent, cut rounds, how the root ended, and for the later version the seconds into
the root solve (the log's clock, from the node's start) at which its bound first reached the
earlier version's final root bound. Speedups: earlier seconds / later seconds, and earlier seconds
/ later seconds to the earlier bound."""
import csv
import re
import sys

STEP = re.compile(r"^ipc: (?:SDP safe bound|cut round \d+:.*safe bound|final solve: safe bound) ([0-9.eE+-]+).*?, ([0-9.]+) s\)$")


def parse(path):
    out = {"seconds": None, "bound": None, "sse": None, "rounds": None, "root": "", "steps": []}
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            m = STEP.match(line)
            if m:
                out["steps"].append((float(m.group(2)), float(m.group(1))))
            m = re.match(r"^exact: node 0 \(depth 0, root\): .*?(\d+) cut rounds, bound ([0-9.eE+-]+).*: (\S.*)$", line)
            if m:
                out["rounds"] = int(m.group(1))
                out["root"] = m.group(3)
            m = re.match(r"^  time\s+([0-9.]+) s", line)
            if m:
                out["seconds"] = float(m.group(1))
            m = re.match(r"^  lower bound\s+([0-9.eE+-]+)", line)
            if m:
                out["bound"] = float(m.group(1))
            m = re.match(r"^  SSE\s+([0-9.eE+-]+)", line)
            if m:
                out["sse"] = float(m.group(1))
    return out


def main():
    rows = list(csv.DictReader(open(sys.argv[1])))
    runs = {}
    for r in rows:
        runs.setdefault(r["instance"], {})[r["version"]] = (r["commit"], parse(r["log"]))
    with open(sys.argv[2], "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["instance", "version", "commit", "seconds", "bound", "sse", "gap_pct", "cut_rounds", "root",
                    "s_to_before_bound"])
        lines = ["| instance | version (commit) | root s | safe bound | SSE found | gap % | cut rounds | root ended |",
                 "|---|---|---|---|---|---|---|---|"]
        notes = []
        for inst, v in runs.items():
            before = v.get("before", (None, None))[1]
            for ver in ("before", "after"):
                if ver not in v:
                    continue
                commit, p = v[ver]
                gap = 100.0 * (p["sse"] - p["bound"]) / p["sse"] if p["sse"] and p["bound"] is not None else float("nan")
                reach = ""
                if ver == "after" and before and before["bound"] is not None:
                    hit = [t for t, b in p["steps"] if b >= before["bound"]]
                    reach = "%.2f" % hit[0] if hit else ""
                w.writerow([inst, ver, commit, p["seconds"], p["bound"], p["sse"], "%.4f" % gap, p["rounds"], p["root"], reach])
                lines.append("| %s | %s (%s) | %.1f | %.4f | %.4f | %.4f | %s | %s |" % (
                    inst, ver, commit, p["seconds"], p["bound"], p["sse"], gap, p["rounds"], p["root"]))
                if ver == "after" and before and before["seconds"]:
                    notes.append("- %s: root %.1f s -> %.1f s (%.2fx); the later root passed the earlier root's final bound "
                                 "%.4f after %s s (%s)" % (
                                     inst, before["seconds"], p["seconds"], before["seconds"] / p["seconds"], before["bound"],
                                     reach or "never", "%.2fx" % (before["seconds"] / float(reach)) if reach else "-"))
    print("\n".join(lines + [""] + notes))


if __name__ == "__main__":
    main()
