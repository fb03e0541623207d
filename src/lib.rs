//! `artifact`: every figure and every number in a paper, from the logged
//! measurements, by one command; and a check that fails when they drift.
//!
//! The data flows one way: `spec` (parsed, every key checked) -> `plan`
//! (compiled once) -> `sources` -> `tables` -> (`numbers` | `figures` |
//! `results`) -> `render` / `emit` -> `run` (one transaction of outputs,
//! the lock last) -> the commands. Each top-level module belongs to a layer
//! and imports only from its layer and those below; ARCHITECTURE.md at the
//! repository's root maps the layers, and `tests/architecture.rs` pins
//! them.

pub mod check;
pub mod color;
pub mod console;
pub mod diff;
pub mod emit;
pub mod error;
pub mod evaluate;
pub mod expr;
pub mod figures;
pub mod files;
pub mod fingerprint;
pub mod font;
pub mod format;
pub mod hook;
pub mod init;
pub mod inspect;
pub mod lint;
pub mod lock;
pub mod numbers;
pub mod output;
pub mod plan;
pub mod progress;
pub mod render;
pub mod results;
pub mod run;
pub mod sources;
pub mod spec;
pub mod stats;
pub mod tables;
pub mod ticks;
pub mod value;
pub mod watch;

pub use error::{Error, Result};
