//! The plan: what the spec asks for, worked out from the spec alone before
//! any data is read. Which parts read which (`deps`), the order the numbers
//! are computed in (`order`), and the names a number key may not take in
//! LaTeX and typst (`keys`).

pub mod deps;
pub mod keys;
pub mod order;
