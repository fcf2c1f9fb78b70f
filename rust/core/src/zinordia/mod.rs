//! Zinordia: hex tactics with Stars whose abilities are data (rules: `docs/rules/zinordia.md`,
//! content format and reference set: `docs/zinordia.md`).
//!
//! What is here so far: the ability vocabulary ([`ability`]), the content loader
//! ([`content`]: roster, maps, modes, with the reference set under `data/zinordia/`), and the
//! first part of the engine: setup, turns, plays with movement, Renown markers and victory
//! ([`rules`], [`state`], [`notation`], [`options`]), combat primitives ([`combat`]: rolls,
//! damage, defeat, push and pull) and lasting effects ([`effects`]). Activating abilities,
//! reactions and the protocol (`Game`: JSON, views, observations) are not written yet, so the
//! game is not registered.

pub mod ability;
pub mod activate;
pub mod combat;
pub mod content;
pub mod effects;
pub mod notation;
pub mod options;
pub mod resolve;
pub mod rules;
pub mod state;

pub use ability::{Ability, Effect, Kind, Target, Trigger};
pub use content::{Content, GameMap, Mode, Source, Star};
pub use notation::Action;
pub use options::{Options, Placement, Selection};
pub use state::{Phase, Zinordia};

#[cfg(test)]
mod tests;
