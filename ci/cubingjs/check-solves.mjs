// Checks our solvers against cubing.js: for each puzzle, cubing.js's own
// randomScrambleForEvent scrambles are solved by `cubesolve`, and scramble +
// solution must be solved in cubing.js's KPuzzle of that puzzle.
//
//   node check-solves.mjs --puzzles 222,pyram --count 100 [--bin PATH] [--tables DIR]
//
// cubing.js has no random-state scrambler for the 40x40x40: its scrambles
// are ours (`cubesolve scramble`, a random state's solution inverted), so
// that both our scramble and our solution are replayed in its KPuzzle.
// Prints one line per puzzle and a closing "N passed, M failed"; exits 1 on any
// failure. A puzzle our solver does not have yet is reported as skipped.
import { randomScrambleForEvent } from "cubing/scramble";
import { puzzles } from "cubing/puzzles";
import { Alg } from "cubing/alg";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const args = { puzzles: "222,pyram", count: "100", bin: path.join(here, "../../target/release/cubesolve"), tables: null };
for (let i = 2; i < process.argv.length; i += 2) {
  const key = process.argv[i].replace(/^--/, "");
  if (!(key in args)) { console.error(`unknown option ${process.argv[i]}`); process.exit(2); }
  args[key] = process.argv[i + 1];
}
const EVENTS = {
  "222": { ours: "2x2x2", model: "2x2x2", cube: true },
  "333": { ours: "3x3x3", model: "3x3x3", cube: true },
  "444": { ours: "4x4x4", model: "4x4x4", cube: true },
  "555": { ours: "5x5x5", model: "5x5x5", cube: true },
  "666": { ours: "6x6x6", model: "6x6x6", cube: true },
  "777": { ours: "7x7x7", model: "7x7x7", cube: true },
  "40x40x40": { ours: "40x40x40", model: "40x40x40", cube: true, own: true },
  "pyram": { ours: "pyraminx", model: "pyraminx", cube: false },
};
// Solved up to the whole-cube orientation, with the centres of one colour
// interchangeable and the fixed centres' orientation ignored: cubing.js's own
// check (experimentalIsSolved) does not take cubes past the 5x5x5.
const ROTATIONS = ["", "x", "x2", "x'", "z", "z'"].flatMap((a) => ["", "y", "y2", "y'"].map((b) => `${a} ${b}`.trim()));
function cubeSolved(pattern) {
  return ROTATIONS.some((rot) => {
    const p = rot ? pattern.applyAlg(new Alg(rot)) : pattern;
    return pattern.kpuzzle.definition.orbits.every((o) => {
      const { pieces, orientation } = p.patternData[o.orbitName];
      const centres = o.orbitName.startsWith("CENTERS");
      return pieces.every((piece, i) =>
        centres && o.numPieces === 24 ? Math.floor(piece / 4) === Math.floor(i / 4) : piece === i)
        && (centres || orientation.every((x) => x === 0));
    });
  });
}
let passed = 0, failed = 0;
for (const ev of args.puzzles.split(",")) {
  const spec = EVENTS[ev];
  if (!spec) { console.error(`unknown event ${ev}: cubing.js has a model for ${Object.keys(EVENTS).join(", ")}`); process.exit(2); }
  const kpuzzle = await puzzles[spec.model].kpuzzle();
  const solved = kpuzzle.defaultPattern();
  if (spec.cube && (!cubeSolved(solved) || !cubeSolved(solved.applyAlg(new Alg("x y")))
      || cubeSolved(solved.applyAlg(new Alg("R U"))))) {
    console.log(`FAIL ${ev}: the solved check does not tell solved from unsolved`);
    failed++;
    continue;
  }
  const lengths = [], times = [];
  let ok = 0, bad = 0, skipped = false;
  for (let i = 0; i < Number(args.count); i++) {
    let scramble;
    if (spec.own) {
      const cmd = ["scramble", "--puzzle", spec.ours, "--seed", String(i + 1)];
      if (args.tables) cmd.unshift("--tables", args.tables);
      const run = spawnSync(args.bin, cmd, { encoding: "utf8", maxBuffer: 1 << 28 });
      scramble = run.status === 0 ? run.stdout.split("\n")[0].trim() : "";
    } else {
      scramble = (await randomScrambleForEvent(ev)).toString();
    }
    const cmd = ["solve", "--puzzle", spec.ours, "--scramble", scramble, "--json"];
    if (args.tables) cmd.unshift("--tables", args.tables);
    const run = spawnSync(args.bin, cmd, { encoding: "utf8", maxBuffer: 1 << 28 });
    if (run.status === 2 && /no solver for puzzle/.test(run.stderr)) { skipped = true; break; }
    let out = null;
    try { out = JSON.parse(run.stdout); } catch { out = null; }
    let good = false;
    if (run.status === 0 && out) {
      const after = solved.applyAlg(new Alg(scramble)).applyAlg(new Alg(out.solution));
      good = spec.cube ? cubeSolved(after) : after.isIdentical(solved);
    }
    if (good) {
      ok++;
      lengths.push(out.moves);
      times.push(out.ms);
    } else {
      bad++;
      console.log(`FAIL ${ev}: scramble "${scramble}" solution "${out ? out.solution : ""}" (exit ${run.status}) ${run.error ? run.error.message : run.stderr.trim()}`);
    }
  }
  if (skipped) { console.log(`${ev}: skipped (no solver yet)`); continue; }
  times.sort((a, b) => a - b);
  const avg = lengths.reduce((a, b) => a + b, 0) / Math.max(1, lengths.length);
  const median = times.length ? times[Math.floor(times.length / 2)] : NaN;
  console.log(`${ev}: ${ok}/${ok + bad} solved, avg ${avg.toFixed(2)} moves, max ${Math.max(0, ...lengths)}, median ${median.toFixed(1)} ms (process, incl. table load)`);
  passed += ok;
  failed += bad;
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
