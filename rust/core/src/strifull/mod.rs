//! Strained Kingdoms: STRIFULL — two factions, a leader and 30 troops each, an attack and
//! a defence zone of 3x3 cells, frontal and flank attacks settled by advantage and two d6,
//! elemental bonuses, and row elimination. Rules: `docs/rules/strifull.md` (ids `SK-x.y`);
//! state, notation and observation formats: `docs/strifull.md`; cards:
//! `docs/strifull-cards.md`.
//!
//! Modules: [`cards`] (data and TOML loading), [`effects`] (the ability vocabulary),
//! `setup` (decks and the deal), `rules` (turn machine, legality), `combat` (attacks,
//! abilities in play, row elimination), [`notation`] (actions), `serial` (JSON, views,
//! determinization), `observe` (observation, render, evaluation).

pub mod cards;
mod combat;
pub mod effects;
pub mod notation;
mod observe;
mod rules;
mod serial;
mod setup;
pub mod state;

#[cfg(test)]
mod tests;

use crate::error::Result;
use crate::game::{Game, Player};
use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::Serializer;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt;

pub use cards::{CardSet, Element};
pub use notation::Action;
pub use state::Strifull;

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

impl Game for Strifull {
    type Action = Action;
    type Options = Options;
    const NAME: &'static str = "strifull";

    fn new(seed: u64, options: &Options) -> Result<Self> {
        Strifull::new_game(seed, options)
    }
    fn options(&self) -> &Options {
        &self.shared.options
    }
    fn num_players(&self) -> usize {
        2
    }
    fn current_player(&self) -> Option<Player> {
        (self.step != state::Step::Over).then_some(self.actor as usize)
    }
    fn legal_actions(&self, out: &mut Vec<Action>) {
        out.clear();
        self.for_each_legal(|a| {
            out.push(a);
            true
        });
        // Generated in ascending id order (rules.rs).
        debug_assert!(out.windows(2).all(|w| w[0].id() < w[1].id()));
    }
    fn check(&self, action: Action) -> Result<()> {
        Strifull::check(self, action)
    }
    fn apply_unchecked(&mut self, action: Action) {
        self.apply_checked(action);
    }
    fn winner(&self) -> Option<Player> {
        match self.outcome {
            state::Outcome::Win(p) => Some(p as usize),
            _ => None,
        }
    }
    fn num_actions(&self) -> usize {
        notation::NUM_ACTIONS
    }
    fn action_id(&self, action: Action) -> usize {
        action.id()
    }
    fn action_from_id(&self, id: usize) -> Option<Action> {
        Action::from_id(id)
    }
    fn action_notation(&self, action: Action) -> String {
        action.notation()
    }
    fn parse_action(&self, text: &str) -> Result<Action> {
        Action::parse(text.trim())
    }
    fn action_json(&self, action: Action) -> Value {
        action.to_json()
    }
    fn to_json(&self) -> Value {
        self.state_json(None)
    }
    fn from_json(value: &Value) -> Result<Self> {
        Strifull::parse_state(value)
    }
    fn view(&self, player: Player) -> Value {
        self.state_json(Some(player))
    }
    fn resample_hidden(&self, player: Player, seed: u64) -> Self {
        self.resample(player, seed)
    }
    fn observation_shape(&self) -> Vec<usize> {
        vec![observe::OBS_ROWS, observe::OBS_FEATURES]
    }
    fn observation(&self, player: Player, out: &mut [f32]) {
        self.observe(player, out)
    }
    fn render(&self, player: Option<Player>) -> String {
        self.render_text(player)
    }
    fn evaluate(&self, player: Player) -> f64 {
        self.heuristic(player)
    }
}
