"""Tables and an SVG plot (Figure 1 shape) for bench/results/le2018.csv (stdlib only).

usage: python3 summarize.py LE2018_CSV OUT_SVG > le2018.md
"""
import csv
import math
import sys

csv_path, svg_path = sys.argv[1], sys.argv[2]
rows = list(csv.DictReader(open(csv_path)))
algs = []
for r in rows:
    if r["algorithm"] not in algs:
        algs.append(r["algorithm"])
sigmas = sorted({float(r["sigma"]) for r in rows})
ks = sorted({int(r["k"]) for r in rows})
get = {(float(r["sigma"]), int(r["k"]), r["algorithm"]): r for r in rows}

print("# Le et al. 2018 synthetic experiment (Figure 1 shape)\n")
print("N ~ 500 (k clusters of floor(500/k) points), d = 512, centers uniform in [-1,1]^512, noise "
      "covariance sigma I, every cluster at least (so exactly) n points; 20 % of each cluster's points "
      "sampled, chained by must-links, each with one cannot-link to a sampled point of another cluster; "
      "seed 1, each algorithm with its defaults (n_init 10) and only the constraints it honours "
      "(kmeans none, cop links, sizeflow sizes + must-links, blpkm, bckm and admm all). `violations` counts "
      "broken constraints of the full set. Plot: `le2018.svg`.\n")
for s in sigmas:
    print(f"## sigma = {s}\n")
    print("| k | " + " | ".join(f"{a} NMI" for a in algs) + " | " + " | ".join(f"{a} s" for a in algs) + " |")
    print("|---|" + "---|" * (2 * len(algs)))
    for k in ks:
        cells, secs = [], []
        for a in algs:
            r = get.get((s, k, a))
            if not r:
                cells.append("-")
                secs.append("-")
                continue
            v = int(r["violations_all"])
            cells.append(f"{float(r['nmi']):.3f}" + (f" ({v} viol.)" if v else ""))
            secs.append(f"{float(r['seconds']):.2f}")
        print(f"| {k} | " + " | ".join(cells) + " | " + " | ".join(secs) + " |")
    print()

# --- SVG: one row per sigma, NMI (left) and seconds on a log axis (right) ---
W, H, PAD = 360, 220, 45
colors = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b"]
parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{2 * W + 160}" height="{len(sigmas) * H + 20}" '
         'font-family="sans-serif" font-size="11">', '<rect width="100%" height="100%" fill="white"/>']
kmin, kmax = min(ks), max(ks)
secs_all = [float(r["seconds"]) for r in rows if float(r["seconds"]) > 0]
smin, smax = math.log10(min(secs_all)), math.log10(max(secs_all))
nmis = [float(r["nmi"]) for r in rows if float(r["nmi"]) >= 0]
nmin = min(0.9, math.floor(min(nmis) * 20) / 20)


def panel(ox, oy, title, ylab, yfun, ymin, ymax, fmt):
    px = lambda k: ox + PAD + (W - PAD - 10) * (k - kmin) / max(1, kmax - kmin)
    py = lambda v: oy + H - PAD + 10 - (H - PAD - 10) * (v - ymin) / max(1e-12, ymax - ymin)
    parts.append(f'<rect x="{ox + PAD}" y="{oy + 10}" width="{W - PAD - 10}" height="{H - PAD}" fill="none" stroke="#888"/>')
    parts.append(f'<text x="{ox + W / 2}" y="{oy + 8}" text-anchor="middle">{title}</text>')
    parts.append(f'<text x="{ox + 10}" y="{oy + H / 2}" transform="rotate(-90 {ox + 10} {oy + H / 2})" text-anchor="middle">{ylab}</text>')
    for k in ks:
        parts.append(f'<text x="{px(k)}" y="{oy + H - PAD + 24}" text-anchor="middle">{k}</text>')
    for t in range(5):
        v = ymin + (ymax - ymin) * t / 4
        parts.append(f'<text x="{ox + PAD - 4}" y="{py(v) + 4}" text-anchor="end">{fmt(v)}</text>')
    for ai, a in enumerate(algs):
        pts = []
        for k in ks:
            r = get.get((s, k, a))
            if r and float(r["nmi"]) >= 0:
                y = yfun(r)
                if y is not None:
                    pts.append(f"{px(k):.1f},{py(y):.1f}")
        if pts:
            parts.append(f'<polyline fill="none" stroke="{colors[ai % len(colors)]}" stroke-width="2" points="{" ".join(pts)}"/>')


for si, s in enumerate(sigmas):
    oy = si * H + 10
    panel(0, oy, f"NMI, sigma = {s}", "NMI", lambda r: float(r["nmi"]), nmin, 1.0, lambda v: f"{v:.2f}")
    panel(W, oy, f"seconds (log), sigma = {s}", "log10 s",
          lambda r: math.log10(float(r["seconds"])) if float(r["seconds"]) > 0 else None, smin, smax,
          lambda v: f"{v:.1f}")
for ai, a in enumerate(algs):
    y = 30 + 18 * ai
    parts.append(f'<line x1="{2 * W + 20}" y1="{y}" x2="{2 * W + 45}" y2="{y}" stroke="{colors[ai % len(colors)]}" stroke-width="2"/>')
    parts.append(f'<text x="{2 * W + 50}" y="{y + 4}">{a}</text>')
parts.append(f'<text x="{W}" y="{len(sigmas) * H + 14}" text-anchor="middle">k (number of clusters)</text>')
parts.append("</svg>")
open(svg_path, "w").write("\n".join(parts))
