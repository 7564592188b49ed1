#!/usr/bin/env node
// Generates tablegen/tests/fixtures/cubingjs-notation.json: NxNxN algorithms
// (N = 2..7) and the facelet states cubing.js computes for them, written in OUR
// state format, so that tablegen's notation can be checked against cubing.js.
//
// Usage: cd ci/cubingjs && npm ci && node notation-fixture.mjs [--check]
//   --check  regenerate in memory and compare with the committed fixture
//            (exit 1 on any difference) instead of writing it.
//
// OUR state format: 6*N*N letters, faces in the order U R F D L B, each face
// row by row, left to right, as seen looking straight at it on the usual net:
// U with B at the top, D with F at the top, F R B L with U at the top. Each
// letter names the face the sticker is on in the solved state.
//
// Route (how facelets come out of cubing.js):
//   * The states come from cubing.js's KPuzzle of each puzzle
//     (`puzzles["NxNxN"].kpuzzle()`, `defaultPattern().applyAlg(alg)`).
//   * KPatterns hold pieces, not stickers. To read stickers we use the
//     PuzzleGeometry behind the same puzzle (`puzzles["NxNxN"].pg()`), and its
//     `get3d()` sticker data, which is exactly what cubing.js's own 3D view
//     (twisty's PG3D) draws: every sticker knows its orbit, the piece slot
//     `ord` it belongs to, its orientation slot `ori`, its face, and its 3D
//     polygon. Stickers flagged `isDup` (extra copies on oriented centres)
//     are ignored for placement.
//   * Colouring rule, copied from PG3D.onPositionChange: the sticker at
//     (orbit, slot i, ori o) shows the solved colour of the sticker at
//     (orbit, pieces[i], (o - orientation[i]) mod numOrientations).
//   * Placement: the sticker's polygon centre is projected on the face it lies
//     on (faces named U R F D L B by PuzzleGeometry; the geometry has U = +y,
//     R = +x, F = +z, but we derive the axes from the named face polygons) and
//     turned into (row, column) with the "up" and "right" directions of the
//     net above.
//   * The script asserts known states (solved, R, U on 2x2x2 in the U L F R B
//     D order, rotations, wide and slice moves) before writing anything, and
//     also replays every case on a small independent sticker simulator of our
//     notation, reporting (not failing on) any disagreement.
//
// Moves: outer turns U R F D L B, wide turns Rw and nRw (2 <= n <= N-1), inner
// slices nR (2 <= n <= N-1), rotations x y z, each with '' / 2 / '. A token is
// used for a given N only if cubing.js's KPuzzle accepts it (see README.md for
// what it rejects).

import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { puzzles } from "cubing/puzzles";

const HERE = dirname(fileURLToPath(import.meta.url));
const OUT = join(HERE, "..", "..", "tablegen", "tests", "fixtures", "cubingjs-notation.json");
const CUBING_VERSION = JSON.parse(
  readFileSync(join(HERE, "node_modules", "cubing", "package.json"), "utf8"),
).version;

const FACES = "URFDLB";
const NS = [2, 3, 4, 5, 6, 7];
const RANDOM_ALGS_PER_N = 40;
const MAX_LEN = 25;

// ---------------------------------------------------------------- PRNG

function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// ---------------------------------------------------------------- vectors

const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const norm = (a) => Math.sqrt(dot(a, a));
const scale = (a, k) => [a[0] * k, a[1] * k, a[2] * k];

function polygonCentre(coords) {
  const c = [0, 0, 0];
  const k = coords.length / 3;
  for (let i = 0; i < coords.length; i++) c[i % 3] += coords[i] / k;
  return c;
}

// Up and right neighbours of each face on the net.
const NET = {
  U: { up: "B", right: "R" },
  D: { up: "F", right: "R" },
  F: { up: "U", right: "R" },
  R: { up: "U", right: "B" },
  B: { up: "U", right: "L" },
  L: { up: "U", right: "F" },
};

// ---------------------------------------------------------------- cubing.js → facelets

// Builds `toFacelets(pattern) -> string` for one NxNxN puzzle.
async function makeFaceletReader(n, kpuzzle) {
  const loader = puzzles[`${n}x${n}x${n}`];
  const pg = await loader.pg();
  const dat = pg.get3d();

  const faceNames = dat.faces.map((f) => f.name);
  if ([...faceNames].sort().join("") !== [...FACES].sort().join("")) {
    throw new Error(`${n}x${n}x${n}: unexpected face names ${faceNames}`);
  }
  const normal = {};
  for (const f of dat.faces) normal[f.name] = polygonCentre(f.coords);
  const half = norm(normal.U);
  const unit = (v) => scale(v, 1 / norm(v));
  const cell = (2 * half) / n;

  // Orbit sizes from the KPuzzle definition.
  const orbitDefs = {};
  for (const o of kpuzzle.definition.orbits) orbitDefs[o.orbitName] = o;

  // lookup[orbit][ori][ord] = face letter of that sticker when solved.
  const lookup = {};
  // placements: [orbit, ord, ori, index into the 6n² string]
  const placements = [];
  const filled = new Array(6 * n * n).fill(false);
  for (const s of dat.stickers) {
    const letter = faceNames[s.face];
    const orbitDef = orbitDefs[s.orbit];
    if (!orbitDef) throw new Error(`${n}: sticker orbit ${s.orbit} not in the KPuzzle`);
    lookup[s.orbit] ??= [];
    lookup[s.orbit][s.ori] ??= [];
    lookup[s.orbit][s.ori][s.ord] = letter;
    if (s.isDup) continue;

    const c = polygonCentre(s.coords);
    // The face it lies on: the largest projection on a face normal.
    let best = null;
    for (const f of FACES) {
      const d = dot(c, unit(normal[f]));
      if (best === null || d > best.d) best = { f, d };
    }
    if (best.f !== letter) throw new Error(`${n}: sticker on ${best.f} labelled ${letter}`);
    const up = unit(normal[NET[letter].up]);
    const right = unit(normal[NET[letter].right]);
    const row = Math.floor((half - dot(c, up)) / cell);
    const col = Math.floor((dot(c, right) + half) / cell);
    if (row < 0 || row >= n || col < 0 || col >= n) throw new Error(`${n}: sticker off the grid`);
    const index = FACES.indexOf(letter) * n * n + row * n + col;
    if (filled[index]) throw new Error(`${n}: two stickers at facelet ${index}`);
    filled[index] = true;
    placements.push([s.orbit, s.ord, s.ori, index]);
  }
  if (!filled.every(Boolean)) throw new Error(`${n}: not every facelet has a sticker`);
  for (const name of Object.keys(lookup)) {
    if (lookup[name].length !== orbitDefs[name].numOrientations) {
      throw new Error(`${n}: orbit ${name} has ${lookup[name].length} sticker orientations`);
    }
  }

  return (pattern) => {
    const out = new Array(6 * n * n);
    for (const [orbit, ord, ori, index] of placements) {
      const data = pattern.patternData[orbit];
      const mod = orbitDefs[orbit].numOrientations;
      const piece = data.pieces[ord];
      const twist = data.orientation[ord];
      out[index] = lookup[orbit][(ori - twist + mod * 4) % mod][piece];
      // orientationMod marks pieces whose orientation is only known modulo a
      // divisor (cubing.js uses it for centres): then every orientation of
      // the piece must show the same colour, or the state would be ambiguous.
      const omod = data.orientationMod?.[ord];
      if (omod && omod !== mod) {
        for (let k = 0; k < mod; k++) {
          if (lookup[orbit][k][piece] !== out[index]) {
            throw new Error(`${n}: ambiguous colour in orbit ${orbit}`);
          }
        }
      }
    }
    return out.join("");
  };
}

// ---------------------------------------------------------------- our notation, independently

// A tiny sticker simulator of OUR notation used only as a cross-check: each
// facelet has an integer position (coordinates in -(n-1)..(n-1), step 2) and
// an outward normal; U = +y, R = +x, F = +z.
const AXIS = {
  U: [0, 1, 0], D: [0, -1, 0], R: [1, 0, 0], L: [-1, 0, 0], F: [0, 0, 1], B: [0, 0, -1],
};

function ourSolvedStickers(n) {
  const st = [];
  for (const f of FACES) {
    const nrm = AXIS[f];
    const up = AXIS[NET[f].up];
    const right = AXIS[NET[f].right];
    for (let r = 0; r < n; r++) {
      for (let c = 0; c < n; c++) {
        const u = n - 1 - 2 * r;
        const v = 2 * c - (n - 1);
        const pos = [0, 1, 2].map((k) => nrm[k] * n + up[k] * u + right[k] * v);
        st.push({ pos, nrm: [...nrm] });
      }
    }
  }
  return st;
}

// Clockwise quarter turn seen from the face with outward axis a.
function rotateCw(p, a) {
  // Rotation by -90° about a: p' = (p·a)a - a×p ... for unit axis a:
  // R(θ)p = p cosθ + (a×p) sinθ + a(a·p)(1-cosθ); θ = -90°.
  const cross = [a[1] * p[2] - a[2] * p[1], a[2] * p[0] - a[0] * p[2], a[0] * p[1] - a[1] * p[0]];
  const ap = dot(a, p);
  return [0, 1, 2].map((k) => -cross[k] + a[k] * ap);
}

const TOKEN_RE = /^(\d*)([URFDLB])(w?)(2|')?$|^([xyz])(2|')?$/;

function ourApply(n, state, alg) {
  const solved = ourSolvedStickers(n);
  const key = (s) => `${s.pos}|${s.nrm}`;
  let cur = solved.map((s) => ({ ...s }));
  // colours[i] = colour of sticker that is now at the i-th cur entry
  let colours = [...state];
  for (const tok of alg.split(/\s+/).filter(Boolean)) {
    const m = TOKEN_RE.exec(tok);
    if (!m) throw new Error(`our notation: bad token ${tok}`);
    let face, lo, hi, amount;
    if (m[5]) {
      face = { x: "R", y: "U", z: "F" }[m[5]];
      lo = 1;
      hi = n;
      amount = m[6];
    } else {
      face = m[2];
      const depth = m[1] === "" ? (m[3] ? 2 : 1) : Number(m[1]);
      lo = m[3] ? 1 : depth;
      hi = depth;
      amount = m[4];
    }
    const turns = amount === "2" ? 2 : amount === "'" ? 3 : 1;
    const a = AXIS[face];
    // Layer k (1-based from the face) has a·pos = n + 1 - 2k for cubie
    // centres; stickers sit on the cubie surface, so use the cubie's centre.
    cur = cur.map((s) => {
      const centre = [0, 1, 2].map((k) => s.pos[k] - s.nrm[k]);
      const layer = (n + 1 - dot(a, centre)) / 2;
      if (layer < lo || layer > hi) return s;
      let { pos, nrm } = s;
      for (let t = 0; t < turns; t++) {
        pos = rotateCw(pos, a);
        nrm = rotateCw(nrm, a);
      }
      return { pos, nrm };
    });
  }
  const where = new Map(cur.map((s, i) => [key(s), i]));
  return solved.map((s) => colours[where.get(key(s))]).join("");
}

// ---------------------------------------------------------------- tokens

function tokensFor(n, kpuzzle) {
  const accepted = (t) => {
    try {
      kpuzzle.algToTransformation(t);
      return true;
    } catch {
      return false;
    }
  };
  const groups = { outer: [], wide: [], slice: [], rotation: [] };
  const rejected = [];
  const sufs = ["", "2", "'"];
  const add = (group, base) => {
    if (accepted(base)) {
      for (const s of sufs) groups[group].push(base + s);
    } else {
      rejected.push(base);
    }
  };
  for (const f of FACES) add("outer", f);
  for (const f of FACES) add("wide", `${f}w`);
  for (let d = 2; d <= n - 1; d++) for (const f of FACES) add("wide", `${d}${f}w`);
  for (let d = 2; d <= n - 1; d++) for (const f of FACES) add("slice", `${d}${f}`);
  for (const r of "xyz") add("rotation", r);
  return { groups, rejected };
}

function randomAlg(rand, groups) {
  const pick = (arr) => arr[Math.floor(rand() * arr.length)];
  const weights = [
    ["outer", 4],
    ["wide", 2],
    ["slice", 2],
    ["rotation", 1],
  ].filter(([g]) => groups[g].length > 0);
  const total = weights.reduce((s, [, w]) => s + w, 0);
  const len = 1 + Math.floor(rand() * MAX_LEN);
  const moves = [];
  let last = null;
  while (moves.length < len) {
    let x = rand() * total;
    let group = weights[0][0];
    for (const [g, w] of weights) {
      if (x < w) {
        group = g;
        break;
      }
      x -= w;
    }
    const tok = pick(groups[group]);
    const family = tok.replace(/[2']$/, "");
    if (family === last) continue; // avoid trivially merged neighbours like R R'
    last = family;
    moves.push(tok);
  }
  return moves.join(" ");
}

// ---------------------------------------------------------------- main

function assertEq(actual, expected, what) {
  if (actual !== expected) {
    throw new Error(`assertion failed: ${what}\n  expected ${expected}\n  actual   ${actual}`);
  }
}

function face(state, n, letter) {
  const i = FACES.indexOf(letter);
  return state.slice(i * n * n, (i + 1) * n * n);
}

// The U L F R B D order (same per-face layout) of a U R F D L B state.
function toULFRBD(state, n) {
  return [..."ULFRBD"].map((f) => face(state, n, f)).join("");
}

async function main() {
  const checkOnly = process.argv.includes("--check");
  const models = {};
  for (const n of NS) {
    const kpuzzle = await puzzles[`${n}x${n}x${n}`].kpuzzle();
    const read = await makeFaceletReader(n, kpuzzle);
    const stateOf = (alg) => read(kpuzzle.defaultPattern().applyAlg(alg));
    models[n] = { kpuzzle, stateOf };
  }
  const S = (n, alg) => models[n].stateOf(alg);
  const solved = (n) => [...FACES].map((f) => f.repeat(n * n)).join("");

  // --- ground-truth checks
  for (const n of NS) assertEq(S(n, ""), solved(n), `solved ${n}x${n}x${n}`);
  assertEq(S(3, ""), "UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB", "solved 3x3x3");
  assertEq(
    S(3, "R"),
    "UUFUUFUUFRRRRRRRRRFFDFFDFFDDDBDDBDDBLLLLLLLLLUBBUBBUBB",
    "R on 3x3x3",
  );
  assertEq(toULFRBD(S(2, "U"), 2), "UUUUFFLLRRFFBBRRLLBBDDDD", "U on 2x2x2 (U L F R B D order)");
  assertEq(S(2, "U"), "UUUUBBRRRRFFDDDDFFLLLLBB", "U on 2x2x2 (U R F D L B order)");
  for (const n of NS) {
    assertEq(face(S(n, "x"), n, "U"), "F".repeat(n * n), `x moves F to U (${n})`);
    assertEq(face(S(n, "y"), n, "L"), "F".repeat(n * n), `y moves F to L (${n})`);
    assertEq(face(S(n, "z"), n, "R"), "U".repeat(n * n), `z moves U to R (${n})`);
    const layers = ["R"];
    for (let k = 2; k <= n - 1; k++) layers.push(`${k}R`);
    layers.push("L'");
    if (n >= 3) assertEq(S(n, "x"), S(n, layers.join(" ")), `x = ${layers.join(" ")} (${n})`);
  }
  // 3x3x3: Rw = R + middle slice in R's direction (M'), 2R = M'.
  assertEq(S(3, "Rw"), S(3, "R M'"), "Rw = R M' on 3x3x3");
  assertEq(S(3, "2R"), S(3, "M'"), "2R = M' on 3x3x3");
  assertEq(face(S(3, "Rw"), 3, "U"), "UFFUFFUFF", "Rw on 3x3x3 moves F up in two columns");
  // 4x4x4: Rw turns two layers, 2R only the second.
  assertEq(face(S(4, "Rw"), 4, "U"), "UUFF".repeat(4), "Rw on 4x4x4 turns two layers");
  assertEq(face(S(4, "Rw"), 4, "R"), "R".repeat(16), "Rw on 4x4x4 turns the R face");
  assertEq(face(S(4, "2R"), 4, "U"), "UUFU".repeat(4), "2R on 4x4x4 turns only layer 2");
  assertEq(face(S(4, "2R"), 4, "R"), "R".repeat(16), "2R on 4x4x4 leaves the R face");
  assertEq(S(4, "Rw"), S(4, "R 2R"), "Rw = R 2R on 4x4x4");
  for (const n of NS.filter((n) => n >= 4)) {
    assertEq(S(n, "Rw"), S(n, "2Rw"), `Rw = 2Rw (${n})`);
    for (let d = 3; d <= n - 1; d++) {
      const parts = ["R"];
      for (let k = 2; k <= d; k++) parts.push(`${k}R`);
      assertEq(S(n, `${d}Rw`), S(n, parts.join(" ")), `${d}Rw = ${parts.join(" ")} (${n})`);
    }
  }

  // --- cases
  const cases = [];
  const rejectedBy = {};
  const mismatches = [];
  for (const n of NS) {
    const { groups, rejected } = tokensFor(n, models[n].kpuzzle);
    rejectedBy[n] = rejected;
    const algs = [];
    for (const g of Object.keys(groups)) for (const t of groups[g]) algs.push(t);
    const rand = mulberry32(0x5eed0000 + n);
    for (let i = 0; i < RANDOM_ALGS_PER_N; i++) algs.push(randomAlg(rand, groups));
    for (const alg of algs) {
      const state = S(n, alg);
      if (state.length !== 6 * n * n) throw new Error(`bad length for ${alg}`);
      for (const f of FACES) {
        const count = state.split(f).length - 1;
        if (count !== n * n) throw new Error(`n=${n} ${alg}: ${count} ${f} stickers`);
      }
      const ours = ourApply(n, solved(n), alg);
      if (ours !== state) mismatches.push({ n, alg, cubing: state, ours });
      cases.push({ n, alg, state });
    }
  }

  for (const n of NS) {
    const count = cases.filter((c) => c.n === n).length;
    console.log(
      `n=${n}: ${count} cases; cubing.js rejects: ${rejectedBy[n].join(" ") || "(nothing)"}`,
    );
  }
  if (mismatches.length) {
    console.log(`${mismatches.length} cases differ from our notation's reading:`);
    for (const m of mismatches.slice(0, 20)) console.log(`  n=${m.n} ${m.alg}`);
  } else {
    console.log("every case agrees with the independent simulator of our notation");
  }

  const text =
    "{\n" +
    `  "generator": ${JSON.stringify(`ci/cubingjs/notation-fixture.mjs with cubing ${CUBING_VERSION}`)},\n` +
    '  "cases": [\n' +
    cases.map((c) => "    " + JSON.stringify(c)).join(",\n") +
    "\n  ]\n}\n";
  if (checkOnly) {
    const old = readFileSync(OUT, "utf8");
    if (old !== text) {
      console.error(`${OUT} is out of date; run node notation-fixture.mjs`);
      process.exit(1);
    }
    console.log(`${OUT} is up to date`);
  } else {
    writeFileSync(OUT, text);
    console.log(`wrote ${cases.length} cases to ${OUT}`);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
