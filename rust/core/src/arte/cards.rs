//! Card content as data: terrain types (which unit types each favours, and with what value)
//! and unit cards (one to three units). The rulebook prints no card list, so the content is
//! loaded from TOML (`data/arte/*.toml`, the reference set embedded below) and validated with
//! messages that name the file, the card and the field (rules AG-1.2, AG-1.3; format in
//! `docs/arte.md`).

use crate::error::{Error, Result};
use serde_json::{json, Map, Value};
use std::sync::{Arc, OnceLock};

/// The reference card set: a documented stand-in for the printed cards.
pub const REFERENCE_TOML: &str = include_str!("../../../../data/arte/reference.toml");
/// How the reference set is named in error messages.
pub const REFERENCE_SOURCE: &str = "data/arte/reference.toml";

/// A card's index in its set: terrain cards first (`0..num_terrain`), then unit cards.
pub type Card = u8;

/// Cards a player drafts: 3 terrain drafts and 9 unit drafts of 3 cards each (AG-2.1).
pub const MIN_TERRAIN: usize = 9;
pub const MIN_UNITS: usize = 27;
/// Card ids are one byte.
pub const MAX_CARDS: usize = 250;
/// Highest terrain value a card may give.
pub const MAX_VALUE: i64 = 9;
/// Most copies of one card entry.
pub const MAX_COPIES: i64 = 40;

/// The four unit types, in this fixed order everywhere (arrays, observations, notation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
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

fn type_names() -> String {
    UnitType::ALL.map(UnitType::name).join(", ")
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
    /// The set as JSON (built once: states and views carry it).
    json: Value,
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
        let doc: toml::Table = toml::from_str(text).map_err(|e| {
            Error::data(source, format!("not valid TOML: {}", e.to_string().trim()))
        })?;
        for key in doc.keys() {
            if !matches!(key.as_str(), "terrain" | "unit" | "name" | "description") {
                return Err(Error::data(
                    format!("{source}: {key}"),
                    "unknown top-level key; expected terrain, unit, name, description",
                ));
            }
        }
        for key in ["name", "description"] {
            if let Some(v) = doc.get(key) {
                if !v.is_str() {
                    return Err(Error::data(format!("{source}: {key}"), "expected a string"));
                }
            }
        }
        let mut set = CardSet {
            terrain: Vec::new(),
            units: Vec::new(),
            mean_strength: 1.0,
            terrain_quality: Vec::new(),
            json: Value::Null,
        };
        for (i, entry) in entries(&doc, "terrain", source)?.iter().enumerate() {
            let (card, copies) = terrain_entry(entry, &format!("{source}: terrain[{i}]"))?;
            set.terrain.extend(std::iter::repeat_n(card, copies));
        }
        for (i, entry) in entries(&doc, "unit", source)?.iter().enumerate() {
            let (card, copies) = unit_entry(entry, &format!("{source}: unit[{i}]"))?;
            set.units.extend(std::iter::repeat_n(card, copies));
        }
        if set.terrain.len() < MIN_TERRAIN {
            return Err(Error::data(
                format!("{source}: terrain"),
                format!(
                    "{} terrain cards (copies counted); the draft needs at least {MIN_TERRAIN}",
                    set.terrain.len()
                ),
            ));
        }
        if set.units.len() < MIN_UNITS {
            return Err(Error::data(
                format!("{source}: unit"),
                format!(
                    "{} unit cards (copies counted); the draft needs at least {MIN_UNITS}",
                    set.units.len()
                ),
            ));
        }
        if set.len() > MAX_CARDS {
            return Err(Error::data(
                source,
                format!(
                    "{} cards in all; at most {MAX_CARDS} are supported",
                    set.len()
                ),
            ));
        }
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
        set.mean_strength = total / (set.units.len() * set.terrain.len() * 3) as f64;
        set.terrain_quality = best
            .iter()
            .map(|b| b / set.units.len() as f64 / set.mean_strength)
            .collect();
        set.json = set.build_json();
        Ok(set)
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
    pub fn json(&self) -> &Value {
        &self.json
    }

    fn build_json(&self) -> Value {
        let terrain: Vec<Value> = (0..self.terrain.len())
            .map(|i| {
                let t = &self.terrain[i];
                let mut favours = Map::new();
                for u in UnitType::ALL {
                    if t.favours[u as usize] > 0 {
                        favours.insert(u.name().into(), Value::from(t.favours[u as usize]));
                    }
                }
                json!({"id": self.label(i as Card), "name": t.name, "favours": favours})
            })
            .collect();
        let units: Vec<Value> = (0..self.units.len())
            .map(|i| {
                let u = &self.units[i];
                json!({
                    "id": self.label(self.unit_id(i)),
                    "name": u.name,
                    "units": u.units.iter().map(|t| t.name()).collect::<Vec<_>>(),
                })
            })
            .collect();
        json!({"terrain": terrain, "units": units})
    }
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

fn entries<'a>(doc: &'a toml::Table, key: &str, source: &str) -> Result<&'a [toml::Value]> {
    match doc.get(key) {
        None => Ok(&[]),
        Some(toml::Value::Array(a)) => Ok(a),
        Some(_) => Err(Error::data(
            format!("{source}: {key}"),
            format!("expected an array of tables ([[{key}]] entries)"),
        )),
    }
}

/// The entry's name for messages: `terrain[2] ("Floresta")`.
fn entry_place(place: &str, table: &toml::Table) -> String {
    match table.get("name").and_then(toml::Value::as_str) {
        Some(name) => format!("{place} ({name:?})"),
        None => place.to_string(),
    }
}

fn as_table<'a>(entry: &'a toml::Value, place: &str) -> Result<&'a toml::Table> {
    entry
        .as_table()
        .ok_or_else(|| Error::data(place, "expected a table"))
}

fn check_keys(table: &toml::Table, place: &str, allowed: &[&str]) -> Result<()> {
    for key in table.keys() {
        if !allowed.contains(&key.as_str()) {
            return Err(Error::data(
                format!("{place}.{key}"),
                format!("unknown field; expected one of {}", allowed.join(", ")),
            ));
        }
    }
    Ok(())
}

fn copies(table: &toml::Table, place: &str) -> Result<usize> {
    match table.get("copies") {
        None => Ok(1),
        Some(v) => match v.as_integer() {
            Some(n) if (1..=MAX_COPIES).contains(&n) => Ok(n as usize),
            _ => Err(Error::data(
                format!("{place}.copies"),
                format!("expected an integer from 1 to {MAX_COPIES}, found {v}"),
            )),
        },
    }
}

fn name(table: &toml::Table, place: &str, required: bool) -> Result<Option<String>> {
    match table.get("name") {
        None if required => Err(Error::data(
            format!("{place}.name"),
            "missing: every terrain type needs a name",
        )),
        None => Ok(None),
        Some(v) => match v.as_str() {
            Some(s) if !s.trim().is_empty() && s.chars().count() <= 40 => Ok(Some(s.to_string())),
            _ => Err(Error::data(
                format!("{place}.name"),
                format!("expected a non-empty string of at most 40 characters, found {v}"),
            )),
        },
    }
}

fn terrain_entry(entry: &toml::Value, place: &str) -> Result<(TerrainCard, usize)> {
    let table = as_table(entry, place)?;
    let place = &entry_place(place, table);
    check_keys(table, place, &["name", "favours", "copies"])?;
    let name = name(table, place, true)?.unwrap_or_default();
    let mut favours = [0u8; 4];
    match table.get("favours") {
        None => {
            return Err(Error::data(
                format!("{place}.favours"),
                format!(
                    "missing: a table of unit type = value (types: {})",
                    type_names()
                ),
            ))
        }
        Some(toml::Value::Table(f)) => {
            for (key, v) in f {
                let unit = UnitType::from_name(key).ok_or_else(|| {
                    Error::data(
                        format!("{place}.favours.{key}"),
                        format!("unknown unit type; the types are {}", type_names()),
                    )
                })?;
                let value = v.as_integer().filter(|n| (1..=MAX_VALUE).contains(n));
                favours[unit as usize] = value.ok_or_else(|| {
                    Error::data(
                        format!("{place}.favours.{key}"),
                        format!("expected an integer value from 1 to {MAX_VALUE}, found {v}"),
                    )
                })? as u8;
            }
        }
        Some(v) => {
            return Err(Error::data(
                format!("{place}.favours"),
                format!("expected a table of unit type = value, found {v}"),
            ))
        }
    }
    Ok((TerrainCard { name, favours }, copies(table, place)?))
}

fn unit_entry(entry: &toml::Value, place: &str) -> Result<(UnitCard, usize)> {
    let table = as_table(entry, place)?;
    let place = &entry_place(place, table);
    check_keys(table, place, &["name", "units", "copies"])?;
    let name = name(table, place, false)?;
    let list = match table.get("units") {
        Some(toml::Value::Array(a)) => a,
        Some(v) => {
            return Err(Error::data(
                format!("{place}.units"),
                format!("expected a list of 1 to 3 unit types, found {v}"),
            ))
        }
        None => {
            return Err(Error::data(
                format!("{place}.units"),
                format!("missing: a list of 1 to 3 unit types ({})", type_names()),
            ))
        }
    };
    if !(1..=3).contains(&list.len()) {
        return Err(Error::data(
            format!("{place}.units"),
            format!("a unit card holds 1 to 3 units, found {}", list.len()),
        ));
    }
    let mut units = Vec::with_capacity(list.len());
    let mut counts = [0u8; 4];
    for (j, v) in list.iter().enumerate() {
        let unit = v.as_str().and_then(UnitType::from_name).ok_or_else(|| {
            Error::data(
                format!("{place}.units[{j}]"),
                format!("expected a unit type ({}), found {v}", type_names()),
            )
        })?;
        units.push(unit);
        counts[unit as usize] += 1;
    }
    Ok((
        UnitCard {
            name,
            units,
            counts,
        },
        copies(table, place)?,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    const MINI: &str = r#"
[[terrain]]
name = "Plain"
favours = { cavaleiro = 3 }
copies = 9

[[unit]]
units = ["guerreiro"]
copies = 27
"#;

    fn err(text: &str) -> (String, String) {
        match CardSet::from_toml(text, "x.toml") {
            Err(Error::Data { place, message }) => (place, message),
            other => panic!("expected a data error, got {other:?}"),
        }
    }

    #[test]
    fn reference_set_is_valid_and_labels_round_trip() {
        let set = CardSet::reference();
        assert!(set.num_terrain() >= MIN_TERRAIN && set.num_units() >= MIN_UNITS);
        for c in 0..set.len() as Card {
            assert_eq!(set.parse_label(&set.label(c)), Some(c));
        }
        assert_eq!(set.parse_label("T0"), None);
        assert_eq!(set.parse_label("U01"), None);
        assert_eq!(set.parse_label("X1"), None);
        assert_eq!(set.parse_label(""), None);
        assert_eq!(set.parse_label(&format!("U{}", set.num_units() + 1)), None);
    }

    #[test]
    fn minimal_set_loads_with_copies_expanded() {
        let set = CardSet::from_toml(MINI, "mini").unwrap();
        assert_eq!((set.num_terrain(), set.num_units()), (9, 27));
        assert_eq!(set.terrain_card(0).favours, [3, 0, 0, 0]);
        assert_eq!(set.unit_card(9).counts, [0, 1, 0, 0]);
        assert_eq!(set.label(9), "U1");
    }

    #[test]
    fn data_errors_name_file_card_and_field() {
        let (place, msg) = err("[[terrain]\nname = 1");
        assert_eq!(place, "x.toml");
        assert!(msg.contains("not valid TOML"), "{msg}");

        let (place, msg) = err(&MINI.replace("favours = {", "favors = {"));
        assert_eq!(place, "x.toml: terrain[0] (\"Plain\").favors");
        assert!(msg.contains("unknown field"), "{msg}");

        let (place, msg) = err(&MINI.replace("cavaleiro = 3", "cavaleir = 3"));
        assert_eq!(place, "x.toml: terrain[0] (\"Plain\").favours.cavaleir");
        assert!(msg.contains("unknown unit type"), "{msg}");

        let (place, msg) = err(&MINI.replace("cavaleiro = 3", "cavaleiro = 12"));
        assert_eq!(place, "x.toml: terrain[0] (\"Plain\").favours.cavaleiro");
        assert!(msg.contains("from 1 to 9"), "{msg}");

        let (place, _) = err(&MINI.replace(
            "units = [\"guerreiro\"]",
            "units = [\"guerreiro\", \"elfo\"]",
        ));
        assert_eq!(place, "x.toml: unit[0].units[1]");

        let (place, msg) = err(&MINI.replace("units = [\"guerreiro\"]", "units = []"));
        assert_eq!(place, "x.toml: unit[0].units");
        assert!(msg.contains("1 to 3"), "{msg}");

        let (place, msg) = err(&MINI.replace(
            "units = [\"guerreiro\"]",
            "units = [\"mago\", \"mago\", \"mago\", \"mago\"]",
        ));
        assert_eq!(place, "x.toml: unit[0].units");
        assert!(msg.contains("found 4"), "{msg}");

        let (place, msg) = err(&MINI.replace("copies = 27", "copies = 20"));
        assert_eq!(place, "x.toml: unit");
        assert!(msg.contains("at least 27"), "{msg}");

        let (place, _) = err(&MINI.replace("copies = 9", "copies = 0"));
        assert_eq!(place, "x.toml: terrain[0] (\"Plain\").copies");

        let (place, _) = err(&MINI.replace("name = \"Plain\"", ""));
        assert_eq!(place, "x.toml: terrain[0].name");

        let (place, _) = err(&format!("extra = 1\n{MINI}"));
        assert_eq!(place, "x.toml: extra");

        let (place, _) = err(&format!("{MINI}\n[[unit]]\nname = \"Big\"\nunits = [\"mago\"]\ncopies = 40\n[[unit]]\nunits = [\"mago\"]\ncopies = 40\n[[unit]]\nunits = [\"mago\"]\ncopies = 40\n[[unit]]\nunits = [\"mago\"]\ncopies = 40\n[[unit]]\nunits = [\"mago\"]\ncopies = 40\n[[unit]]\nunits = [\"mago\"]\ncopies = 40"));
        assert_eq!(place, "x.toml");

        let (place, msg) = err("terrain = 3");
        assert_eq!(place, "x.toml: terrain");
        assert!(msg.contains("array of tables"), "{msg}");
    }

    #[test]
    fn missing_file_is_a_data_error() {
        match CardSet::load("/no/such/arte-cards.toml") {
            Err(Error::Data { place, .. }) => assert_eq!(place, "/no/such/arte-cards.toml"),
            other => panic!("{other:?}"),
        }
    }
}
