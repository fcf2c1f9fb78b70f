//! Terrain kinds (ZN-2.9): a small vocabulary as data (`data/zinordia/terrain.toml`) giving
//! each kind its cost to enter, attack and defence modifiers and whether it blocks sight.
//! A map's terrain table names kinds of it; the per-zone modifiers are kept by zone id.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use serde::Deserialize;

use super::content::{check_id, decode, parse_table, path_text, Source};
use crate::error::{Error, Result};
use crate::hex::HexMap;

pub const REFERENCE_TERRAIN: &str = include_str!("../../../../data/zinordia/terrain.toml");
/// Most kinds a vocabulary holds.
pub const MAX_KINDS: usize = 32;
/// Highest cost to enter a kind (ZN-6.2: Agilidade rarely exceeds this).
pub const MAX_COST: u32 = 9;
/// Largest attack or defence modifier, either sign.
pub const MAX_MODIFIER: i8 = 3;

/// One terrain kind.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Kind {
    #[serde(default = "one")]
    pub cost: u32,
    #[serde(default = "yes")]
    pub passable: bool,
    #[serde(default)]
    pub blocks_sight: bool,
    #[serde(default)]
    pub attack: i8,
    #[serde(default)]
    pub defence: i8,
}

fn one() -> u32 {
    1
}
fn yes() -> bool {
    true
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TerrainFile {
    kinds: BTreeMap<String, Kind>,
}

/// A validated vocabulary: kinds by name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Vocabulary {
    /// What errors call the vocabulary by (`data/zinordia/terrain.toml`, `terrain_toml`).
    pub name: String,
    pub kinds: BTreeMap<String, Kind>,
}

/// A zone's modifiers from its terrain (ZN-7.2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Modifiers {
    pub attack: i8,
    pub defence: i8,
}

impl Vocabulary {
    /// Read and validate a vocabulary file.
    pub fn load(src: Source) -> Result<Vocabulary> {
        crate::datafile::check_size(src.text, src.name)?;
        let table = parse_table(src)?;
        let file: TerrainFile = decode(toml::Value::Table(table)).map_err(|(segs, msg)| {
            Error::data(format!("{}, field {}", src.name, path_text(&segs)), msg)
        })?;
        if file.kinds.is_empty() || file.kinds.len() > MAX_KINDS {
            return Err(Error::data(
                src.name,
                format!("[kinds] holds 1 to {MAX_KINDS} terrain kinds"),
            ));
        }
        for (name, k) in &file.kinds {
            let place = || format!("{}, kind {name:?}", src.name);
            check_id(name)
                .and_then(|()| crate::text::check_name(name, 32))
                .map_err(|why| Error::data(place(), why))?;
            if !(1..=MAX_COST).contains(&k.cost) {
                return Err(Error::data(
                    format!("{}, field cost", place()),
                    format!("must be 1 to {MAX_COST}"),
                ));
            }
            for (field, v) in [("attack", k.attack), ("defence", k.defence)] {
                if v.abs() > MAX_MODIFIER {
                    return Err(Error::data(
                        format!("{}, field {field}", place()),
                        format!("must be -{MAX_MODIFIER} to {MAX_MODIFIER}"),
                    ));
                }
            }
        }
        Ok(Vocabulary {
            name: src.name.to_string(),
            kinds: file.kinds,
        })
    }

    /// The reference vocabulary, parsed once (tested, so this fails only on a broken build).
    pub fn reference() -> Result<&'static Vocabulary> {
        static REF: OnceLock<Result<Vocabulary>> = OnceLock::new();
        REF.get_or_init(|| {
            Vocabulary::load(Source {
                name: "data/zinordia/terrain.toml",
                text: REFERENCE_TERRAIN,
            })
        })
        .as_ref()
        .map_err(Clone::clone)
    }

    /// Check a map's terrains against the vocabulary (names, cost, passable, sight) and
    /// return each zone's modifiers, by zone id.
    pub fn zone_modifiers(&self, map: &HexMap) -> std::result::Result<Vec<Modifiers>, String> {
        let mut out = Vec::with_capacity(map.len());
        for h in map.zones() {
            let Some(t) = map.terrain(h) else {
                out.push(Modifiers::default());
                continue;
            };
            let name: String = t.name.chars().take(32).collect();
            let kind = self
                .kinds
                .get(&t.name)
                .ok_or_else(|| format!("terrain {name:?} is not a kind of {}", self.name))?;
            if t.passable != kind.passable || t.blocks_sight != kind.blocks_sight {
                return Err(format!(
                    "terrain {name:?}: passable and blocks_sight must be the vocabulary's ({} and {})",
                    kind.passable, kind.blocks_sight
                ));
            }
            if t.passable && map.cost(h) != Some(kind.cost) {
                return Err(format!(
                    "zone ({}, {}): terrain {name:?} costs {} to enter (the vocabulary's cost)",
                    h.x, h.y, kind.cost
                ));
            }
            out.push(Modifiers {
                attack: kind.attack,
                defence: kind.defence,
            });
        }
        Ok(out)
    }
}
