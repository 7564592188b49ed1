#!/usr/bin/env python3
"""An independent NxNxN facelet model: applies moves to a state string and
checks that the result is solved, and counts moves in OBTM.

It shares no code with the solvers it checks. States are 6*N*N letters
URFDLB, faces in U R F D L B order, each face row by row as seen on the usual
net (U with B at the top, D with F at the top, R F L B with U at the top): the
kociemba layout, which cubesolve, cube555 and TPR-4x4x4-Solver all use.

Moves are SiGN outer block turns: R R' R2 Rw 3Rw (the outer n layers), 2R
(the n-th layer alone), x y z. OBTM: a turn of a block of layers that
includes an outer layer counts 1, an inner slice 2, a whole-cube turn 0.
Peer notations go through to_sign() first.

Used as a module by report.py; standalone:
    replay.py N STATE SOLUTION     prints "solved OBTM" or "unsolved OBTM"
    replay.py --fixture JSON       checks the model against the cubing.js
                                   cases of tablegen/tests/fixtures/cubingjs-notation.json
"""
import json
import re
import sys

FACES = "URFDLB"
# Outward normal of each face: axis (0 x, 1 y, 2 z) and sign.
NORMAL = {"U": (1, 1), "R": (0, 1), "F": (2, 1), "D": (1, -1), "L": (0, -1), "B": (2, -1)}
ROTATION_FACE = {"x": "R", "y": "U", "z": "F"}
TOKEN = re.compile(r"^(\d*)([URFDLB])(w?)(2'|2|'|)$")
ROTATION = re.compile(r"^([xyz])(2'|2|'|)$")
QUARTERS = {"": 1, "2": 2, "2'": 2, "'": 3}


class NotationError(ValueError):
    pass


def sticker_positions(n):
    """(cubie position, normal) of every facelet index; coordinates are the
    integers -(n-1), -(n-1)+2, ..., n-1, the cube's centre at the origin."""
    a = [-(n - 1) + 2 * k for k in range(n)]
    top = n - 1
    layout = {
        "U": lambda r, c: ((a[c], top, a[r]), (0, 1, 0)),
        "R": lambda r, c: ((top, -a[r], -a[c]), (1, 0, 0)),
        "F": lambda r, c: ((a[c], -a[r], top), (0, 0, 1)),
        "D": lambda r, c: ((a[c], -top, -a[r]), (0, -1, 0)),
        "L": lambda r, c: ((-top, -a[r], a[c]), (-1, 0, 0)),
        "B": lambda r, c: ((-a[c], -a[r], -top), (0, 0, -1)),
    }
    return [layout[f](r, c) for f in FACES for r in range(n) for c in range(n)]


def quarter(v, face):
    """v turned a quarter clockwise as seen looking at `face` from outside."""
    x, y, z = v
    axis, sign = NORMAL[face]
    if axis == 0:
        return (x, z, -y) if sign > 0 else (x, -z, y)
    if axis == 1:
        return (-z, y, x) if sign > 0 else (z, y, -x)
    return (y, -x, z) if sign > 0 else (-y, x, z)


class Cube:
    def __init__(self, n):
        self.n = n
        self.stickers = sticker_positions(n)
        self.index = {s: i for i, s in enumerate(self.stickers)}
        self.cache = {}

    def perm(self, face, layers):
        """Index map of a quarter turn of `face`'s layers (1 = the outer one):
        the sticker at i moves to perm[i]."""
        key = (face, layers)
        if key not in self.cache:
            axis, sign = NORMAL[face]
            coords = {sign * (self.n - 1 - 2 * (k - 1)) for k in layers}
            p = list(range(len(self.stickers)))
            for i, (pos, nrm) in enumerate(self.stickers):
                if pos[axis] in coords:
                    p[i] = self.index[(quarter(pos, face), quarter(nrm, face))]
            self.cache[key] = p
        return self.cache[key]

    def parse(self, token):
        """(face, layers, quarter turns, OBTM cost) of a SiGN token."""
        n = self.n
        m = ROTATION.match(token)
        if m:
            return ROTATION_FACE[m[1]], tuple(range(1, n + 1)), QUARTERS[m[2]], 0
        m = TOKEN.match(token)
        if not m:
            raise NotationError(f"not a move: {token!r}")
        prefix, face, wide, suffix = m.groups()
        depth = int(prefix) if prefix else (2 if wide else 1)
        if depth < 1 or depth > n or (wide and depth < 2):
            raise NotationError(f"no such layer on the {n}x{n}x{n}: {token!r}")
        layers = tuple(range(1, depth + 1)) if wide else (depth,)
        if len(layers) == n:
            cost = 0
        elif 1 in layers or n in layers:
            cost = 1
        else:
            cost = 2
        return face, layers, QUARTERS[suffix], cost

    def apply(self, state, moves):
        """The state after the moves (a list of SiGN tokens), and their OBTM."""
        s = list(state)
        obtm = 0
        for token in moves:
            face, layers, q, cost = self.parse(token)
            p = self.perm(face, layers)
            for _ in range(q):
                t = s[:]
                for i, j in enumerate(p):
                    t[j] = s[i]
                s = t
            obtm += cost
        return "".join(s), obtm

    def solved(self, state):
        """Every face one colour: solved in any whole-cube orientation."""
        k = self.n * self.n
        return all(len(set(state[f * k:(f + 1) * k])) == 1 for f in range(6))


def check_state(n, state):
    if len(state) != 6 * n * n or any(c not in FACES for c in state):
        raise NotationError(f"not a {n}x{n}x{n} state: {state[:40]!r}...")
    if any(state.count(c) != n * n for c in FACES):
        raise NotationError(f"not {n * n} facelets of each colour: {state[:40]!r}...")


# Peer notations. cube555 prints each move as two characters ("U ", "u2",
# "r'") with a lower-case letter for its wide turn (the face and the layer
# under it, Util.move2str and CubieCube.doMove), then min2phase's 3x3x3
# finish ("U  R2 F' "), outer turns. TPR prints Uw2 / Rw' and ends with a
# whole-cube rotation ("x y2"), Moves.move2str and Center1.rot2str.
LOWER_WIDE = re.compile(r"^([urfdlb])(2'|2|'|)$")


def to_sign(solution):
    """A peer's (or our) solution as a list of SiGN tokens."""
    out = []
    for tok in solution.split():
        m = LOWER_WIDE.match(tok)
        out.append(m[1].upper() + "w" + m[2] if m else tok)
    return out


def check_fixture(path):
    """Every {n, alg, state} case of a cubing.js fixture, applied to the
    solved cube, must give its state."""
    with open(path) as f:
        cases = json.load(f)["cases"]
    cubes = {}
    bad = 0
    for case in cases:
        n = case["n"]
        cube = cubes.setdefault(n, Cube(n))
        solved = "".join(f * n * n for f in FACES)
        if cube.apply(solved, to_sign(case["alg"]))[0] != case["state"]:
            print(f"replay.py: differs from cubing.js on the {n}x{n}x{n}: {case['alg']}", file=sys.stderr)
            bad += 1
    print(f"replay.py: {len(cases) - bad} of {len(cases)} cubing.js cases agree", file=sys.stderr)
    return 1 if bad else 0


def main(argv):
    if len(argv) == 3 and argv[1] == "--fixture":
        return check_fixture(argv[2])
    if len(argv) != 4:
        print("usage: replay.py N STATE SOLUTION | replay.py --fixture JSON", file=sys.stderr)
        return 2
    n = int(argv[1])
    cube = Cube(n)
    check_state(n, argv[2])
    after, obtm = cube.apply(argv[2], to_sign(argv[3]))
    print("solved" if cube.solved(after) else "unsolved", obtm)
    return 0 if cube.solved(after) else 1


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except NotationError as e:
        print(f"replay.py: {e}", file=sys.stderr)
        sys.exit(2)
