//! The rules options (`kingdoms.new_game("battleline", **options)`), read through serde.

use serde::{Deserialize, Serialize};

/// Rules options. The defaults are the reading in `shared/rules-notes.md`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields, default)]
pub struct Options {
    /// BL-8.4: Traitor takes only troop cards (the publisher's rule). Default `false`: any
    /// opponent card at an unclaimed flag, troop or tactics (the seed).
    pub traitor_troops_only: bool,
    /// BL-3.2: claims are made at the start of the turn, before playing (a published
    /// variant). Default `false`: after playing (the seed, BL-3.1).
    pub claim_at_turn_start: bool,
    /// BL-2.3: who plays first, 0 or 1 (in match play, the previous game's winner, BL-12.2).
    pub first_player: u8,
}
