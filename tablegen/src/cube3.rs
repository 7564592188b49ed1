//! 3x3x3 piece-level model and Kociemba coordinates (work in progress).
