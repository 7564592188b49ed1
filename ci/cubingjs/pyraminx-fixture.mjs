#!/usr/bin/env node
// Generates solvers/tests/fixtures/cubingjs-pyraminx.json: Pyraminx algorithms
// and the sticker colours cubing.js's own 2D picture shows for each, so that
// `cubesolve show --puzzle pyraminx` can be checked against cubing.js.
//
// Usage: cd ci/cubingjs && npm ci && node pyraminx-fixture.mjs [--check]
//   --check  regenerate in memory and compare with the committed fixture
//            (exit 1 on any difference) instead of writing it.
//
// Route:
//   * The picture is cubing.js's pyraminx SVG (`puzzles.pyraminx.svg()`): 36
//     triangles `<use id="ORBIT-lI-oO" href="#stickerA|#stickerV"
//     transform="translate(x, y)" style="fill: C"/>` on a triangular grid of
//     6 rows and 11 columns (row = floor(y), column = floor(x)): faces L, F, R
//     side by side on rows 0-2 and D under F on rows 3-5.
//   * Colouring rule, copied from twisty's KPuzzleSVGWrapper.draw: the sticker
//     (orbit, slot i, ori o) shows the solved colour of the sticker (orbit,
//     pieces[i], (n - orientation[i] + o) mod n).
//   * Output per algorithm: six strings of 11 characters, one per grid row,
//     each cell the face letter of its colour (F green, L red, R blue, D
//     yellow) or '.' where the grid has no sticker.

import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { puzzles } from "cubing/puzzles";
import { Alg } from "cubing/alg";

const HERE = dirname(fileURLToPath(import.meta.url));
const OUT = join(HERE, "..", "..", "solvers", "tests", "fixtures", "cubingjs-pyraminx.json");
const CUBING_VERSION = JSON.parse(
  readFileSync(join(HERE, "node_modules", "cubing", "package.json"), "utf8"),
).version;

const LETTER = { limegreen: "F", red: "L", "#26f": "R", yellow: "D" };
const ROWS = 6;
const COLS = 11;

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

const svg = await puzzles.pyraminx.svg();
const kpuzzle = await puzzles.pyraminx.kpuzzle();
const re =
  /<use id="([A-Z0-9]+)-l(\d+)-o(\d+)" href="#sticker([AV])" transform="translate\(([\d.]+), ?([\d.]+)\)" style="fill: ([^"]+)"\/>/g;
const stickers = [];
const colour = {};
for (const m of svg.matchAll(re)) {
  const [, orbit, idx, ori, kind, x, y, fill] = m;
  const letter = LETTER[fill];
  if (!letter) throw new Error(`unknown colour ${fill}`);
  const s = {
    orbit,
    idx: +idx,
    ori: +ori,
    kind,
    row: Math.floor(+y),
    col: Math.floor(+x),
  };
  stickers.push(s);
  colour[`${orbit}-${idx}-${ori}`] = letter;
}
if (stickers.length !== 36) throw new Error(`${stickers.length} stickers, expected 36`);

function grid(alg) {
  const pattern = kpuzzle.defaultPattern().applyAlg(Alg.fromString(alg));
  const rows = Array.from({ length: ROWS }, () => Array(COLS).fill("."));
  for (const s of stickers) {
    const orbit = pattern.patternData[s.orbit];
    const n = kpuzzle.definition.orbits.find((o) => o.orbitName === s.orbit).numOrientations;
    const from = `${s.orbit}-${orbit.pieces[s.idx]}-${(n - orbit.orientation[s.idx] + s.ori) % n}`;
    if (rows[s.row][s.col] !== ".") throw new Error(`two stickers at ${s.row},${s.col}`);
    rows[s.row][s.col] = colour[from];
  }
  return rows.map((r) => r.join(""));
}

const solved = grid("");
const expectSolved = [
  "LLLLLFRRRRR",
  ".LLLFFFRRR.",
  "..LFFFFFR..",
  "...DDDDD...",
  "....DDD....",
  ".....D.....",
];
if (solved.join() !== expectSolved.join()) throw new Error(`solved grid ${solved}`);

const tokens = ["U", "L", "R", "B", "u", "l", "r", "b"].flatMap((t) => [t, `${t}'`]);
const algs = [...tokens];
const rand = mulberry32(2024);
for (let i = 0; i < 30; i++) {
  const len = 1 + Math.floor(rand() * 14);
  const moves = [];
  for (let j = 0; j < len; j++) moves.push(tokens[Math.floor(rand() * tokens.length)]);
  algs.push(moves.join(" "));
}
const cases = [{ alg: "", grid: solved }, ...algs.map((alg) => ({ alg, grid: grid(alg) }))];
const text =
  JSON.stringify(
    {
      generator: "ci/cubingjs/pyraminx-fixture.mjs",
      cubing: CUBING_VERSION,
      layout: "rows of cubing.js's pyraminx SVG; F green, L red, R blue, D yellow",
      cases,
    },
    null,
    1,
  ) + "\n";

if (process.argv.includes("--check")) {
  const old = readFileSync(OUT, "utf8");
  if (old !== text) {
    console.error("cubingjs-pyraminx.json is out of date");
    process.exit(1);
  }
  console.log(`${cases.length} cases agree`);
} else {
  writeFileSync(OUT, text);
  console.log(`wrote ${cases.length} cases to ${OUT}`);
}
