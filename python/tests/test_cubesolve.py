"""The Python binding: solutions replayed on the toolkit's models and on a
small independent facelet model, bad input, the table directory."""

import functools
import http.server
import os
import shutil
import subprocess
import threading
import time
from pathlib import Path

import pytest

import cubesolve

REPO = Path(__file__).resolve().parents[2]
SHIPPED = REPO / "tables"
SOLVED3 = "UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB"


@pytest.fixture(scope="session")
def tables(tmp_path_factory):
    """A copy of the shipped tables the small puzzles need (tests never write
    into the checkout's tables/)."""
    d = tmp_path_factory.mktemp("tables")
    for f in SHIPPED.glob("*.tbl"):
        if f.name.startswith(("2x2x2-htm", "3x3x3-", "pyraminx")):
            shutil.copy(f, d / f.name)
    # The 3x3x3's exact phase-1 table (70 MB, built on first use in about ten
    # seconds): linked from the Rust tests' table directory when built there.
    exact = "3x3x3-optimal-flipslice-twist.tbl"
    built = REPO / "target" / "test-tables" / exact
    if built.exists() and not (d / exact).exists():
        (d / exact).symlink_to(built)
    return d


# ---------------------------------------------------------------- an independent 3x3x3

def _geometry():
    """Facelet i -> (position, normal), faces U R F D L B, each row by row as on
    the usual net (U with B at the top, D with F at the top, sides with U up)."""
    out = []
    for face in range(6):
        for r in range(3):
            for c in range(3):
                x, y = c - 1, 1 - r
                p = {
                    0: (x, 1, r - 1),
                    1: (1, y, 1 - c),
                    2: (x, y, 1),
                    3: (x, -1, 1 - r),
                    4: (-1, y, c - 1),
                    5: (1 - c, y, -1),
                }[face]
                n = [(0, 1, 0), (1, 0, 0), (0, 0, 1), (0, -1, 0), (-1, 0, 0), (0, 0, -1)][face]
                out.append((p, n))
    return out


GEOMETRY = _geometry()
INDEX = {g: i for i, g in enumerate(GEOMETRY)}
AXES = {"U": (0, 1, 0), "R": (1, 0, 0), "F": (0, 0, 1), "D": (0, -1, 0), "L": (-1, 0, 0), "B": (0, 0, -1)}


def _cw(k, v):
    """A quarter turn clockwise looking at the face with outward normal k."""
    cross = (k[1] * v[2] - k[2] * v[1], k[2] * v[0] - k[0] * v[2], k[0] * v[1] - k[1] * v[0])
    d = sum(a * b for a, b in zip(k, v))
    return tuple(-cross[i] + k[i] * d for i in range(3))


def apply3(state, moves):
    """Face turns (U R F D L B with '' 2 ') on a 54-letter state."""
    s = list(state)
    for tok in moves.split():
        k = AXES[tok[0]]
        turns = {"": 1, "2": 2, "'": 3}[tok[1:]]
        for _ in range(turns):
            new = list(s)
            for i, (p, n) in enumerate(GEOMETRY):
                if sum(a * b for a, b in zip(k, p)) == 1:
                    new[INDEX[(_cw(k, p), _cw(k, n))]] = s[i]
            s = new
    return "".join(s)


def test_the_python_model_agrees_with_the_spec():
    assert apply3(SOLVED3, "R") == "UUFUUFUUFRRRRRRRRRFFDFFDFFDDDBDDBDDBLLLLLLLLLUBBUBBUBB"
    assert apply3(SOLVED3, "R U F' D2 L B") != SOLVED3
    assert apply3(apply3(SOLVED3, "R U F' D2 L B"), "B' L' D2 F U' R'") == SOLVED3


# ---------------------------------------------------------------- solving

def test_kociemba_drop_in(tables):
    for seed in range(10):
        moves, state = cubesolve.scramble("3x3x3", seed=seed, tables=tables)
        assert apply3(SOLVED3, moves) == state
        sol = cubesolve.solve("3x3x3", state=state, tables=tables)
        assert isinstance(sol.moves, str) and sol.length == len(sol.moves.split())
        assert sol.length <= 21
        assert apply3(state, sol.moves) == SOLVED3
        assert cubesolve.is_solved("3x3x3", sol.moves, state=state)
        assert sum(sol.phases.values()) == sol.length
        assert list(sol.phases) == ["phase1", "phase2", "premoves"] or list(sol.phases)[0] == "premoves"
    # The kociemba package's README example.
    state = "DRLUUBFBRBLURRLRUBLRDDFDLFUFUFFDBRDUBRUFLLFDDBFLUBLRBD"
    sol = cubesolve.solve("3x3x3", state=state, tables=tables)
    assert apply3(state, sol.moves) == SOLVED3


def test_short_scrambles_and_orders(tables):
    assert cubesolve.solve("3x3x3", scramble="R", tables=tables).moves == "R'"
    assert cubesolve.solve("3x3x3", state=SOLVED3, tables=tables).moves == ""
    sol = cubesolve.solve("3x3x3", scramble="R U F' L2", tables=tables)
    assert sol.length == 4 and sol.phases == {"optimal": 4}
    assert str(sol) == sol.moves and len(sol) == 4 and "Solution(moves=" in repr(sol)
    # U L F R B D order, as the SPEC's example.
    sol = cubesolve.solve("2x2x2", state="UUUUFFLLRRFFBBRRLLBBDDDD", order="ulfrbd", tables=tables)
    assert sol.moves == "U'"


def test_optimal_3x3x3_on_the_small_tables(tables):
    sol = cubesolve.solve("3x3x3", scramble="R U2 F' L D2 B R'", tables=tables, optimal=True, optimal_tables="small")
    assert sol.optimal and sol.length <= 7
    assert cubesolve.is_solved("3x3x3", sol.moves, scramble="R U2 F' L D2 B R'")
    # A two-phase solve claims nothing; the 4x4x4 has no optimal solver.
    assert not cubesolve.solve("3x3x3", scramble="R U2 F' L D2 B R' U F2 L'", tables=tables).optimal
    with pytest.raises(ValueError, match="optimal"):
        cubesolve.solve("4x4x4", scramble="R", tables=tables, optimal=True)
    with pytest.raises(ValueError, match="small, large or huge"):
        cubesolve.solve("3x3x3", scramble="R", tables=tables, optimal=True, optimal_tables="giant")


def test_either_phase1_table_solves_within_the_length_asked(tables):
    moves, state = cubesolve.scramble("3x3x3", seed=5, tables=tables)
    for exact in [None, True, False]:
        sol = cubesolve.solve("3x3x3", state=state, tables=tables, max_length=20, exact_phase1=exact)
        assert sol.length <= 20 and cubesolve.is_solved("3x3x3", sol.moves, state=state), exact
    for exact in [True, False]:
        with pytest.raises(ValueError, match="phase 1"):
            cubesolve.solve("4x4x4", scramble="R", tables=tables, exact_phase1=exact)


def test_every_small_puzzle_scrambles_and_solves(tables):
    for puzzle in ["2x2x2", "3x3x3", "pyraminx"]:
        moves, state = cubesolve.scramble(puzzle, seed=11, tables=tables)
        assert cubesolve.scramble(puzzle, seed=11, tables=tables) == (moves, state)
        assert (state is None) == (puzzle == "pyraminx")
        sol = cubesolve.solve(puzzle, scramble=moves, tables=tables, max_length=25, time_budget_ms=50)
        assert cubesolve.is_solved(puzzle, sol.moves, scramble=moves), (puzzle, moves, sol)
        assert not cubesolve.is_solved(puzzle, "", scramble=moves)


def test_4x4x4_when_its_tables_are_at_hand(tmp_path):
    source = next(
        (d for d in [REPO / "target" / "test-tables", SHIPPED] if (d / "4x4x4-wings-pair.tbl").exists()),
        None,
    )
    if source is None:
        pytest.skip("4x4x4-wings-pair.tbl not built (cargo test builds it)")
    # The 4x4x4's and its finish's exact phase-1 table (else built here).
    for f in [*source.glob("4x4x4-*.tbl"), *source.glob("3x3x3-optimal-flipslice-twist.tbl")]:
        os.symlink(f, tmp_path / f.name)
    assert cubesolve.solve("4x4x4", scramble="x y", tables=tmp_path).moves == ""
    scramble = "Rw U2 x Rw U2 Rw U2 Rw' U2 Lw U2 Rw' U2 Rw U2 Rw' U2 Rw'"
    sol = cubesolve.solve("4x4x4", scramble=scramble, tables=tmp_path)
    assert cubesolve.is_solved("4x4x4", sol.moves, scramble=scramble)
    assert "pair" in sol.phases
    for threads in [1, 2]:
        sol = cubesolve.solve("4x4x4", scramble=scramble, tables=tmp_path, threads=threads)
        assert cubesolve.is_solved("4x4x4", sol.moves, scramble=scramble)
    with pytest.raises(ValueError, match="threads"):
        cubesolve.solve("4x4x4", scramble="R", tables=tmp_path, threads=0)
    # A target length no reduction reaches: the solve goes on to its time.
    sol = cubesolve.solve(
        "4x4x4", scramble=scramble, tables=tmp_path, time_budget_ms=50, target_length=25, target_time_ms=300
    )
    assert cubesolve.is_solved("4x4x4", sol.moves, scramble=scramble)
    for kwargs in [dict(target_length=0), dict(target_time_ms=300)]:
        with pytest.raises(ValueError, match="target"):
            cubesolve.solve("4x4x4", scramble="R", tables=tmp_path, **kwargs)


def test_solvers_are_cached(tables):
    cubesolve.solve("3x3x3", scramble="R U", tables=tables)
    t = time.perf_counter()
    for _ in range(20):
        cubesolve.solve("3x3x3", scramble="R U F", tables=tables)
    assert (time.perf_counter() - t) / 20 < 0.02


def test_pictures():
    svg = cubesolve.show("3x3x3", scramble="R")
    assert svg.startswith("<?xml") and svg.count('class="facelet"') == 54
    assert cubesolve.show("9x9x9", scramble="4Rw").count('class="facelet"') == 486
    assert cubesolve.show("pyraminx", scramble="U r").count('class="facelet"') == 36
    assert cubesolve.show("domino", scramble="U R2").count('class="facelet"') == 42


# ---------------------------------------------------------------- errors

@pytest.mark.parametrize(
    "kwargs, words",
    [
        (dict(puzzle="3x3x3", scramble="R Q"), 'bad move "Q"'),
        (dict(puzzle="3x3x3", state="UUU"), "54 facelets"),
        (dict(puzzle="3x3x3", state=SOLVED3.replace("U", "R", 1)), "colour"),
        (dict(puzzle="3x3x3", scramble="R", state=SOLVED3), "not both"),
        (dict(puzzle="3x3x3"), "state= or scramble="),
        (dict(puzzle="megaminx", scramble="R"), "megaminx"),
        (dict(puzzle="65x65x65", scramble="R"), "64x64x64"),
        (dict(puzzle="pyraminx", scramble="U", order="ulfrbd"), "order"),
        (dict(puzzle="pyraminx", state="UUU"), "scramble"),
        (dict(puzzle="3x3x3", scramble="R", order="abc"), "face order"),
        (dict(puzzle="3x3x3", scramble="R", target_length=20), "target length"),
    ],
)
def test_bad_input_raises_value_error(tables, kwargs, words):
    with pytest.raises(ValueError) as e:
        cubesolve.solve(tables=tables, **kwargs)
    assert words in str(e.value)
    assert "\n" not in str(e.value)


def test_a_damaged_table_raises_os_error_naming_it(tmp_path):
    (tmp_path / "2x2x2-htm.tbl").write_bytes(b"not a table at all")
    with pytest.raises(OSError) as e:
        cubesolve.solve("2x2x2", scramble="R", tables=tmp_path)
    assert "2x2x2-htm.tbl" in str(e.value)


def test_a_missing_table_is_built_in_the_directory_given(tmp_path, capfd):
    d = tmp_path / "new"
    sol = cubesolve.solve("pyraminx", scramble="U L' r b", tables=str(d))
    assert cubesolve.is_solved("pyraminx", sol.moves, scramble="U L' r b")
    assert (d / "pyraminx.tbl").exists()
    assert "pyraminx" in capfd.readouterr().err


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def test_a_missing_table_is_downloaded_from_tables_from(tmp_path, capfd):
    """Given a table source (a `tablegen publish` directory served over
    HTTP), a missing table is downloaded from it, not built."""
    tablegen = next(
        (p for p in (REPO / "target" / d / "tablegen" for d in ("debug", "release")) if p.exists()),
        None,
    )
    if tablegen is None:
        pytest.skip("no tablegen binary to publish with (cargo build --bin tablegen)")
    built = tmp_path / "built"
    built.mkdir()
    shutil.copy(SHIPPED / "pyraminx.tbl", built / "pyraminx.tbl")
    release = tmp_path / "release"
    subprocess.run(
        [str(tablegen), "--tables", str(built), "publish", "--out", str(release)],
        check=True,
        capture_output=True,
    )
    handler = functools.partial(_QuietHandler, directory=str(release))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/"
        d = tmp_path / "new"
        sol = cubesolve.solve("pyraminx", scramble="U L' r b", tables=str(d), tables_from=url)
        assert cubesolve.is_solved("pyraminx", sol.moves, scramble="U L' r b")
        assert (d / "pyraminx.tbl").read_bytes() == (SHIPPED / "pyraminx.tbl").read_bytes()
        err = capfd.readouterr().err
        assert f"pyraminx.tbl.zst: downloading {url}pyraminx.tbl.zst" in err
        assert "depth" not in err
        # A source that is not there: OSError naming its URL.
        with pytest.raises(OSError) as e:
            cubesolve.solve("pyraminx", scramble="U", tables=str(tmp_path / "other"),
                            tables_from=url + "nothing/")
        assert f"{url}nothing/manifest.json" in str(e.value)
    finally:
        server.shutdown()
        server.server_close()


def test_default_table_directory(tables, tmp_path, monkeypatch):
    monkeypatch.setenv("CUBE_TABLES", str(tables))
    assert cubesolve.default_tables_dir() == str(tables)
    assert cubesolve.solve("2x2x2", scramble="R U").moves == "U' R'"
    monkeypatch.delenv("CUBE_TABLES")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert cubesolve.default_tables_dir() == str(tmp_path / "cube-tables")
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert cubesolve.default_tables_dir() == str(tmp_path / ".local" / "share" / "cube-tables")
