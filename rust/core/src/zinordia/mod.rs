//! Zinordia: hex tactics with Stars whose abilities are data (rules: `docs/rules/zinordia.md`,
//! content format and reference set: `docs/zinordia.md`).
//!
//! What is here so far: the ability vocabulary ([`ability`]) and the content loader
//! ([`content`]: roster, maps, modes, with the reference set under `data/zinordia/`). The
//! engine (state, rules, the `Game` implementation) builds on them and is not written yet, so
//! the game is not registered.

pub mod ability;
pub mod content;

pub use ability::{Ability, Effect, Kind, Target, Trigger};
pub use content::{Content, GameMap, Mode, Source, Star};

#[cfg(test)]
mod tests;
