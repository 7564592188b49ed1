//! tablefmt
