//! Solver tests: scramble -> solve -> solved on thousands of random states, and
//! the `cubesolve` command line.

mod cli;
mod random_states;
mod short_solutions;
