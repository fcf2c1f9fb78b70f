//! The rules options (`docs/rules/zinordia.md`: each **Option** there). Only options the
//! engine implements are fields; an unknown key is an error.
//!
//! A saved state leaves the second readings (`unique_stars` to `ally_defeat`) out of its
//! options when they hold their default ([`serialize_saved`]), so a default game's saved
//! state is the same as before they existed; missing keys read as the defaults.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize, Serializer};

use super::content::{Content, Source};
use super::terrain::Vocabulary;
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

/// Who may field a Star (ZN-1.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum UniqueStars {
    /// No two Stars of one team share a Name; different teams may field the same Star.
    #[default]
    Team,
    /// A Star is fielded by one team only: a secret pick clashing with an earlier seat's is
    /// picked again, visibly, at the reveal.
    Game,
}

/// What a straight line toward a target is (ZN-2.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Lines {
    /// One of the six hex axes: a target off every axis is refused.
    #[default]
    Axis,
    /// `hex.line` from the Star toward any target zone.
    Drawn,
}

/// When the durations of a player's effects tick down (ZN-5.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DurationsTick {
    /// At the applier's First Maintenance.
    #[default]
    TurnStart,
    /// At the applier's Second Maintenance, after its damage over time.
    TurnEnd,
}

/// In which order the reaction windows of one resolution are asked (ZN-9.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReactionOrder {
    /// The order their events happened.
    #[default]
    Event,
    /// Initiative order from the player whose turn it is (event order within a player).
    Initiative,
}

/// How long a stat change without a duration lasts (ZN-10.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum UntimedBuffs {
    /// Until the end of the current turn, whoever's it is.
    #[default]
    Turn,
    /// Until the start of the applier's next turn.
    Round,
}

/// What defeating a Star of one's own team pays (ZN-12.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AllyDefeat {
    /// Nothing: the defeater gains no Renown and the victim's Renown is lost.
    #[default]
    Lost,
    /// As any defeat: 1 point plus the victim's Renown (the literal reading).
    Pays,
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
    /// A user's terrain kinds (TOML text, the format of `data/zinordia/terrain.toml`)
    /// instead of the reference kinds: the maps' `[terrain]` tables name these (ZN-2.9).
    /// Left out of saved states, records and `options` when not given, so a game without
    /// it is written as before the option existed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub terrain_toml: Option<String>,
    /// ZN-1.2: a Star per team (default) or per game.
    pub unique_stars: UniqueStars,
    /// ZN-2.6: lines along the six axes (default) or drawn toward any zone.
    pub lines: Lines,
    /// ZN-5.5: durations tick at the applier's First (default) or Second Maintenance.
    pub durations_tick: DurationsTick,
    /// ZN-6.2: movement may come before and after the activation (default), or before only.
    pub split_movement: bool,
    /// ZN-9.4: reaction windows in event order (default) or initiative order.
    pub reaction_order: ReactionOrder,
    /// ZN-10.5: untimed stat changes last the turn (default) or until the applier's next.
    pub untimed_buffs: UntimedBuffs,
    /// ZN-11.3: the same mark again refreshes it (default) or adds a copy.
    pub marks_stack: bool,
    /// ZN-9.5: reactions to events inside an ability's resolution are asked right after
    /// their trigger, suspending the rest of the ability (default), or after it.
    pub reactions_interrupt: bool,
    /// ZN-12.3: defeating an ally pays nothing (default) or as any defeat.
    pub ally_defeat: AllyDefeat,
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
            terrain_toml: None,
            unique_stars: UniqueStars::Team,
            lines: Lines::Axis,
            durations_tick: DurationsTick::TurnStart,
            split_movement: true,
            reaction_order: ReactionOrder::Event,
            untimed_buffs: UntimedBuffs::Turn,
            marks_stack: false,
            reactions_interrupt: true,
            ally_defeat: AllyDefeat::Lost,
        }
    }
}

impl Options {
    /// Whether the options carry content of the user's (roster, maps, modes or terrain).
    pub fn custom_content(&self) -> bool {
        self.roster_toml.is_some()
            || self.maps_toml.is_some()
            || self.modes_toml.is_some()
            || self.terrain_toml.is_some()
    }

    /// The content these options name: the reference set, with whichever of roster, maps,
    /// modes and terrain kinds the user gave in its place. Parsed once per distinct text (a
    /// batch of games shares it).
    pub fn content(&self) -> Result<Arc<Content>> {
        if !self.custom_content() {
            return Content::reference();
        }
        static PARSED: Memo<Content> = Memo::new(32);
        let key = format!(
            "{:?}\u{0}{:?}\u{0}{:?}\u{0}{:?}",
            self.roster_toml, self.maps_toml, self.modes_toml, self.terrain_toml
        );
        PARSED.get_or_build(key, || {
            let roster = Source {
                name: if self.roster_toml.is_some() {
                    "roster_toml"
                } else {
                    "data/zinordia/roster.toml"
                },
                text: self
                    .roster_toml
                    .as_deref()
                    .unwrap_or(super::content::REFERENCE_ROSTER),
            };
            let modes = Source {
                name: if self.modes_toml.is_some() {
                    "modes_toml"
                } else {
                    "data/zinordia/modes.toml"
                },
                text: self
                    .modes_toml
                    .as_deref()
                    .unwrap_or(super::content::REFERENCE_MODES),
            };
            let maps: Vec<(&str, Source)> = match &self.maps_toml {
                Some(maps) => maps
                    .iter()
                    .map(|(id, text)| {
                        (
                            id.as_str(),
                            Source {
                                name: "maps_toml",
                                text,
                            },
                        )
                    })
                    .collect(),
                None => super::content::REFERENCE_MAPS
                    .iter()
                    .map(|(id, text)| {
                        (
                            *id,
                            Source {
                                name: "data/zinordia/maps",
                                text,
                            },
                        )
                    })
                    .collect(),
            };
            match &self.terrain_toml {
                None => Content::load(roster, &maps, modes),
                Some(text) => {
                    let terrain = Vocabulary::load(Source {
                        name: "terrain_toml",
                        text,
                    })?;
                    Content::load_with_terrain(roster, &maps, modes, &terrain)
                }
            }
        })
    }
}

/// The second readings of the rules, left out of a saved state at their defaults.
const SECOND_READINGS: [&str; 9] = [
    "unique_stars",
    "lines",
    "durations_tick",
    "split_movement",
    "reaction_order",
    "untimed_buffs",
    "marks_stack",
    "reactions_interrupt",
    "ally_defeat",
];

/// Options as a saved state writes them (`serialize_with`): every option, but the second
/// readings only where they differ from the default.
pub fn serialize_saved<S: Serializer>(
    options: &Options,
    out: S,
) -> std::result::Result<S::Ok, S::Error> {
    use serde::ser::Error as _;
    let mut value = serde_json::to_value(options).map_err(S::Error::custom)?;
    let default = serde_json::to_value(Options::default()).map_err(S::Error::custom)?;
    if let (serde_json::Value::Object(m), serde_json::Value::Object(d)) = (&mut value, &default) {
        for key in SECOND_READINGS {
            if m.get(key) == d.get(key) {
                m.remove(key);
            }
        }
    }
    value.serialize(out)
}
