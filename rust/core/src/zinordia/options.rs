//! The rules options (`docs/rules/zinordia.md`: each **Option** there). Only options the
//! engine implements are fields; an unknown key is an error.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::content::{Content, Source};
use crate::datafile::Memo;
use crate::error::Result;

/// How Stars are chosen (ZN-4.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Selection {
    /// Secret and simultaneous: picks hidden from the others until all have picked.
    #[default]
    Secret,
    /// Alternating draft: public picks, seat order round after round, a pick is taken.
    Draft,
}

/// How Stars are placed (ZN-4.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Placement {
    /// One Star at a time, in initiative order, round after round.
    #[default]
    Alternate,
    /// Each player places all their Stars before the next.
    Blocks,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Options {
    /// The mode's id in the content (ZN-3.2).
    pub mode: String,
    /// Players; default the mode's fewest.
    pub players: Option<u8>,
    /// The map's id; default the mode's first.
    pub map: Option<String>,
    pub selection: Selection,
    pub placement: Placement,
    /// Rounds before the game is decided by the tie rule (ZN-5.8); at least 1.
    pub max_rounds: u16,
    /// A user's roster (TOML text, the format of `data/zinordia/roster.toml`) instead of
    /// the reference roster. Content is given as text, never as a path, so a saved state
    /// carries its content whole and loading one never opens a file.
    pub roster_toml: Option<String>,
    /// A user's maps by id (each in the `kingdoms.hex` text format) instead of the
    /// reference maps.
    pub maps_toml: Option<BTreeMap<String, String>>,
    /// A user's modes (TOML text, the format of `data/zinordia/modes.toml`).
    pub modes_toml: Option<String>,
}

/// Default `max_rounds`: long enough that random duels almost always end by Renown first.
pub const DEFAULT_MAX_ROUNDS: u16 = 30;
/// Largest `max_rounds` accepted.
pub const MAX_ROUNDS: u16 = 1000;

impl Default for Options {
    fn default() -> Self {
        Options {
            mode: "duel".into(),
            players: None,
            map: None,
            selection: Selection::Secret,
            placement: Placement::Alternate,
            max_rounds: DEFAULT_MAX_ROUNDS,
            roster_toml: None,
            maps_toml: None,
            modes_toml: None,
        }
    }
}

impl Options {
    /// The content these options name: the reference set, with whichever of roster, maps
    /// and modes the user gave in its place. Parsed once per distinct text (a batch of games
    /// shares it).
    pub fn content(&self) -> Result<Arc<Content>> {
        if self.roster_toml.is_none() && self.maps_toml.is_none() && self.modes_toml.is_none() {
            return Content::reference();
        }
        static PARSED: Memo<Content> = Memo::new(32);
        let key = format!(
            "{:?}\u{0}{:?}\u{0}{:?}",
            self.roster_toml, self.maps_toml, self.modes_toml
        );
        PARSED.get_or_build(key, || {
            let roster = Source {
                name: if self.roster_toml.is_some() { "roster_toml" } else { "data/zinordia/roster.toml" },
                text: self.roster_toml.as_deref().unwrap_or(super::content::REFERENCE_ROSTER),
            };
            let modes = Source {
                name: if self.modes_toml.is_some() { "modes_toml" } else { "data/zinordia/modes.toml" },
                text: self.modes_toml.as_deref().unwrap_or(super::content::REFERENCE_MODES),
            };
            let maps: Vec<(&str, Source)> = match &self.maps_toml {
                Some(maps) => maps
                    .iter()
                    .map(|(id, text)| (id.as_str(), Source { name: "maps_toml", text }))
                    .collect(),
                None => super::content::REFERENCE_MAPS
                    .iter()
                    .map(|(id, text)| (*id, Source { name: "data/zinordia/maps", text }))
                    .collect(),
            };
            Content::load(roster, &maps, modes)
        })
    }
}
