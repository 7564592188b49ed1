//! `cubesolve` for Python: the toolkit's solvers, scrambles and pictures through
//! the same registry as the `cubesolve` command, not a reimplementation.
//!
//! Errors are the command's one-line messages: bad input raises `ValueError`, a
//! table that cannot be read or built `OSError` (naming the file), a solve out
//! of time or an internal fault `RuntimeError`. Loaded solvers are kept per
//! (puzzle, table directory), so only the first solve pays for the tables.

use pyo3::exceptions::{PyOSError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use solvers::puzzle::{self, Input, Options, Position, Solve};
use solvers::registry;
use solvers::SolveError;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;
use tablegen::artifact::{find_tables, Fallback, TablesFrom};
use tablegen::cube::FaceOrder;

fn py_err(e: SolveError) -> PyErr {
    match e {
        SolveError::Input(m) => PyValueError::new_err(m),
        SolveError::Table(t) => PyOSError::new_err(t.to_string()),
        other => PyRuntimeError::new_err(other.to_string()),
    }
}

/// A solution: `moves` (SiGN notation, one string), `length` (moves in the
/// outer block turn metric), `phases` (moves per phase, in order) and
/// `optimal` (proven the shortest).
#[pyclass(frozen, module = "cubesolve")]
struct Solution {
    #[pyo3(get)]
    moves: String,
    #[pyo3(get)]
    length: usize,
    phase_list: Vec<(String, usize)>,
    #[pyo3(get)]
    optimal: bool,
}

#[pymethods]
impl Solution {
    /// Moves per phase, in the order the phases come in the solution.
    #[getter]
    fn phases<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (k, v) in &self.phase_list {
            d.set_item(k, v)?;
        }
        Ok(d)
    }

    fn __str__(&self) -> String {
        self.moves.clone()
    }

    fn __len__(&self) -> usize {
        self.length
    }

    fn __repr__(&self) -> String {
        let phases: Vec<String> = self
            .phase_list
            .iter()
            .map(|(k, v)| format!("{k:?}: {v}"))
            .collect();
        format!(
            "Solution(moves={:?}, length={}, phases={{{}}})",
            self.moves,
            self.length,
            phases.join(", ")
        )
    }
}

/// The table directory: `tables`, else `$CUBE_TABLES`, else the per-user
/// data directory (`$XDG_DATA_HOME/cube-tables`, else
/// `~/.local/share/cube-tables`), which is seeded on first use with the
/// tables of the source tree the package was built from, if it is still there.
/// Also the table source: `tables_from`, else `$CUBE_TABLES_FROM`, else none
/// (missing tables are built). (`tablegen::artifact::find_tables`, the
/// toolkit's one reader of the environment, with the per-user fallback.)
fn tables_dir(tables: Option<PathBuf>, tables_from: Option<&str>) -> PyResult<Tables> {
    let found = find_dir(tables.as_deref(), tables_from)?;
    if found.from == TablesFrom::Fallback(Fallback::UserData) {
        seed_from_source(&found.dir);
    }
    Ok(Tables {
        dir: found.dir,
        source: found.source,
    })
}

/// Where tables are and where missing ones come from.
struct Tables {
    dir: PathBuf,
    source: Option<String>,
}

/// `given`, else `$CUBE_TABLES`, else the per-user data directory; and the
/// table source.
fn find_dir(
    given: Option<&Path>,
    source: Option<&str>,
) -> PyResult<tablegen::artifact::TablesConfig> {
    find_tables(given, source, Fallback::UserData).ok_or_else(|| {
        PyOSError::new_err("no table directory: pass tables=, or set CUBE_TABLES or HOME")
    })
}

/// Copies the source tree's tables (`tables/` beside this crate) that `dir`
/// lacks, once per process; says so on standard error. Failures only mean
/// the solver builds the table itself.
fn seed_from_source(dir: &Path) {
    static DONE: OnceLock<()> = OnceLock::new();
    DONE.get_or_init(|| {
        let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tables");
        let source = source.canonicalize().unwrap_or(source);
        let Ok(entries) = std::fs::read_dir(&source) else {
            return;
        };
        let mut copied = 0;
        for e in entries.flatten() {
            let from = e.path();
            let name = e.file_name();
            let dest = dir.join(&name);
            if from.extension().is_none_or(|x| x != "tbl") || dest.exists() {
                continue;
            }
            if std::fs::create_dir_all(dir).is_err() {
                return;
            }
            let tmp = dir.join(format!(
                ".{}.{}.tmp",
                name.to_string_lossy(),
                std::process::id()
            ));
            if std::fs::copy(&from, &tmp).is_ok() && std::fs::rename(&tmp, &dest).is_ok() {
                copied += 1;
            } else {
                let _ = std::fs::remove_file(&tmp);
            }
        }
        if copied > 0 {
            eprintln!(
                "cubesolve: installed {copied} tables from {} into {}",
                source.display(),
                dir.display()
            );
        }
    });
}

type Cache = Mutex<HashMap<(String, PathBuf), Arc<dyn Solve>>>;

/// The loaded solver of a puzzle for a table directory (loaded, or
/// downloaded from the table source or built, on first use; kept for the
/// process).
fn solver(name: &str, tables: &Tables) -> Result<Arc<dyn Solve>, SolveError> {
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    let dir = &tables.dir;
    let key = (name.to_string(), dir.to_path_buf());
    let mut map = cache
        .lock()
        .map_err(|_| SolveError::Internal("solver cache poisoned".into()))?;
    if let Some(s) = map.get(&key) {
        return Ok(s.clone());
    }
    // The source of this load (the cache's lock keeps loads one at a time).
    solvers::tables::set_source(
        tables.source.as_deref().map(tablegen::install::Source::new),
        tablegen::install::Options::default(),
    );
    let loaded: Arc<dyn Solve> = Arc::from(registry::find(name)?.load(dir, false)?);
    map.insert(key, loaded.clone());
    Ok(loaded)
}

/// The user's position: a state string or a scramble (exactly one).
fn read_position(
    name: &str,
    state: Option<&str>,
    scramble: Option<&str>,
    order: &str,
) -> Result<Position, SolveError> {
    let order: FaceOrder = order.parse().map_err(SolveError::input)?;
    // The default order is no order for puzzles whose strings have none.
    let order = (puzzle::cube_size(name).is_some() || order != FaceOrder::Urfdlb).then_some(order);
    let input = match (state, scramble) {
        (Some(_), Some(_)) => {
            return Err(SolveError::Input(
                "give state= or scramble=, not both".into(),
            ))
        }
        (Some(text), None) => Input::State { text, order },
        (None, Some(_)) if order.is_some_and(|o| o != FaceOrder::Urfdlb) => {
            return Err(SolveError::Input("order= is for state=".into()))
        }
        (None, Some(text)) => Input::Scramble(text),
        (None, None) => return Err(SolveError::Input("give state= or scramble=".into())),
    };
    registry::parse_any(name, &input)
}

/// Solves a puzzle.
///
/// `puzzle` is "2x2x2", "3x3x3", "4x4x4", "pyraminx" or "domino". Give either
/// `state` (a facelet string: for cubes 6*N*N letters URFDLB in Kociemba's face
/// order, as the `kociemba` package takes; `order="ulfrbd"` for U L F R B D) or
/// `scramble` (moves from solved). `tables` is the table directory (default:
/// $CUBE_TABLES, else ~/.local/share/cube-tables, tables missing there are
/// built on first use). `tables_from`: the URL of tables published by
/// `tablegen publish` (default: $CUBE_TABLES_FROM), from which a missing
/// table is downloaded instead. `max_length` (3x3x3): stop at the first solution this
/// short (default 21). `time_budget_ms`: time after which the best solution
/// found is returned (3x3x3 default 1000, 4x4x4 240). `optimal=True` (3x3x3):
/// the shortest solution, proven, in the half-turn metric, on the tables
/// `optimal_tables="large"` (670 MB, built on first use in a few minutes),
/// `"huge"` (1.34 GB, about nine minutes to build; faster) or `"small"` (73 MB,
/// ten seconds; several times slower); `hard_limit_ms`: the time after which a
/// solve that has not finished gives up (optimal default: 10 minutes), with
/// a RuntimeError naming the depth ruled out and the best solution found.
/// `exact_phase1` (3x3x3): phase 1 bounded by its exact distances (70 MB,
/// loaded once per process by the first solve that needs the two phases, not
/// built or downloaded by a solve given `hard_limit_ms`; about twice as fast
/// at 20 moves) when True or None (the default), by the
/// three small tables (0.85 MB) when False. `threads` (4x4x4, 5x5x5): threads of the
/// solve (default: one per core; the 4x4x4's nine phase-1 choices, the
/// 5x5x5's stage roots and finishes are dealt out among them).
/// `target_length` (4x4x4): past the time budget, a solve whose best is
/// longer goes on until it has one this short or `target_time_ms` (default
/// 1000, from the solve's start) comes.
///
/// Returns a Solution with `.moves` (str), `.length` (int), `.phases` (dict).
/// Raises ValueError for bad input, OSError for a table that cannot be read,
/// built or downloaded, RuntimeError when the solve runs out of time.
#[pyfunction]
#[pyo3(signature = (puzzle, state=None, scramble=None, order="urfdlb", tables=None, max_length=None, time_budget_ms=None, tables_from=None, optimal=false, hard_limit_ms=None, optimal_tables="large", exact_phase1=None, threads=None, target_length=None, target_time_ms=None))]
#[allow(clippy::too_many_arguments)]
fn solve(
    py: Python<'_>,
    puzzle: &str,
    state: Option<&str>,
    scramble: Option<&str>,
    order: &str,
    tables: Option<PathBuf>,
    max_length: Option<usize>,
    time_budget_ms: Option<u64>,
    tables_from: Option<&str>,
    optimal: bool,
    hard_limit_ms: Option<u64>,
    optimal_tables: &str,
    exact_phase1: Option<bool>,
    threads: Option<usize>,
    target_length: Option<usize>,
    target_time_ms: Option<u64>,
) -> PyResult<Solution> {
    if threads == Some(0) {
        return Err(PyValueError::new_err("threads: at least 1"));
    }
    if target_length == Some(0) {
        return Err(PyValueError::new_err("target_length: at least 1"));
    }
    if target_time_ms.is_some() && target_length.is_none() {
        return Err(PyValueError::new_err(
            "target_time_ms: only with target_length",
        ));
    }
    let optimal_tables =
        solvers::cube3::optimal::TableSize::parse(optimal_tables).map_err(PyValueError::new_err)?;
    let position = read_position(puzzle, state, scramble, order).map_err(py_err)?;
    // Unknown puzzles (a cube without a solver) are named before any table.
    registry::find(puzzle).map_err(py_err)?;
    if optimal && !registry::solves_optimally(puzzle) {
        return Err(PyValueError::new_err(format!(
            "optimal=True: {puzzle} has no optimal solver (the 3x3x3 has)"
        )));
    }
    if target_length.is_some() && !registry::takes_target(puzzle) {
        return Err(PyValueError::new_err(format!(
            "target_length: {puzzle} has no target length (the 4x4x4 has; the 3x3x3 has max_length)"
        )));
    }
    if let (Some(given), false) = (exact_phase1, puzzle == "3x3x3") {
        let given = if given { "True" } else { "False" };
        return Err(PyValueError::new_err(format!(
            "exact_phase1={given}: {puzzle} has no phase 1 (the 3x3x3's two-phase solver has)"
        )));
    }
    let dir = tables_dir(tables, tables_from)?;
    let defaults = Options::default();
    let opts = Options {
        time_budget: time_budget_ms.map(Duration::from_millis),
        max_length: max_length.unwrap_or(defaults.max_length),
        hard_limit: hard_limit_ms.map(Duration::from_millis),
        optimal,
        optimal_tables,
        exact_phase1: exact_phase1.unwrap_or(defaults.exact_phase1),
        threads: threads.unwrap_or(0),
        target: target_length.map(|n| (n, target_time_ms.map(Duration::from_millis))),
    };
    let name = puzzle.to_string();
    let sol = py
        .allow_threads(move || solver(&name, &dir)?.solve(&position, &opts))
        .map_err(py_err)?;
    Ok(Solution {
        moves: sol.text(),
        length: sol.moves.len(),
        phase_list: sol.phases,
        optimal: sol.optimal,
    })
}

/// A random-state scramble: `(moves, state)`, the state string after the
/// moves (None for the Pyraminx, which has no state strings). The same `seed`
/// gives the same scramble; none picks one from the clock. `tables` and
/// `tables_from` as for `solve`.
#[pyfunction]
#[pyo3(signature = (puzzle, seed=None, tables=None, tables_from=None))]
fn scramble(
    py: Python<'_>,
    puzzle: &str,
    seed: Option<u64>,
    tables: Option<PathBuf>,
    tables_from: Option<&str>,
) -> PyResult<(String, Option<String>)> {
    registry::find(puzzle).map_err(py_err)?;
    let dir = tables_dir(tables, tables_from)?;
    let seed = seed.unwrap_or_else(puzzle::clock_seed);
    let name = puzzle.to_string();
    let s = py
        .allow_threads(move || solver(&name, &dir)?.scramble(seed))
        .map_err(py_err)?;
    Ok((s.moves, s.state))
}

/// Whether the position (a `state` string or a `scramble`) is solved after
/// `moves`, in any whole-puzzle orientation: replays a solution on the
/// toolkit's own puzzle models. Any NxNxN cube, "pyraminx", "domino".
#[pyfunction]
#[pyo3(signature = (puzzle, moves, state=None, scramble=None, order="urfdlb"))]
fn is_solved(
    puzzle: &str,
    moves: &str,
    state: Option<&str>,
    scramble: Option<&str>,
    order: &str,
) -> PyResult<bool> {
    let position = read_position(puzzle, state, scramble, order).map_err(py_err)?;
    let tokens: Vec<&str> = moves.split_whitespace().collect();
    let after = position.state.after(&tokens).map_err(py_err)?;
    Ok(after.is_solved())
}

/// An SVG picture (str) of the position: the unfolded net, one shape per
/// facelet. Any NxNxN cube, "pyraminx" (scramble only), "domino".
#[pyfunction]
#[pyo3(signature = (puzzle, state=None, scramble=None, order="urfdlb"))]
fn show(
    puzzle: &str,
    state: Option<&str>,
    scramble: Option<&str>,
    order: &str,
) -> PyResult<String> {
    let position = read_position(puzzle, state, scramble, order).map_err(py_err)?;
    let title = match &position.setup {
        Some(moves) => format!("{puzzle} {moves}"),
        None => puzzle.to_string(),
    };
    solvers::svg::draw(&position, &title).map_err(py_err)
}

/// The puzzles `solve` and `scramble` take.
#[pyfunction]
fn puzzles() -> Vec<&'static str> {
    registry::puzzles().iter().map(|p| p.name()).collect()
}

/// The table directory `solve` uses when given no `tables`: $CUBE_TABLES,
/// else $XDG_DATA_HOME/cube-tables, else ~/.local/share/cube-tables.
#[pyfunction]
fn default_tables_dir() -> PyResult<String> {
    Ok(find_dir(None, None)?.dir.to_string_lossy().into_owned())
}

/// Twisty-puzzle solvers from the cube-tables toolkit: `solve`, `scramble`,
/// `is_solved`, `show`.
#[pymodule]
fn cubesolve(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Solution>()?;
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(scramble, m)?)?;
    m.add_function(wrap_pyfunction!(is_solved, m)?)?;
    m.add_function(wrap_pyfunction!(show, m)?)?;
    m.add_function(wrap_pyfunction!(puzzles, m)?)?;
    m.add_function(wrap_pyfunction!(default_tables_dir, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
