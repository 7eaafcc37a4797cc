"""report.py CSV OUT_DIR -- bench/certify/run.sh's summary: OUT_DIR/certify.md (the table) and two SVG plots
(numpy and the standard library only): certify_gap_n.svg (gap against n, log-log) and certify_gap_time.svg
(gap against the certification's wall time; Electric's time-limit sweep joined by a line).
report.py --md CSV COLUMN... -- a CSV's rows as a markdown table; COLUMN is field=Header, a header with a
trailing " %" appends " %" to each value, one in ** ** bolds it (avoc_run.sh, hour_run.sh).
report.py --gap-limit CSV SVG -- hour_run.sh's plot: each run's certified gap against its time limit, the runs of
one instance joined by a line (one line per commit where an instance has runs of several)."""

import csv
import math
import os
import sys


def rows(path):
    with open(path) as f:
        return [r for r in csv.DictReader(f)]


def table(rs):
    head = ("| instance | n | d | k | pairs | labels | SSE | limit s | T | bound | gap % | split loss % | status | "
            "subsets done | time s | peak MB |\n|" + "---|" * 16 + "\n")
    body = ""
    for r in rs:
        body += "| %s | %s | %s | %s | %s | %s | %.6g | %s | %s | %.6g | %s | %s | %s | %s/%s | %s | %s |\n" % (
            r["instance"], r["n"], r["d"], r["k"], r["pairs"], r["labels"], float(r["sse"]), r["time_limit_s"],
            r["subsets"], float(r["lower_bound"]), r["gap_pct"] or "-", r["split_loss_pct"], r["status"],
            r["sdp_done"], r["subsets"], r["certify_s"], r["peak_mb"])
    return head + body


PALETTE = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf"]


def svg_plot(points, lines, xlabel, ylabel, title, path, logx=True, series=()):
    """points: (x, y, label); lines: lists of (x, y) joined; series: (label, colour, dashed, [(x, y)])
    drawn as joined markers in their colour and named in a legend on the right; y on a log scale (gaps
    span decades)."""
    W, H, L, R, T, B = 720, max(440, 60 + 16 * len(series)), 70, 170, 40, 50
    xs = [p[0] for p in points] + [q[0] for ln in lines for q in ln] + [q[0] for sr in series for q in sr[3]]
    ys = ([max(p[1], 1e-4) for p in points] + [max(q[1], 1e-4) for ln in lines for q in ln] +
          [max(q[1], 1e-4) for sr in series for q in sr[3]])
    fx = (lambda v: math.log10(v)) if logx else (lambda v: v)
    x0, x1 = fx(min(xs)), fx(max(xs))
    y0, y1 = math.floor(math.log10(min(ys))), math.ceil(math.log10(max(ys)))
    if x1 - x0 < 1e-9:
        x0, x1 = x0 - 1, x1 + 1
    if y1 == y0:
        y1 = y0 + 1

    def px(v):
        return L + (fx(v) - x0) / (x1 - x0) * (W - L - R)

    def py(v):
        return H - B - (math.log10(max(v, 1e-4)) - y0) / (y1 - y0) * (H - T - B)

    s = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="11">'
         % (W, H), '<rect width="100%" height="100%" fill="white"/>',
         '<text x="%d" y="20" font-size="14">%s</text>' % (L, title)]
    s.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>' % (L, H - B, W - R, H - B))
    s.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>' % (L, T, L, H - B))
    for e in range(y0, y1 + 1):
        y = py(10.0 ** e)
        s.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#ddd"/>' % (L, y, W - R, y))
        s.append('<text x="%d" y="%.1f" text-anchor="end">%g %%</text>' % (L - 5, y + 4, 10.0 ** e))
    ticks = sorted(set(xs))
    if logx:
        ticks = [10.0 ** e for e in range(int(math.floor(x0)), int(math.ceil(x1)) + 1)]
    for v in ticks:
        if x0 - 1e-9 <= fx(v) <= x1 + 1e-9:
            s.append('<text x="%.1f" y="%d" text-anchor="middle">%g</text>' % (px(v), H - B + 16, v))
    s.append('<text x="%d" y="%d" text-anchor="middle">%s</text>' % ((L + W - R) // 2, H - 10, xlabel))
    s.append('<text x="15" y="%d" transform="rotate(-90 15 %d)" text-anchor="middle">%s</text>'
             % ((T + H - B) // 2, (T + H - B) // 2, ylabel))
    for ln in lines:
        pts = " ".join("%.1f,%.1f" % (px(x), py(y)) for x, y in ln)
        s.append('<polyline points="%s" fill="none" stroke="#c33"/>' % pts)
    for x, y, label in points:
        s.append('<circle cx="%.1f" cy="%.1f" r="4" fill="#36c"/>' % (px(x), py(y)))
        s.append('<text x="%.1f" y="%.1f">%s</text>' % (px(x) + 6, py(y) - 4, label))
    for i, (label, colour, dashed, pts) in enumerate(series):
        dash = ' stroke-dasharray="5,3"' if dashed else ""
        fill = "white" if dashed else colour
        if len(pts) > 1:
            s.append('<polyline points="%s" fill="none" stroke="%s" stroke-width="1.5"%s/>'
                     % (" ".join("%.1f,%.1f" % (px(x), py(y)) for x, y in pts), colour, dash))
        for x, y in pts:
            s.append('<circle cx="%.1f" cy="%.1f" r="4" fill="%s" stroke="%s" stroke-width="1.5"/>'
                     % (px(x), py(y), fill, colour))
        ly = T + 8 + 16 * i
        s.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="1.5"%s/>'
                 % (W - R + 12, ly, W - R + 32, ly, colour, dash))
        s.append('<circle cx="%d" cy="%d" r="3.5" fill="%s" stroke="%s" stroke-width="1.5"/>'
                 % (W - R + 22, ly, fill, colour))
        s.append('<text x="%d" y="%d">%s</text>' % (W - R + 38, ly + 4, label))
    s.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(s) + "\n")


def gap_limit(path, svg):
    """hour_run.sh's rows: one point per run (its limit, its certified gap), the runs of one instance
    and commit joined; one colour per instance, its latest commit (the CSV's order) solid, earlier
    commits dashed with hollow markers, each series named with its commit in the legend."""
    rs = [(r["instance"] + (" (std)" if r["standardize"] == "yes" else ""), r) for r in rows(path)]
    colour, latest, runs = {}, {}, {}
    for name, r in rs:
        colour.setdefault(name, PALETTE[len(colour) % len(PALETTE)])
        latest[name] = r["commit"]
        runs.setdefault((name, r["commit"]), []).append((float(r["limit_s"]), float(r["gap_pct"])))
    series = [("%s %s" % (name, commit), colour[name], commit != latest[name], sorted(v))
              for (name, commit), v in sorted(runs.items(), key=lambda kv: (list(colour).index(kv[0][0]),
                                                                             kv[0][1] != latest[kv[0][0]]))]
    svg_plot([], [], "time limit (s), 2 threads", "certified gap",
             "Certified gap of ckm's labels against the time limit (hour_run.sh)", svg, series=series)


def md_rows(path, columns):
    spec = [c.split("=", 1) for c in columns]
    out = "| " + " | ".join(h for _, h in spec) + " |\n|" + "---|" * len(spec) + "\n"
    for r in rows(path):
        cells = []
        for field, head in spec:
            v = r[field] + (" %" if head.endswith(" %") else "")
            cells.append("**%s**" % v if head.startswith("**") else v)
        out += "| " + " | ".join(cells) + " |\n"
    return out


def main():
    if sys.argv[1] == "--md":
        sys.stdout.write(md_rows(sys.argv[2], sys.argv[3:]))
        return
    if sys.argv[1] == "--gap-limit":
        gap_limit(sys.argv[2], sys.argv[3])
        return
    path, out = sys.argv[1], sys.argv[2]
    rs = rows(path)
    with open(os.path.join(out, "certify.md"), "w") as f:
        f.write("# Certified gaps (bench/certify/run.sh)\n\nGap = (SSE of ckm's labels - certified bound) / SSE; "
                "split loss = SSE - the labels' restricted SSEs over the subsets (what the split costs the bound at "
                "most). Subsets done: subsets whose SDP ended before their share of the time.\n\n")
        f.write(table(rs))
    main_runs = {}
    for r in rs:  # the longest run of each instance for the gap against n
        if r["gap_pct"] and (r["instance"] not in main_runs or
                             float(r["time_limit_s"]) > float(main_runs[r["instance"]]["time_limit_s"])):
            main_runs[r["instance"]] = r
    pts = [(int(r["n"]), float(r["gap_pct"]), r["instance"]) for r in main_runs.values()]
    if pts:
        svg_plot(pts, [], "n (points)", "certified gap", "Certified gap of ckm's labels against n",
                 os.path.join(out, "certify_gap_n.svg"))
        sweep = sorted((float(r["certify_s"]), float(r["gap_pct"])) for r in rs
                       if r["instance"] == "Electric" and r["gap_pct"])
        tp = [(float(r["certify_s"]), float(r["gap_pct"]), r["instance"]) for r in main_runs.values()]
        svg_plot(tp, [sweep] if len(sweep) > 1 else [], "certification wall time (s)", "certified gap",
                 "Certified gap against time (line: Electric under 30-300 s)", os.path.join(out, "certify_gap_time.svg"))


if __name__ == "__main__":
    main()
