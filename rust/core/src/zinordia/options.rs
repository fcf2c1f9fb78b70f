//! The rules options (`docs/rules/zinordia.md`: each **Option** there). Only options the
//! engine implements are fields; an unknown key is an error.

use serde::{Deserialize, Serialize};

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
        }
    }
}
