#!/usr/bin/env python3
"""Replays both sides' solutions and prints the Markdown table.

    report.py PUZZLE WORK_DIR PEER_NAME

Reads what run.sh leaves in WORK_DIR:
  states.tsv            SEED<TAB>SCRAMBLE<TAB>STATE (from cubesolve scramble)
  ours.jsonl            cubesolve solve --json, one object per state
  ours.measure          WALL RSS_KB EXIT CPU per state (measure.py)
  ours-startup.jsonl    cubesolve solve --json of the solved cube, per run
  ours-startup.measure  WALL RSS_KB EXIT per run
  ours-tables.txt       the table files cubesolve opened (a first line
                        "# glob" if they were guessed by name)
  peer.tsv              SOLUTION<TAB>MS per state (the driver; "#" lines skipped)
  peer.measure          WALL RSS_KB EXIT of the driver's run over all states
  peer-startup.measure  WALL RSS_KB EXIT per start-up-only run of the driver
  peer-build.measure    (optional) the run that built the peer's tables
  peer-tables/          the peer's working directory: its table files

Every scramble must give its state and every solution must solve its state
on replay.py's model; the failures are listed on standard error and the exit
code is 1.
"""
import json
import math
import os
import statistics
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import replay  # noqa: E402


def read_lines(path):
    with open(path) as f:
        return [line.rstrip("\n") for line in f if line.strip()]


def measures(path):
    """(wall seconds, peak RSS KB, exit code, CPU seconds or None) per line
    (runs measured before the CPU time was recorded have three fields)."""
    out = []
    for line in read_lines(path):
        wall, rss, code, *cpu = line.split()
        out.append((float(wall), int(rss), int(code), float(cpu[0]) if cpu else None))
    return out


def p90(values):
    """90th percentile, nearest rank."""
    s = sorted(values)
    return s[max(0, math.ceil(0.9 * len(s)) - 1)]


def mb(nbytes):
    return f"{nbytes / 1e6:.1f} MB"


def mib(kb):
    return f"{kb / 1024:.0f} MiB"


class Side:
    def __init__(self, label):
        self.label = label
        self.moves = []
        self.times = []
        self.failed = 0


def replay_side(side, cube, states, solutions, failures):
    """solutions: per state (solution text or None, ms, error text)."""
    for (seed, _, state), (text, ms, error) in zip(states, solutions):
        if error:
            failures.append(f"{side.label}, seed {seed}: {error}")
            side.failed += 1
            continue
        try:
            after, obtm = cube.apply(state, replay.to_sign(text))
        except replay.NotationError as e:
            failures.append(f"{side.label}, seed {seed}: {e}")
            side.failed += 1
            continue
        if not cube.solved(after):
            failures.append(f"{side.label}, seed {seed}: does not solve the state: {text}")
            side.failed += 1
            continue
        side.moves.append(obtm)
        side.times.append(ms)


def main(argv):
    if len(argv) != 4:
        print("usage: report.py PUZZLE WORK_DIR PEER_NAME", file=sys.stderr)
        return 2
    puzzle, work, peer_name = argv[1:]
    n = int(puzzle.split("x")[0])
    path = lambda name: os.path.join(work, name)
    cube = replay.Cube(n)
    solved = "".join(f * n * n for f in replay.FACES)
    failures = []

    states = [tuple(line.split("\t")) for line in read_lines(path("states.tsv"))]
    for seed, scramble, state in states:
        replay.check_state(n, state)
        if cube.apply(solved, replay.to_sign(scramble))[0] != state:
            failures.append(f"states, seed {seed}: the scramble does not give the state")

    # Ours: one process per state; its JSON "ms" runs from the start of the
    # solve command, table loading included, so the loading time (the median
    # "ms" of the solved-cube runs) is taken off. With --batch, one process
    # for all states (as the peer's one JVM), each "ms" that state's own.
    batch = os.path.exists(path("ours.batch"))
    startup_ms = statistics.median(json.loads(l)["ms"] for l in read_lines(path("ours-startup.jsonl")))
    taken_off = 0.0 if batch else startup_ms
    ours_runs = measures(path("ours.measure"))
    ours_solutions = []
    for line in read_lines(path("ours.jsonl")):
        j = json.loads(line)
        if "error" in j:
            ours_solutions.append((None, None, j["error"]))
        else:
            ours_solutions.append((j["solution"], max(0.0, j["ms"] - taken_off), None))
    if len(ours_solutions) != len(states):
        failures.append(f"ours: {len(ours_solutions)} results for {len(states)} states")
    ours = Side("cubesolve (ours)")
    replay_side(ours, cube, states, ours_solutions, failures)
    ours.startup = statistics.median(m[0] for m in measures(path("ours-startup.measure")))
    ours.rss = max(m[1] for m in ours_runs + measures(path("ours-startup.measure")))
    table_files = read_lines(path("ours-tables.txt"))
    ours.guessed_tables = bool(table_files) and table_files[0] == "# glob"
    ours.tables = sum(os.path.getsize(f) for f in table_files if not f.startswith("#"))

    peer_solutions = []
    for line in read_lines(path("peer.tsv")):
        if line.startswith("#"):
            continue
        text, ms = line.rsplit("\t", 1)
        if text.startswith("ERROR"):
            peer_solutions.append((None, None, text))
        else:
            peer_solutions.append((text, float(ms), None))
    if len(peer_solutions) != len(states):
        failures.append(f"{peer_name}: {len(peer_solutions)} results for {len(states)} states")
    peer = Side(f"{peer_name} (Java)")
    replay_side(peer, cube, states, peer_solutions, failures)
    peer.startup = statistics.median(m[0] for m in measures(path("peer-startup.measure")))
    peer.rss = max(m[1] for m in measures(path("peer.measure")))
    tables_dir = path("peer-tables")
    peer.tables = sum(os.path.getsize(os.path.join(tables_dir, f)) for f in os.listdir(tables_dir))

    print(f"{puzzle}: {len(states)} states (cubesolve scramble --seed {states[0][0]}..{states[-1][0]}), "
          "moves in OBTM, every solution replayed on an independent facelet model\n")
    print("| solver | solved | moves avg (min-max) | median | mean | p90 | max | start-up | tables on disk | peak RSS |")
    print("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|")
    for side in (ours, peer):
        if side.moves:
            moves = f"{statistics.mean(side.moves):.2f} ({min(side.moves)}-{max(side.moves)})"
            times = [f"{statistics.median(side.times):.0f} ms", f"{statistics.mean(side.times):.0f} ms",
                     f"{p90(side.times):.0f} ms", f"{max(side.times):.0f} ms"]
        else:
            moves, times = "-", ["-", "-", "-", "-"]
        tables = mb(side.tables) + (" (by name)" if getattr(side, "guessed_tables", False) else "")
        print(f"| {side.label} | {len(side.moves)}/{len(states)} | {moves} | " + " | ".join(times)
              + f" | {side.startup:.2f} s | {tables} | {mib(side.rss)} |")
    print()
    if batch:
        ours_time = ("the JSON `ms` of each state's solve in one `cubesolve solve --states` process "
                     "(`--batch`: the tables loaded once)")
    else:
        ours_time = (f"the JSON `ms` of `cubesolve solve` minus the median `ms` of a "
                     f"solved-cube solve ({startup_ms:.0f} ms, the table loading)")
    print(f"- Solve time: ours = {ours_time}; {peer_name} = the driver's "
          "clock around its solve calls, in one JVM (the first solves run before the JIT has warmed up).")
    print("- Start-up: median wall time of 3 processes that only load: cubesolve solving the solved "
          f"cube; the {peer_name} driver with no input (JVM start and the peer's initialisation).")
    print(f"- Tables on disk: the files cubesolve opens; the files {peer_name} keeps in its working "
          "directory (min2phase's 3x3x3 tables are built in memory at start-up unless saved there).")
    print("- Peak RSS: the largest of the cubesolve processes; the one JVM that solved all states.")
    cpu = [m[3] for m in ours_runs if m[3] is not None]
    cpu0 = [m[3] for m in measures(path("ours-startup.measure")) if m[3] is not None]
    if batch and cpu:
        wall = sum(m[0] for m in ours_runs)
        print(f"- Threads: cubesolve solves on one thread per core unless `--threads` says "
              f"otherwise; its one process took {sum(cpu):.1f} s of CPU for {wall:.1f} s of wall time "
              f"over {len(states)} states, loading included. The {peer_name} driver solves on one thread.")
    elif cpu and cpu0:
        wall = statistics.median(m[0] for m in ours_runs)
        print(f"- Threads: cubesolve solves on one thread per core unless `--threads` says "
              f"otherwise; its processes took a median {statistics.median(cpu):.2f} s of CPU "
              f"for {wall:.2f} s of wall time (a solved-cube run "
              f"{statistics.median(cpu0):.2f} s for {statistics.median(m[0] for m in measures(path('ours-startup.measure'))):.2f} s). "
              f"The {peer_name} driver solves on one thread.")
    build = path("peer-build.measure")
    if os.path.exists(build):
        wall, rss, *_ = measures(build)[-1]
        print(f"- {peer_name} built its tables on this first run: {wall:.0f} s, peak RSS {mib(rss)}.")

    for f in failures:
        print(f"FAIL {f}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except (OSError, ValueError, KeyError) as e:
        print(f"report.py: {e}", file=sys.stderr)
        sys.exit(2)
