//! kingdoms-core: exact, fast rules engines for four tactical card and board games, behind
//! one [`Game`] trait. Pure Rust; the Python bindings live in the `kingdoms-py` crate.

#![forbid(unsafe_code)]

pub mod arena;
pub mod arte;
pub mod batch;
pub mod battleline;
pub mod datafile;
pub mod error;
pub mod game;
pub mod hex;
pub mod knowledge;
pub mod model;
pub mod playout;
pub mod position;
pub mod registry;
pub mod rng;
pub mod search;
pub mod session;
pub mod simulate;
pub mod strifull;
pub mod text;
pub mod zinordia;

pub use error::{Error, Result};
pub use game::{Game, Player};
pub use knowledge::Knowledge;
pub use rng::GameRng;
pub use session::{DynGame, Record, Session};
