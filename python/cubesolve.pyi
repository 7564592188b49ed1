"""Twisty-puzzle solvers from the cube-tables toolkit.

Errors: bad input raises ValueError (the `cubesolve` command's one-line
message), a table that cannot be read or built raises OSError naming the file,
a solve that runs out of time raises RuntimeError.
"""

import os
from typing import Dict, List, Optional, Tuple, Union

__version__: str

_Path = Union[str, "os.PathLike[str]"]

class Solution:
    """A solution found by `solve`."""

    @property
    def moves(self) -> str:
        """The moves, SiGN notation, separated by single spaces."""
    @property
    def length(self) -> int:
        """Number of moves (outer block turn metric; half turn metric on 2x2x2 and 3x3x3)."""
    @property
    def phases(self) -> Dict[str, int]:
        """Moves per phase of the solver, in the order they come in `moves`."""
    @property
    def optimal(self) -> bool:
        """Proven the shortest (an optimal 3x3x3 solve, or a table walk)."""
    def __len__(self) -> int: ...

def solve(
    puzzle: str,
    state: Optional[str] = None,
    scramble: Optional[str] = None,
    order: str = "urfdlb",
    tables: Optional[_Path] = None,
    max_length: Optional[int] = None,
    time_budget_ms: Optional[int] = None,
    tables_from: Optional[str] = None,
    optimal: bool = False,
    hard_limit_ms: Optional[int] = None,
    optimal_tables: str = "large",
    exact_phase1: Optional[bool] = None,
    threads: Optional[int] = None,
    target_length: Optional[int] = None,
    target_time_ms: Optional[int] = None,
) -> Solution:
    """Solves a puzzle: "2x2x2", "3x3x3", "4x4x4", "pyraminx" or "domino".

    Give `state` (cubes: 6*N*N letters URFDLB, faces in U R F D L B order as
    the `kociemba` package takes them; `order="ulfrbd"` for U L F R B D) or
    `scramble` (moves applied to the solved puzzle). `tables`: the table
    directory (default: `default_tables_dir()`; missing tables are built there
    on first use). `tables_from`: the URL of tables written by `tablegen
    publish` (default: $CUBE_TABLES_FROM), from which a missing table is
    downloaded instead. `max_length` (3x3x3): stop at the first solution at most
    this long (default 21). `time_budget_ms`: return the best solution found
    after this long (3x3x3 default 1000, 4x4x4 240). `optimal=True` (3x3x3):
    the shortest solution, proven, in the half-turn metric, on the tables
    `optimal_tables` ("large", 670 MB; "huge", 1.34 GB and faster; or
    "small", 73 MB and slower; built on first use); past `hard_limit_ms` (optimal default: 10 minutes) a
    RuntimeError names the depth ruled out and the best solution found.
    `exact_phase1` (3x3x3): phase 1 bounded by its exact distances (70 MB,
    loaded once per process by the first solve that needs the two phases, not
    built or downloaded by a solve given `hard_limit_ms`; about twice as fast
    at 20 moves) when True or None (the default), by the
    three small tables (0.85 MB) when False. `threads` (4x4x4, 5x5x5): threads of the
    solve (default: one per core). `target_length` (4x4x4): past the time
    budget, a solve whose best is longer goes on until it has one this short
    or `target_time_ms` (default 1000, from the solve's start) comes.
    """

def scramble(
    puzzle: str,
    seed: Optional[int] = None,
    tables: Optional[_Path] = None,
    tables_from: Optional[str] = None,
) -> Tuple[str, Optional[str]]:
    """A random-state scramble: (moves, state string or None for the Pyraminx)."""

def is_solved(
    puzzle: str,
    moves: str,
    state: Optional[str] = None,
    scramble: Optional[str] = None,
    order: str = "urfdlb",
) -> bool:
    """Whether the position is solved (any orientation) after `moves`."""

def show(
    puzzle: str,
    state: Optional[str] = None,
    scramble: Optional[str] = None,
    order: str = "urfdlb",
) -> str:
    """An SVG picture of the position (any NxNxN cube, "pyraminx", "domino")."""

def puzzles() -> List[str]:
    """The puzzles `solve` and `scramble` take."""

def default_tables_dir() -> str:
    """$CUBE_TABLES, else $XDG_DATA_HOME/cube-tables, else ~/.local/share/cube-tables."""
