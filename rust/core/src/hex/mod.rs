//! Hex grids: coordinates, layouts, dense maps with a text format, and the queries a tactics
//! game needs (movement, paths, sight, areas, forced moves). Zinordia's board stands on it;
//! it is useful on its own. `docs/hex.md` documents conventions, the map format and speed.
//!
//! - [`coords`]: the axial [`Hex`] (from `hexx`), directions, distance, rings, lines, ...
//! - [`layout`]: hex ↔ pixel.
//! - [`map`]: [`HexMap`], the dense map.
//! - [`text`]: the TOML + ASCII-picture map format.
//! - [`query`]: searches and shapes on a map.
//! - [`zonebits`]: the same movement questions as bitsets on maps of at most 64 zones.

pub mod coords;
pub mod layout;
pub mod limits;
pub mod map;
pub mod query;
pub mod text;
pub mod zonebits;

pub use coords::{Axis, Hex, Orientation, Parity};
pub use layout::Layout;
pub use map::{Blocker, HexMap, Terrain};
pub use query::{Collision, ForcedMove, Shape};
pub use zonebits::ZoneGraph;

#[cfg(test)]
mod tests;
