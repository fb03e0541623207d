//! `artifact`: every figure and every number in a paper, from the logged
//! measurements, by one command; and a check that fails when they drift.
//!
//! The data flows one way through the modules:
//! `spec` -> `sources` -> `tables` -> (`numbers` | `figures`) -> `render` /
//! `emit` -> outputs (written atomically by `output`).

pub mod error;
pub mod expr;
pub mod numbers;
pub mod sources;
pub mod spec;
pub mod stats;
pub mod tables;
pub mod value;

pub use error::{Error, Result};
