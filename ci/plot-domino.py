#!/usr/bin/env python3
"""Plots docs/domino-fst.csv (FST nodes per BFS depth for each encoding and piece
ordering, from `cargo run --release -p tablegen --example domino_fst`) beside the
thesis's reduced-BDD node counts, as a log-scale SVG. No dependencies.

    python3 ci/plot-domino.py docs/domino-fst.csv docs/domino-fst.svg
"""
import csv
import math
import sys

# Reduced-BDD node counts from van Wetten (2022), as quoted in
# shared/reference/domino-bdd-thesis.md (their state sets differ from ours).
THESIS = {
    ("one", "c-alt-e"): [64, 317, 1319, 5101, 19702, 73252, 261619, 877081, 2676075,
                         7475144, 20257821, 55415450],
    ("two", "c-alt-e"): [48, 234, 969, 3744, 14412, 53312, 189261, 629853, 1907815,
                         5318425, 14563952, 40398277, 101942026],
    ("two", "e-alt-c"): [48, 242, 1034, 3987, 15310, 56330, 197863, 650412, 1950542,
                         5399850, 14823452],
    ("two", "corners-first"): [48, 285, 1149, 4407, 15773, 51172, 146842, 373884, 907284,
                               2496305, 7598450],
    ("two", "edges-first"): [48, 301, 1187, 4558, 16818, 53878, 148604, 369109, 913460,
                             2535171, 7558549],
}
COLOURS = {"c-alt-e": "#1f77b4", "e-alt-c": "#ff7f0e", "corners-first": "#2ca02c",
           "edges-first": "#d62728"}


def main(src, dst):
    series = {}
    states = {}
    for row in csv.DictReader(open(src)):
        key = (row["encoding"], row["ordering"])
        series.setdefault(key, []).append(int(row["fst_nodes"]))
        states[int(row["depth"])] = int(row["states"])
    w, h, left, top, right, bottom = 900, 560, 80, 40, 250, 60
    max_depth = max(states)
    ymax = 10 ** math.ceil(math.log10(max(max(v) for v in list(series.values()) +
                                          list(THESIS.values()))))
    def x(d):
        return left + (w - left - right) * d / max_depth
    def y(v):
        return top + (h - top - bottom) * (1 - math.log10(max(v, 1)) / math.log10(ymax))
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
           'font-family="sans-serif" font-size="12">',
           f'<rect width="{w}" height="{h}" fill="white"/>',
           f'<text x="{w/2 - 200}" y="20" font-size="14">Domino: nodes per BFS depth, '
           'our FSTs (solid) vs thesis reduced BDDs (dashed)</text>']
    for e in range(0, int(math.log10(ymax)) + 1):
        yy = y(10 ** e)
        out.append(f'<line x1="{left}" y1="{yy}" x2="{w-right}" y2="{yy}" stroke="#ddd"/>')
        out.append(f'<text x="{left-8}" y="{yy+4}" text-anchor="end">1e{e}</text>')
    for d in range(0, max_depth + 1):
        out.append(f'<text x="{x(d)}" y="{h-bottom+18}" text-anchor="middle">{d}</text>')
    out.append(f'<text x="{(left + w - right)/2}" y="{h-15}" text-anchor="middle">depth</text>')
    legend = 0
    for (enc, order), vals in sorted(series.items()):
        pts = " ".join(f"{x(d)},{y(v)}" for d, v in enumerate(vals))
        width = 2 if enc == "two" else 1
        dash = "" if enc == "two" else ' stroke-opacity="0.6"'
        out.append(f'<polyline points="{pts}" fill="none" stroke="{COLOURS[order]}" '
                   f'stroke-width="{width}"{dash}/>')
        out.append(f'<text x="{w-right+10}" y="{top+16*legend}" fill="{COLOURS[order]}">'
                   f'FST enc. {enc}, {order}</text>')
        legend += 1
    for (enc, order), vals in sorted(THESIS.items()):
        pts = " ".join(f"{x(d)},{y(v)}" for d, v in enumerate(vals))
        out.append(f'<polyline points="{pts}" fill="none" stroke="{COLOURS[order]}" '
                   'stroke-dasharray="5,4"/>')
        out.append(f'<text x="{w-right+10}" y="{top+16*legend}" fill="{COLOURS[order]}">'
                   f'BDD enc. {enc}, {order}</text>')
        legend += 1
    out.append("</svg>")
    open(dst, "w").write("\n".join(out) + "\n")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
