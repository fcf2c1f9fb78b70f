//! The rules options of STRIFULL and the players' choices of faction, leader and deck
//! (`docs/strifull.md`, "Options").

// This module reads user input (saved states, notation, card files): no panicking access.
#![deny(clippy::indexing_slicing, clippy::unwrap_used, clippy::expect_used)]

use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::Serializer;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// A player's deck (SK-1.2): the faction's recommended beginner's deck, a random legal deck
/// (30 of the faction's 60 cards, drawn from the game seed), or an explicit list.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum DeckChoice {
    #[default]
    Recommended,
    Random,
    /// 30 troop ids (repeats for copies).
    List(Vec<String>),
    /// Troop id -> copies.
    Counts(BTreeMap<String, u8>),
}

impl Serialize for DeckChoice {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        match self {
            DeckChoice::Recommended => s.serialize_str("recommended"),
            DeckChoice::Random => s.serialize_str("random"),
            DeckChoice::List(v) => v.serialize(s),
            DeckChoice::Counts(m) => m.serialize(s),
        }
    }
}

impl<'de> Deserialize<'de> for DeckChoice {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = DeckChoice;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str(
                    "\"recommended\", \"random\", a list of 30 troop ids, or a map of troop id \
                     to copies",
                )
            }
            fn visit_str<E: de::Error>(self, v: &str) -> std::result::Result<DeckChoice, E> {
                match v {
                    "recommended" => Ok(DeckChoice::Recommended),
                    "random" => Ok(DeckChoice::Random),
                    other => Err(E::custom(format!(
                        "unknown deck {other:?}: expected \"recommended\", \"random\", a list of \
                         troop ids or a map of troop id to copies"
                    ))),
                }
            }
            fn visit_seq<A: SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> std::result::Result<DeckChoice, A::Error> {
                let mut v = Vec::new();
                while let Some(id) = seq.next_element::<String>()? {
                    v.push(id);
                }
                Ok(DeckChoice::List(v))
            }
            fn visit_map<A: MapAccess<'de>>(
                self,
                mut map: A,
            ) -> std::result::Result<DeckChoice, A::Error> {
                let mut m = BTreeMap::new();
                while let Some((k, n)) = map.next_entry::<String, u8>()? {
                    m.insert(k, n);
                }
                Ok(DeckChoice::Counts(m))
            }
        }
        d.deserialize_any(V)
    }
}

/// What happens when one combat eliminates both players' last rows (SK-8.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MutualWipeout {
    /// Neither eliminated the other first: a draw.
    #[default]
    Draw,
    /// The attacker, whose attack it was, wins.
    AttackerWins,
}

/// Rules options and the players' choices of faction, leader and deck.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Options {
    /// Faction id of each player; null: the card set's first faction for player 0 and its
    /// second (or first, if it has one) for player 1 — Inquisição vs Iniciativa dos Magos.
    pub factions: [Option<String>; 2],
    /// Leader id of each player; null: the faction's first leader.
    pub leaders: [Option<String>; 2],
    /// Deck of each player.
    pub decks: [DeckChoice; 2],
    /// A card set to use instead of the reference set: a TOML file or a directory of them.
    pub cards_file: Option<String>,
    /// A card set to use instead of the reference set, as TOML text.
    pub cards_toml: Option<String>,
    /// SK-6.8: a troop eliminated by a tie counts as defeated for `on_defeat` abilities
    /// (survival rolls). False: only the loser of a combat is "defeated".
    pub tie_is_defeat: bool,
    /// SK-5.3: the cells of an eliminated row count as empty for flank attacks. False: only
    /// empty cells of live rows open a flank.
    pub dead_cells_open_flanks: bool,
    /// SK-4.2: read "a troop may be moved by the leader" as "a troop in the leader's row".
    pub moves_in_leader_row_only: bool,
    /// SK-8.2: both players' last rows falling in one combat.
    pub mutual_wipeout: MutualWipeout,
}

impl Options {
    /// These options as a game keeps them: a `cards_file` replaced by its text
    /// (`cards_toml`), so that the game's saved states and records carry the card set and
    /// never name a file to read (docs/strifull.md, "Saved state").
    pub fn carried(&self) -> crate::Result<std::borrow::Cow<'_, Options>> {
        match (&self.cards_file, &self.cards_toml) {
            (Some(path), None) => Ok(std::borrow::Cow::Owned(Options {
                cards_file: None,
                cards_toml: Some(super::content::CardSet::carried_text(path)?),
                ..self.clone()
            })),
            _ => Ok(std::borrow::Cow::Borrowed(self)),
        }
    }
}

impl Default for Options {
    fn default() -> Self {
        Options {
            factions: [None, None],
            leaders: [None, None],
            decks: [DeckChoice::Recommended, DeckChoice::Recommended],
            cards_file: None,
            cards_toml: None,
            tie_is_defeat: true,
            dead_cells_open_flanks: true,
            moves_in_leader_row_only: false,
            mutual_wipeout: MutualWipeout::Draw,
        }
    }
}
