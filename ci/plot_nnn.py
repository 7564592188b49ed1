#!/usr/bin/env python3
"""Draws docs/nnn.svg from docs/nnn.csv: average moves (OBTM) and median
solve time against N, with the reference toolkit's published reduction
lengths plus 20 for its 3x3x3 as a second line of moves.

    python3 ci/plot_nnn.py docs/nnn.csv docs/nnn.svg
"""
import csv
import math
import sys

# The reference toolkit's own README figures (reduction only), plus about 20
# for its 3x3x3 finish.
ANCHOR = {6: 135.7 + 20, 7: 193.8 + 20, 8: 306.4 + 20, 9: 368.6 + 20, 10: 523.4 + 20}
FLOOR = {6: 150, 7: 210, 8: 326, 9: 389, 10: 543}


def main(src, dst):
    rows = [r for r in csv.DictReader(open(src))]
    ns = [int(r["n"]) for r in rows]
    moves = [float(r["avg_obtm"]) for r in rows]
    secs = [float(r["median_ms"]) / 1000 for r in rows]
    w, h, left, right, top, bottom = 720, 420, 70, 70, 40, 50
    pw, ph = w - left - right, h - top - bottom
    nmin, nmax = min(ns), max(ns)
    mmax = max(moves) * 1.1
    smax = max(max(secs) * 1.2, 1)

    def x(n):
        return left + (n - nmin) / (nmax - nmin) * pw

    def ym(m):  # moves, log scale from 100
        lo, hi = math.log10(100), math.log10(mmax)
        return top + ph - (math.log10(max(m, 100)) - lo) / (hi - lo) * ph

    def ys(s):
        return top + ph - s / smax * ph

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="12">',
           f'<rect width="{w}" height="{h}" fill="white"/>',
           f'<text x="{w/2}" y="20" text-anchor="middle" font-size="14">NxNxN solves: average moves (OBTM, log scale) and median time against N</text>',
           f'<line x1="{left}" y1="{top+ph}" x2="{left+pw}" y2="{top+ph}" stroke="black"/>',
           f'<line x1="{left}" y1="{top}" x2="{left}" y2="{top+ph}" stroke="black"/>',
           f'<line x1="{left+pw}" y1="{top}" x2="{left+pw}" y2="{top+ph}" stroke="black"/>']
    for n in ns:
        out.append(f'<text x="{x(n)}" y="{top+ph+16}" text-anchor="middle">{n}</text>')
    out.append(f'<text x="{left+pw/2}" y="{h-10}" text-anchor="middle">N</text>')
    for m in [100, 200, 500, 1000, 2000, 5000]:
        if m <= mmax:
            out.append(f'<text x="{left-6}" y="{ym(m)+4}" text-anchor="end">{m}</text>')
            out.append(f'<line x1="{left}" y1="{ym(m)}" x2="{left+pw}" y2="{ym(m)}" stroke="#ddd"/>')
    step = max(1, round(smax / 5))
    s = 0
    while s <= smax:
        out.append(f'<text x="{left+pw+6}" y="{ys(s)+4}">{s} s</text>')
        s += step

    def line(points, colour, dash=""):
        d = " ".join(f"{px:.1f},{py:.1f}" for px, py in points)
        extra = f' stroke-dasharray="{dash}"' if dash else ""
        return f'<polyline points="{d}" fill="none" stroke="{colour}" stroke-width="2"{extra}/>'

    out.append(line([(x(n), ym(m)) for n, m in zip(ns, moves)], "#1f77b4"))
    out.append(line([(x(n), ym(ANCHOR[n])) for n in ns if n in ANCHOR], "#999", "6,4"))
    out.append(line([(x(n), ym(FLOOR[n])) for n in ns if n in FLOOR], "#2ca02c", "2,3"))
    out.append(line([(x(n), ys(t)) for n, t in zip(ns, secs)], "#d62728"))
    legend = [("#1f77b4", "", "ours: average moves"), ("#999", "6,4", "reference toolkit: reduction + 20"),
              ("#2ca02c", "2,3", "target (floor)"), ("#d62728", "", "ours: median time (right axis)")]
    for i, (c, dash, label) in enumerate(legend):
        yy = top + 14 + 16 * i
        extra = f' stroke-dasharray="{dash}"' if dash else ""
        out.append(f'<line x1="{left+10}" y1="{yy}" x2="{left+40}" y2="{yy}" stroke="{c}" stroke-width="2"{extra}/>')
        out.append(f'<text x="{left+46}" y="{yy+4}">{label}</text>')
    out.append("</svg>")
    open(dst, "w").write("\n".join(out) + "\n")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
