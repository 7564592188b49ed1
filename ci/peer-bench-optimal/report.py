#!/usr/bin/env python3
"""The side-by-side table of ci/peer-bench-optimal/run.sh from its OUT
directory: every solution of both sides replayed on the facelet model of
ci/peer-bench-big/replay.py, the optimal lengths compared state by state.

    report.py OUT SOLVER
"""
import os
import statistics
import sys

out, solver = sys.argv[1], sys.argv[2]
size = sys.argv[3] if len(sys.argv) > 3 else "large"
SIZE_BYTES = {"small": "73 MB", "large": "670 MB", "huge": "1.34 GB"}
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "peer-bench-big"))
import replay  # noqa: E402

states = open(f"{out}/states.txt").read().split()
ours, theirs = {}, {}
for line in open(f"{out}/ours.log"):
    head, sep, rest = line.partition(": ")
    if head in states and sep and " moves, " in rest:
        parts = rest.strip().split(", ")
        moves = int(parts[0].split()[0])
        secs = float(parts[1].split()[0])
        ours[head] = (moves, secs, parts[3] if len(parts) > 3 else "")
for line in open(f"{out}/nissy.tsv"):
    i, moves, ms, sol = (line.rstrip("\n").split("\t") + [""])[:4]
    theirs[states[int(i)]] = (int(moves), float(ms) / 1e3, sol)

cube = replay.Cube(3)

def check(name, results):
    for state, (moves, _, sol) in results.items():
        after, count = cube.apply(state, replay.to_sign(sol))
        if not cube.solved(after) or count != moves:
            sys.exit(f"{name}: the solution of {state} does not replay ({sol})")

check("ours", ours)
check("nissy", theirs)
both = [s for s in states if s in ours and s in theirs]
differ = [s for s in both if ours[s][0] != theirs[s][0]]
if differ:
    sys.exit(f"optimal lengths differ on {len(differ)} states: {differ}")

def row(name, results):
    lens = [results[s][0] for s in both]
    times = sorted(results[s][1] for s in both)
    hist = {k: lens.count(k) for k in sorted(set(lens))}
    p90 = times[min(len(times) - 1, int(0.9 * len(times)))]
    return (f"| {name} | {len(both)} | {sum(lens) / len(lens):.2f} {hist} | "
            f"{statistics.median(times):.2f} s | {p90:.2f} s | {times[-1]:.2f} s |")

print(f"{len(both)} of {len(states)} states solved by both, every solution replayed, "
      f"the same optimal length on every state")
print("| solver | states | moves (lengths) | median | p90 | max |")
print("|---|---:|---|---:|---:|---:|")
print(row(f"ours ({size} tables, {SIZE_BYTES.get(size, '?')})", ours))
print(row(f"nissy {solver}", theirs))
by_len = {}
for s in both:
    by_len.setdefault(ours[s][0], []).append(s)
for k in sorted(by_len):
    o = statistics.median(ours[s][1] for s in by_len[k])
    t = statistics.median(theirs[s][1] for s in by_len[k])
    print(f"{k} moves ({len(by_len[k])} states): median ours {o:.2f} s, nissy {t:.2f} s")
