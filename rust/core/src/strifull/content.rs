//! Card data: factions, brigades, troops and leaders, loaded from TOML and validated
//! (`docs/strifull-cards.md` documents the format). The reference set is embedded from
//! `data/strifull/*.toml`; users load their own with the `cards_file` / `cards_toml` options.

// This module reads user input (saved states, notation, card files): no panicking access.
#![deny(clippy::indexing_slicing, clippy::unwrap_used, clippy::expect_used)]

use super::effects::{Ability, AbilityData, Effect, To, Trigger};
use super::notation::Int;
use super::state::GROWTH_SOURCES;
use crate::datafile::Memo;
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

/// The four elemental stones. Fire beats wind, wind beats earth, earth beats water, water
/// beats fire (SK-6.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Element {
    Fire,
    Water,
    Wind,
    Earth,
}

pub const ELEMENTS: [Element; 4] = [Element::Fire, Element::Water, Element::Wind, Element::Earth];

impl Element {
    pub fn index(self) -> usize {
        self as usize
    }
    pub fn from_index(i: usize) -> Option<Element> {
        ELEMENTS.get(i).copied()
    }
    /// Elemental advantage of `self` over `other`.
    pub fn beats(self, other: Element) -> bool {
        matches!(
            (self, other),
            (Element::Fire, Element::Wind)
                | (Element::Wind, Element::Earth)
                | (Element::Earth, Element::Water)
                | (Element::Water, Element::Fire)
        )
    }
    pub fn name(self) -> &'static str {
        match self {
            Element::Fire => "fire",
            Element::Water => "water",
            Element::Wind => "wind",
            Element::Earth => "earth",
        }
    }
    /// Two-letter tag used by `render`.
    pub fn tag(self) -> &'static str {
        match self {
            Element::Fire => "Fi",
            Element::Water => "Wa",
            Element::Wind => "Wi",
            Element::Earth => "Ea",
        }
    }
    /// English names, plus the Portuguese of the printed cards.
    pub fn parse(s: &str) -> Option<Element> {
        Some(match s {
            "fire" | "fogo" => Element::Fire,
            "water" | "agua" | "água" => Element::Water,
            "wind" | "vento" => Element::Wind,
            "earth" | "terra" => Element::Earth,
            _ => return None,
        })
    }
}

/// Written as its English name; read through [`Element::parse`].
impl Serialize for Element {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for Element {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        Element::parse(&s).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "unknown element {:?}; expected fire, water, wind or earth",
                s.chars().take(40).collect::<String>()
            ))
        })
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct TroopCard {
    pub id: String,
    pub name: String,
    pub faction: usize,
    pub brigade: usize,
    pub element: Element,
    pub atk: i8,
    pub def: i8,
    /// Copies of this card in the faction's box (the deck limit is min(copies, 3)).
    pub copies: u8,
    pub text: String,
    pub abilities: Vec<Ability>,
    /// Effect kinds of the abilities (bits of `Effect::bit`), and of those reaching other
    /// troops: lets the rules skip cards that cannot matter.
    pub kinds: u16,
    pub reach_kinds: u16,
}

#[derive(Clone, Debug, PartialEq)]
pub struct LeaderCard {
    pub id: String,
    pub name: String,
    pub faction: usize,
    pub text: String,
    pub abilities: Vec<Ability>,
    /// Effect kinds of the abilities (bits of `Effect::bit`).
    pub kinds: u16,
}

impl LeaderCard {
    /// The leader's activated ability (at most one per leader), if any.
    pub fn activated(&self) -> Option<&Ability> {
        self.abilities
            .iter()
            .find(|a| a.trigger == Trigger::Activated)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Brigade {
    pub id: String,
    pub name: String,
    pub faction: usize,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Faction {
    pub id: String,
    pub name: String,
    pub banner: String,
    /// Troop indices of the faction, in file order.
    pub troops: Vec<usize>,
    /// Leader indices of the faction, in file order; the first is the default leader.
    pub leaders: Vec<usize>,
    pub brigades: Vec<usize>,
    /// The ready-made beginner's deck: 30 troop indices (repeats for copies).
    pub recommended: Vec<usize>,
}

/// A validated card set.
#[derive(Clone, Debug, PartialEq)]
pub struct CardSet {
    pub factions: Vec<Faction>,
    pub brigades: Vec<Brigade>,
    pub troops: Vec<TroopCard>,
    pub leaders: Vec<LeaderCard>,
}

/// Troops in a deck (SK-1.2).
pub const DECK_SIZE: usize = 30;
/// Copies of one troop a deck may hold (SK-1.2).
pub const MAX_COPIES: u8 = 3;
/// Card indices are stored in a byte; 255 marks an empty cell.
const MAX_CARDS: usize = 250;

/// The reference set's files, embedded at compile time.
pub const REFERENCE_FILES: &[(&str, &str)] = &[
    (
        "inquisicao.toml",
        include_str!("../../../../data/strifull/inquisicao.toml"),
    ),
    (
        "magos.toml",
        include_str!("../../../../data/strifull/magos.toml"),
    ),
];

impl CardSet {
    /// The embedded reference set (parsed once per process).
    pub fn reference() -> Arc<CardSet> {
        static REF: OnceLock<Arc<CardSet>> = OnceLock::new();
        REF.get_or_init(|| {
            Arc::new(
                CardSet::from_sources(REFERENCE_FILES)
                    .unwrap_or_else(|e| panic!("the embedded reference card set is invalid: {e}")),
            )
        })
        .clone()
    }

    /// The set named by the options: a file or directory, inline TOML, or the reference.
    pub fn load(file: Option<&str>, toml_text: Option<&str>) -> Result<Arc<CardSet>> {
        match (file, toml_text) {
            (None, None) => Ok(CardSet::reference()),
            (Some(_), Some(_)) => Err(Error::options(
                "strifull: give cards_file or cards_toml, not both",
            )),
            (None, Some(text)) => {
                crate::datafile::check_size(text, "cards_toml")?;
                cached(format!("toml:{text}"), || {
                    CardSet::from_sources(&[("<cards_toml>", text)])
                })
            }
            (Some(path), None) => {
                let sources = read_path(path)?;
                let key = format!(
                    "file:{path}:{}",
                    sources
                        .iter()
                        .map(|(n, t)| format!("{n}={}", fingerprint(t)))
                        .collect::<Vec<_>>()
                        .join(",")
                );
                cached(key, || {
                    let refs: Vec<(&str, &str)> = sources
                        .iter()
                        .map(|(n, t)| (n.as_str(), t.as_str()))
                        .collect();
                    CardSet::from_sources(&refs)
                })
            }
        }
    }

    /// The TOML text of the set `path` names (a directory's files joined in name order),
    /// checked to read as the same set, so that a game can carry it as `cards_toml`.
    pub fn carried_text(path: &str) -> Result<String> {
        let set = CardSet::load(Some(path), None)?;
        let text = read_path(path)?
            .into_iter()
            .map(|(_, t)| t)
            .collect::<Vec<_>>()
            .join("\n");
        crate::datafile::check_size(&text, "the joined card files")?;
        match CardSet::load(None, Some(&text)) {
            Ok(joined) if *joined == *set => Ok(text),
            _ => Err(Error::data(
                crate::error::clip_to(path, 200),
                "the directory's files do not read as the same set once joined into one text \
                 (which a game carries in its saved states); merge them into one file",
            )),
        }
    }

    /// Parse and validate a set from (file name, TOML text) pairs.
    pub fn from_sources(sources: &[(&str, &str)]) -> Result<CardSet> {
        let mut b = Builder::default();
        for (name, text) in sources {
            b.add_file(name, text)?;
        }
        b.finish()
    }

    /// The whole set as JSON: factions, brigades, troops and leaders, abilities in the
    /// TOML format's terms.
    pub fn to_json(&self) -> serde_json::Value {
        use serde_json::json;
        let ids = |v: &[usize], f: &dyn Fn(usize) -> String| -> Vec<String> {
            v.iter().map(|&i| f(i)).collect()
        };
        let troop_id = |i: usize| id_at(&self.troops, i, |t| &t.id);
        json!({
            "factions": self.factions.iter().map(|f| json!({
                "id": f.id,
                "name": f.name,
                "banner": f.banner,
                "brigades": ids(&f.brigades, &|i| id_at(&self.brigades, i, |b| &b.id)),
                "troops": ids(&f.troops, &troop_id),
                "leaders": ids(&f.leaders, &|i| id_at(&self.leaders, i, |l| &l.id)),
                "recommended": ids(&f.recommended, &troop_id),
            })).collect::<Vec<_>>(),
            "brigades": self.brigades.iter().map(|b| json!({
                "id": b.id,
                "name": b.name,
                "faction": self.faction_id(b.faction),
            })).collect::<Vec<_>>(),
            "troops": self.troops.iter().map(|t| json!({
                "id": t.id,
                "name": t.name,
                "faction": self.faction_id(t.faction),
                "brigade": id_at(&self.brigades, t.brigade, |b| &b.id),
                "element": t.element.name(),
                "atk": t.atk,
                "def": t.def,
                "copies": t.copies,
                "text": t.text,
                "abilities": t.abilities.iter().map(|a| a.to_json(false)).collect::<Vec<_>>(),
            })).collect::<Vec<_>>(),
            "leaders": self.leaders.iter().map(|l| json!({
                "id": l.id,
                "name": l.name,
                "faction": self.faction_id(l.faction),
                "text": l.text,
                "abilities": l.abilities.iter().map(|a| a.to_json(true)).collect::<Vec<_>>(),
            })).collect::<Vec<_>>(),
        })
    }

    /// The id of faction `i` ("" if there is none).
    pub fn faction_id(&self, i: usize) -> String {
        id_at(&self.factions, i, |f| &f.id)
    }
    /// The id of troop `i` ("" if there is none).
    pub fn troop_id(&self, i: usize) -> String {
        id_at(&self.troops, i, |t| &t.id)
    }
    pub fn troop_index(&self, id: &str) -> Option<usize> {
        self.troops.iter().position(|t| t.id == id)
    }
    pub fn leader_index(&self, id: &str) -> Option<usize> {
        self.leaders.iter().position(|t| t.id == id)
    }
    pub fn faction_index(&self, id: &str) -> Option<usize> {
        self.factions.iter().position(|t| t.id == id)
    }

    /// Check a deck (troop indices) against SK-1.2 for `faction`; `what` prefixes messages.
    pub fn check_deck(&self, faction: usize, deck: &[usize]) -> std::result::Result<(), String> {
        if deck.len() != DECK_SIZE {
            return Err(format!(
                "a deck holds {DECK_SIZE} troops, this one {}",
                deck.len()
            ));
        }
        let mut counts = [0u8; MAX_CARDS];
        for &t in deck {
            let card = self
                .troops
                .get(t)
                .ok_or_else(|| format!("troop index {t} out of range"))?;
            if card.faction != faction {
                return Err(format!(
                    "troop {:?} belongs to faction {:?}, not {:?}",
                    card.id,
                    self.faction_id(card.faction),
                    self.faction_id(faction)
                ));
            }
            if let Some(n) = counts.get_mut(t) {
                *n = n.saturating_add(1);
            }
        }
        for (card, &n) in self.troops.iter().zip(counts.iter()) {
            let limit = card.copies.min(MAX_COPIES);
            if n > limit {
                return Err(format!(
                    "{n} copies of troop {:?}; at most {limit} (SK-1.2)",
                    card.id
                ));
            }
        }
        Ok(())
    }
}

fn fingerprint(text: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    text.hash(&mut h);
    h.finish()
}

/// Parsed user sets, so that a batch of games with the same `cards_file` parses it once.
fn cached(key: String, build: impl FnOnce() -> Result<CardSet>) -> Result<Arc<CardSet>> {
    static PARSED: Memo<CardSet> = Memo::new(64);
    PARSED.get_or_build(key, build)
}

/// A `.toml` file, or every `.toml` file of a directory in name order.
fn read_path(path: &str) -> Result<Vec<(String, String)>> {
    let p = std::path::Path::new(path);
    let read = |f: &std::path::Path| -> Result<(String, String)> {
        let text = crate::datafile::read_text(f)?;
        Ok((f.display().to_string(), text.to_string()))
    };
    if p.is_dir() {
        let files = crate::datafile::files_in(p, "toml")?;
        files.iter().map(|f| read(f)).collect()
    } else {
        Ok(vec![read(p)?])
    }
}

// ---- the files' plain data ---------------------------------------------------------------

/// An id: 1-64 of a-z, 0-9, `_` and `-`.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(try_from = "String")]
struct Id(String);

impl TryFrom<String> for Id {
    type Error = String;
    fn try_from(s: String) -> std::result::Result<Self, String> {
        let ok = (1..=64).contains(&s.len())
            && s.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '-');
        if ok {
            Ok(Id(s))
        } else {
            Err(format!(
                "{:?} is not an id: use 1-64 of a-z, 0-9, _ and -",
                s.chars().take(40).collect::<String>()
            ))
        }
    }
}

/// A display name: printable text, not blank, at most [`MAX_NAME`] characters.
#[derive(Clone, Debug, Deserialize)]
#[serde(try_from = "String")]
struct Name(String);

/// Longest card, brigade and faction name, in characters.
const MAX_NAME: usize = 64;

impl TryFrom<String> for Name {
    type Error = String;
    fn try_from(s: String) -> std::result::Result<Self, String> {
        crate::text::check_name(&s, MAX_NAME)?;
        Ok(Name(s))
    }
}

/// One card file: arrays of tables, each decoded on its own so that an error names its
/// card (`docs/strifull-cards.md`).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileData {
    #[serde(default)]
    faction: Vec<toml::Table>,
    #[serde(default)]
    brigade: Vec<toml::Table>,
    #[serde(default)]
    troop: Vec<toml::Table>,
    #[serde(default)]
    leader: Vec<toml::Table>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FactionData {
    id: Id,
    name: Name,
    #[serde(default)]
    banner: String,
    /// The ready-made beginner's deck: 30 troop ids (repeats for copies).
    #[serde(default)]
    recommended: Option<Vec<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BrigadeData {
    id: Id,
    faction: Id,
    name: Name,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TroopData {
    id: Id,
    brigade: Id,
    name: Name,
    element: Element,
    atk: Int<0, 20>,
    def: Int<0, 20>,
    #[serde(default)]
    copies: Option<Int<1, 9>>,
    #[serde(default)]
    text: String,
    #[serde(default)]
    ability: Vec<AbilityData>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LeaderData {
    id: Id,
    faction: Id,
    name: Name,
    #[serde(default)]
    text: String,
    #[serde(default)]
    ability: Vec<AbilityData>,
}

/// Where a decoding error is: `troop "x", ability 1, field "roll"` from the serde path
/// `ability[0].roll`; a missing field is named as the field.
fn place_of(card: &str, path: &serde_path_to_error::Path, msg: &str) -> String {
    use serde_path_to_error::Segment;
    let mut place = card.to_string();
    let mut segments = path.iter().peekable();
    while let Some(seg) = segments.next() {
        match (seg, segments.peek()) {
            (Segment::Map { key }, Some(Segment::Seq { index })) if key == "ability" => {
                place += &format!(", ability {}", index + 1);
                segments.next();
            }
            (Segment::Map { key }, _) => {
                place += &format!(", field {key:?}");
                break;
            }
            _ => {}
        }
    }
    if let Some(field) = missing_field(msg) {
        place += &format!(", field {field:?}");
    }
    place
}

/// A serde path with its keys bounded (`faction[0].name`; an odd key quoted and cut).
fn path_text(path: &serde_path_to_error::Path) -> String {
    use serde_path_to_error::Segment;
    let mut out = String::new();
    for seg in path.iter() {
        match seg {
            Segment::Seq { index } => out += &format!("[{index}]"),
            Segment::Map { key } | Segment::Enum { variant: key } => {
                if !out.is_empty() {
                    out.push('.');
                }
                out += &crate::error::path_key(key);
            }
            Segment::Unknown => out += ".?",
        }
    }
    out
}

/// The field a serde "missing field `x`" message names.
fn missing_field(msg: &str) -> Option<&str> {
    msg.strip_prefix("missing field `")
        .and_then(|r| r.split('`').next())
}

/// Decode one card table; `place` names file and card.
fn decode<T: for<'de> Deserialize<'de>>(table: toml::Table, place: &str) -> Result<T> {
    serde_path_to_error::deserialize(toml::Value::Table(table)).map_err(|e| {
        let msg = e.inner().message().to_string();
        let place = place_of(place, e.path(), &msg);
        Error::data(
            place,
            if missing_field(&msg).is_some() {
                "missing".to_string()
            } else {
                msg
            },
        )
    })
}

/// "file: troop "id"" or "file: troop 3" when the id is missing.
fn card_place(file: &str, kind: &str, index: usize, table: &toml::Table) -> String {
    match table.get("id").and_then(toml::Value::as_str) {
        Some(id) => format!(
            "{file}: {kind} {:?}",
            id.chars().take(64).collect::<String>()
        ),
        None => format!("{file}: {kind} {}", index + 1),
    }
}

/// The abilities of a card, checked (at most one activated: step III uses it once a turn).
fn abilities(data: Vec<AbilityData>, place: &str, leader: bool) -> Result<Vec<Ability>> {
    let out = data
        .into_iter()
        .enumerate()
        .map(|(i, a)| {
            a.into_ability(leader).map_err(|(field, why)| {
                Error::data(format!("{place}, ability {}, field {field:?}", i + 1), why)
            })
        })
        .collect::<Result<Vec<_>>>()?;
    if out
        .iter()
        .filter(|a| a.trigger == Trigger::Activated)
        .count()
        > 1
    {
        return Err(Error::data(
            format!("{place}, field \"ability\""),
            "a leader has at most one activated ability (step III uses it once a turn)",
        ));
    }
    Ok(out)
}

// ---- building and validation ------------------------------------------------------------

/// The cards of every file, decoded, with the file each came from.
#[derive(Default)]
struct Builder {
    factions: Vec<(String, RawFaction)>,
    brigades: Vec<(String, RawBrigade)>,
    troops: Vec<(String, RawTroop)>,
    leaders: Vec<(String, RawLeader)>,
}

struct RawFaction {
    id: String,
    name: String,
    banner: String,
    recommended: Vec<String>,
}
struct RawBrigade {
    id: String,
    faction: String,
    name: String,
}
struct RawTroop {
    id: String,
    brigade: String,
    name: String,
    element: Element,
    atk: i8,
    def: i8,
    copies: u8,
    text: String,
    abilities: Vec<Ability>,
}
struct RawLeader {
    id: String,
    faction: String,
    name: String,
    text: String,
    abilities: Vec<Ability>,
}

impl Builder {
    fn add_file(&mut self, file: &str, text: &str) -> Result<()> {
        let root: toml::Table = text.parse::<toml::Table>().map_err(|e| {
            let line = e.span().map(|s| {
                text.get(..s.start)
                    .map_or(0, |before| before.matches('\n').count())
                    + 1
            });
            Error::data(
                match line {
                    Some(l) => format!("{file}, line {l}"),
                    None => file.to_string(),
                },
                format!("not valid TOML: {}", e.message()),
            )
        })?;
        let data: FileData =
            serde_path_to_error::deserialize(toml::Value::Table(root)).map_err(|e| {
                let place = format!("{file}: {}", path_text(e.path()));
                let msg = e.into_inner().message().to_string();
                if msg.starts_with("unknown field") {
                    Error::data(
                        place,
                        "unknown table; a card file has [[faction]], [[brigade]], [[troop]] \
                         and [[leader]]",
                    )
                } else {
                    Error::data(place, msg)
                }
            })?;
        for (i, t) in data.faction.into_iter().enumerate() {
            let place = card_place(file, "faction", i, &t);
            let f: FactionData = decode(t, &place)?;
            let recommended = f.recommended.ok_or_else(|| {
                Error::data(
                    format!("{place}, field \"recommended\""),
                    "missing: the ready-made beginner's deck, a list of 30 troop ids",
                )
            })?;
            self.factions.push((
                file.to_string(),
                RawFaction {
                    id: f.id.0,
                    name: f.name.0,
                    banner: f.banner,
                    recommended,
                },
            ));
        }
        for (i, t) in data.brigade.into_iter().enumerate() {
            let place = card_place(file, "brigade", i, &t);
            let b: BrigadeData = decode(t, &place)?;
            self.brigades.push((
                file.to_string(),
                RawBrigade {
                    id: b.id.0,
                    faction: b.faction.0,
                    name: b.name.0,
                },
            ));
        }
        for (i, t) in data.troop.into_iter().enumerate() {
            let place = card_place(file, "troop", i, &t);
            let d: TroopData = decode(t, &place)?;
            self.troops.push((
                file.to_string(),
                RawTroop {
                    id: d.id.0,
                    brigade: d.brigade.0,
                    name: d.name.0,
                    element: d.element,
                    atk: d.atk.i8(),
                    def: d.def.i8(),
                    copies: d.copies.map_or(3, Int::u8),
                    text: d.text,
                    abilities: abilities(d.ability, &place, false)?,
                },
            ));
        }
        for (i, t) in data.leader.into_iter().enumerate() {
            let place = card_place(file, "leader", i, &t);
            let d: LeaderData = decode(t, &place)?;
            self.leaders.push((
                file.to_string(),
                RawLeader {
                    id: d.id.0,
                    faction: d.faction.0,
                    name: d.name.0,
                    text: d.text,
                    abilities: abilities(d.ability, &place, true)?,
                },
            ));
        }
        Ok(())
    }

    fn finish(self) -> Result<CardSet> {
        if self.factions.is_empty() {
            return Err(Error::data("card set", "no [[faction]] is defined"));
        }
        fn unique<'a>(
            kind: &str,
            items: impl Iterator<Item = (&'a String, &'a String)>,
        ) -> Result<()> {
            let mut seen: HashMap<&str, &str> = HashMap::new();
            for (file, id) in items {
                if let Some(first) = seen.insert(id, file) {
                    return Err(Error::data(
                        format!("{file}: {kind} {id:?}, field \"id\""),
                        format!("duplicate id (first defined in {first})"),
                    ));
                }
            }
            Ok(())
        }
        unique("faction", self.factions.iter().map(|(f, x)| (f, &x.id)))?;
        unique("brigade", self.brigades.iter().map(|(f, x)| (f, &x.id)))?;
        unique("troop", self.troops.iter().map(|(f, x)| (f, &x.id)))?;
        unique("leader", self.leaders.iter().map(|(f, x)| (f, &x.id)))?;
        if self.troops.len() > MAX_CARDS || self.leaders.len() > MAX_CARDS {
            return Err(Error::data(
                "card set",
                format!("at most {MAX_CARDS} troops and {MAX_CARDS} leaders"),
            ));
        }

        let mut factions: Vec<Faction> = self
            .factions
            .iter()
            .map(|(_, f)| Faction {
                id: f.id.clone(),
                name: f.name.clone(),
                banner: f.banner.clone(),
                troops: Vec::new(),
                leaders: Vec::new(),
                brigades: Vec::new(),
                recommended: Vec::new(),
            })
            .collect();
        let faction_of = |file: &str, kind: &str, id: &str, faction: &str| -> Result<usize> {
            factions_index(&self.factions, faction).ok_or_else(|| {
                Error::data(
                    format!("{file}: {kind} {id:?}, field \"faction\""),
                    format!("unknown faction {faction:?}"),
                )
            })
        };
        let mut brigades = Vec::with_capacity(self.brigades.len());
        for (file, b) in &self.brigades {
            let fi = faction_of(file, "brigade", &b.id, &b.faction)?;
            if let Some(f) = factions.get_mut(fi) {
                f.brigades.push(brigades.len());
            }
            brigades.push(Brigade {
                id: b.id.clone(),
                name: b.name.clone(),
                faction: fi,
            });
        }
        let mut troops = Vec::with_capacity(self.troops.len());
        for (file, t) in &self.troops {
            let bi = brigades
                .iter()
                .position(|b| b.id == t.brigade)
                .ok_or_else(|| {
                    Error::data(
                        format!("{file}: troop {:?}, field \"brigade\"", t.id),
                        format!("unknown brigade {:?}", t.brigade),
                    )
                })?;
            let fi = brigades.get(bi).map_or(0, |b: &Brigade| b.faction);
            if let Some(f) = factions.get_mut(fi) {
                f.troops.push(troops.len());
            }
            let (kinds, reach_kinds) = super::effects::kinds(&t.abilities);
            troops.push(TroopCard {
                id: t.id.clone(),
                name: t.name.clone(),
                faction: fi,
                brigade: bi,
                element: t.element,
                atk: t.atk,
                def: t.def,
                copies: t.copies,
                text: t.text.clone(),
                abilities: t.abilities.clone(),
                kinds,
                reach_kinds,
            });
        }
        let mut leaders = Vec::with_capacity(self.leaders.len());
        for (file, l) in &self.leaders {
            let fi = faction_of(file, "leader", &l.id, &l.faction)?;
            if let Some(f) = factions.get_mut(fi) {
                f.leaders.push(leaders.len());
            }
            leaders.push(LeaderCard {
                id: l.id.clone(),
                name: l.name.clone(),
                faction: fi,
                text: l.text.clone(),
                abilities: l.abilities.clone(),
                kinds: super::effects::kinds(&l.abilities).0,
            });
        }
        for (file, b) in &self.brigades {
            if !troops
                .iter()
                .any(|t| id_at(&brigades, t.brigade, |x| &x.id) == b.id)
            {
                return Err(Error::data(
                    format!("{file}: brigade {:?}", b.id),
                    "has no troop",
                ));
            }
        }
        let mut set = CardSet {
            factions,
            brigades,
            troops,
            leaders,
        };
        check_factions(&mut set, &self.factions)?;
        Ok(set)
    }
}

/// Each faction of a built set has a leader, troops enough for a deck, growth sources that
/// fit, and a legal recommended deck (which this fills in).
fn check_factions(set: &mut CardSet, raw: &[(String, RawFaction)]) -> Result<()> {
    for (fi, (file, raw)) in raw.iter().enumerate() {
        let place = format!("{file}: faction {:?}", raw.id);
        let Some(faction) = set.factions.get(fi) else {
            continue;
        };
        if faction.leaders.is_empty() {
            return Err(Error::data(place, "has no leader"));
        }
        let total: usize = faction
            .troops
            .iter()
            .filter_map(|&t| set.troops.get(t))
            .map(|t| t.copies.min(MAX_COPIES) as usize)
            .sum();
        if total < DECK_SIZE {
            return Err(Error::data(
                place,
                format!("its troops allow only {total} cards in a deck; a deck needs {DECK_SIZE}"),
            ));
        }
        growth_sources(set, faction).map_err(|why| Error::data(place.clone(), why))?;
        let mut deck = Vec::with_capacity(raw.recommended.len());
        for id in &raw.recommended {
            deck.push(set.troop_index(id).ok_or_else(|| {
                Error::data(
                    format!("{place}, field \"recommended\""),
                    format!("unknown troop {id:?}"),
                )
            })?);
        }
        set.check_deck(fi, &deck).map_err(|why| {
            Error::data(
                format!("{place}, field \"recommended\""),
                format!("not a legal deck: {why}"),
            )
        })?;
        if let Some(f) = set.factions.get_mut(fi) {
            f.recommended = deck;
        }
    }
    Ok(())
}

/// SK-9.1: each growth source keeps its own counters on a troop, in a fixed number of slots;
/// check that no troop of `faction` can be reached by more sources than that (its own grow
/// abilities, every other troop's growth for allies, the richest leader's).
fn growth_sources(set: &CardSet, faction: &Faction) -> std::result::Result<(), String> {
    let grows = |abs: &[Ability], to: To| {
        abs.iter()
            .filter(|a| {
                a.trigger == Trigger::TurnStart
                    && a.to == to
                    && matches!(a.effect, Effect::Grow { .. })
            })
            .count()
    };
    let troops = || faction.troops.iter().filter_map(|&t| set.troops.get(t));
    let own = troops()
        .map(|t| grows(&t.abilities, To::Subject))
        .max()
        .unwrap_or(0);
    let allies: usize = troops().map(|t| grows(&t.abilities, To::Allies)).sum();
    let leader = faction
        .leaders
        .iter()
        .filter_map(|&l| set.leaders.get(l))
        .map(|l| grows(&l.abilities, To::Allies))
        .max()
        .unwrap_or(0);
    let total = own + allies + leader;
    if total > GROWTH_SOURCES {
        return Err(format!(
            "up to {total} growth sources could reach one troop (its own, its allies', the \
             leader's); at most {GROWTH_SOURCES} are supported"
        ));
    }
    // A source's ability index must fit beside the leader mark in `Growth::ability`.
    let long = troops()
        .map(|t| t.abilities.len())
        .chain(
            faction
                .leaders
                .iter()
                .filter_map(|&l| set.leaders.get(l))
                .map(|l| l.abilities.len()),
        )
        .max()
        .unwrap_or(0);
    if long > usize::from(super::state::LEADER_SOURCE) {
        return Err("a card has more than 128 abilities".into());
    }
    Ok(())
}

/// The id of item `i` of a card list ("" if out of range: indices come from the set itself).
fn id_at<T>(items: &[T], i: usize, id: impl Fn(&T) -> &String) -> String {
    items.get(i).map(id).cloned().unwrap_or_default()
}

fn factions_index(factions: &[(String, RawFaction)], id: &str) -> Option<usize> {
    factions.iter().position(|(_, f)| f.id == id)
}
