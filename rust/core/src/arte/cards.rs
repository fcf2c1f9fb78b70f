//! The cards: terrain types (which unit types each favours, and with what value) and unit
//! cards (one to three units), a card set with its ids and labels (`T3`, `U12`), and the
//! scales the heuristic derives from it. The rulebook prints no card list: the content is
//! data (`content`, format in `docs/arte.md`; rules AG-1.2, AG-1.3).

use crate::error::Result;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

pub use super::content::{
    MAX_CARDS, MAX_COPIES, MAX_VALUE, MIN_TERRAIN, MIN_UNITS, REFERENCE_SOURCE, REFERENCE_TOML,
};

/// A card's index in its set: terrain cards first (`0..num_terrain`), then unit cards.
pub type Card = u8;

/// The four unit types, in this fixed order everywhere (arrays, observations, notation).
/// Named in data files by their Portuguese names in lower case.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Deserialize)]
#[serde(try_from = "String")]
pub enum UnitType {
    Cavaleiro = 0,
    Guerreiro = 1,
    Arqueiro = 2,
    Mago = 3,
}

impl UnitType {
    pub const ALL: [UnitType; 4] = [
        UnitType::Cavaleiro,
        UnitType::Guerreiro,
        UnitType::Arqueiro,
        UnitType::Mago,
    ];

    /// The data-file name (Portuguese, lower case).
    pub fn name(self) -> &'static str {
        ["cavaleiro", "guerreiro", "arqueiro", "mago"][self as usize]
    }

    /// One-letter code used in renders: C G A M.
    pub fn letter(self) -> char {
        ['C', 'G', 'A', 'M'][self as usize]
    }

    pub fn from_name(name: &str) -> Option<UnitType> {
        UnitType::ALL.into_iter().find(|t| t.name() == name)
    }

    /// Archers and mages are the ranged units (AG-6.4).
    pub fn is_ranged(self) -> bool {
        matches!(self, UnitType::Arqueiro | UnitType::Mago)
    }
}

impl TryFrom<String> for UnitType {
    type Error = String;
    fn try_from(name: String) -> std::result::Result<UnitType, String> {
        UnitType::from_name(&name).ok_or_else(|| {
            format!(
                "unknown unit type; the types are {}",
                UnitType::ALL.map(UnitType::name).join(", ")
            )
        })
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TerrainCard {
    pub name: String,
    /// Value per unit type (indexed by `UnitType as usize`); 0 = not favoured.
    pub favours: [u8; 4],
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnitCard {
    pub name: Option<String>,
    /// The units as printed, 1 to 3.
    pub units: Vec<UnitType>,
    /// How many units of each type (indexed by `UnitType as usize`).
    pub counts: [u8; 4],
}

impl UnitCard {
    /// Does the card hold only archers and mages (a purely ranged attacker, AG-6.4)?
    pub fn only_ranged(&self) -> bool {
        self.units.iter().all(|u| u.is_ranged())
    }
    /// Does the card hold at least one archer or mage (may defend by AG-6.4)?
    pub fn any_ranged(&self) -> bool {
        self.units.iter().any(|u| u.is_ranged())
    }
    /// The composition as letters, e.g. `CCA`.
    pub fn letters(&self) -> String {
        self.units.iter().map(|u| u.letter()).collect()
    }
}

/// A validated card set, copies expanded: terrain cards get ids `T1..`, unit cards `U1..`.
#[derive(Clone, Debug, PartialEq)]
pub struct CardSet {
    pub terrain: Vec<TerrainCard>,
    pub units: Vec<UnitCard>,
    /// The mean over unit cards, terrain cards and rows of a card's mean attack and defence
    /// score: the scale of the heuristic's card strengths.
    pub mean_strength: f64,
    /// Per terrain card: the mean over unit cards of their strength on its best row, in
    /// units of `mean_strength` (how much a terrain card helps an average card).
    pub terrain_quality: Vec<f64>,
    /// Every unit card's heuristic strength (`combat::strength`) on every row under every
    /// terrain card or none, looked up by `card_strength`.
    strengths: Vec<f64>,
    /// The set as JSON (built once: states and views carry it).
    json: serde_json::Value,
}

impl CardSet {
    /// The embedded reference set, parsed once.
    pub fn reference() -> Arc<CardSet> {
        static REF: OnceLock<Arc<CardSet>> = OnceLock::new();
        #[allow(clippy::expect_used, reason = "the embedded set is tested valid")]
        REF.get_or_init(|| {
            Arc::new(
                CardSet::from_toml(REFERENCE_TOML, REFERENCE_SOURCE)
                    .expect("the embedded reference card set is valid (tested)"),
            )
        })
        .clone()
    }

    /// Read and validate a card set file.
    pub fn load(path: &str) -> Result<CardSet> {
        let text = crate::datafile::read_text(path)?;
        CardSet::from_toml(&text, path)
    }

    /// Parse and validate a card set; `source` names it in error messages.
    pub fn from_toml(text: &str, source: &str) -> Result<CardSet> {
        super::content::parse(text, source)
    }

    /// The set of these cards (copies expanded, at most `MAX_CARDS`), with the heuristic's
    /// scales and the set's JSON.
    pub(super) fn new(terrain: Vec<TerrainCard>, units: Vec<UnitCard>) -> CardSet {
        let mut set = CardSet {
            terrain,
            units,
            mean_strength: 1.0,
            terrain_quality: Vec::new(),
            strengths: Vec::new(),
            json: serde_json::Value::Null,
        };
        // Heuristic scales: a unit card's strength on a row is the mean of its attack and
        // defence scores there.
        let strength = |u: &UnitCard, t: &TerrainCard, row: usize| {
            f64::from(
                super::combat::card_score(u, Some(t), row, true, false)
                    + super::combat::card_score(u, Some(t), row, false, false),
            ) / 2.0
        };
        let mut total = 0.0;
        let mut best = vec![0.0; set.terrain.len()];
        for u in &set.units {
            for (i, t) in set.terrain.iter().enumerate() {
                let rows = [0, 1, 2].map(|r| strength(u, t, r));
                total += rows.iter().sum::<f64>();
                best[i] += rows.iter().copied().fold(0.0, f64::max);
            }
        }
        let cells = (set.units.len() * set.terrain.len() * 3).max(1);
        set.mean_strength = total / cells as f64;
        set.terrain_quality = best
            .iter()
            .map(|b| b / set.units.len().max(1) as f64 / set.mean_strength)
            .collect();
        let mut strengths = Vec::with_capacity(set.units.len() * (set.terrain.len() + 1) * 3);
        for u in &set.units {
            for t in std::iter::once(None).chain((0..set.terrain.len()).map(|t| Some(t as Card))) {
                for r in 0..3 {
                    strengths.push(super::combat::strength(&set, u, t, r));
                }
            }
        }
        set.strengths = strengths;
        set.json = set.build_json();
        set
    }

    /// Unit card `c`'s strength on row `row` (0-based) whose terrain is `terrain`: the same
    /// value as `combat::strength`, from a table built with the set.
    pub fn card_strength(&self, c: Card, terrain: Option<Card>, row: usize) -> f64 {
        let t = terrain
            .filter(|&t| self.is_terrain(t))
            .map_or(0, |t| t as usize + 1);
        let u = c as usize - self.terrain.len();
        self.strengths[(u * (self.terrain.len() + 1) + t) * 3 + row]
    }

    pub fn num_terrain(&self) -> usize {
        self.terrain.len()
    }
    pub fn num_units(&self) -> usize {
        self.units.len()
    }
    /// All cards, terrain and units.
    pub fn len(&self) -> usize {
        self.terrain.len() + self.units.len()
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn is_terrain(&self, c: Card) -> bool {
        (c as usize) < self.terrain.len()
    }
    pub fn is_unit(&self, c: Card) -> bool {
        (self.terrain.len()..self.len()).contains(&(c as usize))
    }
    /// The terrain card `c` (which must be a terrain card).
    pub fn terrain_card(&self, c: Card) -> &TerrainCard {
        &self.terrain[c as usize]
    }
    /// The terrain card a row holds, if any: `slot` is a side's `rows[r]`, a terrain card
    /// or nothing (AG-3.2).
    pub fn row_terrain(&self, slot: Option<Card>) -> Option<&TerrainCard> {
        slot.filter(|&t| self.is_terrain(t))
            .map(|t| self.terrain_card(t))
    }
    /// The unit card `c` (which must be a unit card).
    pub fn unit_card(&self, c: Card) -> &UnitCard {
        &self.units[c as usize - self.terrain.len()]
    }
    /// The global id of the `i`-th unit card.
    pub fn unit_id(&self, i: usize) -> Card {
        (self.terrain.len() + i) as Card
    }

    /// `T3`, `U12`: 1-based within its kind.
    pub fn label(&self, c: Card) -> String {
        if self.is_terrain(c) {
            format!("T{}", c as usize + 1)
        } else {
            format!("U{}", c as usize - self.terrain.len() + 1)
        }
    }

    /// The card a label names, if it exists in this set.
    pub fn parse_label(&self, text: &str) -> Option<Card> {
        let (kind, num) = text.split_at_checked(1)?;
        if num.is_empty() || !num.bytes().all(|b| b.is_ascii_digit()) || num.starts_with('0') {
            return None;
        }
        let n: usize = num.parse().ok()?;
        match kind {
            "T" if (1..=self.terrain.len()).contains(&n) => Some((n - 1) as Card),
            "U" if (1..=self.units.len()).contains(&n) => {
                Some((self.terrain.len() + n - 1) as Card)
            }
            _ => None,
        }
    }

    /// A short description for renders: `T3 Floresta(A3 G2)`, `U12 CCA`.
    pub fn describe(&self, c: Card) -> String {
        if self.is_terrain(c) {
            let t = self.terrain_card(c);
            format!("{} {}({})", self.label(c), t.name, favour_text(&t.favours))
        } else {
            format!("{} {}", self.label(c), self.unit_card(c).letters())
        }
    }

    /// The set as JSON, as states and views carry it (`cards` key; see docs/arte.md).
    pub fn json(&self) -> &serde_json::Value {
        &self.json
    }

    fn build_json(&self) -> serde_json::Value {
        let terrain = self
            .terrain
            .iter()
            .enumerate()
            .map(|(i, t)| TerrainJson {
                id: self.label(i as Card),
                name: t.name.clone(),
                favours: UnitType::ALL
                    .into_iter()
                    .filter(|u| t.favours[*u as usize] > 0)
                    .map(|u| (u.name(), t.favours[u as usize]))
                    .collect(),
            })
            .collect();
        let units = self
            .units
            .iter()
            .enumerate()
            .map(|(i, u)| UnitJson {
                id: self.label(self.unit_id(i)),
                name: u.name.clone(),
                units: u.units.iter().map(|t| t.name()).collect(),
            })
            .collect();
        serde_json::to_value(SetJson { terrain, units }).unwrap_or_default()
    }
}

/// The set's JSON (docs/arte.md, `cards`).

#[derive(Serialize)]
struct SetJson {
    terrain: Vec<TerrainJson>,
    units: Vec<UnitJson>,
}

#[derive(Serialize)]
struct TerrainJson {
    id: String,
    name: String,
    /// The favoured unit types and their values.
    favours: BTreeMap<&'static str, u8>,
}

#[derive(Serialize)]
struct UnitJson {
    id: String,
    name: Option<String>,
    units: Vec<&'static str>,
}

/// `A3 G2`: the favoured types and values (`-` for none).
pub fn favour_text(favours: &[u8; 4]) -> String {
    if favours.iter().all(|&v| v == 0) {
        return "-".into();
    }
    UnitType::ALL
        .iter()
        .filter(|u| favours[**u as usize] > 0)
        .map(|u| format!("{}{}", u.letter(), favours[*u as usize]))
        .collect::<Vec<_>>()
        .join(" ")
}
