//! Solver tests: scramble -> solve -> solved on thousands of random states,
//! and short scrambles through the registry.

mod random_states;
mod short_solutions;
