//! solvers
