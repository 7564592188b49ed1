//! tablegen: puzzle models, the restricted-move BFS engine and the table catalog.
pub mod cube3;
